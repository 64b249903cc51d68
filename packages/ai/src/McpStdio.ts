/**
 * An MCP server on standard input and output, protected: effect/ai's stdio transport behind a
 * framing that bounds what it reads and answers what it cannot take. That transport parses each read
 * whole and ends on the first line it cannot take (not JSON, over its buffer, nested deep enough to
 * overflow the stack, a `headers` that is not a list), losing the messages read with it; it answers an
 * id that is neither a string nor a number with a defect, and a message that is not an object not at
 * all. Here a line longer than {@link maxLineBytes} is dropped as it streams (never held whole), one
 * nested deeper than {@link maxDepth} is refused unparsed, JSON-RPC 2.0's invalid requests (and
 * batches) are answered with the request's id, a request with a lone UTF-16 surrogate in its params is
 * refused, and every line written is well-formed Unicode. Each refusal is logged at Warning.
 *
 * Platform-free: the server reads and writes the `Stdio` service, which a platform provides
 * (`NodeStdio.layer` of `@effect/platform-node`, or `NodeServices.layer`).
 *
 * @since 1.0.0
 */
import * as McpServer from "effect/ai/McpServer"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type * as Stdio from "effect/Stdio"
import * as lines from "./internal/framing/lines.js"
import * as internal from "./internal/stdio.js"

/**
 * The longest line of standard input taken, in bytes (4 MiB). The largest call a tool accepts,
 * `resolve_references` with 200 lines of 2,000 characters each, is at most 2.4 MB even with every
 * character escaped.
 *
 * @category limits
 * @since 1.0.0
 */
export const maxLineBytes: number = lines.maxLineBytes

/**
 * The deepest nesting of arrays and objects taken in a message (a tool call is 4 or 5 deep).
 *
 * @category limits
 * @since 1.0.0
 */
export const maxDepth: number = lines.maxDepth

/**
 * The `Stdio` in context, framed: standard input cut into lines and checked (see the module's
 * comment) before a transport reads it, standard output made well-formed. Each refusal is logged at
 * Warning as `<label>: <why>`.
 *
 * @category layers
 * @since 1.0.0
 */
export const framed: (label: string) => Layer.Layer<Stdio.Stdio, never, Stdio.Stdio> = internal.framed

/**
 * `McpServer.layerStdio` (same options) over {@link framed} standard input and output: the way to
 * serve `AssistantTools.mcp` to an assistant that starts the server as a subprocess. Standard output
 * is the protocol's alone: Effect's default logger writes to standard error here
 * (`Logger.LogToStderr`), so a refusal's or a retry's Warning never reaches the client as a line of
 * the protocol; a logger of your own must write to standard error too.
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { McpProtocol } from "effect/ai"
 * import { AssistantTools, McpStdio } from "@s2-effect/ai"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * // Still to provide: a platform's `Stdio` (e.g. `NodeStdio.layer` from @effect/platform-node)
 * // and an `HttpClient` (e.g. from @s2-effect/node); then `Layer.launch(server)`.
 * const server = McpStdio.layer({
 *   name: "s2",
 *   version: "0.1.0",
 *   protocols: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18],
 *   registrations: AssistantTools.mcp.pipe(Layer.provide(SemanticScholar.layer()))
 * })
 * ```
 * @category layers
 * @since 1.0.0
 */
export const layer: typeof McpServer.layerStdio = (options) =>
  McpServer.layerStdio(options).pipe(
    Layer.provide(internal.framed(`${options.name} mcp`)),
    Layer.provide(Layer.succeed(Logger.LogToStderr, true))
  )
