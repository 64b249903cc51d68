/**
 * Automatic batching of lookups against the emulator, counted in its request log: thousands of
 * concurrent lookups become a handful of batch calls, and give the records single calls give.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Options } from "@s2-effect/core"
import { SemanticScholar, withBatching } from "@s2-effect/core"
import { Clock, Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Corpus, Emulator } from "../src/index.js"

const corpus = Corpus.make({ seed: 11, size: 10_000 })
const ids = (n: number) => Array.from({ length: n }, (_, i) => corpus.paper(i).paperId)
const fields = ["title", "year", "externalIds", "citationCount", "authors.name"] as const

const client = (options: Options) =>
  SemanticScholar.layer({ rateLimit: false, ...options }).pipe(Layer.provideMerge(Emulator.layer({ corpus })))

const lookUp = (
  paperIds: ReadonlyArray<string>,
  options: { readonly fields?: ReadonlyArray<string>; readonly concurrency?: number } = {}
) =>
  Effect.flatMap(SemanticScholar, (s2) =>
    Effect.forEach(
      paperIds,
      (id) =>
        Effect.map(
          s2.getPaper(id, options.fields === undefined ? {} : { fields: options.fields as typeof fields }),
          (p) => p.raw
        ),
      { concurrency: options.concurrency ?? "unbounded" }
    ))

/**
 * Runs an effect to its end under TestClock, moving the clock a minute ahead (every sleep due in it
 * fires in order), and says how much clock time the effect took.
 */
const runOut = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = yield* Clock.currentTimeMillis
    const fiber = yield* Effect.forkChild(Effect.zip(effect, Clock.currentTimeMillis))
    yield* TestClock.adjust("1 minute")
    const [value, end] = yield* Fiber.join(fiber)
    return { value, elapsedMillis: end - start }
  })

describe("batching against the emulator", () => {
  it.effect(
    "2,000 concurrent getPaper make at most 5 requests and give the records of 2,000 single calls",
    () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator
        const wanted = ids(2000)
        const { value: batched } = yield* runOut(lookUp(wanted, { fields }).pipe(withBatching(true)))
        const batchCalls = yield* emulator.requests
        expect(batchCalls.length).toBeLessThanOrEqual(5)
        expect(batchCalls.every((r) => r.method === "POST" && r.path === "/graph/v1/paper/batch")).toBe(true)
        yield* emulator.clearRequests
        const single = yield* lookUp(wanted, { fields, concurrency: 50 })
        expect((yield* emulator.requests).length).toBe(2000)
        expect(batched).toEqual(single)
        expect(batched.map((p) => p.paperId)).toEqual(wanted)
      }).pipe(Effect.provide(client({}))),
    60_000
  )

  it.effect("with fields omitted a batched lookup asks for the fields a single lookup asks for", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator
      const wanted = ids(20)
      const { value: batched } = yield* runOut(lookUp(wanted).pipe(withBatching(true)))
      const [batchCall] = yield* emulator.requests
      yield* emulator.clearRequests
      const { value: single } = yield* runOut(lookUp(wanted))
      const [singleCall] = yield* emulator.requests
      const fieldsOf = (r: typeof batchCall) => r?.query.find(([name]) => name === "fields")?.[1]
      expect(fieldsOf(batchCall)).toBe(fieldsOf(singleCall))
      expect(batched).toEqual(single)
    }).pipe(Effect.provide(client({}))))

  it.effect(
    "with a 1 request/s limiter, 10,000 lookups finish in under 30 s of clock time",
    () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator
        const wanted = ids(10_000)
        // 1,000 at a time: the limiter, not the number of waiting fibers, sets the pace, and TestClock
        // (which checks every live fiber at each sleep) stays quick.
        const { elapsedMillis, value } = yield* runOut(lookUp(wanted, { fields: ["title"], concurrency: 1000 }))
        expect(value).toHaveLength(10_000)
        expect(elapsedMillis).toBeLessThan(30_000)
        const calls = yield* emulator.requests
        expect(calls).toHaveLength(20)
        // The limiter held: no two calls in the same second.
        const seconds = calls.map((r) => Math.floor(r.at / 1000))
        expect(new Set(seconds).size).toBe(calls.length)
      }).pipe(Effect.provide(client({ batching: true, rateLimit: { requests: 1, per: "1 second" } }))),
    60_000
  )
})
