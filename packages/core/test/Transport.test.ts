import { describe, expect, it } from "@effect/vitest"
import type { Duration } from "effect"
import { Effect, Fiber, Logger, Redacted, Ref, References, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { RetryPolicy, SemanticScholar, withRetry, withStreamOverrides, withTimeout } from "../src/index.js"
import type { Handler } from "./support/Scripted.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const ok = json({ paperId: "a".repeat(40), title: "ok" })
const tooMany = json({ message: "Too Many Requests. Please wait and try again or apply for a key.", code: "429" }, 429)

/** Fails the first `n` requests with `reply`, then answers `ok`. */
const failingFirst = (n: number, reply: ReturnType<typeof json> | "hang" | "reset"): Handler => (_, i) =>
  i < n ? (reply === "hang" ? Effect.never : Effect.succeed(reply)) : Effect.succeed(ok)

const gaps = (times: ReadonlyArray<number>) => times.slice(1).map((t, i) => t - times[i]!)

/** Runs `effect` in a fiber, lets the test clock run far ahead, and returns its exit. */
const runWithClock = <A, E, R>(effect: Effect.Effect<A, E, R>, ahead: Duration.Input = "1 hour") =>
  Effect.gen(function*() {
    const fiber = yield* Effect.forkChild(effect)
    yield* TestClock.adjust(ahead)
    return yield* Fiber.await(fiber)
  })

const getPaper = Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1", { fields: ["title"] }))

describe("retry policy", () => {
  it.effect("retries 429 ten times, waiting 5 s, 10 s, 20 s, 40 s, then 60 s", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(getPaper)
      expect(exit._tag).toBe("Success")
      const seen = yield* requests
      expect(gaps(seen.map((r) => r.at))).toEqual([5, 10, 20, 40, 60, 60, 60, 60, 60, 60].map((s) => s * 1000))
    }).pipe(Effect.provide(testLayer(failingFirst(10, tooMany)))))

  it.effect("gives up after 10 retries with RateLimited", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(Effect.flip(getPaper))
      expect(exit._tag === "Success" && exit.value._tag).toBe("RateLimited")
      expect(yield* requests).toHaveLength(11)
    }).pipe(Effect.provide(testLayer(failingFirst(99, tooMany)))))

  it.effect("waits at least Retry-After, in seconds or as an HTTP date", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(getPaper)
      expect(exit._tag).toBe("Success")
      const seen = yield* requests
      // 30 s asked > 5 s of the 429 budget; a date 90 s after the second attempt > 1 s of the server
      // failure budget; then that budget's second wait, 2 s.
      expect(gaps(seen.map((r) => r.at))).toEqual([30_000, 90_000, 2_000])
    }).pipe(Effect.provide(testLayer((request, i) =>
      Effect.succeed(
        i === 0
          ? json({ message: "slow down" }, 429, { "retry-after": "30" })
          : i === 1
          ? json({ message: "slow down" }, 503, { "retry-after": new Date(request.at + 90_000).toUTCString() })
          : i === 2
          ? json({ message: "Endpoint request timed out" }, 504)
          : ok
      )
    ))))

  it.effect("a Retry-After longer than maxRetryAfter is returned at once, not slept through", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(getPaper)
      expect(error._tag === "RateLimited" && error.retryAfterMillis).toBe(86_400_000)
      expect(yield* requests).toHaveLength(1)
    }).pipe(
      Effect.provide(
        testLayer(failingFirst(9, json({ message: "come back tomorrow" }, 429, { "retry-after": "86400" })))
      )
    ))

  it.effect("with jitter no wait exceeds the cap", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(getPaper, "2 hours")
      expect(exit._tag).toBe("Success")
      const waits = gaps((yield* requests).map((r) => r.at))
      expect(waits).toHaveLength(10)
      // (The test clock sums fractional jittered waits, hence the rounding allowance.)
      for (const wait of waits.slice(4)) expect(wait).toBeLessThanOrEqual(60_000 + 1e-6)
    }).pipe(Effect.provide(testLayer(failingFirst(10, tooMany), { retry: RetryPolicy.make({ jitter: true }) }))))

  for (const status of [500, 502, 503, 504]) {
    it.effect(`retries HTTP ${status}`, () =>
      Effect.gen(function*() {
        const exit = yield* runWithClock(getPaper)
        expect(exit._tag).toBe("Success")
        expect(yield* requests).toHaveLength(3)
      }).pipe(Effect.provide(testLayer(failingFirst(2, json({ message: "boom" }, status))))))
  }

  it.effect("retries a reset connection", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(getPaper)
      expect(exit._tag).toBe("Success")
      expect(yield* requests).toHaveLength(2)
    }).pipe(Effect.provide(testLayer(failingFirst(1, "reset")))))

  for (const status of [400, 403, 404]) {
    it.effect(`does not retry HTTP ${status}`, () =>
      Effect.gen(function*() {
        const exit = yield* runWithClock(Effect.flip(getPaper))
        expect(exit._tag).toBe("Success")
        expect(yield* requests).toHaveLength(1)
      }).pipe(Effect.provide(testLayer(failingFirst(9, json({ error: "no" }, status))))))
  }

  it.effect("retry: false makes one attempt", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(getPaper)
      expect(error._tag).toBe("RateLimited")
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(failingFirst(9, tooMany), { retry: false }))))

  it.effect("a custom policy from RetryPolicy.make is used as given", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(Effect.flip(getPaper))
      expect(exit._tag === "Success" && exit.value._tag).toBe("RateLimited")
      const seen = yield* requests
      expect(gaps(seen.map((r) => r.at))).toEqual([100, 200, 300])
    }).pipe(Effect.provide(testLayer(failingFirst(9, tooMany), {
      retry: RetryPolicy.make({ times: 3, base: "100 millis", cap: "300 millis" })
    }))))

  it.effect("jitter keeps every wait within ±20% of the schedule (property)", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(getPaper)
      expect(exit._tag).toBe("Success")
      const seen = yield* requests
      const nominal = [5, 10, 20, 40, 60, 60].map((s) => s * 1000)
      gaps(seen.map((r) => r.at)).forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual(nominal[i]! * 0.8)
        expect(gap).toBeLessThanOrEqual(nominal[i]! * 1.2)
      })
    }).pipe(Effect.provide(testLayer(failingFirst(6, tooMany), { retry: RetryPolicy.make({ jitter: true }) }))))
})

