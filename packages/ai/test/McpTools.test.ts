import { describe, expect, it } from "@effect/vitest"
import { RateLimited, SemanticScholar, ServerError, TransportError, UnexpectedStatus, Waits } from "@s2-effect/core"
import { settle } from "@s2-effect/test-support"
import { Emulator, Faults } from "@s2-effect/testing"
import { Duration, Effect, Fiber, Layer, Logger, Queue, References, Schema } from "effect"
import { McpProtocol, McpServer, McpTest, Prompt, Tool, Toolkit } from "effect/ai"
import { TestClock } from "effect/testing"
import { AnswerNote, badParameterText, oneLine, register, StructuredAnswers, waitMessage } from "../src/internal/mcp.js"

class Nope extends Schema.TaggedError<Nope>()("Nope", { message: Schema.String }) {}

const Echo = Tool.make("echo", {
  description: "Repeat a word",
  parameters: Schema.Struct({
    word: Schema.String.annotate({ description: "the word" }),
    times: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3 })))
  }),
  success: Schema.Struct({ words: Schema.Array(Schema.String) }),
  failure: Nope,
  failureMode: "return",
  toModelOutput: (result) => [Prompt.textPart({ text: `echoed ${result.words.length}: ${result.words.join(" ")}` })]
})
  .annotate(Tool.Title, "Echo a word")
  .annotate(Tool.Readonly, true)
  .annotate(Tool.Idempotent, true)
  .annotate(Tool.OpenWorld, false)

const Slow = Tool.make("slow", {
  description: "Waits for the rate limit, then answers",
  parameters: Schema.Struct({ waits: Schema.Int }),
  success: Schema.Struct({ done: Schema.Boolean }),
  failure: Nope,
  failureMode: "return"
})

/** failureMode "error" (the default): its failures reach the registrar as failures, not results. */
const Fussy = Tool.make("fussy", {
  parameters: Schema.Struct({ ok: Schema.Boolean }),
  success: Schema.Struct({ ok: Schema.Boolean }),
  failure: Nope
})

const toolkit = Toolkit.make(Echo, Slow, Fussy)

const request = { method: "GET", url: "https://api.test/graph/v1/paper/x" }

/** A retry as the client reports it: `cause` is the short cause it logs (the status, else the kind). */
const retry = (cause: string, waitMillis: number, attempt = 1): Extract<Waits.Wait, { _tag: "Retry" }> =>
  Waits.Wait.Retry({
    ...request,
    error: cause === "429"
      ? new RateLimited({ message: "rate limited", status: 429 })
      : /^\d+$/.test(cause)
      ? new ServerError({ message: "server error", status: Number(cause) })
      : new TransportError({ message: cause, reason: "refused" }),
    cause,
    attempt,
    wait: Duration.millis(waitMillis)
  })

const handlers = toolkit.toLayer({
  echo: ({ times, word }) =>
    word === "nope"
      ? Effect.fail(new Nope({ message: "not found: no such word\nsecond line" }))
      : word === "die"
      ? Effect.die(new Error("boom with a secret"))
      : Effect.succeed({ words: Array.from({ length: times ?? 1 }, () => word) }),
  slow: ({ waits }) =>
    Effect.gen(function*() {
      for (let i = 0; i < waits; i++) {
        yield* Effect.logWarning("S2 GET /graph/v1/paper/x: 429 failed; retrying in 2 s")
        yield* Waits.report(retry("429", 2000))
        yield* Effect.sleep("2 seconds")
      }
      // What the client's log lines carried before the waits had a channel: a log line is no wait.
      yield* Effect.logWarning("S2 shared rate limit: waiting").pipe(
        Effect.annotateLogs({ "s2.retry": "429", "s2.retryWaitMillis": 2000, "s2.rateLimitWaitMillis": 1500 })
      )
      yield* Waits.report(
        Waits.Wait.RateLimitWait({ ...request, limiter: "shared", attempt: 1, wait: Duration.millis(1500) })
      )
      return { done: true }
    }),
  fussy: ({ ok }) => ok ? Effect.succeed({ ok }) : Effect.fail(new Nope({ message: "forbidden: not today" }))
})

