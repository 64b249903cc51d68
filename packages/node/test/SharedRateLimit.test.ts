/**
 * One rate limit shared through a real Redis by worker processes, against the HTTP emulator's
 * per-key limit; and what happens when Redis goes away.
 */
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { serveTcp } from "@s2-effect/test-support"
import type { EmulatorServer } from "@s2-effect/testing"
import { startEmulator } from "@s2-effect/testing"
import { Cause, Clock, Effect, Fiber, Logger, Option, Redacted, References, Schedule } from "effect"
import { buildSync } from "esbuild"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { NodeSemanticScholar } from "../src/index.js"
import { redisServer } from "./support/redis.js"

/** Bundled once to plain JavaScript: loading the sources through tsx costs seconds per process. */
const worker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "s2-limit-worker-")), "worker.mjs")
buildSync({
  entryPoints: [fileURLToPath(new URL("./fixtures/citationsWorker.ts", import.meta.url))],
  outfile: worker,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  banner: {
    js: "import { createRequire as bannerRequire } from 'node:module'; const require = bannerRequire(import.meta.url);"
  }
})

interface Outcome {
  readonly code: number | null
  readonly report: { readonly records: number; readonly rateLimited: number; readonly error?: string }
}

const perSecond = 5
const sharedMillis = 6_000
/** Enough for per-process limiters to overrun the key: four bursts of 5 in the first second. */
const apartMillis = 2_000

/**
 * Starts `count` worker processes; `run` starts them together once every one is ready and collects
 * their reports.
 */
const spawnWorkers = (
  count: number,
  mode: "redis" | "local",
  emulator: EmulatorServer,
  redisUrl: string,
  millis: number
) => {
  const papers = Array.from({ length: 40 }, (_, i) => emulator.corpus.paper(i).paperId).join(",")
  const children = Array.from(
    { length: count },
    () =>
      spawn(process.execPath, [worker, mode, emulator.url, redisUrl, String(millis), papers], {
        env: { ...process.env, S2_API_KEY: `key-of-the-${mode}-team` },
        stdio: ["pipe", "pipe", "inherit"]
      })
  )
  const outputs = children.map((child) => {
    let out = ""
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        if (out.startsWith("ready\n")) resolve()
      })
      // A worker that dies before it is ready (it could not load) fails the test now, not at its time-out.
      child.on("close", (code) => reject(new Error(`a worker exited (${code}) before it was ready: ${out}`)))
    })
    const done = new Promise<Outcome>((resolve) =>
      child.on("close", (code) => {
        const report = out.slice("ready\n".length).trim()
        resolve({
          code,
          report: report === "" ? { records: 0, rateLimited: 0, error: "no report" } : JSON.parse(report)
        })
      })
    )
    return { ready, done }
  })
  return {
    ready: Effect.promise(() => Promise.all(outputs.map((o) => o.ready))),
    run: Effect.promise(() => {
      for (const child of children) child.stdin.end("go\n")
      return Promise.all(outputs.map((o) => o.done))
    })
  }
}

/** The most requests the emulator saw within any one second. */
const busiestSecond = (times: ReadonlyArray<number>) =>
  Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length))

