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
})
