import { describe, expect, it } from "@effect/vitest"
import { waitFor } from "@s2-effect/test-support"
import { Effect, Fiber } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { type ChildProcess, spawn } from "node:child_process"
import * as Path from "node:path"
import { Emulator, Faults, requestsPath, type RequestSummary, startEmulator } from "../src/index.js"

const API = "https://api.semanticscholar.org"
const bin = Path.resolve(import.meta.dirname, "../bin/s2-emulator.mjs")

const get = (url: string, init?: RequestInit) => Effect.promise(() => fetch(url, init))
const json = (res: Response) => Effect.promise(() => res.json() as Promise<unknown>)

describe("request counts in memory", () => {
  it.effect("requestCount and requestCounts count by path, and clearRequests starts again", () =>
    Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient
      const emulator = yield* Emulator
      yield* client.get(`${API}/graph/v1/paper/CorpusId:1015?fields=title`)
      yield* client.get(`${API}/graph/v1/paper/CorpusId:1015`)
      yield* client.execute(
        HttpClientRequest.post(`${API}/graph/v1/paper/batch`).pipe(
          HttpClientRequest.bodyJsonUnsafe({ ids: ["CorpusId:1015"] })
        )
      )
      expect(yield* emulator.requestCount).toBe(3)
      expect(yield* emulator.requestCounts).toEqual({
        "/graph/v1/paper/CorpusId:1015": 2,
        "/graph/v1/paper/batch": 1
      })
      yield* emulator.clearRequests
      expect([yield* emulator.requestCount, yield* emulator.requestCounts]).toEqual([0, {}])
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 1000 }))))

  it.effect("the request log is not served in memory: under a real API root it is the API's 404", () =>
    Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient
      const res = yield* client.get(`${API}${requestsPath}`)
      expect(res.status).toBe(404)
      expect(yield* res.json).toEqual({ message: "Not Found" })
      expect(yield* (yield* Emulator).requestCounts).toEqual({ [requestsPath]: 1 })
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 100 }))))
})

