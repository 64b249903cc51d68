/**
 * The framing in front of effect/ai's stdio transport (src/internal/framing.ts): lines cut from
 * bytes however they arrive, an over-long line dropped while it streams with its id still found, the
 * depth bounded, JSON-RPC's invalid requests answered with the right id, lone surrogates replaced.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as Framing from "../src/internal/framing.js"

const encoder = new TextEncoder()

/** The lines of `bytes` cut into chunks at `cuts`, through one framer. */
const frame = (bytes: Uint8Array, cuts: ReadonlyArray<number> = [], limit?: number) => {
  const framer = Framing.makeFramer(limit)
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
  const lines: Array<Framing.Line> = []
  let from = 0
  for (const to of [...at, bytes.length]) {
    lines.push(...framer.push(bytes.subarray(from, to)))
    from = to
  }
  return [...lines, ...framer.end()]
}

const outcomes = (text: string, limit?: number) => frame(encoder.encode(text), [], limit).map(Framing.outcomeOf)

const answerOf = (outcome: Framing.Outcome) => JSON.parse(outcome.answer!) as Record<string, unknown>

/** How deep a JSON value nests (an object or array is 1). */
const depthOf = (value: unknown): number =>
  typeof value === "object" && value !== null
    ? 1 + Math.max(0, ...Object.values(value).map(depthOf))
    : 0

/** `text` with its lone surrogates replaced by U+FFFD. */
const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")

const ids = fc.oneof(
  fc.string(),
  fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n))
)

describe("lines", () => {
  it("the same lines, bytes and depths however the input is cut into chunks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (values, cuts) => {
          const text = values.map((value) => JSON.stringify(value)).join("\n") + "\n"
          const lines = frame(encoder.encode(text), cuts)
          expect(lines.map((line) => new TextDecoder().decode(line.bytes))).toEqual(
            values.map((value) => JSON.stringify(value))
          )
          expect(lines.map((line) => line.depth)).toEqual(values.map(depthOf))
        }
      )
    )
  })

  it("a last line without a line feed is a line; blank lines are nothing", () => {
    expect(outcomes("\n  \r\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}")).toEqual([
      {},
      {},
      { forward: "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}" }
    ])
  })

  it("a line over the limit is not kept, and its top-level id is found wherever it is", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 }),
        ids,
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 20 }),
        (members, id, at, cuts) => {
          const entries = Object.entries(members).filter(([key]) => key !== "id")
          entries.splice(at % (entries.length + 1), 0, ["id", id])
          const text = `{${
            entries.map(([key, value]) => `${JSON.stringify(key)} : ${JSON.stringify(value)}`).join(" ,")
          }}`
          const lines = frame(encoder.encode(text + "\n"), cuts, 8)
          expect(lines).toHaveLength(1)
          expect(lines[0]!.bytes).toBeUndefined()
          expect(lines[0]!.size).toBe(encoder.encode(text).length)
          expect(answerOf(Framing.outcomeOf(lines[0]!))).toMatchObject({ id, error: { code: -32600 } })
        }
      )
    )
  })

  it("over the limit: the last top-level id, an escaped key too; null for a nested id or one not valid", () => {
    const idOf = (text: string) => answerOf(outcomes(text, 4)[0]!)["id"]
    expect(idOf("{\"id\":1,\"method\":\"a\",\"id\":\"two\"}")).toBe("two")
    expect(idOf("{\"i\\u0064\" : -7 , \"params\":{}}")).toBe(-7)
    expect(idOf("{\"params\":{\"id\":5},\"method\":\"x\"}")).toBe(null)
    expect(idOf("[{\"id\":5}]")).toBe(null)
    for (const bad of ["{}", "[1]", "true", "null", "12345678901234567890", "1e400"]) {
      expect(idOf(`{"id":${bad},"method":"ping"}`), bad).toBe(null)
    }
    expect(idOf(`{"id":"${"x".repeat(2000)}"}`)).toBe(null)
  })

  it("strings of backslashes and quotes, cut anywhere: the id after them is found, over the limit or not", () => {
    const texts = fc.string({ unit: fc.constantFrom("\\", "\"", "a", "é", "\\\\", "\\\""), maxLength: 200 })
    fc.assert(
      fc.property(fc.array(texts, { minLength: 1, maxLength: 4 }), ids, fc.array(fc.nat(), { maxLength: 20 }), (
        strings,
        id,
        cuts
      ) => {
        const text = JSON.stringify({ jsonrpc: "2.0", params: strings, s: strings.join(""), id, method: "ping" })
        for (const limit of [8, undefined]) {
          const [line] = frame(encoder.encode(text + "\n"), cuts, limit)
          expect(line!.id === undefined ? undefined : JSON.parse(line!.id!)).toEqual(id)
          expect(line!.depth).toBe(2)
        }
      })
    )
  })

  it("a MiB of escaped backslashes, then text, backslashes and quotes, in 64 KiB reads: refused with its id", () => {
    const body = "\\\\".repeat(1 << 19) + "a\\\\b\\\"".repeat(1023)
    const bytes = encoder.encode(`{"jsonrpc":"2.0","method":"ping","params":{"s":"${body}"},"id":"last"}\n`)
    const lines = frame(bytes, Array.from({ length: bytes.length >> 16 }, (_, i) => (i + 1) << 16), 1 << 16)
    expect(lines).toHaveLength(1)
    expect(answerOf(Framing.outcomeOf(lines[0]!))).toMatchObject({ id: "last", error: { code: -32600 } })
  })

  it("a 100,000 deep message is refused unparsed, with its id; 64 deep goes on", () => {
    const nested = (depth: number) =>
      `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`
    const [deep] = outcomes(nested(100_000))
    expect(answerOf(deep!)).toEqual({
      jsonrpc: "2.0",
      id: 20,
      error: { code: -32600, message: "Invalid Request: a message nested more than 64 deep" }
    })
    expect(deep!.forward).toBeUndefined()
    expect(outcomes(nested(Framing.maxDepth))[0]!.forward).toBeDefined()
  })

  it("a line that is not JSON, or not UTF-8: a parse error with id null", () => {
    const framer = Framing.makeFramer()
    const [bad] = framer.push(new Uint8Array([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0xff, 0x7d, 0x0a]))
    for (const outcome of [Framing.outcomeOf(bad!), ...outcomes("{\"id\":3,")]) {
      expect(answerOf(outcome)).toMatchObject({ id: null, error: { code: -32700 } })
    }
  })
})