const registrations = Layer.effectDiscard(register(toolkit)).pipe(Layer.provide(handlers))

const client = McpTest.makeClient(registrations, { protocols: [McpProtocol.v2025_11_25] })

const textOf = (result: { readonly content: ReadonlyArray<unknown> }) =>
  result.content.map((part) => (part as { text: string }).text).join("\n")

/** Every notification the client has received so far, by method. */
const progressOf = (c: McpTest.Client) =>
  Effect.map(Queue.clear(c.notifications), (all) => all.filter((n) => n.method === "notifications/progress"))

describe("register (MCP)", () => {
  it.effect("lists each tool with its input and output schemas and annotations", () =>
    Effect.gen(function*() {
      const c = yield* client
      const { tools } = yield* c.listTools()
      expect(tools.map((t) => t.name).sort()).toEqual(["echo", "fussy", "slow"])
      const echo = tools.find((t) => t.name === "echo")!
      expect(echo.description).toBe("Repeat a word")
      expect(echo.title).toBe("Echo a word")
      expect(echo.inputSchema).toMatchObject({
        type: "object",
        required: ["word"],
        additionalProperties: false,
        properties: { word: { type: "string", description: "the word" }, times: { type: "integer" } }
      })
      expect(JSON.stringify(echo.inputSchema)).toContain("\"maximum\":3")
      expect(echo.outputSchema).toMatchObject({ type: "object", properties: { words: { type: "array" } } })
      expect(echo.annotations).toMatchObject({
        title: "Echo a word",
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false
      })
    }).pipe(Effect.scoped))

  it.effect("compact (StructuredAnswers false): no output schema or title, bounds left to descriptions, text once", () =>
    Effect.gen(function*() {
      const c = yield* McpTest.makeClient(
        registrations.pipe(Layer.provide(Layer.succeed(StructuredAnswers, false))),
        { protocols: [McpProtocol.v2025_11_25] }
      )
      const { tools } = yield* c.listTools()
      const echo = tools.find((t) => t.name === "echo")!
      expect(echo.outputSchema).toBeUndefined()
      expect(echo.title).toBeUndefined()
      expect(echo.description).toBe("Repeat a word")
      expect(echo.inputSchema).toEqual({
        type: "object",
        required: ["word"],
        properties: { word: { type: "string", description: "the word" }, times: { type: "integer" } }
      })
      const result = yield* c.callTool({ name: "echo", arguments: { word: "hi", times: 2 } })
      expect(result.content).toEqual([{ type: "text", text: "echoed 2: hi hi" }])
      expect(result.structuredContent).toBeUndefined()
      // The full schema still checks the call.
      const bad = yield* c.callTool({ name: "echo", arguments: { word: "hi", times: 9 } })
      expect(bad.isError).toBe(true)
    }).pipe(Effect.scoped))

  it.effect("AnswerNote: a text part after every answer; a tool error stays one line", () =>
    Effect.gen(function*() {
      const c = yield* McpTest.makeClient(
        registrations.pipe(Layer.provide(Layer.succeed(AnswerNote, "[made-up data]"))),
        { protocols: [McpProtocol.v2025_11_25] }
      )
      const ok = yield* c.callTool({ name: "echo", arguments: { word: "hi" } })
      expect(ok.content).toEqual([{ type: "text", text: "echoed 1: hi" }, { type: "text", text: "[made-up data]" }])
      const failed = yield* c.callTool({ name: "echo", arguments: { word: "nope" } })
      expect(failed.isError).toBe(true)
      expect(failed.content).toHaveLength(1)
    }).pipe(Effect.scoped))

  it.effect("answers with the tool's text rendering and the encoded result as structured content", () =>
    Effect.gen(function*() {
      const c = yield* client
      const result = yield* c.callTool({ name: "echo", arguments: { word: "hi", times: 2 } })
      expect(result.isError ?? false).toBe(false)
      expect(result.content).toEqual([{ type: "text", text: "echoed 2: hi hi" }])
      expect(result.structuredContent).toEqual({ words: ["hi", "hi"] })
      // A tool without toModelOutput: its encoded result as JSON text.
      const slow = yield* c.callTool({ name: "slow", arguments: { waits: 0 } })
      expect(textOf(slow)).toBe("{\"done\":true}")
    }).pipe(Effect.scoped))

  it.effect("answers a parameter the schema refuses as a tool error naming the field (SEP-1303)", () =>
    Effect.gen(function*() {
      const c = yield* client
      const cases: ReadonlyArray<readonly [Record<string, unknown>, RegExp]> = [
        [{ word: 3 }, /^bad parameter: word: Expected string, got 3$/],
        [{ word: "a", times: 9 }, /^bad parameter: times: Expected a value between 1 and 3, got 9$/],
        [{ word: "a", times: 1.5 }, /^bad parameter: times: Expected an integer, got 1.5$/],
        [
          { word: "a", colour: "red" },
          /^bad parameter: colour: Unexpected key with value "red"; allowed parameters: word, times$/
        ],
        [{}, /^bad parameter: word: Missing key$/],
        [
          { word: "a", colour: "r".repeat(1000) },
          /^bad parameter: colour: Unexpected key with value "r+…; allowed parameters: word, times$/
        ],
        [{ times: "x" }, /^bad parameter: (word: Missing key; times: .*|times: .*; word: Missing key)$/]
      ]
      for (const [args, expected] of cases) {
        const result = yield* c.callTool({ name: "echo", arguments: args })
        expect(result.isError).toBe(true)
        expect(result.content).toHaveLength(1)
        const text = textOf(result)
        expect(text).toMatch(expected)
        expect(text).not.toContain("\n")
        expect(result.structuredContent).toBeUndefined()
      }
    }).pipe(Effect.scoped))

  it.effect("answers a handler's failure as a tool error with its one-line message", () =>
    Effect.gen(function*() {
      const c = yield* client
      const result = yield* c.callTool({ name: "echo", arguments: { word: "nope" } })
      expect(result.isError).toBe(true)
      expect(result.content).toEqual([{ type: "text", text: "not found: no such word second line" }])
      expect(result.structuredContent).toBeUndefined()
    }).pipe(Effect.scoped))

  it.effect("answers the failure of a tool with failureMode \"error\" the same way", () =>
    Effect.gen(function*() {
      const c = yield* client
      const result = yield* c.callTool({ name: "fussy", arguments: { ok: false } })
      expect(result.isError).toBe(true)
      expect(result.content).toEqual([{ type: "text", text: "forbidden: not today" }])
      const next = yield* c.callTool({ name: "fussy", arguments: { ok: true } })
      expect(next.structuredContent).toEqual({ ok: true })
    }).pipe(Effect.scoped))

  it.effect("answers a defect as \"internal error\", logs it at Error, and keeps serving", () => {
    const logged: Array<string> = []
    const capture = Logger.make(({ logLevel, message }) => {
      logged.push(`${logLevel}: ${JSON.stringify(message)}`)
    })
    return Effect.gen(function*() {
      const c = yield* client
      const result = yield* c.callTool({ name: "echo", arguments: { word: "die" } })
      expect(result.isError).toBe(true)
      expect(result.content).toEqual([{ type: "text", text: "internal error" }])
      expect(logged.filter((line) => line.startsWith("Error:") && line.includes("MCP tool call failed")))
        .toHaveLength(1)
      const next = yield* c.callTool({ name: "echo", arguments: { word: "ok" } })
      expect(next.structuredContent).toEqual({ words: ["ok"] })
    }).pipe(Effect.scoped, Effect.provide(Logger.layer([capture])))
  })

  it.effect("lets a cancelled call go, sends no progress after it, and keeps serving", () =>
    Effect.gen(function*() {
      const c = yield* client
      const call = yield* Effect.forkChild(
        c.callTool({ name: "slow", arguments: { waits: 100 }, _meta: { progressToken: 7 } })
      )
      const first = yield* Queue.take(c.notifications)
      expect(first).toMatchObject({ method: "notifications/progress", payload: { progressToken: 7, progress: 1 } })
      yield* Fiber.interrupt(call)
      const next = yield* c.callTool({ name: "echo", arguments: { word: "ok" } })
      expect(next.structuredContent).toEqual({ words: ["ok"] })
      yield* TestClock.adjust("1 minute")
      expect(yield* progressOf(c)).toEqual([])
    }).pipe(Effect.scoped))

  it.effect("sends each wait the client reports as progress for the request's token (and no log line)", () =>
    Effect.gen(function*() {
      const c = yield* client
      const call = yield* Effect.forkChild(
        c.callTool({ name: "slow", arguments: { waits: 2 }, _meta: { progressToken: "tok-1" } })
      )
      const result = yield* settle(call, "500 millis")
      expect(result.structuredContent).toEqual({ done: true })
      const progress = yield* progressOf(c)
      expect(progress.map((n) => n.payload)).toEqual([
        { progressToken: "tok-1", progress: 1, message: "rate limited (429); retrying in 2 s" },
        { progressToken: "tok-1", progress: 2, message: "rate limited (429); retrying in 2 s" },
        { progressToken: "tok-1", progress: 3, message: "rate limit; waiting 1.5 s for a turn" }
      ])
    }).pipe(Effect.scoped))

  it.effect("sends no progress when the request has no token", () =>
    Effect.gen(function*() {
      const c = yield* client
      const call = yield* Effect.forkChild(c.callTool({ name: "slow", arguments: { waits: 1 } }))
      const result = yield* settle(call, "500 millis")
      expect(result.structuredContent).toEqual({ done: true })
      expect(yield* progressOf(c)).toEqual([])
    }).pipe(Effect.scoped))

  it.effect("answers a bad parameter as a tool error on older protocol versions too", () =>
    Effect.gen(function*() {
      const c = yield* McpTest.makeClient(registrations, { protocols: [McpProtocol.v2025_06_18] })
      const result = yield* c.callTool({ name: "echo", arguments: { word: 3 } })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toBe("bad parameter: word: Expected string, got 3")
    }).pipe(Effect.scoped))

  it.effect("effect's own registrar: JSON text, a two-line message, InvalidParams before 2025-11-25", () =>
    Effect.gen(function*() {
      const theirs = McpServer.toolkit(toolkit).pipe(Layer.provide(handlers))
      const c = yield* McpTest.makeClient(theirs, { protocols: [McpProtocol.v2025_11_25] })
      const result = yield* c.callTool({ name: "echo", arguments: { word: "hi" } })
      expect(textOf(result)).toBe("{\"words\":[\"hi\"]}")
      const bad = yield* c.callTool({ name: "echo", arguments: { word: 3 } })
      expect(textOf(bad)).toBe("Invalid parameters for tool 'echo': Expected string\n  at [\"word\"]")
      const old = yield* McpTest.makeClient(theirs, { protocols: [McpProtocol.v2025_06_18] })
      const refused = yield* Effect.flip(old.callTool({ name: "echo", arguments: { word: 3 } }))
      expect(refused.code).toBe(-32602)
      // Not strict: an unknown parameter is dropped without a word.
      const extra = yield* c.callTool({ name: "echo", arguments: { word: "hi", colour: "red" } })
      expect(extra.isError ?? false).toBe(false)
    }).pipe(Effect.scoped))
})

