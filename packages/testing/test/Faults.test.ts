import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Option, Result } from "effect"
import { HttpClient } from "effect/http"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { Emulator, Faults } from "../src/index.js"
import { FaultState } from "../src/internal/faults.js"
import { call, obj } from "./helpers.js"

const paper = "/graph/v1/paper/CorpusId:1015"

describe("faults", () => {
  it.effect("scripted: the 3rd request gets 429 with Retry-After; requests 2..4 to bulk get 503", () =>
    Effect.gen(function*() {
      const statuses: Array<number> = []
      for (let k = 0; k < 4; k++) statuses.push((yield* call("GET", paper)).status)
      expect(statuses).toEqual([200, 200, 429, 200])
      const emulator = yield* Emulator
      const limited = (yield* emulator.requests)[2]!
      expect(limited.outcome).toBe(429)
      yield* emulator.setFaults({
        script: [{ route: "/paper/search/bulk", requests: { from: 2, to: 4 }, fault: Faults.status(503) }]
      })
      const bulk: Array<number> = []
      for (let k = 0; k < 5; k++) {
        bulk.push((yield* call("GET", "/graph/v1/paper/search/bulk?query=x")).status)
        expect((yield* call("GET", paper)).status).toBe(200)
      }
      expect(bulk).toEqual([200, 503, 503, 503, 200])
    }).pipe(
      Effect.provide(
        Emulator.layer({
          size: 300,
          faults: { script: [{ requests: 3, fault: Faults.tooManyRequests({ retryAfter: 7 }) }] }
        })
      )
    ))

  it.effect("status bodies: 429 with and without Retry-After, 500/502/503/504", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator
      for (
        const [fault, status, retryAfter] of [
          [Faults.tooManyRequests({ retryAfter: 3 }), 429, "3"],
          [Faults.tooManyRequests(), 429, undefined],
          [Faults.status(500), 500, undefined],
          [Faults.status(502), 502, undefined],
          [Faults.status(503), 503, undefined],
          [Faults.status(504), 504, undefined]
        ] as const
      ) {
        yield* emulator.setFaults({ script: [{ fault }] })
        const r = yield* call("GET", paper)
        expect(r.status).toBe(status)
        expect(r.headers["retry-after"]).toBe(retryAfter)
        expect(r.text.endsWith("\n")).toBe(true)
        if (status === 504) expect(r.json).toEqual({ message: "Endpoint request timed out" })
        if (status === 429) expect(r.json).toMatchObject({ code: "429" })
      }
    }).pipe(Effect.provide(Emulator.layer({ size: 300 }))))

  it.effect("latency follows the TestClock", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(call("GET", paper))
      yield* TestClock.adjust(Duration.seconds(4))
      expect(Option.isNone(Option.fromUndefinedOr(fiber.pollUnsafe()))).toBe(true)
      yield* TestClock.adjust(Duration.seconds(1))
      const r = yield* Fiber.join(fiber)
      expect(r.status).toBe(200)
    }).pipe(
      Effect.provide(Emulator.layer({ size: 300, faults: { script: [{ fault: Faults.latency("5 seconds") }] } }))
    ))

  it.effect("a hang never answers and is interruptible (time-out via TestClock)", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(call("GET", paper).pipe(Effect.timeout("30 seconds"), Effect.result))
      yield* TestClock.adjust(Duration.hours(1))
      const result = yield* Fiber.join(fiber)
      expect(Result.isFailure(result)).toBe(true)
      const hung = yield* Effect.forkChild(call("GET", paper))
      yield* TestClock.adjust(Duration.hours(1))
      yield* Fiber.interrupt(hung)
      const exit = yield* Fiber.await(hung)
      expect(Exit.hasInterrupts(exit)).toBe(true)
    }).pipe(Effect.provide(Emulator.layer({ size: 300, faults: { script: [{ fault: Faults.hang }] } }))))

  it.effect("truncated body and connection reset", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator
      yield* emulator.setFaults({ script: [{ fault: Faults.truncate() }] })
      const cut = yield* call("GET", "/graph/v1/paper/search?query=learning")
      expect(cut.status).toBe(200)
      expect(() => JSON.parse(cut.text)).toThrow()
      yield* emulator.setFaults({ script: [{ fault: Faults.reset }] })
      const client = yield* HttpClient.HttpClient
      const error = yield* client.get(`https://api.semanticscholar.org${paper}`).pipe(Effect.flip)
      expect(error._tag).toBe("HttpClientError")
      expect(error.reason._tag).toBe("TransportError")
    }).pipe(Effect.provide(Emulator.layer({ size: 300 }))))

  it.effect("cursorLoop and cursorBack: a normal page whose cursor repeats or goes back", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator
      const list = "/graph/v1/paper/search?query=learning&limit=10"
      const bulk = "/graph/v1/paper/search/bulk?query="
      const first = obj((yield* call("GET", bulk)).json)
      const second = obj((yield* call("GET", `${bulk}&token=${String(first.token)}`)).json)
      yield* emulator.setFaults({ script: [{ fault: Faults.cursorLoop }] })
      expect(obj((yield* call("GET", `${list}&offset=20`)).json)).toMatchObject({ offset: 20, next: 20 })
      const looped = obj((yield* call("GET", `${bulk}&token=${String(second.token)}`)).json)
      expect(looped.token).toBe(second.token)
      expect(looped.data).toHaveLength(1000)
      yield* emulator.setFaults({ script: [{ fault: Faults.cursorBack }] })
      expect(obj((yield* call("GET", `${list}&offset=20`)).json)).toMatchObject({ offset: 20, next: 10 })
      expect(obj((yield* call("GET", `${bulk}&token=${String(second.token)}`)).json).token).toBe(first.token)
    }).pipe(Effect.provide(Emulator.layer({ size: 300, bulkSize: 3000 }))))

  it.effect("repeatPage: the first page again whatever was asked, its cursor moving on; total(n) rewrites total", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator
      const list = "/graph/v1/paper/search?query=learning&limit=10"
      const bulk = "/graph/v1/paper/search/bulk?query="
      const first = obj((yield* call("GET", bulk)).json)
      const firstList = obj((yield* call("GET", list)).json)
      yield* emulator.setFaults({ script: [{ fault: Faults.repeatPage }] })
      const again = obj((yield* call("GET", `${list}&offset=20`)).json)
      expect(again).toMatchObject({ offset: 20, next: 30, data: firstList.data })
      // The second page asked for: the first page's records, with the token the second page would have had.
      const repeated = obj((yield* call("GET", `${bulk}&token=${String(first.token)}`)).json)
      expect(repeated.data).toEqual(first.data)
      expect(repeated.token).not.toBe(first.token)
      // Past the end of the search the token is a made-up one, new each time, which the fault answers.
      const made = obj((yield* call("GET", `${bulk}&token=PCREPEAT0`)).json)
      const made2 = obj((yield* call("GET", `${bulk}&token=${String(made.token)}`)).json)
      expect(made.data).toEqual(first.data)
      expect(made2.token).toMatch(/^PCREPEAT\d+$/)
      expect(made2.token).not.toBe(made.token)
      yield* emulator.setFaults({ script: [{ fault: Faults.total(-5) }] })
      expect(obj((yield* call("GET", bulk)).json)).toMatchObject({ total: -5, token: first.token, data: first.data })
      expect(obj((yield* call("GET", "/graph/v1/paper/CorpusId:1015/citations")).json).total).toBe(-5)
      expect(obj((yield* call("GET", paper)).json)).not.toHaveProperty("total")
    }).pipe(Effect.provide(Emulator.layer({ size: 300, bulkSize: 3000 }))))

  it("random faults are deterministic for a seed and respect the rate", () => {
    fc.assert(
      fc.property(fc.integer(), fc.double({ min: 0, max: 1, noNaN: true }), (seed, rate) => {
        const config: Faults.Config = { random: { seed, rate, faults: [Faults.status(500), Faults.reset] } }
        const run = () => {
          const state = new FaultState(config)
          return Array.from({ length: 200 }, () => state.decide("GET", "/graph/v1/paper/x").terminal?._tag ?? "-")
        }
        const a = run()
        expect(run()).toEqual(a)
        const hits = a.filter((x) => x !== "-").length
        if (rate === 0) expect(hits).toBe(0)
        if (rate === 1) expect(hits).toBe(200)
      }),
      { numRuns: 50 }
    )
  })

  it("scripted selectors match exactly the chosen requests", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 10 }), (from, span) => {
      const state = new FaultState({
        script: [{ route: "/paper/search", requests: { from, to: from + span }, fault: Faults.status(503) }]
      })
      const hit: Array<number> = []
      for (let n = 1; n <= 40; n++) {
        expect(state.decide("GET", "/graph/v1/author/1").terminal).toBeUndefined()
        if (state.decide("GET", "/graph/v1/paper/search").terminal !== undefined) hit.push(n)
      }
      expect(hit).toEqual(Array.from({ length: span + 1 }, (_, k) => from + k))
    }))
  })
})

