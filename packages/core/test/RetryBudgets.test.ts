/**
 * Retries that end and that you can see: each cause of failure has its own budget (counted and
 * timed under TestClock), every retry is one Warning line without the key (and one typed event on
 * the waits channel), and a TransportError says what happened and where.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Logger, Redacted, Ref, References, Result } from "effect"
import { TestClock } from "effect/testing"
import type { S2Error } from "../src/index.js"
import {
  ObjectNotFound,
  RateLimited,
  RetryPolicy,
  SemanticScholar,
  ServerError,
  Timeout,
  TransportError,
  Waits
} from "../src/index.js"
import type { Handler } from "./support/Scripted.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const ok = json({ paperId: "a".repeat(40), title: "ok" })
const getPaper = Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1", { fields: ["title"] }))
const gaps = (times: ReadonlyArray<number>) => times.slice(1).map((t, i) => t - times[i]!)
const key = "retry-secret-key-42"

interface Logged {
  readonly level: string
  readonly text: string
  readonly annotations: Readonly<Record<string, unknown>>
}

/** Runs `effect` with the clock far ahead, capturing its log lines; returns the outcome and the lines. */
const running = <A>(effect: Effect.Effect<A, S2Error, SemanticScholar>, ahead: Duration.Input = "1 hour") =>
  Effect.gen(function*() {
    const lines = yield* Ref.make<ReadonlyArray<Logged>>([])
    const logger = Logger.make(({ fiber, logLevel, message }) => {
      const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
      const annotations = fiber.getRef(References.CurrentLogAnnotations)
      const entry = { level: logLevel.toUpperCase(), text, annotations: { ...annotations } }
      Effect.runSync(Ref.update(lines, (all) => [...all, entry]))
    })
    const reported: Array<Waits.Wait> = []
    const fiber = yield* Effect.forkChild(
      Effect.result(effect).pipe(
        Effect.provideService(References.CurrentLoggers, new Set([logger])),
        Waits.listen((wait) => Effect.sync(() => void reported.push(wait)))
      )
    )
    yield* TestClock.adjust(ahead)
    const outcome = yield* Fiber.join(fiber)
    const seen = yield* requests
    return {
      outcome,
      lines: yield* Ref.get(lines),
      reported,
      waits: gaps(seen.map((r) => r.at)),
      attempts: seen.length
    }
  })

const failing = <A>(effect: Effect.Effect<A, S2Error, SemanticScholar>, ahead?: Duration.Input) =>
  Effect.flatMap(running(effect, ahead), ({ outcome, ...rest }) =>
    Result.match(outcome, {
      onFailure: (error) => Effect.succeed({ error, ...rest }),
      onSuccess: () => Effect.die(new Error("expected a failure"))
    }))

const always = (reply: ReturnType<typeof json> | "reset" | "refused" | "hang"): Handler => () =>
  reply === "hang" ? Effect.never : Effect.succeed(reply)

// The budgets alone: with a key the client also paces itself, and the pace's margin (2%) would
// move a 1 s retry to 1.02 s.
const layer = (handler: Handler) => testLayer(handler, { apiKey: Redacted.make(key), rateLimit: false })

