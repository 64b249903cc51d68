/**
 * Watches as assistant tools: `check_watches` says what is new for the named watches (compact
 * paper summaries, at most `limit`; the papers not shown are shown by the next call) and
 * `add_watch` adds one. The state is kept by a {@link WatchStore}: `s2 mcp` provides its state
 * file (the one `s2 watch` uses); {@link memory} keeps it in memory. A toolkit of its own, so that
 * `AssistantTools.toolkit`'s handlers still need nothing but the client.
 *
 * @since 1.1.0
 */
import type { SemanticScholar } from "@s2-effect/core"
import type { Watch } from "@s2-effect/jobs"
import type * as McpServer from "effect/ai/McpServer"
import type * as Tool from "effect/ai/Tool"
import * as Layer from "effect/Layer"
import * as mcpTools from "./internal/mcp.js"
import * as internal from "./internal/watch.js"
import type { WatchStore } from "./WatchStore.js"

export { type Update, WatchStore } from "./WatchStore.js"

/**
 * A {@link WatchStore} in memory, starting from `initial` (default: no watches).
 *
 * @category layers
 * @since 1.1.0
 */
export const memory: (initial?: Watch.State) => Layer.Layer<WatchStore> = internal.memory

/**
 * The answer of `check_watches`: for each watch checked, its new papers (summaries), how many
 * more were new than shown, or why it failed.
 *
 * @category answers
 * @since 1.1.0
 */
export const CheckAnswer = internal.CheckAnswer

/**
 * The answer of `add_watch`: its name and how many watches there are.
 *
 * @category answers
 * @since 1.1.0
 */
export const AddAnswer = internal.AddAnswer

/**
 * The two tools, `check_watches` and `add_watch`.
 *
 * @category tools
 * @since 1.1.0
 */
export const toolkit = internal.toolkit

/**
 * Their handlers, over the client and the store in context.
 *
 * @category layers
 * @since 1.1.0
 */
export const handlers: Layer.Layer<
  Tool.HandlersFor<typeof internal.toolkit.tools>,
  never,
  SemanticScholar | WatchStore
> = internal.handlers

/**
 * The two tools registered on the `McpServer` in context, with their {@link handlers}.
 *
 * @category mcp
 * @since 1.1.0
 */
export const mcp: Layer.Layer<never, never, McpServer.McpServer | SemanticScholar | WatchStore> = Layer
  .effectDiscard(mcpTools.register(internal.toolkit)).pipe(Layer.provide(internal.handlers))