describe("register with the real client", () => {
  const Lookup = Tool.make("lookup", {
    parameters: Schema.Struct({ id: Schema.String }),
    success: Schema.Struct({ titles: Schema.Array(Schema.String) }),
    failure: Nope,
    failureMode: "return"
  })
  const lookups = Toolkit.make(Lookup)
  const lookupHandlers = lookups.toLayer(Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    return {
      lookup: ({ id }) =>
        Effect.gen(function*() {
          const one = yield* s2.getPaper(id, { fields: ["title"] })
          const batch = yield* s2.getPapers([id], { fields: ["title"] })
          return { titles: [one.title ?? "", ...batch.map((paper) => paper.title ?? "")] }
        }).pipe(Effect.mapError((error) => new Nope({ message: error.message })))
    }
  }))
  const faulty = SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({
    seed: 1,
    size: 100,
    faults: {
      script: [
        { route: "/paper/batch", requests: { from: 1, to: 1 }, fault: Faults.tooManyRequests({ retryAfter: 1 }) },
        { requests: { from: 1, to: 1 }, fault: Faults.tooManyRequests({ retryAfter: 1 }) }
      ]
    }
  })))

  /** A lookup (one single and one batched request, each answered 429 once) with a progress token. */
  const lookupProgress = Effect.gen(function*() {
    const id = (yield* Emulator).corpus.papers[0]!.paperId
    const c = yield* McpTest.makeClient(
      Layer.effectDiscard(register(lookups)).pipe(Layer.provide(lookupHandlers)),
      { protocols: [McpProtocol.v2025_11_25] }
    )
    const call = yield* Effect.forkChild(
      c.callTool({ name: "lookup", arguments: { id }, _meta: { progressToken: "p" } })
    )
    const result = yield* settle(call, "100 millis")
    expect(result.isError ?? false).toBe(false)
    return (yield* progressOf(c)).map((n) => n.payload as { progress: number; message: string })
  })

  it.effect("sends the client's own retry waits (single and batched requests) as progress", () =>
    Effect.gen(function*() {
      const progress = yield* lookupProgress
      expect(progress.map((p) => p.progress)).toEqual([1, 2])
      for (const p of progress) expect(p.message).toMatch(/^rate limited \(429\); retrying in \d/)
    }).pipe(Effect.scoped, Effect.provide(faulty)))

  it.effect("sends them with logging off too: progress does not ride on the log", () =>
    Effect.gen(function*() {
      const progress = yield* lookupProgress
      expect(progress.map((p) => p.progress)).toEqual([1, 2])
      for (const p of progress) expect(p.message).toMatch(/^rate limited \(429\); retrying in \d/)
    }).pipe(Effect.scoped, Effect.provide(faulty), Effect.provideService(References.MinimumLogLevel, "None")))
})