describe("a budget per cause (default policy, TestClock)", () => {
  it.effect("429: 10 retries, 5 s doubling to 60 s", () =>
    Effect.gen(function*() {
      const { attempts, error, waits } = yield* failing(getPaper)
      expect(error._tag).toBe("RateLimited")
      expect(attempts).toBe(11)
      expect(waits).toEqual([5, 10, 20, 40, 60, 60, 60, 60, 60, 60].map((s) => s * 1000))
    }).pipe(Effect.provide(layer(always(json({ message: "Too Many Requests" }, 429))))))

  it.effect("503: 5 retries after 1, 2, 4, 8, 16 s", () =>
    Effect.gen(function*() {
      const { attempts, error, waits } = yield* failing(getPaper)
      expect(error._tag).toBe("ServerError")
      expect(attempts).toBe(6)
      expect(waits).toEqual([1000, 2000, 4000, 8000, 16000])
    }).pipe(Effect.provide(layer(always(json({ message: "Service Unavailable" }, 503))))))

  it.effect("a reset connection counts as a server failure: 5 retries, then a TransportError naming it", () =>
    Effect.gen(function*() {
      const { attempts, error, waits } = yield* failing(getPaper)
      expect(error._tag === "TransportError" && error.reason).toBe("reset")
      expect(error.message).toContain("connection reset by api.test:443")
      expect(attempts).toBe(6)
      expect(waits).toEqual([1000, 2000, 4000, 8000, 16000])
    }).pipe(Effect.provide(layer(always("reset")))))

  it.effect("a refused connection: 2 retries a few seconds apart, over within 20 s, naming host and port", () =>
    Effect.gen(function*() {
      const { attempts, error, waits } = yield* failing(getPaper, "20 seconds")
      expect(error._tag === "TransportError" && error.reason).toBe("refused")
      expect(error.message).toContain("connection refused by api.test:443")
      expect(error.message).not.toContain(key)
      expect(attempts).toBe(3)
      expect(waits).toEqual([2000, 4000])
    }).pipe(Effect.provide(layer(always("refused")))))

  it.effect("a body cut short is a server failure, named as such", () =>
    Effect.gen(function*() {
      const { attempts, error } = yield* failing(getPaper)
      expect(error._tag === "TransportError" && error.reason).toBe("cutShort")
      expect(attempts).toBe(6)
    }).pipe(Effect.provide(layer(always({ status: 200, text: "{\"paperId\": \"ab" })))))

  it.effect("a hung server: Timeout after 3 attempts of 30 s (with 1 s and 2 s between)", () =>
    Effect.gen(function*() {
      const { attempts, error, waits } = yield* failing(getPaper, "93 seconds")
      expect(error._tag).toBe("Timeout")
      expect(attempts).toBe(3)
      expect(waits).toEqual([31_000, 32_000])
    }).pipe(Effect.provide(layer(always("hang")))))

  it.effect("causes are counted apart: two refusals do not use up the budget of a 503", () =>
    Effect.gen(function*() {
      const { attempts, error } = yield* failing(getPaper)
      expect(error._tag).toBe("ServerError")
      expect(attempts).toBe(8) // 2 refusals, then 5 retries of the 503 after its first attempt
    }).pipe(Effect.provide(layer((_, i) => Effect.succeed(i < 2 ? "refused" : json({ message: "x" }, 503))))))
})

describe("RetryPolicy.make: the budgets are configurable", () => {
  it.effect("one cause's budget changes, the others keep the defaults", () =>
    Effect.gen(function*() {
      const { attempts, error } = yield* failing(getPaper)
      expect(error._tag).toBe("TransportError")
      expect(attempts).toBe(1)
    }).pipe(Effect.provide(testLayer(always("refused"), {
      retry: RetryPolicy.make({ budgets: { unreachable: { times: 0 } } })
    }))))

  it.effect("times, base and cap apply to every cause; a budget given per cause wins", () =>
    Effect.gen(function*() {
      const { attempts, waits } = yield* failing(getPaper)
      expect(attempts).toBe(4)
      expect(waits).toEqual([100, 200, 300])
    }).pipe(Effect.provide(testLayer(always(json({ message: "x" }, 503)), {
      retry: RetryPolicy.make({
        times: 3,
        base: "100 millis",
        cap: "300 millis",
        budgets: { rateLimited: { times: 1 } }
      })
    }))))

  it("causeOf sorts errors into the four budgets", () => {
    const where = { message: "m" }
    expect(RetryPolicy.causeOf(new RateLimited(where))).toBe("rateLimited")
    expect(RetryPolicy.causeOf(new ServerError({ ...where, status: 502 }))).toBe("serverFailed")
    expect(RetryPolicy.causeOf(new TransportError({ ...where, reason: "reset" }))).toBe("serverFailed")
    expect(RetryPolicy.causeOf(new TransportError({ ...where, reason: "cutShort" }))).toBe("serverFailed")
    expect(RetryPolicy.causeOf(new TransportError({ ...where, reason: "refused" }))).toBe("unreachable")
    expect(RetryPolicy.causeOf(new TransportError({ ...where, reason: "hostNotFound" }))).toBe("unreachable")
    expect(RetryPolicy.causeOf(new TransportError(where))).toBe("unreachable")
    expect(RetryPolicy.causeOf(new Timeout({ ...where, timeoutMillis: 1 }))).toBe("timeout")
    expect(RetryPolicy.causeOf(new ObjectNotFound(where))).toBeUndefined()
  })
})

