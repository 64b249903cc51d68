/**
 * Registers an effect/ai `Toolkit` on an effect/ai `McpServer`, as `McpServer.registerToolkit` does,
 * with what an assistant notices done its way: the model reads the tool's `toModelOutput` text, each
 * answer is sent once (output schemas and `structuredContent` only with `StructuredAnswers`), a
 * parameter that fails its schema (or is unknown) is a one-line tool error on every protocol, a
 * declared failure is a tool error and a defect `internal error`, and the client's waits during a
 * call (retries, the rate limit; its `Waits` channel) are `notifications/progress` when the request
 * carries a progress token. How each differs from effect's own, for upstream: packages/bench/NOTES.md
 * ("`McpServer.registerToolkit`, and what our fork of it changes").
 */
import type { S2Error } from "@s2-effect/core"
import { RetryPolicy, Waits } from "@s2-effect/core"
import * as McpSchema from "effect/ai/McpSchema"
import * as McpServer from "effect/ai/McpServer"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import type * as JsonSchema from "effect/JsonSchema"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as References from "effect/References"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Tracer from "effect/Tracer"
import { StructuredCall } from "./paging.js"
import { EnabledTools } from "./profiles.js"
import { cut, oneLine as renderedLine } from "./text.js"

/** The longest line we put in a tool error (the model reads it; a schema can say a lot). */
const maxLine = 300

/** The longest problem in a bad-parameter line (the value it quotes is cut). */
const maxProblem = 120

/** How long one progress notification may take to reach the client before it is dropped. */
const notificationTimeout = "5 seconds"

/** The text of a defect: what went wrong stays in our log, not in the model's context. */
export const internalErrorText = "internal error"

/**
 * One line, bounded: control characters, line separators and bidirectional overrides become spaces
 * (the renderings' own rules), the rest is cut with "…" without splitting a character.
 */
export const oneLine = (text: string): string => cut(renderedLine(text).replace(/ {2,}/g, " ").trim(), maxLine)

const errorResult = (text: string): McpSchema.CallToolResult =>
  new McpSchema.CallToolResult({ isError: true, content: [{ type: "text", text: oneLine(text) }] })

// ---------------------------------------------------------------------------------------------------
// Parameters (SEP-1303)
// ---------------------------------------------------------------------------------------------------

const standardFormatter = SchemaIssue.makeFormatterStandardSchemaV1()

