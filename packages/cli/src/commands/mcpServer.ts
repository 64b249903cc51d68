/**
 * The MCP server of `s2 mcp`: loaded by the command when it runs (a dynamic `import()`), so that
 * effect/ai and the tools' definitions are not evaluated when any other command starts.
 *
 * @since 1.0.0
 */
import { AssistantTools, McpStdio, WatchTools } from "@s2-effect/ai"
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import { excerpt } from "@s2-effect/core"
import * as McpProtocol from "effect/ai/McpProtocol"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Path from "effect/Path"
import { CommandError, ExitCode } from "../ExitCode.js"
import * as WatchFile from "../WatchFile.js"

/**
 * `s2` as an MCP server on standard input and output (framed by `McpStdio`), serving every tool of
 * `AssistantTools` and `WatchTools`; compactly (no output schemas, each answer once as text) unless
 * `structured`.
 *
 * @since 1.0.0
 */
export const layer = (
  watchState: { readonly file: string; readonly isDefault: boolean },
  structured: boolean,
  emulator: boolean
) =>
  McpStdio.layer({
    name: "s2",
    version: packageJson.version,
    protocols: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05],
    registrations: Layer.merge(AssistantTools.mcp, WatchTools.mcp.pipe(Layer.provide(watchStore(watchState)))).pipe(
      Layer.provide(Layer.succeed(AssistantTools.StructuredAnswers, structured)),
      Layer.provide(Layer.succeed(AssistantTools.AnswerNote, emulator ? emulatorNote : undefined))
    )
  })

/** After every answer of `s2 mcp --emulator`: its papers are invented, never to be cited. */
export const emulatorNote = "[s2 emulator: made-up data for testing, not Semantic Scholar; cite none of it]"

/**
 * The watch tools' state: the state file of `s2 watch`, changed under its lock. What the CLI
 * would exit with is a tool failure: bad input a bad parameter, anything else (locked, a file
 * error) the state unavailable.
 */
const watchStore = ({ file, isDefault }: { readonly file: string; readonly isDefault: boolean }) =>
  Layer.effect(
    WatchTools.WatchStore,
    Effect.map(Effect.all([Effect.service(FileSystem.FileSystem), Effect.service(Path.Path)]), ([fs, path]) =>
      WatchTools.WatchStore.of({
        update: (body) =>
          Effect.scoped(WatchFile.update(file, isDefault, body)).pipe(
            Effect.provideService(FileSystem.FileSystem, fs),
            Effect.provideService(Path.Path, path),
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