describe("every retry is one Warning line", () => {
  it.effect("with the operation, the status or cause, attempt k of n and the wait; never the key", () =>
    Effect.gen(function*() {
      const { lines, outcome, reported } = yield* running(getPaper, "20 seconds")
      expect(Result.isSuccess(outcome)).toBe(true)
      const warnings = lines.filter((l) => l.level === "WARN")
      expect(warnings.map((l) => l.text)).toEqual([
        "S2 GET /graph/v1/paper/CorpusId:1: 503 (server failed), attempt 1 of 6 failed; retrying in 1 s",
        "S2 GET /graph/v1/paper/CorpusId:1: connection refused (nobody there), attempt 1 of 3 failed; retrying in 2 s",
        "S2 GET /graph/v1/paper/CorpusId:1: 429 (rate limited), attempt 1 of 11 failed; retrying in 5 s"
      ])
      // Each line's cause and wait go to the waits channel, typed; the lines carry no annotations for it.
      expect(reported.map((wait) => wait._tag === "Retry" && [wait.cause, Duration.toMillis(wait.wait)])).toEqual([
        ["503", 1000],
        ["connection refused", 2000],
        ["429", 5000]
      ])
      expect(warnings.map((l) => l.annotations)).toEqual([{}, {}, {}])
      expect(JSON.stringify(lines)).not.toContain(key)
    }).pipe(Effect.provide(layer((_, i) =>
      Effect.succeed(
        [json({ message: "x" }, 503), "refused" as const, json({ message: "slow" }, 429)][i] ?? ok
      )
    ))))
})

describe("a deadline for the whole call, retries and waits included (TestClock)", () => {
  const slowDown = (seconds: number) => always(json({ message: "slow down" }, 429, { "retry-after": String(seconds) }))

  it.effect("a wait that would cross the deadline is not begun: Timeout at once, the 429 as cause, a Warning", () =>
    Effect.gen(function*() {
      const { attempts, error, lines } = yield* failing(getPaper, "1 second")
      expect(attempts).toBe(1)
      expect(error._tag === "Timeout" && error.reason).toBe("deadline")
      expect(error._tag === "Timeout" && error.timeoutMillis).toBe(2000)
      const cause = error.cause as S2Error
      expect(cause._tag === "RateLimited" && cause.retryAfterMillis).toBe(1000)
      expect(error.message).toContain("gave up at the deadline of 2 s after 1 attempt: a retry would wait 5 s")
      const warnings = lines.filter((l) => l.level === "WARN").map((l) => l.text)
      expect(warnings).toEqual([
        "S2 GET /graph/v1/paper/CorpusId:1: 429, attempt 1 failed; not retrying in 5 s: the deadline of 2 s would pass (2 s left)"
      ])
      expect(JSON.stringify(lines)).not.toContain(key)
    }).pipe(Effect.provide(testLayer(slowDown(1), { apiKey: Redacted.make(key), deadline: "2 seconds" }))))

  it.effect("Retry-After: 600 every time: the default deadline (15 min) allows one wait, not ten (100 min)", () =>
    Effect.gen(function*() {
      const { attempts, error, waits } = yield* failing(getPaper, "20 minutes")
      expect(error._tag === "Timeout" && error.reason).toBe("deadline")
      expect(error.message).toContain("after 2 attempts")
      expect(attempts).toBe(2)
      expect(waits).toEqual([600_000])
    }).pipe(Effect.provide(layer(slowDown(600)))))

  it.effect("deadline: false keeps every retry of the budget", () =>
    Effect.gen(function*() {
      const { attempts, error } = yield* failing(getPaper, "2 hours")
      expect(error._tag).toBe("RateLimited")
      expect(attempts).toBe(11)
    }).pipe(Effect.provide(testLayer(slowDown(600), { deadline: false }))))

  const atTheDeadline = [
    ["an attempt still running at the deadline is interrupted there, not at its own time-out", {}],
    ["paced (a key), an attempt still running at the deadline is interrupted there too", { apiKey: Redacted.make(key) }]
  ] as const
  for (const [name, paced] of atTheDeadline) {
    it.effect(name, () =>
      Effect.gen(function*() {
        const { attempts, error, lines } = yield* failing(getPaper, "10 seconds")
        expect(error._tag === "Timeout" && error.reason).toBe("deadline")
        expect(error.message).toContain("within the deadline of 10 s")
        expect(attempts).toBe(1)
        expect(lines.filter((l) => l.level === "WARN").map((l) => l.text)).toEqual([
          "S2 GET /graph/v1/paper/CorpusId:1: the deadline of 10 s passed during an attempt; giving up"
        ])
      }).pipe(Effect.provide(testLayer(always("hang"), { ...paced, deadline: "10 seconds" }))))
  }

  it.effect("a later attempt cut at the deadline ends the call there: it is not retried", () =>
    Effect.gen(function*() {
      const { attempts, error, lines, waits } = yield* failing(getPaper, "1 minute")
      expect(error._tag === "Timeout" && error.reason).toBe("deadline")
      expect(error.message).toContain("within the deadline of 4 s")
      expect(attempts).toBe(2)
      expect(waits).toEqual([1000])
      const warnings = lines.filter((l) => l.level === "WARN").map((l) => l.text)
      expect(warnings).toHaveLength(2)
      expect(warnings[1]).toBe(
        "S2 GET /graph/v1/paper/CorpusId:1: the deadline of 4 s passed during an attempt; giving up"
      )
    }).pipe(Effect.provide(testLayer(
      (_, i) => i === 0 ? Effect.succeed(json({ message: "x" }, 503)) : Effect.never,
      { deadline: "4 seconds" }
    ))))

  it.effect("retries that fit within the deadline are made as before", () =>
    Effect.gen(function*() {
      const { outcome, waits } = yield* running(getPaper, "1 minute")
      expect(Result.isSuccess(outcome)).toBe(true)
      expect(waits).toEqual([1000, 2000])
    }).pipe(Effect.provide(testLayer(
      (_, i) => Effect.succeed(i < 2 ? json({ message: "x" }, 503) : ok),
      { deadline: "4 seconds" }
    ))))

  it.effect("a deadline that is no duration is InvalidOptions, before anything is sent", () =>
    Effect.gen(function*() {
      const result = yield* Effect.result(Effect.provide(SemanticScholar, testLayer(always(ok), { deadline: -1 })))
      expect(Result.isFailure(result) && result.failure._tag).toBe("InvalidOptions")
      expect(Result.isFailure(result) && result.failure._tag === "InvalidOptions" && result.failure.option).toBe(
        "deadline"
      )
    }))
})

