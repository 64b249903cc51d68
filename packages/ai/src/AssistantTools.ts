/**
 * Semantic Scholar as tools for an AI assistant, defined once with effect/ai `Tool` and `Toolkit`:
 * the same 15 tools serve an MCP server (`s2 mcp`, or your own `McpServer.layerHttp` with
 * {@link mcp}) and an Effect `LanguageModel` agent (`LanguageModel.generateText({ toolkit })` with
 * {@link handlers}).
 *
 * Answers are compact: the fields an assistant needs, at most 100 records, every string from the
 * server cut to a bound, a short text rendering for the model beside the structured answer, and
 * each within the answer budget ({@link MaxAnswerChars}: a longer list is cut between records and
 * says how to continue). {@link EnabledTools} serves some of the tools, by {@link profiles}. A
 * failure is a {@link ToolFailure} result (never a failed call) carrying one line that starts with
 * its kind: `not found: …`, `bad parameter: …`, `rate limited: …; retry after N s`, `timed out: …`.
 *
 * | tool | parameters |
 * |---|---|
 * | `search_papers` | `query`, `yearFrom?`, `yearTo?`, `fieldsOfStudy?`, `openAccessOnly?`, `limit?` (10), `offset?` (0) |
 * | `get_paper` | `id` |
 * | `get_papers` | `ids` |
 * | `get_citations`, `get_references` | `id`, `limit?` (20), `offset?` (0) |
 * | `search_authors` | `query`, `limit?` (10), `offset?` (0) |
 * | `get_author` | `id` |
 * | `get_author_papers` | `id`, `limit?` (20), `offset?` (0) |
 * | `recommend_papers` | `positive`, `negative?`, `limit?` (10), `offset?` (0) |
 * | `match_title` | `title` |
 * | `search_snippets` | `query`, `limit?` (10), `offset?` (0) |
 * | `resolve_references` | `lines` |
 * | `citation_graph` | `seeds`, `direction?` ("references"), `depth?` (1), `perNode?` (10), `maxNodes?` (50) |
 * | `related_papers` | `seeds`, `top?` (20), `offset?` (0) |
 * | `verify_references` | `text` (any form, read as `s2 verify` reads a file), `bibtex` or `lines` |
 *
 * @since 1.0.0
 */
import type { S2Error, SemanticScholar, Validate } from "@s2-effect/core"
import type * as McpServer from "effect/ai/McpServer"
import type * as Tool from "effect/ai/Tool"
import type * as Toolkit from "effect/ai/Toolkit"
import type * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as budget from "./internal/budget.js"
import * as failure from "./internal/failure.js"
import * as internal from "./internal/handlers.js"
import * as mcpTools from "./internal/mcp.js"
import * as paging from "./internal/paging.js"
import * as toolProfiles from "./internal/profiles.js"
import * as tools from "./internal/tools.js"
import type { ToolFailure } from "./ToolFailure.js"

export {
  AuthorPapersAnswer,
  AuthorSearchAnswer,
  AuthorSummary,
  CitationsAnswer,
  CitedPaper,
  GraphAnswer,
  GraphNode,
  limits,
  PaperDetail,
  PapersAnswer,
  PaperSearchAnswer,
  PaperSummary,
  RecommendationsAnswer,
  ReferencesAnswer,
  RelatedAnswer,
  RelatedPaperAnswer,
  ResolvedReference,
  SnippetAnswer,
  SnippetsAnswer,
  TitleMatch
} from "./Answers.js"
export { FailureKind, ToolFailure, ToolFailureTypeId } from "./ToolFailure.js"

