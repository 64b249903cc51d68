/**
 * The MCP server of `s2 mcp`: loaded by the command when it runs (a dynamic `import()`), so that
 * effect/ai and the tools' definitions are not evaluated when any other command starts.
 *
 * @since 0.1.0
 */
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import { AssistantTools } from "@s2-effect/core"
import * as McpProtocol from "effect/ai/McpProtocol"
import * as McpServer from "effect/ai/McpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import { visibleMessage } from "../render/Escape.js"

/** JSON-RPC's answer to a message that is not JSON: it has no id to answer with. */
const parseError = JSON.stringify({
  jsonrpc: "2.0",
  id: null,
  error: { code: -32700, message: "Parse error: a line of standard input is not JSON" }
}) + "\n"

const isJson = (line: string): boolean => {
  try {
    JSON.parse(line)
    return true
  } catch {
    return false
  }
}

/**
 * Standard input one message per line, lines that are not JSON answered with a parse error and a
 * Warning on stderr. effect's stdio transport decodes what one read brings at once, and a line
 * that is not JSON failed the whole read: the messages beside it (an `initialize`) were dropped
 * without an answer, and the server saw the end of its input.
 */
const checkedLines: Layer.Layer<Stdio.Stdio, never, Stdio.Stdio> = Layer.effect(
  Stdio.Stdio,
  Effect.map(Effect.service(Stdio.Stdio), (stdio) =>
    Stdio.make({
      args: stdio.args,
      stdout: (options) => stdio.stdout(options),
      stderr: (options) => stdio.stderr(options),
      stdin: stdio.stdin.pipe(
        Stream.decodeText(),
        Stream.splitLines,
        Stream.filterEffect((line) =>
          line.trim().length === 0 || isJson(line)
            ? Effect.succeed(line.trim().length > 0)
            : Effect.logWarning(
              `s2 mcp: a line of standard input is not JSON, answered with a parse error: ${
                visibleMessage(line.slice(0, 80))
              }`
            ).pipe(
              Effect.andThen(Stream.run(Stream.make(parseError), stdio.stdout())),
              Effect.orElseSucceed(() => undefined),
              Effect.as(false)
            )
        ),
        Stream.map((line) => `${line}\n`),
        Stream.encodeText
      )
    }))
)

/**
 * `s2` as an MCP server on standard input and output, serving every tool of `AssistantTools`.
 *
 * @since 0.1.0
 */
export const layer = McpServer.layerStdio({
  name: "s2",
  version: packageJson.version,
  protocols: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05],
  registrations: AssistantTools.mcp
}).pipe(Layer.provide(checkedLines))
