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
import type { CommandError } from "../ExitCode.js"
import * as Parse from "../Parse.js"
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

interface Options {
  readonly watchState: Option.Option<string>
  readonly structured: boolean
  readonly tools: Option.Option<string>
  readonly maxAnswerChars: Option.Option<number>
}

const serve = (options: Options) =>
  Effect.gen(function*() {
    // Loaded only by this command, so that no other `s2` command starts slower.
    const { layer, maxAnswerChars, toolsOf } = yield* Effect.promise(() => import("../McpServer.js"))
    const { emulator } = yield* SharedFlags.s2
    // Refused before serving: an assistant would only see a server that lists the wrong tools.
    const tools: ReadonlySet<string> | undefined = yield* Option.match(options.tools, {
      onNone: () => Effect.succeed(undefined),
      onSome: (list): Effect.Effect<ReadonlySet<string>, CommandError> => Parse.check(toolsOf(Parse.splitList(list)))
    })
    const chars = yield* Option.match(options.maxAnswerChars, {
      onNone: () => Effect.succeed(undefined),
      onSome: (n) => Parse.check(maxAnswerChars(n))
    })
    const server = layer({
      watchState: Option.match(options.watchState, {
        onNone: () => ({ file: WatchFile.defaultPath(), isDefault: true }),
        onSome: (file) => ({ file, isDefault: false })
      }),
      structured: options.structured,
      emulator,
      tools,
      maxAnswerChars: chars
    })
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
  ),
  tools: Flag.String("tools").pipe(
    Flag.withMetavar("list"),
    Flag.withDescription(
      "Serve only these tools: profiles (search, papers, authors, graph, verify, watch, all) or tool names, " +
        "comma-separated (default: all)"
    ),
    Flag.optional
  ),
  maxAnswerChars: Flag.Int("max-answer-chars").pipe(
    Flag.withMetavar("n"),
    Flag.withDescription(
      "The answer budget: at most N characters of text an answer, a longer list cut between records with " +
        "how to continue (default 24000, at least 1000)"
    ),
    Flag.optional
  )
}, serve).pipe(
  Command.withDescription("Serve the Semantic Scholar tools to an AI assistant over MCP (stdio)"),
  (command) => ClientCommand.withClient(command, withDefaultDeadline)
)
