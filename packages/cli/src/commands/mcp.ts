/**
 * `s2 mcp`: the Semantic Scholar tools of `AssistantTools` served to an AI assistant over the Model
 * Context Protocol on standard input and output, with the client of the shared flags (`--emulator`,
 * `--api-url`, `S2_API_KEY`, `--cache`, `--redis`, `--timeout` …). Standard output carries the
 * protocol only: logs go to stderr. The server runs until the assistant closes its standard input.
 *
 * @since 1.0.0
 */
import * as Cause from "effect/Cause"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ClientCommand from "../ClientCommand.js"
import * as SharedFlags from "../SharedFlags.js"
import * as WatchFile from "../WatchFile.js"

/**
 * The deadline of one request (with its retries and waits) unless `--deadline` is given: an
 * assistant's MCP client gives up on a call after 60 s by default, so a 429 wait that would pass
 * this ends the call at once as a "rate limited" tool error the model can act on.
 *
 * @since 1.0.0
 */
export const defaultDeadline = "50s"

/** The shared flags with {@link defaultDeadline} when `--deadline` is not given. */
const withDefaultDeadline = (common: SharedFlags.SharedFlags): SharedFlags.SharedFlags =>
  Option.isSome(common.deadline) ? common : { ...common, deadline: Option.some(defaultDeadline) }

const serve = (watchState: Option.Option<string>, structured: boolean) =>
  Effect.gen(function*() {
    // Loaded only by this command, so that no other `s2` command starts slower.
    const { layer } = yield* Effect.promise(() => import("./mcpServer.js"))
    const { emulator } = yield* SharedFlags.s2
    const server = layer(
      Option.match(watchState, {
        onNone: () => ({ file: WatchFile.defaultPath(), isDefault: true }),
        onSome: (file) => ({ file, isDefault: false })
      }),
      structured,
      emulator
    )
    // The stdio transport interrupts the fiber that built it once standard input ends (the assistant
    // closed it): run it in a fiber of its own, so that this end is a normal exit (code 0), while a
    // signal still interrupts the command itself (Ctrl-C: 130, SIGTERM: 143).
    const fiber = yield* Effect.forkChild(Layer.launch(server))
    const exit = yield* Fiber.await(fiber)
    if (Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)) return yield* exit
  })

/**
 * `s2 mcp`.
 *
 * @since 1.0.0
 */
export const mcp = Command.make("mcp", {
  watchState: Flag.String("watch-state").pipe(
    Flag.withMetavar("file"),
    Flag.withDescription("The state file of check_watches and add_watch (default: that of s2 watch)"),
    Flag.optional
  ),
  structured: Flag.Boolean("structured").pipe(
    Flag.withDescription(
      "List output schemas and send each answer also as structuredContent (for clients that use them)"
    ),
    Flag.withDefault(false)
  )
}, ({ structured, watchState }) => serve(watchState, structured)).pipe(
  Command.withDescription("Serve the Semantic Scholar tools to an AI assistant over MCP (stdio)"),
  (command) => ClientCommand.withClient(command, withDefaultDeadline)
)