describe("a rate limit shared through Redis", () => {
  it.live(
    "4 workers on one key at 5/s for 6 s: no more than the shared pace allows over the run, every worker served, no 429; per-process limiters get 429s",
    () =>
      Effect.gen(function*() {
        const redis = yield* redisServer
        const [shared, apart] = yield* Effect.all([
          startEmulator({ seed: 1, size: 500, rateLimit: perSecond }),
          startEmulator({ seed: 1, size: 500, rateLimit: perSecond })
        ])
        // Both teams start up now; the second waits, idle, until the first is done.
        const sharedTeam = spawnWorkers(4, "redis", shared, redis.url, sharedMillis)
        const apartTeam = spawnWorkers(4, "local", apart, redis.url, apartMillis)
        yield* Effect.all([sharedTeam.ready, apartTeam.ready])
        const started = yield* Clock.currentTimeMillis
        const sharedRun = yield* sharedTeam.run
        const wall = (yield* Clock.currentTimeMillis) - started
        const apartRun = yield* apartTeam.run

        const sharedSeen = yield* shared.requests
        const apartSeen = yield* apart.requests
        const sharedTimes = sharedSeen.map((r) => r.at)
        console.info(
          `shared limiter: ${sharedSeen.length} requests in ${sharedMillis} ms, busiest second ${
            busiestSecond(sharedTimes)
          }, 429s ${
            sharedSeen.filter((r) => r.outcome === 429).length
          }; per-process limiters: ${apartSeen.length} requests, ${
            apartSeen.filter((r) => r.outcome === 429).length
          } of them 429 in ${apartMillis} ms; wall time of the shared run ${wall} ms; reports ${
            JSON.stringify([...sharedRun, ...apartRun].map((w) => w.report))
          }`
        )
        // A worker that failed says why in its report (its error's tag and message).
        expect(sharedRun.map((w) => w.code), JSON.stringify(sharedRun.map((w) => w.report))).toEqual([0, 0, 0, 0])
        expect(sharedSeen.filter((r) => r.outcome !== 200)).toEqual([])
        // The pace over the whole run, not per second of arrival: on a loaded machine a worker that
        // got its slot can be descheduled and send late, bunching arrivals without any slot being
        // wrong; four per-process limiters would send up to four times this.
        expect(sharedSeen.length).toBeLessThanOrEqual(perSecond * (wall / 1000) + perSecond + 1)
        // Every worker got its turn: none starved by the others.
        expect(sharedRun.map((w) => w.report.records > 0)).toEqual([true, true, true, true])

        expect(apartRun.map((w) => w.code)).toEqual([0, 0, 0, 0])
        expect(apartSeen.filter((r) => r.outcome === 429).length).toBeGreaterThan(0)
        expect(apartRun.reduce((n, w) => n + w.report.rateLimited, 0)).toBeGreaterThan(0)
      }).pipe(Effect.scoped),
    60_000
  )
})

/** Warnings logged while `effect` runs. */
const withWarnings = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (logLevel === "Warn") lines.push(Array.isArray(message) ? message.join(" ") : String(message))
    })
    const exit = yield* effect.pipe(Effect.exit, Effect.provideService(References.CurrentLoggers, new Set([logger])))
    return { exit, lines }
  })

/** Lookups one after another until one fails, with the time Redis was killed and the failure's. */
const lookupsWhileRedisDies = (onStoreError: "fail" | "local", lookups: number) =>
  Effect.gen(function*() {
    const redis = yield* redisServer
    const emulator = yield* startEmulator({ seed: 1, size: 100 })
    const client = NodeSemanticScholar.layer({
      apiUrl: emulator.url,
      apiKey: Redacted.make("one-key"),
      rateLimit: { store: "redis", url: redis.url, key: `dies-${onStoreError}`, perSecond: 10, onStoreError }
    })
    const run = Effect.flatMap(SemanticScholar, (s2) =>
      Effect.forEach(
        Array.from({ length: lookups }, (_, i) => emulator.corpus.paper(i).paperId),
        (id) => s2.getPaper(id, { fields: ["title"] })
      )).pipe(Effect.provide(client))
    const fiber = yield* Effect.forkChild(withWarnings(run))
    // Let a few requests through the shared limiter first.
    const before = yield* emulator.requests.pipe(
      Effect.map((seen) => seen.length),
      Effect.repeat({ until: (n) => n >= 3, schedule: Schedule.spaced("20 millis") })
    )
    yield* redis.kill
    const { exit, lines } = yield* Fiber.join(fiber)
    return { exit, lines, before, sent: (yield* emulator.requests).length }
  }).pipe(Effect.scoped)