describe("the request log over HTTP", () => {
  it.effect("GET answers counts and recent requests (key redacted, itself not counted); DELETE resets", () =>
    Effect.scoped(Effect.gen(function*() {
      const emulator = yield* startEmulator({ seed: 1, size: 100 })
      expect(emulator.requestsUrl).toBe(`${emulator.url}/__emulator/requests`)
      yield* get(`${emulator.url}/graph/v1/paper/CorpusId:1015?fields=title`, { headers: { "x-api-key": "s3cret" } })
      yield* get(`${emulator.url}/graph/v1/nope`)
      const first = yield* get(emulator.requestsUrl)
      expect(first.status).toBe(200)
      expect(first.headers.get("x-s2-emulator")).toBe("admin")
      const text = yield* Effect.promise(() => first.text())
      expect(text).not.toContain("s3cret")
      const summary = JSON.parse(text) as RequestSummary
      expect([summary.count, summary.counts]).toEqual([2, { "/graph/v1/paper/CorpusId:1015": 1, "/graph/v1/nope": 1 }])
      expect(summary.recent.map((r) => [r.method, r.path, r.outcome, r.headers["x-api-key"]])).toEqual([
        ["GET", "/graph/v1/paper/CorpusId:1015", 200, "<redacted>"],
        ["GET", "/graph/v1/nope", 404, undefined]
      ])
      expect(yield* emulator.requestCount).toBe(2)
      const cleared = yield* get(emulator.requestsUrl, { method: "DELETE" })
      expect(cleared.status).toBe(204)
      expect(yield* json(yield* get(emulator.requestsUrl))).toEqual({ count: 0, counts: {}, recent: [] })
    })))

  it.effect("a key sent in the query is redacted in the recorded url and query too, as in the log line", () =>
    Effect.scoped(Effect.gen(function*() {
      const emulator = yield* startEmulator({ seed: 1, size: 100 })
      yield* get(
        `${emulator.url}/graph/v1/paper/CorpusId:1015?fields=title&api_key=s3cret&X-API-KEY=s3cret2&api%5Fkey=s3cret3`
      )
      const text = yield* Effect.promise(() => fetch(emulator.requestsUrl).then((res) => res.text()))
      expect(text).not.toMatch(/s3cret/)
      const [recorded] = yield* emulator.requests
      expect(recorded?.query).toEqual([["fields", "title"], ["api_key", "<redacted>"], ["X-API-KEY", "<redacted>"], [
        "api_key",
        "<redacted>"
      ]])
      expect(recorded?.url).toBe(
        `${emulator.url}/graph/v1/paper/CorpusId:1015?fields=title&api_key=<redacted>&X-API-KEY=<redacted>&api%5Fkey=<redacted>`
      )
    })))

  it.effect("a query holding $& (a replacement pattern) is recorded as sent, the key still redacted", () =>
    Effect.scoped(Effect.gen(function*() {
      const emulator = yield* startEmulator({ seed: 1, size: 100 })
      yield* get(`${emulator.url}/graph/v1/paper/CorpusId:1015?q=$&api_key=s3cret`)
      const [recorded] = yield* emulator.requests
      expect(recorded?.url).toBe(`${emulator.url}/graph/v1/paper/CorpusId:1015?q=$&api_key=<redacted>`)
    })))

  it.effect("other /__emulator paths and methods answer the emulator's own errors, not the API's 404", () =>
    Effect.scoped(Effect.gen(function*() {
      const emulator = yield* startEmulator({ seed: 1, size: 100 })
      const unknown = yield* get(`${emulator.url}/__emulator/request`)
      expect([unknown.status, unknown.headers.get("x-s2-emulator")]).toEqual([404, "admin"])
      expect(yield* json(unknown)).toEqual({
        error: "no emulator endpoint /__emulator/request; the request log is /__emulator/requests"
      })
      const post = yield* get(emulator.requestsUrl, { method: "POST" })
      expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD, DELETE"])
      const api404 = yield* get(`${emulator.url}/graph/v1/__emulator/requests`)
      expect([api404.status, api404.headers.get("x-s2-emulator")]).toEqual([404, null])
      expect(yield* json(api404)).toEqual({ message: "Not Found" })
      expect(yield* emulator.requestCounts).toEqual({ "/graph/v1/__emulator/requests": 1 })
    })))

  it.effect("logRequests: one line per request with its status or outcome, the key never shown", () =>
    Effect.scoped(Effect.gen(function*() {
      const lines: Array<string> = []
      const emulator = yield* startEmulator({
        seed: 1,
        size: 100,
        logRequests: (line) => lines.push(line),
        faults: { script: [{ route: "/paper/CorpusId:7", fault: Faults.reset }] }
      })
      yield* get(`${emulator.url}/graph/v1/paper/CorpusId:1015?fields=title&api_key=s3cret`, {
        headers: { "x-api-key": "hidden" }
      })
      yield* Effect.promise(() => fetch(`${emulator.url}/graph/v1/paper/CorpusId:7`).catch(() => undefined))
      yield* get(`${emulator.url}/graph/v1/paper/%0Aforged 200 1ms`)
      yield* Effect.promise(() => waitFor(() => lines.length >= 3, { what: "a line per request" }))
      expect(lines.join("\n")).not.toMatch(/s3cret|hidden/)
      // Sorted: a reset's line and the client's error race.
      expect(lines.map((line) => line.replace(/ \d+ms$/, " Nms")).sort()).toEqual([
        "s2-emulator: GET /graph/v1/paper/%0Aforged%20200%201ms 404 Nms",
        "s2-emulator: GET /graph/v1/paper/CorpusId:1015?fields=title&api_key=<redacted> 200 Nms",
        "s2-emulator: GET /graph/v1/paper/CorpusId:7 reset Nms"
      ])
    })))

  it.effect("a hanging request is logged as hang when the client gives up", () =>
    Effect.scoped(Effect.gen(function*() {
      const lines: Array<string> = []
      const emulator = yield* startEmulator({
        seed: 1,
        size: 100,
        logRequests: (line) => lines.push(line),
        faults: { script: [{ fault: Faults.hang }] }
      })
      const abort = new AbortController()
      const fiber = yield* Effect.forkChild(
        Effect.promise(() =>
          fetch(`${emulator.url}/graph/v1/paper/CorpusId:1`, { signal: abort.signal }).catch(() => 0)
        )
      )
      yield* Effect.promise(() =>
        waitFor(() => Effect.runPromise(emulator.requests).then((seen) => seen.length === 1), {
          what: "the request to reach the emulator"
        })
      )
      expect(lines).toEqual([])
      abort.abort()
      yield* Fiber.join(fiber)
      yield* Effect.promise(() => waitFor(() => lines.length >= 1, { what: "the hang's line" }))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^s2-emulator: GET \/graph\/v1\/paper\/CorpusId:1 hang \d+ms$/)
    })))
})