describe("time-out", () => {
  it.effect("fails with Timeout when no response comes within the time-out of an attempt", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(Effect.flip(getPaper))
      const error = exit._tag === "Success" ? exit.value : undefined
      expect(error?._tag).toBe("Timeout")
      expect(error?._tag === "Timeout" && error.timeoutMillis).toBe(2000)
      expect(error?.message).toContain("within 2s")
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(failingFirst(9, "hang"), { timeout: "2 seconds", retry: false }))))

  it.effect("the default is 30 s per attempt, and a timed-out attempt is retried after 1 s", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(getPaper)
      expect(exit._tag).toBe("Success")
      const seen = yield* requests
      expect(gaps(seen.map((r) => r.at))).toEqual([31_000])
    }).pipe(Effect.provide(testLayer(failingFirst(1, "hang")))))

  it.effect("withTimeout and withRetry override the layer for one call", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(Effect.flip(getPaper.pipe(withTimeout("1 second"), withRetry(false))))
      const error = exit._tag === "Success" ? exit.value : undefined
      expect(error?._tag === "Timeout" && error.timeoutMillis).toBe(1000)
      expect(yield* requests).toHaveLength(1)
      const bad = yield* Effect.flip(withTimeout(getPaper, "-1 seconds"))
      expect(bad.message).toContain("give a positive duration")
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(failingFirst(9, "hang")))))

  it.effect("withStreamOverrides applies to every page of a stream", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const stream = withStreamOverrides(s2.searchPaper("x", { bulk: true }), { retry: false, timeout: "3 seconds" })
      const exit = yield* runWithClock(Effect.flip(Stream.runDrain(stream)))
      const error = exit._tag === "Success" ? exit.value : undefined
      expect(error?._tag === "Timeout" && error.timeoutMillis).toBe(3000)
    }).pipe(Effect.provide(testLayer(failingFirst(9, "hang")))))
})

