import { describe, expect, it } from "@effect/vitest"
import type { Duration } from "effect"
import { Cause, Effect, Fiber, Layer, Logger, Option, Redacted, Ref, References } from "effect"
import {
  layerStoreMemory,
  RateLimiterError,
  RateLimiterStore,
  RateLimitStoreError
} from "effect/persistence/RateLimiter"
import { TestClock } from "effect/testing"
import type { Options, RateLimit } from "../src/index.js"
import { SemanticScholar } from "../src/index.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const ok = () => Effect.succeed(json({ paperId: "a".repeat(40), title: "ok" }))

/** `n` lookups one after another, as one worker would make them. */
const lookups = (n: number) =>
  Effect.flatMap(
    SemanticScholar,
    (s2) =>
      Effect.forEach(Array.from({ length: n }, (_, i) => `CorpusId:${i + 1}`), (id) =>
        s2.getPaper(id, { fields: ["title"] }))
  )

const gaps = (times: ReadonlyArray<number>) => {
  const sorted = [...times].sort((a, b) => a - b)
  return sorted.slice(1).map((t, i) => t - sorted[i]!)
}

/** Two workers, each with its own client layer over one scripted server and one store. */
const twoWorkers = (rateLimit: (store: Layer.Layer<RateLimiterStore>) => Options["rateLimit"]) =>
  Effect.gen(function*() {
    const store = Layer.succeedContext(yield* Layer.build(layerStoreMemory))
    const worker = Effect.provide(
      lookups(10),
      SemanticScholar.layer({ apiUrl: "https://api.test", apiKey: Redacted.make("k"), rateLimit: rateLimit(store) })
    )
    const fiber = yield* Effect.forkChild(Effect.all([worker, worker], { concurrency: 2 }))
    yield* TestClock.adjust("1 minute")
    yield* Fiber.join(fiber)
    return (yield* requests).map((r) => r.at)
  })

/** A store that fails every call, counting them. */
const brokenStore = (calls: Ref.Ref<number>, answer: Effect.Effect<never, RateLimiterError>) =>
  Layer.succeed(
    RateLimiterStore,
    RateLimiterStore.of({
      fixedWindow: () => Effect.andThen(Ref.update(calls, (n) => n + 1), answer),
      tokenBucket: () => Effect.andThen(Ref.update(calls, (n) => n + 1), answer),
      adaptiveConsume: () => Effect.andThen(Ref.update(calls, (n) => n + 1), answer),
      adaptiveFeedback: () => Effect.andThen(Ref.update(calls, (n) => n + 1), answer)
    })
  )

const refused = Effect.fail(
  new RateLimiterError({
    reason: new RateLimitStoreError({
      message: "fixedWindow failed",
      cause: new Error("connect ECONNREFUSED 127.0.0.1:6390")
    })
  })
)

const shared = (store: Layer.Layer<RateLimiterStore>, extra: Partial<RateLimit.Shared> = {}): RateLimit.Shared => ({
  store,
  key: "k",
  perSecond: 5,
  label: "Redis at redis://127.0.0.1:6390",
  ...extra
})

/** Warnings logged while `effect` runs. */
const warnings = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines = yield* Ref.make<ReadonlyArray<string>>([])
    const logger = Logger.make(({ logLevel, message }) => {
      const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
      if (logLevel === "Warn") Effect.runSync(Ref.update(lines, (all) => [...all, text]))
    })
    const exit = yield* effect.pipe(
      Effect.exit,
      Effect.provideService(References.CurrentLoggers, new Set([logger]))
    )
    return { exit, lines: yield* Ref.get(lines) }
  })