/**
 * The 15 tools: `search_papers`, `get_paper`, `get_papers`, `get_citations`, `get_references`,
 * `search_authors`, `get_author`, `get_author_papers`, `recommend_papers`, `match_title`,
 * `search_snippets`, `resolve_references`, `citation_graph`, `related_papers`, `verify_references`.
 * Each is read-only, idempotent and open-world, returns its failures (`failureMode: "return"`,
 * {@link ToolFailure}) and shows the model a short text (`toModelOutput`).
 *
 * @example
 * ```ts
 * import { Effect, Layer, Stream } from "effect"
 * import { AssistantTools } from "@s2-effect/ai"
 * import type { SemanticScholar } from "@s2-effect/core"
 *
 * const program = Effect.gen(function*() {
 *   const tools = yield* AssistantTools.toolkit
 *   const results = yield* tools.handle("search_papers", { query: "graph neural networks", limit: 5 })
 *   const last = yield* Stream.runLast(results)
 *   return last
 * }).pipe(Effect.provide(AssistantTools.handlers))
 * const typed: Effect.Effect<unknown, unknown, SemanticScholar> = program
 * ```
 * @category tools
 * @since 1.0.0
 */
export const toolkit = tools.toolkit

/**
 * The handlers of every tool of {@link toolkit}, over the `SemanticScholar` client in context: give
 * it to a `LanguageModel` agent, or to your own MCP server with {@link register}.
 *
 * @category layers
 * @since 1.0.0
 */
export const handlers: Layer.Layer<Tool.HandlersFor<typeof tools.toolkit.tools>, never, SemanticScholar> =
  internal.handlers

/**
 * Options of {@link handlersWith}: `budget`, how long a call of `citation_graph`,
 * `resolve_references` or `related_papers` (the tools that make many requests) may run before it
 * answers with what it has (the graph `truncated` with `timeBudgetSeconds`, the lines not reached
 * `notTried`, the related papers ranked from the lists read by then). Default
 * {@link defaultBudget}, 40 s: an assistant's MCP client gives up on a call after 60 s by default.
 *
 * @category layers
 * @since 1.0.0
 */
export interface HandlersOptions {
  /** How long a call of `citation_graph`, `resolve_references` or `related_papers` may run (default 40 s). */
  readonly budget?: Duration.Input | undefined
}

/**
 * The time budget of the tools that make many requests when none is given: 40 s (measured with
 * Effect's `Clock`).
 *
 * @category constants
 * @since 1.0.0
 */
export const defaultBudget: Duration.Duration = budget.defaultBudget

/**
 * {@link handlers} with options, e.g. another time budget:
 * `AssistantTools.handlersWith({ budget: "20 seconds" })`. To serve them over MCP:
 * `Layer.effectDiscard(AssistantTools.register(AssistantTools.toolkit)).pipe(Layer.provide(handlersWith(…)))`.
 *
 * @category layers
 * @since 1.0.0
 */
export const handlersWith: (
  options?: HandlersOptions
) => Layer.Layer<Tool.HandlersFor<typeof tools.toolkit.tools>, never, SemanticScholar> = internal.handlersWith

/**
 * Reports a tool call's progress from a handler (e.g. "35 of 200 lines"): sent as an MCP
 * `notifications/progress` when the call came through {@link register} with a progress token,
 * numbered with the waits the client reports; a no-op anywhere else.
 *
 * @category mcp
 * @since 1.0.0
 */
export const reportProgress: (message: string) => Effect.Effect<void> = mcpTools.reportProgress

/**
 * How {@link register} (and {@link mcp}) list and answer: `true` (the default), each tool with its
 * output schema and each answer as text and as `structuredContent`; `false`, compactly for an
 * assistant's context: no output schemas and each answer once, as the text the model reads (MCP
 * clients give the model the text; `structuredContent` serves clients that handle answers as data).
 * All 17 tools of `s2 mcp` list in under 10 KB compactly, 33 KB with output schemas.
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { AssistantTools } from "@s2-effect/ai"
 *
 * const compact = AssistantTools.mcp.pipe(Layer.provide(Layer.succeed(AssistantTools.StructuredAnswers, false)))
 * ```
 * @category mcp
 * @since 1.0.0
 */
export const StructuredAnswers: Context.Reference<boolean> = mcpTools.StructuredAnswers

/**
 * A text part put after every answer of {@link register} (and {@link mcp}) but a tool error;
 * `undefined` (the default) for none. `s2 mcp --emulator` says with it that the data are made up.
 *
 * @category mcp
 * @since 1.0.0
 */
