import { describe, expect, it } from "@effect/vitest"
import { Effect, Equal, Result } from "effect"
import { Emulator, Faults } from "../src/index.js"
import { call } from "./helpers.js"

const paper = "/graph/v1/paper/CorpusId:1015"

const parsed = (text: string): Faults.Config => {
  const result = Faults.parseConfig(text)
  if (Result.isFailure(result)) throw new Error(`refused: ${result.failure}`)
  return result.success
}

const refusal = (text: string): string => {
  const result = Faults.parseConfig(text)
  if (Result.isSuccess(result)) throw new Error(`accepted: ${JSON.stringify(result.success)}`)
  return result.failure
}

describe("Faults.parseConfig (the JSON form, S2_EMULATOR_FAULTS)", () => {
  it.effect("the documented 429 storm: requests 1 to 3 get 429 with Retry-After 1, the 4th an answer", () =>
    Effect.gen(function*() {
      const statuses: Array<number> = []
      const retryAfter: Array<string | undefined> = []
      for (let k = 0; k < 4; k++) {
        const reply = yield* call("GET", paper)
        statuses.push(reply.status)
        retryAfter.push(reply.headers["retry-after"])
      }
      expect(statuses).toEqual([429, 429, 429, 200])
      expect(retryAfter).toEqual(["1", "1", "1", undefined])
    }).pipe(Effect.provide(
      Emulator.layer({
        size: 300,
        faults: parsed(
          "{\"script\":[{\"requests\":{\"from\":1,\"to\":3},\"fault\":{\"_tag\":\"Status\",\"status\":429,\"retryAfter\":1}}]}"
        )
      })
    )))

  it.effect("string routes, a method and a single position select as the in-code rules do", () =>
    Effect.gen(function*() {
      const bulk = "/graph/v1/paper/search/bulk?query=x"
      const statuses: Array<number> = []
      for (let k = 0; k < 3; k++) {
        statuses.push((yield* call("GET", bulk)).status, (yield* call("GET", paper)).status)
      }
      expect(statuses).toEqual([200, 200, 503, 200, 200, 200])
    }).pipe(Effect.provide(
      Emulator.layer({
        size: 300,
        faults: parsed(JSON.stringify({
          script: [{ route: "/paper/search/bulk", method: "get", requests: 2, fault: { _tag: "Status", status: 503 } }]
        }))
      })
    )))

  it("every fault tag decodes to the fault its constructor builds", () => {
    const cases: ReadonlyArray<readonly [unknown, Faults.Fault]> = [
      [{ _tag: "Status", status: 429, retryAfter: 2 }, Faults.tooManyRequests({ retryAfter: 2 })],
      [{ _tag: "Status", status: 500, body: "oops" }, Faults.status(500, { body: "oops" })],
      [{ _tag: "Latency", millis: 2000 }, Faults.latency("2 seconds")],
      [{ _tag: "Hang" }, Faults.hang],
      [{ _tag: "Truncate", fraction: 0.25 }, Faults.truncate(0.25)],
      [{ _tag: "Reset" }, Faults.reset],
      [{ _tag: "CursorLoop" }, Faults.cursorLoop],
      [{ _tag: "CursorBack" }, Faults.cursorBack],
      [{ _tag: "RepeatPage" }, Faults.repeatPage],
      [{ _tag: "Total", total: -3 }, Faults.total(-3)]
    ]
    for (const [json, fault] of cases) {
      const decoded = parsed(JSON.stringify({ script: [{ fault: json }] })).script![0]!.fault
      expect(Equal.equals(decoded, fault), JSON.stringify(json)).toBe(true)
    }
  })

  it("random (one or several) and the key policy", () => {
    const one = parsed(JSON.stringify({
      random: { seed: 7, rate: 0.1, faults: [{ _tag: "Status", status: 500 }], route: "/datasets/v1/*" },
      keyPolicy: { required: true, keys: ["secret"], ratePerSecond: 1 }
    }))
    expect(one.random).toMatchObject({ seed: 7, rate: 0.1, route: "/datasets/v1/*" })
    expect(one.keyPolicy).toEqual({ required: true, keys: ["secret"], ratePerSecond: 1 })
    const several = parsed(JSON.stringify({ random: [{ seed: 1, rate: 1, faults: [{ _tag: "Reset" }] }] }))
    expect(Array.isArray(several.random)).toBe(true)
    expect(parsed("{}")).toEqual({})
  })

  it("refuses what would silently change the faults, in one line saying where and what", () => {
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      ["not json", /valid JSON/],
      ["[]", /Expected object/],
      ["{\"scrpt\":[]}", /excess property; at \["scrpt"\]/],
      [
        "{\"script\":[{\"fault\":{\"_tag\":\"Status\",\"status\":429,\"retry_after\":1}}]}",
        /excess property; at \["script"\]\[0\]\["fault"\]\["retry_after"\]/
      ],
      ["{\"script\":[{\"fault\":{\"_tag\":\"Slow\"}}]}", /"_tag" one of Status, Latency, Hang, .*Total/],
      ["{\"script\":[{\"fault\":{\"_tag\":\"Latency\",\"millis\":-1}}]}", /greater than or equal to 0; at .*millis/],
      ["{\"script\":[{\"fault\":{\"_tag\":\"Status\",\"status\":42}}]}", /between 100 and 599/],
      ["{\"script\":[{\"requests\":0,\"fault\":{\"_tag\":\"Hang\"}}]}", /requests/],
      ["{\"random\":{\"seed\":1,\"rate\":2,\"faults\":[]}}", /rate/],
      ["{\"script\":[{\"route\":{},\"fault\":{\"_tag\":\"Hang\"}}]}", /route/],
      ["{\"keyPolicy\":{\"ratePerSecond\":0}}", /ratePerSecond/]
    ]
    for (const [text, expected] of cases) {
      const message = refusal(text)
      expect(message, text).toMatch(expected)
      expect(message).not.toContain("\n")
    }
  })
})
