/**
 * The MCP server of `s2 mcp`: loaded by the command when it runs (a dynamic `import()`), so that
 * effect/ai and the tools' definitions are not evaluated when any other command starts.
 *
 * @since 1.0.0
 */
import { AssistantTools, WatchTools } from "@s2-effect/ai"
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import { excerpt } from "@s2-effect/core"
import * as McpProtocol from "effect/ai/McpProtocol"
import * as McpServer from "effect/ai/McpServer"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Sink from "effect/Sink"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import { CommandError, ExitCode } from "../ExitCode.js"
import { visibleMessage } from "../render/Escape.js"
import * as WatchFile from "../WatchFile.js"
import * as Framing from "./mcpFraming.js"

/**
 * Standard input cut into lines and checked before effect's stdio transport sees them, standard
 * output made well-formed (see ./mcpFraming.ts). A line refused is answered here, with a Warning on
 * stderr; the transport gets the others, one JSON-RPC message (or batch) a line.
 */
const framedStdio: Layer.Layer<Stdio.Stdio, never, Stdio.Stdio> = Layer.effect(
  Stdio.Stdio,
  Effect.map(Effect.service(Stdio.Stdio), (stdio) => {
    const stdout = (options?: { readonly endOnDone?: boolean | undefined }) =>
      Sink.mapInput(
        stdio.stdout(options),
        (chunk: string | Uint8Array) => typeof chunk === "string" ? Framing.wellFormedJson(chunk) : chunk
      )
    const handle = (outcome: Framing.Outcome) =>
      Effect.gen(function*() {
        if (outcome.warning !== undefined) yield* Effect.logWarning(`s2 mcp: ${visibleMessage(outcome.warning)}`)
        if (outcome.answer !== undefined) {
          // An answer that cannot be written goes where the transport's own would: nowhere.
          yield* Stream.run(Stream.make(`${outcome.answer}\n`), stdout()).pipe(Effect.ignore)
        }
        return outcome.forward
      })
    const stdin = Stream.suspend(() => {
      const framer = Framing.makeFramer()
      return stdio.stdin.pipe(
        Stream.map(framer.push),
        Stream.concat(Stream.sync(framer.end)),
        Stream.flattenIterable,
        Stream.mapEffect((line) => handle(Framing.outcomeOf(line))),
        Stream.filter((line): line is string => line !== undefined),
        // Not rewritten: a request holding a lone surrogate was refused (see ./mcpFraming.ts).
        Stream.map((line) => `${line}\n`),
        Stream.encodeText
      )
    })
    return Stdio.make({ args: stdio.args, stdout, stderr: (options) => stdio.stderr(options), stdin })
  })
)

/**
 * `s2` as an MCP server on standard input and output, serving every tool of `AssistantTools`.
 *
 * @since 1.0.0
 */
export const layer = (watchState: { readonly file: string; readonly isDefault: boolean }) =>
  McpServer.layerStdio({
    name: "s2",
    version: packageJson.version,
    protocols: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05],
    registrations: Layer.merge(AssistantTools.mcp, WatchTools.mcp.pipe(Layer.provide(watchStore(watchState))))
  }).pipe(Layer.provide(framedStdio))

/**
 * The watch tools' state: the state file of `s2 watch`, changed under its lock. What the CLI
 * would exit with is a tool failure: bad input a bad parameter, anything else (locked, a file
 * error) the state unavailable.
 */
const watchStore = ({ file, isDefault }: { readonly file: string; readonly isDefault: boolean }) =>
  Layer.effect(
    WatchTools.WatchStore,
    Effect.map(Effect.service(FileSystem.FileSystem), (fs) =>
      WatchTools.WatchStore.of({
        update: (body) =>
          Effect.scoped(WatchFile.update(file, isDefault, body)).pipe(
            Effect.provideService(FileSystem.FileSystem, fs),
            Effect.mapError((error) =>
              error instanceof CommandError
                ? new AssistantTools.ToolFailure({
                  kind: error.code === ExitCode.badInput ? "badParameter" : "stateUnavailable",
                  message: excerpt(
                    `${
                      error.code === ExitCode.badInput ? "bad parameter" : "the watch state is unavailable"
                    }: ${error.message}`,
                    300
                  )
                })
                : error
            )
          )
      }))
  )