export const AnswerNote: Context.Reference<string | undefined> = mcpTools.AnswerNote

/**
 * The tools {@link register} (and {@link mcp}, `WatchTools.mcp`) serve, by name: `undefined` (the
 * default) for every tool; else only those named, the others neither listed nor callable. Give it
 * the set of {@link selectTools}, as `s2 mcp --tools search,verify` does: an assistant that needs a
 * few tools then reads a few in `tools/list` (17 tools: 10 KB; `search,verify`, 8 tools: 5 KB).
 *
 * @example
 * ```ts
 * import { Effect, Layer } from "effect"
 * import { AssistantTools } from "@s2-effect/ai"
 *
 * const only = Effect.map(
 *   Effect.fromResult(AssistantTools.selectTools("tools", ["search", "verify"])),
 *   (tools): ReadonlySet<string> => tools
 * )
 * const searchAndVerify = AssistantTools.mcp.pipe(Layer.provide(Layer.effect(AssistantTools.EnabledTools, only)))
 * ```
 * @category mcp
 * @since 1.1.0
 */
export const EnabledTools: Context.Reference<ReadonlySet<string> | undefined> = toolProfiles.EnabledTools

/**
 * The name of a tool of {@link toolkit} or `WatchTools.toolkit`.
 *
 * @category mcp
 * @since 1.1.0
 */
export type ToolName =
  | "search_papers"
  | "get_paper"
  | "get_papers"
  | "get_citations"
  | "get_references"
  | "search_authors"
  | "get_author"
  | "get_author_papers"
  | "recommend_papers"
  | "match_title"
  | "search_snippets"
  | "resolve_references"
  | "citation_graph"
  | "related_papers"
  | "verify_references"
  | "check_watches"
  | "add_watch"

/**
 * The name of a group of tools of {@link profiles}.
 *
 * @category mcp
 * @since 1.1.0
 */
export type Profile = "search" | "papers" | "authors" | "graph" | "verify" | "watch" | "all"

/**
 * The tools by group, for {@link selectTools}: `search` (search_papers, search_authors,
 * search_snippets, match_title, recommend_papers), `papers` (get_paper, get_papers, match_title),
 * `authors` (search_authors, get_author, get_author_papers), `graph` (get_citations,
 * get_references, citation_graph, related_papers), `verify` (resolve_references,
 * verify_references, get_paper), `watch` (check_watches, add_watch of `WatchTools`) and `all`.
 *
 * @category mcp
 * @since 1.1.0
 */
export const profiles: { readonly [P in Profile]: ReadonlyArray<ToolName> } = toolProfiles.profiles

/**
 * The names of every tool of {@link toolkit} and `WatchTools.toolkit`.
 *
 * @category mcp
 * @since 1.1.0
 */
export const toolNames: ReadonlyArray<ToolName> = toolProfiles.toolNames

/**
 * The tools of a list of {@link profiles} and tool names, for {@link EnabledTools}; a name that is
 * neither, or no name, is refused with a message naming `parameter` and what is allowed.
 *
 * @example
 * ```ts
 * import { AssistantTools } from "@s2-effect/ai"
 *
 * AssistantTools.selectTools("--tools", ["search", "get_paper"]) // Success: search_papers, …, get_paper
 * AssistantTools.selectTools("--tools", ["serch"]) // Failure: --tools "serch" is not a profile or a tool: give …
 * ```
 * @category mcp
 * @since 1.1.0
 */
export const selectTools: (
  parameter: string,
  names: ReadonlyArray<string>
) => Validate.Check<ReadonlySet<ToolName>> = toolProfiles.selectTools

/**
 * The answer budget: at most this many characters of text in an answer of a tool (default
 * {@link defaultMaxAnswerChars}). A list over it is cut at a record boundary, never inside a record,
 * and says how to continue: a page's `next` offset, the input to call again from (`get_papers`,
 * `resolve_references`, `verify_references`), or the papers not shown (`citation_graph`,
 * `check_watches`); `answerBudgetChars` in the answer says that it was cut. One paper or author is
 * answered whole. Read by the handlers at each call, so it serves an MCP server and an agent alike.
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { AssistantTools } from "@s2-effect/ai"
 *
 * const smaller = AssistantTools.mcp.pipe(Layer.provide(Layer.succeed(AssistantTools.MaxAnswerChars, 8000)))
 * ```
 * @category mcp
 * @since 1.1.0
 */
