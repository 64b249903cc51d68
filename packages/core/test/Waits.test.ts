/**
 * The waits channel: each retry and each wait for a turn at the rate limit reaches a provided
 * listener as a typed event (the error and its short cause, the attempt, the wait as a Duration,
 * the request without its query), whatever the log level (TestClock throughout).
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, References, Stream } from "effect"
import { layerStoreMemory } from "effect/persistence/RateLimiter"
import { TestClock } from "effect/testing"
import type { Options, S2Error } from "../src/index.js"
import { SemanticScholar, Waits } from "../src/index.js"
import type { Handler } from "./support/Scripted.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const ok = json({ paperId: "a".repeat(40), title: "ok" })
const getPaper = (id: string) => Effect.flatMap(SemanticScholar, (s2) => s2.getPaper(id, { fields: ["title"] }))

/** Runs `effect` with the logs off and a listener, the clock moved far ahead; the waits heard and when. */
const listening = <A>(effect: Effect.Effect<A, S2Error, SemanticScholar>) =>
  Effect.gen(function*() {
    const heard: Array<{ readonly wait: Waits.Wait; readonly at: number }> = []
    const fiber = yield* effect.pipe(
      Waits.listen((wait) => Effect.map(Clock.currentTimeMillis, (at) => void heard.push({ wait, at }))),
      Effect.provideService(References.MinimumLogLevel, "None"),
      Effect.forkChild
    )
    yield* TestClock.adjust("10 minutes")
    yield* Fiber.join(fiber)
    return heard
  })

const scripted = (replies: ReadonlyArray<ReturnType<typeof json> | "refused">, options: Options = {}) => {
  const handler: Handler = (_, i) => Effect.succeed(replies[i] ?? ok)
  return testLayer(handler, { rateLimit: false, ...options })
}

describe("Waits", () => {
  it.effect("a retry reaches the listener with its error, cause, attempt and wait, before the wait", () =>
    Effect.gen(function*() {
      const heard = yield* listening(getPaper("CorpusId:1"))
      const [first] = yield* requests
      const url = `${first!.url.origin}${first!.url.pathname}`
      expect(first!.url.search).toBe("?fields=title")
      expect(heard.map(({ at, wait }) =>
        wait._tag === "Retry"
          ? [
            at,
            wait.error._tag,
            wait.error.status,
            wait.cause,
            wait.attempt,
            Duration.toMillis(wait.wait),
            wait.method,
            wait.url
          ]
          : wait._tag
      )).toEqual([
        [0, "ServerError", 503, "503", 1, 1000, "GET", url],
        [1000, "TransportError", undefined, "connection refused", 2, 2000, "GET", url],
        [3000, "RateLimited", 429, "429", 3, 7000, "GET", url]
      ])
      for (const { wait } of heard) expect(Duration.isDuration(wait.wait)).toBe(true)
      expect(heard.every(({ wait }) => Waits.Wait.$is("Retry")(wait))).toBe(true)
    }).pipe(Effect.provide(scripted([
      json({ message: "x" }, 503),
      "refused",
      json({ message: "slow down" }, 429, { "retry-after": "7" })
    ]))))

  it.effect("a request waiting behind others at this process's pace reaches the listener", () =>
    Effect.gen(function*() {
      const three = Effect.all(["CorpusId:1", "CorpusId:2", "CorpusId:3"].map(getPaper), { concurrency: 3 })
      const heard = yield* listening(three)
      // The first leaves at once and the second a second later (the pace itself, not reported); the
      // third waits two seconds, behind the second.
      expect(heard.map(({ at, wait }) =>
        wait._tag === "RateLimitWait"
          ? [at, wait.limiter, wait.attempt, Duration.toMillis(wait.wait), wait.method, wait.url.includes("?")]
          : wait._tag
      )).toEqual([[0, "process", 1, 2000, "GET", false]])
    }).pipe(Effect.provide(scripted([], { rateLimit: { requests: 1, per: "1 second" } }))))

  it.effect("a wait for a shared limit's slot reaches the listener", () =>
    Effect.gen(function*() {
      const two = Effect.all(["CorpusId:1", "CorpusId:2"].map(getPaper), { concurrency: 2 })
      const heard = yield* listening(two)
      expect(heard.map(({ wait }) =>
        wait._tag === "RateLimitWait" ? [wait.limiter, wait.attempt, Duration.toMillis(wait.wait)] : wait._tag
      )).toEqual([["shared", 1, 1000]])
    }).pipe(Effect.provide(scripted([], { rateLimit: { store: layerStoreMemory, key: "k", perSecond: 1 } }))))

  it.effect("every caller of a batched lookup hears the retries of its batch call, each listener once", () =>
    Effect.gen(function*() {
      const heard: Record<"a" | "b", Array<string>> = { a: [], b: [] }
      const listener = (who: "a" | "b"): Waits.Listener => (wait) =>
        Effect.sync(() => void heard[who].push(`${wait._tag} ${wait.method} ${wait.url.replace(/^.*\/graph/, "")}`))
      const [a, b] = [listener("a"), listener("b")]
      // Three callers in one window, two of them with the same listener; the first opens the batch.
      const lookups = Effect.all(
        [
          getPaper("CorpusId:1").pipe(Waits.listen(a)),
          getPaper("CorpusId:2").pipe(Waits.listen(b)),
          getPaper("CorpusId:3").pipe(Waits.listen(a))
        ],
        { concurrency: "unbounded" }
      )
      const fiber = yield* lookups.pipe(Effect.provideService(References.MinimumLogLevel, "None"), Effect.forkChild)
      yield* TestClock.adjust("1 minute")
      expect((yield* Fiber.join(fiber)).map((p) => p.title)).toEqual(["CorpusId:1", "CorpusId:2", "CorpusId:3"])
      expect((yield* requests).map((r) => (r.body as { ids: Array<string> }).ids)).toEqual([
        ["CorpusId:1", "CorpusId:2", "CorpusId:3"],
        ["CorpusId:1", "CorpusId:2", "CorpusId:3"]
      ])
      expect(heard).toEqual({ a: ["Retry POST /v1/paper/batch"], b: ["Retry POST /v1/paper/batch"] })
    }).pipe(Effect.provide(testLayer(
      (request, i) =>
        Effect.succeed(
          i === 0
            ? json({ message: "x" }, 503)
            : json((request.body as { ids: Array<string> }).ids.map((id) => ({ paperId: "a".repeat(40), title: id })))
        ),
      { rateLimit: false, batching: true }
    ))))

  it.effect("a listener around a stream hears the retries of its pages", () =>
    Effect.gen(function*() {
      const pages = Stream.unwrap(Effect.map(SemanticScholar, (s2) => s2.searchPaper("graph", { bulk: true })))
      const heard: Array<Waits.Wait> = []
      const fiber = yield* pages.pipe(
        Waits.listen((wait) => Effect.sync(() => void heard.push(wait))),
        Stream.runCollect,
        Effect.forkChild
      )
      yield* TestClock.adjust("1 minute")
      expect(yield* Fiber.join(fiber)).toHaveLength(1)
      expect(heard.map((wait) => wait._tag === "Retry" && [wait.cause, wait.attempt])).toEqual([["503", 1]])
    }).pipe(Effect.provide(scripted([
      json({ message: "x" }, 503),
      json({ total: 1, token: null, data: [{ paperId: "a".repeat(40), title: "graph" }] })
    ]))))
})