describe("register's messages", () => {
  it.effect("names a nested field by its path and keeps the message on one bounded line", () =>
    Effect.gen(function*() {
      const schema = Schema.Struct({ seeds: Schema.Array(Schema.Struct({ id: Schema.String })) })
      const error = yield* Effect.flip(
        Schema.decodeUnknownEffect(schema)({ seeds: [{ id: "a" }, { id: 7 }] }, { errors: "all", reportInput: true })
      )
      expect(badParameterText(error.issue)).toBe("bad parameter: seeds[1].id: Expected string, got 7")
      const long = oneLine(`a\nb\u0007c${"x".repeat(400)}`)
      expect(long).toMatch(/^a b cx+…$/)
      expect(long).toHaveLength(300)
    }))

  it("keeps a message on one line by every separator, and cuts it without splitting a character", () => {
    expect(oneLine("first\u2028second\u2029third\u202eevil\u2066")).toBe("first second third evil")
    const cut = oneLine(`${"x".repeat(298)}\u{1F600}tail`)
    expect(cut).toBe(`${"x".repeat(298)}…`)
    expect(cut.length).toBeLessThanOrEqual(300)
  })

  it("reads each kind of wait the client reports", () => {
    expect(waitMessage(retry("429", 2000))).toBe("rate limited (429); retrying in 2 s")
    expect(waitMessage(retry("503", 1500))).toBe("server error (503); retrying in 1.5 s")
    expect(waitMessage(retry("connection refused", 250))).toBe("connection refused; retrying in 250 ms")
    expect(
      waitMessage(Waits.Wait.RateLimitWait({ ...request, limiter: "process", attempt: 1, wait: Duration.millis(900) }))
    )
      .toBe("rate limit; waiting 900 ms for a turn")
    // A status the default policy does not retry, retried by a policy of the user's own.
    const odd = Waits.Wait.Retry({
      ...retry("418", 1000),
      error: new UnexpectedStatus({ message: "teapot", status: 418 })
    })
    expect(waitMessage(odd)).toBe("HTTP 418; retrying in 1 s")
  })
})