describe("a Retry-After over maxRetryAfter", () => {
  it.effect("is refused at once with a Warning saying what was asked and the limit, in human units", () =>
    Effect.gen(function*() {
      const { attempts, error, lines } = yield* failing(getPaper)
      expect(error._tag === "RateLimited" && error.retryAfterMillis).toBe(601_000)
      expect(attempts).toBe(1)
      expect(lines.filter((l) => l.level === "WARN").map((l) => l.text)).toEqual([
        "S2 GET https://api.test/graph/v1/paper/CorpusId:1?fields=title: the server asked to wait 10 min 1 s, " +
        "over the 10 minute limit (maxRetryAfter); not retrying"
      ])
    }).pipe(Effect.provide(layer(always(json({ message: "later" }, 429, { "retry-after": "601" }))))))

  it("formatWait: one format for every wait and limit", () => {
    expect(
      [500, 1000, 1500, 45_000, 60_000, 601_000, 3_600_000, 7_500_000, 86_400_000, 315_360_000_000].map((ms) =>
        RetryPolicy.formatWait(ms)
      )
    ).toEqual(["500 ms", "1 s", "1.5 s", "45 s", "1 min", "10 min 1 s", "1 h", "2 h 5 min", "1 day", "3650 days"])
    expect(RetryPolicy.formatWait(600_000, "limit")).toBe("10 minute")
  })
})

describe("an API key a header cannot carry", () => {
  for (
    const [name, bad] of [["a line break", "abc\ndef-secret-42"], ["a non-ASCII character", "abcé-secret-42"], [
      "a control character",
      "abc\u0001def-secret-42"
    ]] as const
  ) {
    it.effect(`with ${name}: InvalidOptions (apiKey) before sending, never showing the key`, () =>
      Effect.gen(function*() {
        const result = yield* Effect.result(Effect.provide(
          SemanticScholar,
          testLayer(always(ok), {
            apiKey: Redacted.make(bad)
          })
        ))
        const error = Result.isFailure(result) ? result.failure : undefined
        expect(error?._tag).toBe("InvalidOptions")
        expect(error?._tag === "InvalidOptions" && error.option).toBe("apiKey")
        expect(error?.message).toContain(`apiKey has ${name} at character 4`)
        expect(error?.message).toContain("printable ASCII")
        expect(JSON.stringify(error)).not.toContain("secret-42")
        expect(String(error)).not.toContain("secret-42")
      }))
  }
})