/** Starts the bin and waits for its ready line; SIGINT when the scope closes. stderr is collected in `stderr`. */
const spawnBin = (args: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly child: ChildProcess; readonly url: string; readonly stderr: () => string }, Error>(
      (resume) => {
        const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] })
        let out = ""
        let err = ""
        child.stderr.on("data", (chunk: Buffer) => err += chunk.toString())
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString()
          const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
          if (url !== undefined) resume(Effect.succeed({ child, url, stderr: () => err }))
        })
        child.on("close", (code) => resume(Effect.fail(new Error(`s2-emulator exited with ${code}: ${out}${err}`))))
      }
    ),
    ({ child }) =>
      Effect.callback<number | null>((resume) => {
        if (child.exitCode !== null) return resume(Effect.succeed(child.exitCode))
        child.on("close", (code) => resume(Effect.succeed(code)))
        child.kill("SIGINT")
      })
  )

const runBin = (args: ReadonlyArray<string>) =>
  Effect.callback<{ readonly code: number | null; readonly stdout: string }>((resume) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "ignore"] })
    let stdout = ""
    child.stdout.on("data", (chunk: Buffer) => stdout += chunk.toString())
    child.on("close", (code) => resume(Effect.succeed({ code, stdout })))
  })

describe("s2-emulator --log-requests", () => {
  it.effect("logs each request on stderr and serves the request log", () =>
    Effect.scoped(Effect.gen(function*() {
      const emulator = yield* spawnBin(["--port", "0", "--size", "100", "--lazy-index", "--log-requests"])
      yield* get(`${emulator.url}/graph/v1/paper/CorpusId:1015?fields=title&key=s3cret`, {
        headers: { "x-api-key": "hidden" }
      })
      yield* get(`${emulator.url}/graph/v1/paper/batch?fields=year`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ids: ["CorpusId:1015"] })
      })
      const summary = (yield* json(yield* get(`${emulator.url}${requestsPath}`))) as RequestSummary
      expect(summary.counts).toEqual({ "/graph/v1/paper/CorpusId:1015": 1, "/graph/v1/paper/batch": 1 })
      const stderr = yield* Effect.promise(() =>
        waitFor(() => emulator.stderr().trim().split("\n").length >= 3 && emulator.stderr(), { what: "three lines" })
      )
      expect(stderr).not.toMatch(/s3cret|hidden/)
      expect(stderr.trim().split("\n").map((line) => line.replace(/ \d+ms$/, " Nms"))).toEqual([
        "s2-emulator: GET /graph/v1/paper/CorpusId:1015?fields=title&key=<redacted> 200 Nms",
        "s2-emulator: POST /graph/v1/paper/batch?fields=year 200 Nms",
        "s2-emulator: GET /__emulator/requests 200 Nms"
      ])
    })), 120_000)

  it.effect("without the flag, nothing is logged", () =>
    Effect.gen(function*() {
      // Read once the process has ended, so that every line it wrote has arrived.
      const stderr = yield* Effect.scoped(Effect.gen(function*() {
        const emulator = yield* spawnBin(["--port", "0", "--size", "100", "--lazy-index"])
        yield* get(`${emulator.url}/graph/v1/paper/CorpusId:1015`)
        return emulator.stderr
      }))
      expect(stderr()).toBe("")
    }), 120_000)

  it.effect(
    "--help lists --log-requests and the request log; no line is wider than 100 columns",
    () =>
      Effect.gen(function*() {
        const help = yield* runBin(["--help"])
        expect(help.code).toBe(0)
        expect(help.stdout).toContain("--log-requests")
        expect(help.stdout).toContain("/__emulator/requests")
        const widths = help.stdout.split("\n").map((line) => line.length)
        expect(Math.max(...widths)).toBeLessThanOrEqual(100)
      }),
    120_000
  )
})