describe("messages, as JSON-RPC 2.0 has them", () => {
  const answered = (message: string) => answerOf(outcomes(message)[0]!)

  it("an id that is not a string or a number (or is null): Invalid Request, id null", () => {
    for (const id of ["{}", "[1]", "true", "null", "12345678901234567890"]) {
      expect(answered(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`), id).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringContaining("id must be a string or a number") }
      })
    }
  })

  it("a message that is not an object: Invalid Request, id null; in a batch, an array of them", () => {
    for (const message of ["5", "\"str\"", "null", "true"]) {
      expect(answered(message), message).toMatchObject({ id: null, error: { code: -32600 } })
    }
    const [batch] = outcomes("[1,{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"headers\":5}]")
    expect(JSON.parse(batch!.answer!)).toMatchObject([{ id: null, error: { code: -32600 } }, { id: 2 }])
    expect(batch!.forward).toBeUndefined()
  })

  it("a string id with a lone surrogate: Invalid Request, id null (answered as U+FFFD, no client matched it)", () => {
    for (const id of ["\\ud800", "a\\udfffb", "\\udc00\\ud800"]) {
      const [outcome] = outcomes(`{"jsonrpc":"2.0","id":"${id}","method":"ping"}`)
      expect(answerOf(outcome!), id).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringContaining("well-formed") }
      })
      expect(outcome!.forward).toBeUndefined()
      expect(answerOf(outcomes(`{"id":"${id}","method":"ping"}`, 4)[0]!)["id"]).toBe(null)
    }
    // A pair is a character, and comes back as it came.
    expect(outcomes(JSON.stringify({ jsonrpc: "2.0", id: "\ud83d\ude00", method: "ping" }))[0]!.forward).toBe(
      JSON.stringify({ jsonrpc: "2.0", id: "\ud83d\ude00", method: "ping" })
    )
  })

  it("a lone surrogate in params (a key or a value): -32602 with the request's id, never rewritten", () => {
    const lone = fc.tuple(fc.string(), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string())
      .map(([before, unit, after]) => before + String.fromCharCode(unit) + after)
    fc.assert(fc.property(ids, lone, fc.boolean(), (id, text, asKey) => {
      const args = asKey ? { [text]: 1 } : { id: text }
      const message = { jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_paper", arguments: args } }
      const [outcome] = outcomes(JSON.stringify(message))
      expect(outcome!.forward).toBeUndefined()
      expect(answerOf(outcome!)).toMatchObject({
        id,
        error: { code: -32602, message: expect.stringContaining("params.arguments") }
      })
    }))
    // A notification is never answered: dropped, with a Warning.
    const [notification] = outcomes("{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"a\":\"\\ud800\"}}")
    expect(notification).toEqual({ warning: expect.stringContaining("params.a holds a lone UTF-16 surrogate") })
  })

  it("a batch with an invalid member is answered here whole, in one array; the empty batch with one error", () => {
    const [mixed] = outcomes("[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"},{\"id\":6}]")
    expect(mixed!.forward).toBeUndefined()
    expect(JSON.parse(mixed!.answer!)).toEqual([
      { jsonrpc: "2.0", id: 5, error: { code: -32600, message: expect.stringContaining("not run") } },
      { jsonrpc: "2.0", id: 6, error: { code: -32600, message: "Invalid Request: jsonrpc must be \"2.0\"" } }
    ])
    // A notification in it is not answered; a valid batch goes on whole.
    const notification = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"
    expect(JSON.parse(outcomes(`[${notification},7]`)[0]!.answer!)).toMatchObject([{ id: null }])
    expect(outcomes(`[${notification}]`)[0]).toEqual({ forward: `[${notification}]` })
    for (const empty of ["[]", " [ ] "]) {
      expect(answerOf(outcomes(empty)[0]!)).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: an empty batch" }
      })
    }
  })

  it("a valid id is kept as it came when the request is refused for something else", () => {
    fc.assert(fc.property(ids, (id) => {
      expect(answered(JSON.stringify({ jsonrpc: "1.0", id, method: "ping" }))).toMatchObject({ id })
      expect(answered(JSON.stringify({ jsonrpc: "2.0", id, method: 5 }))).toMatchObject({ id })
      expect(answered(JSON.stringify({ jsonrpc: "2.0", id }))).toMatchObject({ id })
    }))
  })

  it("what goes on holds JSON-RPC's members only (effect's transport read `headers` and `discard`)", () => {
    fc.assert(fc.property(ids, fc.option(fc.jsonValue(), { nil: undefined }), (id, params) => {
      const message = { jsonrpc: "2.0", id, method: "tools/call", params, headers: 5, discard: true, spanId: "x" }
      const [outcome] = outcomes(JSON.stringify(message))
      expect(outcome!.answer).toBeUndefined()
      expect(JSON.parse(outcome!.forward!)).toEqual(
        JSON.parse(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }))
      )
    }))
  })

  it("a notification goes on without an id; a response from the client goes on, or is dropped unanswered", () => {
    expect(outcomes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")[0]).toEqual({
      forward: "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"
    })
    expect(outcomes("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"a\":1},\"chunk\":true}")[0]).toEqual({
      forward: "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"a\":1}}"
    })
    for (const response of ["{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":1}}", "{\"id\":{},\"result\":1}"]) {
      const [outcome] = outcomes(response)
      expect(outcome!.answer).toBeUndefined()
      expect(outcome!.forward).toBeUndefined()
      expect(outcome!.warning).toMatch(/^a response: .*, dropped/)
    }
  })
})

describe("output", () => {
  it("lone surrogates become U+FFFD, escaped or not; pairs and backslashes stay", () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: "binary" })), (texts) => {
      const line = Framing.wellFormedJson(JSON.stringify({ texts, raw: texts.join("") }))
      expect(JSON.parse(line)).toEqual({ texts: texts.map(wellFormed), raw: wellFormed(texts.join("")) })
    }))
    expect(Framing.wellFormedJson("\"\\\\ud800 \\ud83d\\ude00 \\ud800\"")).toBe("\"\\\\ud800 \\ud83d\\ude00 \\ufffd\"")
    expect(Framing.wellFormedJson("a\ud800b")).toBe("a\ufffdb")
  })
})