const pathText = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined): string =>
  (path ?? [])
    .map((segment) => typeof segment === "object" ? segment.key : segment)
    .map((key, i) => typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`)
    .join("")

/** Whether `issue` holds an unknown key among the parameters themselves (one key deep), read from the issue's tree. */
const unknownParameter = (issue: SchemaIssue.Issue, depth = 0): boolean => {
  switch (issue._tag) {
    case "UnexpectedKey":
      return depth === 1
    case "Pointer":
      return unknownParameter(issue.issue, depth + issue.path.length)
    case "Filter":
    case "Encoding":
      return unknownParameter(issue.issue, depth)
    case "Composite":
    case "AnyOf":
      return issue.issues.some((inner) => unknownParameter(inner, depth))
    default:
      return false
  }
}

/**
 * `bad parameter: <field>: <what is wrong and what is allowed>; …` on one line, from a schema issue.
 * Each problem names its field (a missing one says "Missing key", an unknown one "Unexpected key").
 * An unknown parameter is most often a name the model guessed (`year`, `max_results`): the line
 * then lists the tool's `parameters`, so that the next call can use one of them.
 */
export const badParameterText = (issue: SchemaIssue.Issue, parameters: ReadonlyArray<string> = []): string => {
  const unknown = unknownParameter(issue)
  const problems = standardFormatter(issue).issues.map((problem) => {
    const at = pathText(problem.path)
    // Each problem cut on its own: a long value it quotes must not push the others out of the line.
    return cut(at === "" ? problem.message : `${at}: ${problem.message}`, maxProblem)
  })
  const allowed = unknown && parameters.length > 0 ? `; allowed parameters: ${parameters.join(", ")}` : ""
  return `bad parameter: ${problems.join("; ")}${allowed}`
}

// ---------------------------------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------------------------------

/** How a retry's cause reads in a progress message: what the status means, else the short cause. */
const retryCauseText = (error: S2Error, cause: string): string =>
  error._tag === "RateLimited"
    ? `rate limited (${cause})`
    : error._tag === "ServerError"
    ? `server error (${cause})`
    : cause === String(error.status)
    ? `HTTP ${cause}`
    : cause

/** The progress message of one of the client's waits. */
export const waitMessage: (wait: Waits.Wait) => string = Waits.Wait.$match({
  Retry: ({ cause, error, wait }) =>
    `${retryCauseText(error, cause)}; retrying in ${RetryPolicy.formatWait(Duration.toMillis(wait))}`,
  RateLimitWait: ({ wait }) => `rate limit; waiting ${RetryPolicy.formatWait(Duration.toMillis(wait))} for a turn`
})

/**
 * How a tool's handler reports its progress ("35 of 200 lines"): during an MCP call whose request
 * carries a progress token, each message is sent as a `notifications/progress` (numbered with the
 * waits, so the counter only increases); anywhere else it does nothing. A reference (not a service
 * a handler requires) so that handlers run the same in an agent, a test or an MCP server.
 */
export const ToolProgress = Context.Reference<(message: string) => Effect.Effect<void>>(
  "@s2-effect/ai/AssistantTools/ToolProgress",
  { defaultValue: () => () => Effect.void }
)

/** Reports a tool call's progress through {@link ToolProgress}. */
export const reportProgress = (message: string): Effect.Effect<void> =>
  Effect.flatMap(Effect.service(ToolProgress), (report) => report(message))

/**
 * Runs `call` with a listener of the client's waits that turns each into a `notifications/progress`
 * for `token`, whatever the log level. The listener and the tool's own reports offer to a queue that a
 * fiber drains (sending waits for delivery; the waiting request should not); the queue is ended and
 * drained before the result is returned, so no notification follows the result.
 */
const withProgress = <A, E, R>(
  call: Effect.Effect<A, E, R>,
  token: McpSchema.ProgressToken,
  server: McpServer.McpServer["Service"]
): Effect.Effect<A, E, R> =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<string, Cause.Done>()
    let progress = 0
    const sender = yield* Stream.fromQueue(queue).pipe(
      Stream.runForEach((message) =>
        server.notifications["notifications/progress"]({ progressToken: token, progress: ++progress, message }).pipe(
          // Sending waits for delivery: a client that stopped reading must not hold the call.
          Effect.timeout(notificationTimeout),
          Effect.ignore
        )
      ),
      Effect.forkChild
    )
    const offer = (message: string) => Effect.sync(() => void Queue.offerUnsafe(queue, message))
    return yield* call.pipe(
      Effect.provideService(Waits.CurrentListener, (wait) => offer(waitMessage(wait))),
      Effect.provideService(ToolProgress, offer),
      Effect.onExit((exit) =>
        Exit.hasInterrupts(exit) ? Fiber.interrupt(sender) : Effect.andThen(Queue.end(queue), Fiber.join(sender))
      )
    )
  })

// ---------------------------------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------------------------------

/** The text parts of a tool's model output, or the encoded result as JSON when it has none. */
const contentOf = (
  modelOutput: ReadonlyArray<unknown> | undefined,
  encoded: unknown
): McpSchema.CallToolResult["content"] => {
  const texts = (modelOutput ?? []).flatMap((part) =>
    typeof part === "object" && part !== null && (part as { type?: unknown }).type === "text"
      ? [{ type: "text" as const, text: String((part as { text: unknown }).text) }]
      : []
  )
  if (texts.length > 0) return texts
  return encoded === undefined ? [] : [{ type: "text", text: JSON.stringify(encoded) }]
}

/** The one line of a failure a handler declared: its `message`, else its encoded form. */
const failureText = (error: unknown, encoded: unknown): string =>
  typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string" &&
    (error as { message: string }).message !== ""
    ? (error as { message: string }).message
    : JSON.stringify(encoded) ?? "failed"

/** Interruption propagates; any other cause is logged and answered as "internal error". */
const internalError = (cause: Cause.Cause<unknown>) =>
  Cause.hasInterruptsOnly(cause)
    ? Effect.failCause(cause as Cause.Cause<never>)
    : Effect.as(Effect.logError("MCP tool call failed", cause), errorResult(internalErrorText))

// Request services (the request's context, scope, log level, span) are not captured with a handler.
const requestServiceKeys = new Set<string>([
  McpSchema.McpRequestContext.key,
  McpSchema.McpServerClient.key,
  References.CurrentLogLevel.key,
  Scope.Scope.key,
  Tracer.ParentSpan.key
])

const omitRequestServices = (context: Context.Context<never>): Context.Context<never> => {
  const services = new Map<string, unknown>()
  for (const [key, value] of context.mapUnsafe) {
    if (!requestServiceKeys.has(key) && !key.startsWith("effect/ai/McpServer/Middleware-")) {
      services.set(key, value)
    }
  }
  return Context.makeUnsafe(services)
}

/**
 * The JSON Schema of a tool's parameters or answer, with `additionalProperties: false` on every object
 * when `strict` (parameters are decoded refusing unknown keys). A root that is a `$ref` (a schema with
 * an identifier) is inlined: MCP wants an object root.
 */
export const jsonSchemaOf = (schema: Schema.Constraint, strict: boolean): JsonSchema.JsonSchema =>
  withoutSafeBounds(documentRoot(schema, strict)) as JsonSchema.JsonSchema

/**
 * A JSON Schema without the bounds ±(2^53 − 1) that effect writes on every integer (`Schema.Int`):
 * 110 of them made 3 KB of `tools/list`, and they tell a model nothing.
 */
const withoutSafeBounds = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutSafeBounds)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, member] of Object.entries(value)) {
    if ((key === "maximum" || key === "minimum") && Math.abs(member as number) === Number.MAX_SAFE_INTEGER) continue
    out[key] = withoutSafeBounds(member)
  }
  return out
}

const documentRoot = (schema: Schema.Constraint, strict: boolean): JsonSchema.JsonSchema => {
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty: strict ? "error" : "ignore" })
  const definitions: Record<string, JsonSchema.JsonSchema> = { ...document.definitions }
  let root = document.schema
  const prefix = "#/$defs/"
  const ref = root.$ref
  if (typeof ref === "string" && ref.startsWith(prefix) && definitions[ref.slice(prefix.length)] !== undefined) {
    root = definitions[ref.slice(prefix.length)]!
  }
  return Object.keys(definitions).length === 0 ? root : { ...root, $defs: definitions }
}

/**
 * Whether tools are listed with their output schemas and answer with `structuredContent` beside the
 * text (`true`, the default), or compactly: no output schema and no title, parameters without what
 * their descriptions say, and the answer once, as the text the model reads. MCP clients hand
 * the model the text content; `structuredContent` is for clients that process the answer as data
 * (and validate it against the output schema).
 */
export const StructuredAnswers = Context.Reference<boolean>("@s2-effect/ai/AssistantTools/StructuredAnswers", {
  defaultValue: () => true
})

/**
 * What a compact listing leaves out of a tool's parameters: what their descriptions already say
 * (bounds, counts, defaults), and `additionalProperties: false` (an unknown parameter is refused with
 * the list of the tool's parameters). The server checks each call against the full schema still.
 */
const describedElsewhere = new Set([
  "default",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "additionalProperties"
])

const compactInput = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(compactInput)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, member] of Object.entries(value)) {
    // `properties` holds parameter names, never keywords: only its members are compacted.
    if (key === "properties" && typeof member === "object" && member !== null) {
      out[key] = Object.fromEntries(Object.entries(member).map(([name, schema]) => [name, compactInput(schema)]))
    } else if (!describedElsewhere.has(key)) {
      out[key] = compactInput(member)
    }
  }
  return out
}

/** A tool's MCP annotations (every hint: McpSchema fills a missing one with MCP's default). */
const annotationsOf = (tool: Tool.Any, title: string | undefined) => {
  const readOnlyHint = Context.get(tool.annotations, Tool.Readonly)
  const openWorldHint = Context.get(tool.annotations, Tool.OpenWorld)
  return {
    ...(title === undefined ? {} : { title }),
    readOnlyHint,
    destructiveHint: Context.get(tool.annotations, Tool.Destructive),
    idempotentHint: Context.get(tool.annotations, Tool.Idempotent),
    openWorldHint
  }
}

/**
 * A text part put after every answer that is not an error (`undefined`: none; after, so that an
 * answer still opens with its header; a tool error stays one line). `s2 mcp --emulator`
 * says with it that the data are made up, so that no answer of the emulator can pass for a real one.
 */
export const AnswerNote = Context.Reference<string | undefined>("@s2-effect/ai/AssistantTools/AnswerNote", {
  defaultValue: () => undefined
})

const withNote = (note: string | undefined) => (result: McpSchema.CallToolResult): McpSchema.CallToolResult =>
  note === undefined || result.isError === true ? result : new McpSchema.CallToolResult({
    ...result,
    content: [...result.content, { type: "text", text: note }]
  })

const mcpToolOf = Effect.fnUntraced(function*(tool: Tool.Any, structured: boolean) {
  // A dynamic tool may bring its own JSON Schema (and then its handler checks its parameters).
  const rawJsonSchema = Tool.isDynamic(tool) ? tool.jsonSchema : undefined
  const fullInput = rawJsonSchema ?? jsonSchemaOf(tool.parametersSchema, true)
  const inputSchema = yield* Schema.decodeUnknownEffect(McpSchema.ToolJson)(
    structured ? fullInput : compactInput(fullInput)
  ).pipe(
    Effect.mapError((error) =>
      `MCP tool '${tool.name}': its parameters must be an object schema (Schema.Struct): ${error.message}`
    ),
    Effect.orDie
  )
  const outputSchema = structured
    ? yield* Schema.decodeUnknownEffect(McpSchema.ToolOutputJson)(jsonSchemaOf(tool.successSchema, false)).pipe(
      Effect.option,
      Effect.map(Option.getOrUndefined)
    )
    : undefined
  // A title is for a client's display (it falls back to the name); a compact listing leaves it out.
  const title = structured ? Context.getOrUndefined(tool.annotations, Tool.Title) : undefined
  return new McpSchema.Tool({
    name: tool.name,
    title,
    description: Tool.getDescription(tool),
    inputSchema,
    outputSchema,
    annotations: annotationsOf(tool, title),
    _meta: Context.getOrUndefined(tool.annotations, Tool.Meta)
  })
})

const decodeOptions: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "error" }

/** One call: parameters checked, the handler run, its last result turned into a `CallToolResult`. */
const callTool = <Tools extends Record<string, Tool.Any>>(
  built: Toolkit.WithHandler<Tools>,
  tool: Tool.Any,
  parameters: ReadonlyArray<string>,
  payload: unknown,
  structured: boolean
): Effect.Effect<McpSchema.CallToolResult> => {
  const params = payload ?? {}
  // The same decoding as the handler's, but reporting the input so the message can say what came.
  const checked = Schema.isSchema(tool.parametersSchema)
    ? Schema.decodeUnknownEffect(tool.parametersSchema as Schema.Codec<unknown, unknown>)(params, {
      ...decodeOptions,
      reportInput: true
    })
    : Effect.succeed(params)
  return checked.pipe(
    Effect.matchEffect({
      onFailure: (error) => Effect.succeed(errorResult(badParameterText(error.issue, parameters))),
      onSuccess: () =>
        built.handle(tool.name as keyof Tools, params as never, undefined, decodeOptions).pipe(
          Stream.unwrap,
          Stream.runLast,
          Effect.flatMap((last) =>
            Option.isNone(last) ? Effect.die("the tool's handler gave no result") : toResult(last.value, structured)
          )
        )
    }),
    Effect.catchCause((cause) => {
      // A failure a handler declared with failureMode "error" is answered as one of "return" is.
      const failure = cause.reasons.find(Cause.isFailReason)
      return failure !== undefined && !Cause.hasDies(cause) && !Cause.hasInterrupts(cause) &&
          Context.get(Cause.reasonAnnotations(failure), Toolkit.FailureOrigin) === "handler"
        ? Effect.succeed(errorResult(failureText(failure.error, undefined)))
        : internalError(cause)
    })
  ) as Effect.Effect<McpSchema.CallToolResult>
}

const toResult = (
  result: Tool.HandlerResult<Tool.Any>,
  structured: boolean
): Effect.Effect<McpSchema.CallToolResult> => {
  if (!result.isFailure) {
    const content = contentOf(result.modelOutput, result.encodedResult)
    return Effect.succeed(
      new McpSchema.CallToolResult(structured ? { content, structuredContent: result.encodedResult } : { content })
    )
  }
  if (result.failureOrigin === "handler") {
    return Effect.succeed(errorResult(failureText(result.result, result.encodedResult)))
  }
  // "parameters" was refused before the handler ran; "result" is a handler answering outside its schema.
  return Effect.die(result.result)
}

/**
 * Registers every tool of `toolkit` on the `McpServer` in context (see the module's comment), or
 * those of them named in {@link EnabledTools} when it is set. The
 * handlers (`toolkit.toLayer(…)`) and the services of the tools' schemas are required here; services a
 * tool declares as dependencies are request-level, as with `McpServer.registerToolkit`.
 */
export const register: <Tools extends Record<string, Tool.Any>>(
  toolkit: Toolkit.Toolkit<Tools>
) => Effect.Effect<void, never, McpServer.ToolkitRequirements<Tools>> = Effect.fnUntraced(function*<
  Tools extends Record<string, Tool.Any>
>(toolkit: Toolkit.Toolkit<Tools>) {
  const server = yield* McpServer.McpServer
  const built = yield* (toolkit as unknown as Effect.Effect<Toolkit.WithHandler<Tools>>).pipe(
    Effect.updateContext((context: Context.Context<never>) => {
      // Handlers keep the context their layer was built in, less what belongs to a request.
      const services = new Map(context.mapUnsafe)
      for (const tool of Object.values(toolkit.tools)) {
        const handler = services.get(tool.id) as Tool.Handler<string> | undefined
        if (handler !== undefined) services.set(tool.id, { ...handler, context: omitRequestServices(handler.context) })
      }
      return Context.makeUnsafe(services)
    })
  )
  const services = yield* Effect.context<never>()
  const structured = yield* StructuredAnswers
  const note = withNote(yield* AnswerNote)
  const enabled = yield* EnabledTools
  for (const tool of Object.values(built.tools) as ReadonlyArray<Tool.Any>) {
    if (enabled !== undefined && !enabled.has(tool.name)) continue
    const mcpTool = yield* mcpToolOf(tool, structured)
    const parameters = Object.keys(mcpTool.inputSchema.properties ?? {})
    yield* server.addTool({
      tool: mcpTool,
      annotations: tool.annotations,
      services,
      handle: (payload) =>
        Effect.flatMap(Effect.service(McpSchema.McpRequestContext), (request) => {
          const token = request.requestMetadata?.progressToken
          const call = Effect.map(callTool(built, tool, parameters, payload, structured), note).pipe(
            // The answer budget holds for what is sent: the structured answer too, when it is.
            Effect.provideService(StructuredCall, structured)
          )
          return token === undefined || token === null
            ? call
            : withProgress(call, token as McpSchema.ProgressToken, server)
        })
    })
  }
})