describe("when Redis goes away mid-run", () => {
  it.live("the workers fail with RateLimiterUnavailable naming Redis, the rest unsent", () =>
    Effect.gen(function*() {
      const { before, exit, sent } = yield* lookupsWhileRedisDies("fail", 100)
      expect(before).toBeGreaterThanOrEqual(3)
      expect(exit._tag).toBe("Failure")
      const error = exit._tag === "Failure" ? Cause.findErrorOption(exit.cause).pipe(Option.getOrUndefined) : undefined
      expect(error?._tag).toBe("RateLimiterUnavailable")
      expect(error?.message).toMatch(/^the shared rate limit's store \(Redis at redis:\/\/127\.0\.0\.1:\d+\) /)
      expect(sent).toBeLessThan(100)
    }), 60_000)

  it.live("or, with onStoreError: \"local\", go on at their own pace after one warning", () =>
    Effect.gen(function*() {
      const { exit, lines: all, sent } = yield* lookupsWhileRedisDies("local", 20)
      // The other warnings are the waits for the shared slots before Redis went away.
      const lines = all.filter((line) => !line.includes("gave this request the slot"))
      expect(exit._tag).toBe("Success")
      expect(sent).toBe(20)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain("Redis at redis://127.0.0.1:")
      expect(lines[0]).toContain("pacing this process alone at 10/s")
    }), 60_000)
})

describe("when Redis is down as the client starts", () => {
  const lookups = (onStoreError: "fail" | "local") =>
    Effect.gen(function*() {
      const redis = yield* redisServer
      yield* redis.kill
      const emulator = yield* startEmulator({ seed: 1, size: 100 })
      const client = NodeSemanticScholar.layer({
        apiUrl: emulator.url,
        apiKey: Redacted.make("one-key"),
        rateLimit: { store: "redis", url: redis.url, key: `down-${onStoreError}`, perSecond: 10, onStoreError }
      })
      const { exit, lines } = yield* withWarnings(
        Effect.flatMap(SemanticScholar, (s2) =>
          Effect.forEach(
            Array.from({ length: 5 }, (_, i) => emulator.corpus.paper(i).paperId),
            (id) => s2.getPaper(id, { fields: ["title"] })
          )).pipe(Effect.provide(client))
      )
      return { exit, lines, sent: (yield* emulator.requests).length }
    }).pipe(Effect.scoped)

  it.live(
    "the client starts; the first request fails with RateLimiterUnavailable, nothing is sent",
    () =>
      Effect.gen(function*() {
        const { exit, sent } = yield* lookups("fail")
        const error = exit._tag === "Failure"
          ? Cause.findErrorOption(exit.cause).pipe(Option.getOrUndefined)
          : undefined
        expect(error?._tag).toBe("RateLimiterUnavailable")
        expect(error?.message).toMatch(/^the shared rate limit's store \(Redis at redis:\/\/127\.0\.0\.1:\d+\) /)
        expect(sent).toBe(0)
      }),
    60_000
  )

  it.live(
    "or, with onStoreError: \"local\", every request is sent at this process's pace after one warning",
    () =>
      Effect.gen(function*() {
        const { exit, lines, sent } = yield* lookups("local")
        expect(exit._tag).toBe("Success")
        expect(sent).toBe(5)
        expect(lines).toHaveLength(1)
        expect(lines[0]).toContain("pacing this process alone at 10/s")
      }),
    60_000
  )
})

describe("the redis rate-limit option", () => {
  it.effect("refuses a URL that is not redis:// before connecting, without echoing a password", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1")).pipe(
          Effect.provide(
            NodeSemanticScholar.layer({ rateLimit: { store: "redis", url: "http://user:hunter2@127.0.0.1:6379" } })
          )
        )
      )
      expect(error._tag).toBe("InvalidOptions")
      expect(error._tag === "InvalidOptions" && error.option).toBe("rateLimit.url")
      expect(error.message).toContain("give redis://host:port")
      expect(error.message).not.toContain("hunter2")
    }))
})

/** A fake Redis: SCRIPT LOAD gets a sha, EVALSHA gets `evalsha`, anything else `+OK` (or `other`). */
const fakeRedis = (evalsha: string, other = "+OK\r\n") =>
  Effect.acquireRelease(
    Effect.promise(() =>
      serveTcp((chunk) => {
        const text = chunk.toString("latin1")
        if (text.includes("SCRIPT")) return `$40\r\n${"a".repeat(40)}\r\n`
        if (text.includes("EVALSHA")) return evalsha
        // node-redis sends two CLIENT SETINFO commands on connecting, in one chunk.
        return text.includes("SETINFO") && other === "+OK\r\n" ? "+OK\r\n+OK\r\n" : other
      })
    ),
    (server) => Effect.promise(() => server.close())
  )