describe("shared rate limit", () => {
  it.effect("two workers on one store and key send evenly spaced requests, 5/s together", () =>
    Effect.gen(function*() {
      const times = yield* twoWorkers((store) => shared(store))
      expect(times).toHaveLength(20)
      expect(Math.min(...gaps(times))).toBe(200)
      expect(Math.max(...times) - Math.min(...times)).toBe(19 * 200)
    }).pipe(Effect.provide(testLayer(ok))))

  it.effect("with a limiter per worker instead, they send twice the pace (the check above can fail)", () =>
    Effect.gen(function*() {
      const times = yield* twoWorkers(() => ({ requests: 1, per: "200 millis" }))
      expect(times).toHaveLength(20)
      expect(Math.min(...gaps(times))).toBe(0)
    }).pipe(Effect.provide(testLayer(ok))))

  it.effect("a failing store ends the request with RateLimiterUnavailable, not retried, nothing sent", () =>
    Effect.gen(function*() {
      const calls = yield* Ref.make(0)
      const { error, sent } = yield* Effect.gen(function*() {
        const error = yield* Effect.flip(lookups(1))
        return { error, sent: yield* requests }
      }).pipe(Effect.provide(testLayer(ok, { rateLimit: shared(brokenStore(calls, refused)) })))
      expect(error._tag).toBe("RateLimiterUnavailable")
      expect(error.message).toContain("Redis at redis://127.0.0.1:6390")
      expect(error.message).toContain("ECONNREFUSED")
      expect(yield* Ref.get(calls)).toBe(1)
      expect(sent).toHaveLength(0)
    }))

  it.effect("a store that does not answer fails after storeTimeout", () =>
    Effect.gen(function*() {
      const calls = yield* Ref.make(0)
      const fiber = yield* Effect.forkChild(
        Effect.flip(
          Effect.provide(
            lookups(1),
            testLayer(ok, { rateLimit: shared(brokenStore(calls, Effect.never), { storeTimeout: "3 seconds" }) })
          )
        )
      )
      yield* TestClock.adjust("2999 millis")
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("1 milli")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("RateLimiterUnavailable")
      expect(error.message).toContain("did not answer within 3s")
    }))

  it.effect("onStoreError: \"local\" paces this process alone, warns once, and asks the store again 30 s later", () =>
    Effect.gen(function*() {
      const calls = yield* Ref.make(0)
      const layer = testLayer(ok, { rateLimit: shared(brokenStore(calls, refused), { onStoreError: "local" }) })
      const run = Effect.gen(function*() {
        yield* lookups(10)
        yield* TestClock.adjust("30 seconds")
        yield* lookups(1)
        return (yield* requests).map((r) => r.at)
      }).pipe(Effect.provide(layer))
      const fiber = yield* Effect.forkChild(warnings(run))
      yield* TestClock.adjust("1 minute")
      const { exit, lines } = yield* Fiber.join(fiber)
      expect(exit._tag).toBe("Success")
      const times = exit._tag === "Success" ? exit.value : []
      // 5/s, and the local pace's margin of 2% (SharedLimiter.perProcess).
      expect(gaps(times.slice(0, 10))).toEqual(Array(9).fill(204))
      expect(yield* Ref.get(calls)).toBe(2)
      expect(lines).toHaveLength(2)
      expect(lines[0]).toContain("pacing this process alone at 5/s for 30s")
    }))

  it.effect("refuses a pace that is not a positive number before building anything", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.provide(lookups(1), testLayer(ok, { rateLimit: shared(layerStoreMemory, { perSecond: 0 }) }))
      )
      expect(error._tag).toBe("InvalidOptions")
      expect(error.message).toContain("rateLimit.perSecond 0 is invalid")
    }))
})

/** A store whose fixed window answers `answer` to every request (as a hostile Redis would). */
const answering = (answer: () => unknown) =>
  Layer.succeed(
    RateLimiterStore,
    RateLimiterStore.of({
      fixedWindow: () => Effect.sync(() => answer() as readonly [number, number]),
      tokenBucket: () => Effect.die("unused"),
      adaptiveConsume: () => Effect.die("unused"),
      adaptiveFeedback: () => Effect.die("unused")
    })
  )

/** One lookup through `store`, forked; the clock moved by `advance`; its exit (if it ended), warnings and requests sent. */
const oneLookup = (
  store: Layer.Layer<RateLimiterStore>,
  advance: Duration.Input,
  extra: Partial<RateLimit.Shared> = {}
) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.forkChild(warnings(lookups(1)))
    yield* TestClock.adjust(advance)
    const done = fiber.pollUnsafe()
    const sent = yield* requests
    return { done: done?._tag === "Success" ? done.value : undefined, sent }
  }).pipe(Effect.provide(testLayer(ok, { rateLimit: shared(store, extra) })))