describe("rate limit", () => {
  const three = Effect.flatMap(
    SemanticScholar,
    (s2) =>
      Effect.forEach(["CorpusId:1", "CorpusId:2", "CorpusId:3"], (id) => s2.getPaper(id, { fields: ["title"] }), {
        concurrency: "unbounded"
      })
  )

  it.effect("paces to one request per second (and a 2% margin) by default when a key is set, across fibers", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(three)
      expect(exit._tag).toBe("Success")
      expect((yield* requests).map((r) => r.at).sort((a, b) => a - b)).toEqual([0, 1020, 2040])
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(ok), { apiKey: Redacted.make("k") }))))

  it.effect("a request queued behind others logs its wait at Warning; the pace itself does not", () =>
    Effect.gen(function*() {
      const { exit, lines } = yield* captureLogs(runWithClock(three))
      expect(exit._tag).toBe("Success")
      // The second waits one interval (the pace), the third two: only the third is queued.
      const waits = lines.filter((line) => line.startsWith("S2 rate limit:"))
      expect(waits).toEqual([
        "S2 rate limit: 1 request per 1 s in this process, with requests ahead of this one; waiting 2 s for its turn"
      ])
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(ok), { apiKey: Redacted.make("k") }))))

  it.effect("is off by default without a key", () =>
    Effect.gen(function*() {
      yield* three
      expect((yield* requests).map((r) => r.at)).toEqual([0, 0, 0])
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(ok)))))

  it.effect("takes a custom pace (with the 2% margin)", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(three)
      expect(exit._tag).toBe("Success")
      expect((yield* requests).map((r) => r.at).sort((a, b) => a - b)).toEqual([0, 0, 510])
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(ok), { rateLimit: { requests: 2, per: "500 millis" } }))))
})

/** Collects every log line at every level. */
const captureLogs = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines = yield* Ref.make<ReadonlyArray<string>>([])
    const logger = Logger.make(({ message }) => {
      const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
      Effect.runSync(Ref.update(lines, (all) => [...all, text]))
    })
    const exit = yield* effect.pipe(
      Effect.exit,
      Effect.provideService(References.CurrentLoggers, new Set([logger])),
      Effect.provideService(References.MinimumLogLevel, "Debug")
    )
    return { exit, lines: yield* Ref.get(lines) }
  })

describe("debug logging", () => {
  it.effect("logs method, URL, headers, payload and a curl command, with the key redacted", () =>
    Effect.gen(function*() {
      const { lines } = yield* captureLogs(
        Effect.flatMap(SemanticScholar, (s2) => s2.getPapers(["CorpusId:1"], { fields: ["title"] }))
      )
      const line = lines.find((l) => l.startsWith("S2 request"))
      expect(line).toContain("S2 request: POST https://api.test/graph/v1/paper/batch?fields=title")
      expect(line).toContain("\"x-api-key\":\"<redacted>\"")
      expect(line).toContain("payload: {\"ids\":[\"CorpusId:1\"]}")
      expect(line).toContain(
        "curl -X POST 'https://api.test/graph/v1/paper/batch?fields=title' -H 'accept: application/json' -H 'x-api-key: <redacted>'"
      )
      expect(line).toContain("-d '{\"ids\":[\"CorpusId:1\"]}'")
      expect(lines.join("\n")).not.toContain("super-secret")
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json([{ paperId: "a".repeat(40) }])), {
      apiKey: Redacted.make("super-secret")
    }))))

  it("never shows the key in a log line or an error, whatever the key and the failure (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 8, maxLength: 40 }).filter((k) => k.trim().length >= 8 && !/[\s'"\\]/.test(k)),
        fc.constantFrom(200, 400, 403, 404, 429, 500),
        async (key, status) => {
          const run = captureLogs(Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1"))).pipe(
            Effect.provide(
              testLayer(() => Effect.succeed(json(status === 200 ? { paperId: "x" } : { error: "e" }, status)), {
                apiKey: Redacted.make(key),
                retry: false
              })
            )
          )
          const { exit, lines } = await Effect.runPromise(run)
          const everything = [...lines, JSON.stringify(exit), String(exit)].join("\n")
          expect(everything.includes(key)).toBe(false)
        }
      ),
      { numRuns: 60 }
    )
  })
})

describe("a 2xx answer that is not JSON", () => {
  it.effect("whole but not JSON (an HTML page): DecodeError notJson at once, naming what the server sent", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(getPaper)
      expect(error._tag === "DecodeError" && error.reason).toBe("notJson")
      expect(error.status).toBe(200)
      expect(error.message).toContain("with a body that is not JSON; it starts: <html><body>Service Unavailable")
      expect(error.message).not.toContain("cut short")
      expect(error.message).not.toContain("html-secret")
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(
      () => Effect.succeed({ status: 200, text: "<html><body>Service Unavailable html-secret</body></html>" }),
      { apiKey: Redacted.make("html-secret") }
    ))))

  it.effect("JSON that breaks off, or an empty body: still a body cut short (retried)", () =>
    Effect.gen(function*() {
      const exit = yield* runWithClock(getPaper)
      expect(exit._tag).toBe("Success")
      expect(yield* requests).toHaveLength(3)
    }).pipe(Effect.provide(testLayer((_, i) =>
      Effect.succeed(i === 0 ? { status: 200, text: "{\"paperId\": \"ab" } : i === 1 ? { status: 200, text: "" } : ok)
    ))))
})
