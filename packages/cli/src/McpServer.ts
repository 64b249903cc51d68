/**
 * The MCP server of `s2 mcp`: loaded by the command when it runs (a dynamic `import()`), so that
 * effect/ai and the tools' definitions are not evaluated when any other command starts.
 *
 * @since 1.0.0
 */
import { AssistantTools, McpStdio, WatchTools } from "@s2-effect/ai"
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import { excerpt, Validate } from "@s2-effect/core"
import * as McpProtocol from "effect/ai/McpProtocol"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Path from "effect/Path"
import { CommandError, ExitCode } from "./ExitCode.js"
import * as WatchFile from "./WatchFile.js"

/**
 * The tools of `--tools`: profiles and tool names (`AssistantTools.selectTools`).
 *
 * @since 1.1.0
 */
export const toolsOf = (names: ReadonlyArray<string>): Validate.Check<ReadonlySet<string>> =>
  AssistantTools.selectTools("--tools", names)

/**
 * The budget of `--max-answer-chars`: a whole number of characters, at least
 * `AssistantTools.minMaxAnswerChars`.
 *
 * @since 1.1.0
 */
export const maxAnswerChars = (n: number): Validate.Check<number> =>
  Validate.wholeNumber("--max-answer-chars", n, { min: AssistantTools.minMaxAnswerChars })

/**
 * What `s2 mcp` serves: the watch tools' state file, `structured` answers, the `emulator`'s note,
 * the `tools` to serve (all when `undefined`) and the answer budget (the default when `undefined`).
 *
 * @since 1.1.0
 */
export interface ServerOptions {
  readonly watchState: { readonly file: string; readonly isDefault: boolean }
  readonly structured: boolean
  readonly emulator: boolean
  readonly tools?: ReadonlySet<string> | undefined
  readonly maxAnswerChars?: number | undefined
}

/**
 * `s2` as an MCP server on standard input and output (framed by `McpStdio`), serving the tools of
 * `AssistantTools` and `WatchTools` (those of `tools` only, when given); compactly (no output
 * schemas, each answer once as text) unless `structured`; every answer within the answer budget.
 *
 * @since 1.0.0
 */
export const layer = (options: ServerOptions) =>
  McpStdio.layer({
    name: "s2",
    version: packageJson.version,
    protocols: [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05],
    registrations: Layer.merge(
      AssistantTools.mcp,
      WatchTools.mcp.pipe(Layer.provide(watchStore(options.watchState)))
    ).pipe(
      Layer.provide(Layer.succeed(AssistantTools.StructuredAnswers, options.structured)),
      Layer.provide(Layer.succeed(AssistantTools.AnswerNote, options.emulator ? emulatorNote : undefined)),
      Layer.provide(Layer.succeed(AssistantTools.EnabledTools, options.tools)),
      Layer.provide(
        Layer.succeed(AssistantTools.MaxAnswerChars, options.maxAnswerChars ?? AssistantTools.defaultMaxAnswerChars)
      )
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