describe("a shared store that answers badly", () => {
  it.effect("a store asking for a day's wait ends the request at once with RateLimiterUnavailable, nothing sent", () =>
    Effect.gen(function*() {
      const { done, sent } = yield* oneLookup(answering(() => [1, 86_400_000]), "1 second")
      expect(done?.exit._tag).toBe("Failure")
      const error = done?.exit._tag === "Failure" ? Cause.findErrorOption(done.exit.cause) : Option.none()
      const found = Option.getOrUndefined(error)
      expect(found?._tag).toBe("RateLimiterUnavailable")
      expect(found?._tag === "RateLimiterUnavailable" && found.reason).toBe("waitTooLong")
      expect(found?.message).toContain("asked to wait 1 day, over the 1 minute limit")
      expect(sent).toHaveLength(0)
    }))

  it.effect("the bound is the maxWait option", () =>
    Effect.gen(function*() {
      const { done, sent } = yield* oneLookup(answering(() => [1, 10_200]), "1 second", { maxWait: "5 seconds" })
      const found = done?.exit._tag === "Failure"
        ? Option.getOrUndefined(Cause.findErrorOption(done.exit.cause))
        : undefined
      expect(found?.message).toContain("asked to wait 10 s, over the 5 second limit")
      expect(sent).toHaveLength(0)
    }))

  it.effect("a wait within the bound is logged at Warning with its cause, then the request goes out", () =>
    Effect.gen(function*() {
      // perSecond 5: a 200 ms window; a ttl of 1500 ms leaves the slot 1300 ms away.
      const { early, late, sent } = yield* Effect.gen(function*() {
        const fiber = yield* Effect.forkChild(warnings(lookups(1)))
        yield* TestClock.adjust("1299 millis")
        const early = fiber.pollUnsafe()
        yield* TestClock.adjust("1 milli")
        const late = yield* Fiber.join(fiber)
        return { early, late, sent: yield* requests }
      }).pipe(Effect.provide(testLayer(ok, { rateLimit: shared(answering(() => [1, 1500])) })))
      expect(early).toBeUndefined()
      expect(late.exit._tag).toBe("Success")
      expect(sent.map((r) => r.at)).toEqual([1300])
      expect(late.lines).toHaveLength(1)
      expect(late.lines[0]).toContain("Redis at redis://127.0.0.1:6390 gave this request the slot in 1.3 s")
    }))

  const nonsense: ReadonlyArray<readonly [string, () => unknown, string]> = [
    ["NaN", () => [Number.NaN, 5], "[\"NaN\",5]"],
    ["a string", () => "OK", "\"OK\""],
    ["strings in the pair", () => ["1", "5"], "[\"1\",\"5\"]"],
    ["one element", () => [1], "[1]"],
    ["three elements", () => [1, 2, 3], "[1,2,3]"],
    ["a negative wait", () => [1, -5000], "[1,-5000]"],
    ["a count of zero", () => [0, 100], "[0,100]"],
    ["a number", () => 7, "7"],
    ["null", () => null, "null"],
    ["a huge string", () => "x".repeat(100_000), "\"xxxx"],
    ["a throw", () => {
      throw new TypeError("number 5 is not iterable")
    }, "number 5 is not iterable"]
  ]
  for (const [what, answer, shown] of nonsense) {
    it.effect(`a store answering ${what} ends the request with RateLimiterUnavailable (badAnswer), nothing sent`, () =>
      Effect.gen(function*() {
        const { done, sent } = yield* oneLookup(answering(answer), "1 second")
        const found = done?.exit._tag === "Failure"
          ? Option.getOrUndefined(Cause.findErrorOption(done.exit.cause))
          : undefined
        expect(found?._tag).toBe("RateLimiterUnavailable")
        expect(found?._tag === "RateLimiterUnavailable" && found.reason).toBe("badAnswer")
        expect(found?.message).toContain(shown)
        expect(found?.message.length).toBeLessThan(300)
        expect(sent).toHaveLength(0)
      }))
  }
})