/** One lookup through a shared limit on `port`: its error, its warnings, and what the API saw. */
const lookupThrough = (port: number) =>
  Effect.gen(function*() {
    const emulator = yield* startEmulator({ seed: 1, size: 20 })
    const { exit, lines } = yield* withWarnings(
      Effect.flatMap(SemanticScholar, (s2) => s2.getPaper(emulator.corpus.paper(0).paperId, { fields: ["title"] }))
        .pipe(
          Effect.provide(NodeSemanticScholar.layer({
            apiUrl: emulator.url,
            apiKey: Redacted.make("one-key"),
            rateLimit: { store: "redis", url: `redis://127.0.0.1:${port}`, key: "fake" }
          }))
        )
    )
    const error = exit._tag === "Failure" ? Cause.findErrorOption(exit.cause).pipe(Option.getOrUndefined) : undefined
    return { error, lines, sent: (yield* emulator.requests).length }
  })

describe("a fake Redis that answers badly", () => {
  it.live(
    "asking for a day's wait: RateLimiterUnavailable naming the wait, not waited for, nothing sent",
    () =>
      Effect.gen(function*() {
        const redis = yield* fakeRedis("*2\r\n:1\r\n:86400000\r\n")
        const { error, sent } = yield* lookupThrough(redis.port)
        expect(error?._tag).toBe("RateLimiterUnavailable")
        expect(error?.message).toContain("asked to wait 1 day, over the 1 minute limit")
        expect(sent).toBe(0)
      }).pipe(Effect.scoped),
    60_000
  )

  const nonsense: ReadonlyArray<readonly [string, string]> = [
    ["an integer", ":5\r\n"],
    ["a status", "+OK\r\n"],
    ["a string and a number", "*2\r\n$3\r\nabc\r\n:5\r\n"],
    ["a negative wait", "*2\r\n:1\r\n:-5000\r\n"],
    ["an empty array", "*0\r\n"],
    ["a nil", "$-1\r\n"]
  ]
  for (const [what, reply] of nonsense) {
    it.live(`answering ${what}: RateLimiterUnavailable (badAnswer), nothing sent`, () =>
      Effect.gen(function*() {
        const redis = yield* fakeRedis(reply)
        const { error, sent } = yield* lookupThrough(redis.port)
        expect(error?._tag).toBe("RateLimiterUnavailable")
        expect(error?._tag === "RateLimiterUnavailable" && error.reason).toBe("badAnswer")
        expect(sent).toBe(0)
      }).pipe(Effect.scoped), 60_000)
  }

  const notRedis: ReadonlyArray<readonly [string, string | "close", string]> = [
    ["garbage", "hello garbage\r\n", "answered something that is not Redis"],
    ["an HTTP answer", "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n", "answered something that is not Redis"],
    ["a closed connection", "close", "failed"]
  ]
  for (const [what, reply, says] of notRedis) {
    it.live(
      `something that is not Redis (${what}): RateLimiterUnavailable, no stray warnings`,
      () =>
        Effect.gen(function*() {
          const redis = yield* Effect.acquireRelease(
            Effect.promise(() => serveTcp(() => reply)),
            (server) => Effect.promise(() => server.close())
          )
          const { error, lines, sent } = yield* lookupThrough(redis.port)
          expect(error?._tag).toBe("RateLimiterUnavailable")
          expect(error?.message).toMatch(/^the shared rate limit's store \(Redis at redis:\/\/127\.0\.0\.1:\d+\) /)
          expect(error?.message).toContain(says)
          expect(lines.filter((line) => line.includes("NodeRedis"))).toEqual([])
          expect(sent).toBe(0)
        }).pipe(Effect.scoped),
      60_000
    )
  }
})