export const MaxAnswerChars: Context.Reference<number> = paging.MaxAnswerChars

/**
 * The default answer budget: 24,000 characters, about 6,000 to 10,000 tokens (4 characters a token
 * in English text, fewer in ids): below the 10,000 tokens at which Claude Code warns of a large
 * answer, the 25,000 it refuses by default and the 50,000 characters past which it saves an answer
 * to a file.
 *
 * @category constants
 * @since 1.1.0
 */
export const defaultMaxAnswerChars: number = paging.defaultMaxAnswerChars

/**
 * The smallest answer budget `s2 mcp --max-answer-chars` takes: 1,000 characters.
 *
 * @category constants
 * @since 1.1.0
 */
export const minMaxAnswerChars: number = paging.minMaxAnswerChars

/**
 * Registers each tool of a toolkit on the effect/ai `McpServer` in context, with its handler from
 * context: input and output JSON Schemas from the tool's schemas, its annotations and title, the
 * text of `toModelOutput` as content and the encoded answer as `structuredContent`. A parameter
 * that fails its schema, and a failure the handler returns, are tool errors (`isError: true`)
 * the model can read, never protocol errors; waits for the rate limit are sent as progress when
 * the request asks for it. Use it to serve your own toolkits the same way.
 *
 * @category mcp
 * @since 1.0.0
 */
export const register: <Tools extends Record<string, Tool.Any>>(
  toolkit: Toolkit.Toolkit<Tools>
) => Effect.Effect<void, never, McpServer.ToolkitRequirements<Tools>> = mcpTools.register

/**
 * Every tool of {@link toolkit} registered on the `McpServer` in context, with its {@link handlers}.
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { McpProtocol } from "effect/ai"
 * import { AssistantTools, McpStdio } from "@s2-effect/ai"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * // Serve the tools over stdio, framed against malformed input (a platform's `Stdio` and an
 * // `HttpClient` still to provide, e.g. from @effect/platform-node and @s2-effect/node).
 * const server = McpStdio.layer({
 *   name: "s2",
 *   version: "0.1.0",
 *   protocols: [McpProtocol.v2025_11_25],
 *   registrations: AssistantTools.mcp.pipe(Layer.provide(SemanticScholar.layer()))
 * })
 * ```
 * @category mcp
 * @since 1.0.0
 */
export const mcp: Layer.Layer<never, never, McpServer.McpServer | SemanticScholar> = Layer.effectDiscard(
  mcpTools.register(tools.toolkit)
).pipe(Layer.provide(internal.handlers))

/**
 * The tool failure of a client error: `ObjectNotFound` is `not found: …`, `BadQueryParameters` and
 * `InvalidOptions` `bad parameter: …`, `RateLimited` (and a deadline that stopped its retries)
 * `rate limited: …; retry after N s`, `Timeout` `timed out: …`, `Forbidden` `forbidden: …`,
 * `ServerError` `server error: …`, `TransportError` and `RateLimiterUnavailable` `unreachable: …`,
 * `DecodeError`, `ProtocolError` and `UnexpectedStatus` `bad answer from the server: …`: the kind
 * of the error's `category`, from which the `s2` command's exit code is derived too.
 *
 * @example
 * ```ts
 * import { AssistantTools } from "@s2-effect/ai"
 * import { RateLimited } from "@s2-effect/core"
 *
 * const failure = AssistantTools.toolFailure(new RateLimited({ problem: "rate limited", retryAfterMillis: 2000 }))
 * // failure.kind === "rateLimited", failure.retryAfterSeconds === 2
 * ```
 * @category errors
 * @since 1.0.0
 */
export const toolFailure: (error: S2Error) => ToolFailure = failure.toolFailure
