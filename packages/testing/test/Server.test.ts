import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Net from "node:net"
import { gunzipSync } from "node:zlib"
import { Faults, startEmulator } from "../src/index.js"

const fetchText = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const r = await fetch(url, init)
    return { status: r.status, headers: r.headers, body: new Uint8Array(await r.arrayBuffer()) }
  })
const text = (b: Uint8Array) => new TextDecoder().decode(b)

/** The status line the server answers a raw HTTP/1.1 request with ("" when it closes without one). */
const rawStatusLine = (port: number, head: string) =>
  Effect.promise(() =>
    new Promise<string>((resolve) => {
      let answer = ""
      const socket = Net.connect(port, "127.0.0.1", () => socket.end(`${head}\r\nConnection: close\r\n\r\n`))
      socket.on("data", (chunk: Buffer) => answer += chunk.toString("latin1"))
      socket.on("error", () => undefined)
      socket.on("close", () => resolve(answer.split("\r\n")[0] ?? ""))
    })
  )

describe("HTTP server", () => {
  it.effect("a request the URL parser refuses (bad Host, bad target) is answered; the server lives on", () =>
    Effect.scoped(Effect.gen(function*() {
      const emulator = yield* startEmulator({ seed: 1, size: 100 })
      expect(yield* rawStatusLine(emulator.port, "GET /graph/v1/paper/CorpusId:1015?fields=title HTTP/1.1\r\nHost: ["))
        .toBe("HTTP/1.1 200 OK")
      expect(yield* rawStatusLine(emulator.port, "GET http://[/graph/v1/paper/CorpusId:1015 HTTP/1.1\r\nHost: x"))
        .toBe("HTTP/1.1 400 Bad Request")
      const after = yield* fetchText(`${emulator.url}/graph/v1/paper/CorpusId:1015?fields=title`)
      expect(after.status).toBe(200)
    })))

  it.effect("serves the API on 127.0.0.1 with CORS, files on localhost, and closes with its scope", () =>
    Effect.gen(function*() {
      const emulator = yield* startEmulator({ seed: 1, size: 500, releases: { count: 3 } })
      expect(emulator.url).toBe(`http://127.0.0.1:${emulator.port}`)
      expect(emulator.fileUrl).toBe(`http://localhost:${emulator.port}`)
      const paper = yield* fetchText(`${emulator.url}/graph/v1/paper/CorpusId:1015?fields=title,year`)
      expect(paper.status).toBe(200)
      expect(paper.headers.get("access-control-allow-origin")).toBe("*")
      const preflight = yield* fetchText(`${emulator.url}/graph/v1/paper/search`, {
        method: "OPTIONS",
        headers: {
          "origin": "http://localhost:5173",
          "access-control-request-method": "GET",
          "access-control-request-headers": "x-api-key"
        }
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get("access-control-allow-headers")).toContain("x-api-key")
      expect(preflight.headers.get("access-control-expose-headers")).toContain("Retry-After")
      const links = JSON.parse(
        text(
          (yield* fetchText(`${emulator.url}/datasets/v1/release/latest/dataset/tldrs`, {
            headers: { "x-api-key": "k" }
          })).body
        )
      ) as { files: Array<string> }
      const file = links.files[0]!
      expect(new URL(file).host).toBe(`localhost:${emulator.port}`)
      const whole = yield* fetchText(file)
      expect(whole.status).toBe(200)
      expect(gunzipSync(whole.body).toString("utf8").split("\n")[0]).toContain("corpusid")
      const part = yield* fetchText(file, { headers: { range: "bytes=0-9" } })
      expect(part.status).toBe(206)
      expect(part.body).toEqual(whole.body.subarray(0, 10))
      const requests = yield* emulator.requests
      const fileRequests = requests.filter((r) => r.host === `localhost:${emulator.port}`)
      expect(fileRequests.length).toBe(2)
      expect(fileRequests.every((r) => !r.keyPresent)).toBe(true)
      expect(requests.find((r) => r.keyPresent)!.headers["x-api-key"]).toBe("<redacted>")
    }))

  it.effect("bulk pages over HTTP; faults: 503, truncation, reset, hang closed by the scope", () =>
    Effect.gen(function*() {
      const emulator = yield* startEmulator({ size: 2000, bulkSize: 10_000_000 })
      const page = JSON.parse(text((yield* fetchText(`${emulator.url}/graph/v1/paper/search/bulk`)).body)) as {
        total: number
        token: string
        data: Array<unknown>
      }
      expect(page.total).toBe(10_000_000)
      expect(page.data.length).toBe(1000)
      yield* emulator.setFaults({
        script: [
          { requests: 1, fault: Faults.status(503) },
          { requests: 2, fault: Faults.truncate() },
          { requests: 3, fault: Faults.reset },
          { requests: 4, fault: Faults.hang }
        ]
      })
      const url = `${emulator.url}/graph/v1/paper/search?query=learning`
      expect((yield* fetchText(url)).status).toBe(503)
      const cut = yield* fetchText(url)
      expect(cut.status).toBe(200)
      expect(() => JSON.parse(text(cut.body))).toThrow()
      const reset = yield* Effect.tryPromise(() => fetch(url)).pipe(Effect.flip)
      expect(reset).toBeDefined()
      const controller = new AbortController()
      let settled = false
      const hung = fetch(url, { signal: controller.signal }).then(() => "answered", () => "aborted").finally(() => {
        settled = true
      })
      // No sleeping: a later request completes while the hung one is still open.
      yield* Effect.promise(() => new Promise((r) => setImmediate(r)))
      expect((yield* fetchText(url)).status).toBe(200)
      expect(settled).toBe(false)
      expect((yield* emulator.requests).filter((r) => r.outcome === "hang").length).toBe(1)
      controller.abort()
      expect(yield* Effect.promise(() => hung)).toBe("aborted")
    }))

  it.effect("applies the key policy with the wall clock", () =>
    Effect.gen(function*() {
      const emulator = yield* startEmulator({ size: 200, faults: { keyPolicy: { keys: ["good"] } } })
      expect(
        (yield* fetchText(`${emulator.url}/graph/v1/paper/CorpusId:1015`, { headers: { "x-api-key": "bad" } })).status
      ).toBe(403)
      expect(
        (yield* fetchText(`${emulator.url}/graph/v1/paper/CorpusId:1015`, { headers: { "x-api-key": "good" } })).status
      ).toBe(200)
    }))
})