describe("key policy and request recording", () => {
  it.effect("requires a key, rejects a wrong one, rate-limits per key per second, records with the key redacted", () =>
    Effect.gen(function*() {
      expect((yield* call("GET", paper)).status).toBe(403)
      expect((yield* call("GET", paper, { headers: { "x-api-key": "wrong" } })).json).toEqual({ message: "Forbidden" })
      const good = { headers: { "x-api-key": "secret-key" } }
      expect((yield* call("GET", paper, good)).status).toBe(200)
      expect((yield* call("GET", paper, good)).status).toBe(200)
      expect((yield* call("GET", paper, good)).status).toBe(429)
      yield* TestClock.adjust("1 second")
      expect((yield* call("GET", paper, good)).status).toBe(200)
      const requests = yield* (yield* Emulator).requests
      expect(requests.map((r) => [r.keyPresent, r.keyMatched, r.outcome])).toEqual([
        [false, false, 403],
        [true, false, 403],
        [true, true, 200],
        [true, true, 200],
        [true, true, 429],
        [true, true, 200]
      ])
      expect(JSON.stringify(requests)).not.toContain("secret-key")
      expect(requests[2]!.headers["x-api-key"]).toBe("<redacted>")
      expect(requests[2]!.host).toBe("api.semanticscholar.org")
      expect(requests[5]!.at).toBe(1000)
    }).pipe(
      Effect.provide(
        Emulator.layer({ size: 300, faults: { keyPolicy: { required: true, keys: ["secret-key"], ratePerSecond: 2 } } })
      )
    ))

  it.effect("rateLimit option: N per second per key, 429 with Retry-After, kept across setFaults", () =>
    Effect.gen(function*() {
      const a = { headers: { "x-api-key": "key-a" } }
      const b = { headers: { "x-api-key": "key-b" } }
      const statuses = (options: typeof a, n: number) =>
        Effect.forEach(Array.from({ length: n }), () => Effect.map(call("GET", paper, options), (r) => r.status))
      expect(yield* statuses(a, 3)).toEqual([200, 200, 429])
      expect(yield* statuses(b, 2)).toEqual([200, 200])
      const limited = yield* call("GET", paper, a)
      expect([limited.status, limited.headers["retry-after"]]).toEqual([429, "1"])
      yield* TestClock.adjust("1 second")
      yield* (yield* Emulator).setFaults({})
      expect(yield* statuses(a, 3)).toEqual([200, 200, 429])
    }).pipe(Effect.provide(Emulator.layer({ size: 300, rateLimit: 2 }))))
})
