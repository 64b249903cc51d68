/**
 * The `s2` command tree and the one way to run it: from `main.ts` with the process's arguments, or
 * from the demo with arguments it chooses. Failures become one line on stderr and an exit code.
 *
 * @since 0.1.0
 */
import type * as CliApp from "@effect/cli/CliApp"
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Authors from "./commands/authors.js"
import * as Datasets from "./commands/datasets.js"
import * as Demo from "./commands/demo.js"
import * as Harvest from "./commands/harvest.js"
import * as Papers from "./commands/papers.js"
import * as Recommend from "./commands/recommend.js"
import * as Search from "./commands/search.js"
import { CliError, ExitCode } from "./ExitCode.js"
import * as Help from "./Help.js"
import { Stdio } from "./Stdio.js"

/**
 * The version of `s2`: that of its package.
 *
 * @since 0.1.0
 */
export const version: string = packageJson.version

/**
 * The commands of `s2`.
 *
 * @since 0.1.0
 */
export const commands = [
  Papers.paper,
  Papers.papers,
  Papers.paperAuthors,
  Papers.citations,
  Papers.references,
  Authors.author,
  Authors.authors,
  Authors.authorPapers,
  Search.search,
  Authors.searchAuthor,
  Search.match,
  Search.autocomplete,
  Search.snippets,
  Recommend.recommend,
  Datasets.datasets,
  Harvest.harvest
] as const

const description =
  "The Semantic Scholar APIs from the command line. The API key comes from S2_API_KEY (or --api-key-file)."

/**
 * The command tree without `demo`: what the demo runs, step by step.
 *
 * @since 0.1.0
 */
export const base = Command.make("s2").pipe(Command.withDescription(description), Command.withSubcommands(commands))

/**
 * `s2 demo`: runs ordinary command lines of {@link base} against a 100,000-paper in-process emulator.
 *
 * @since 0.1.0
 */
export const demo = Command.make("demo", {}, () =>
  Effect.flatMap(
    Demo.program((argv) => runWith(app(base, commands), argv)),
    (code) => code === ExitCode.ok ? Effect.void : Effect.fail(new CliError({ message: "demo step failed", code }))
  )).pipe(Command.withDescription("Show the CLI at work against a 100,000-paper in-process emulator (offline)"))

/**
 * The root command.
 *
 * @since 0.1.0
 */
export const root = Command.make("s2").pipe(
  Command.withDescription(description),
  Command.withSubcommands([...commands, demo])
)

/**
 * A command tree ready to run: @effect/cli's runner and the tree the help is rendered from.
 *
 * @since 0.1.0
 */
export interface App<E, R> {
  readonly run: (argv: ReadonlyArray<string>) => Effect.Effect<void, E | ValidationError.ValidationError, R>
  readonly tree: Help.Node
}

/**
 * The {@link App} of a root command and its subcommands.
 *
 * @since 0.1.0
 */
export const app = <Name extends string, R, E, A>(
  root: Command.Command<Name, R, E, A>,
  children: ReadonlyArray<{ readonly descriptor: Help.Node["descriptor"] }>
): App<E, R | CliApp.CliApp.Environment> => ({
  run: Command.run(root, { name: "s2", version }),
  tree: Help.tree(root.descriptor, children.map((child) => child.descriptor))
})

/**
 * Runs a command tree with `argv` (as `process.argv`: two leading entries, then the arguments) and
 * answers the exit code. `--help`, `--version` and a missing command are answered here (see
 * {@link Help}); errors are printed as one line (`s2: …`); with `--verbose`, the full cause follows.
 *
 * @since 0.1.0
 */
export const runWith = <E, R>(
  app: App<E, R>,
  argv: ReadonlyArray<string>
): Effect.Effect<ExitCode, never, R | Stdio> =>
  Effect.gen(function*() {
    const stdio = yield* Stdio
    const given = argv.slice(2)
    const flags = given.includes("--") ? given.slice(0, given.indexOf("--")) : given
    const { args, node, path } = Help.locate(app.tree, given)
    if (flags.includes("--version")) return yield* Effect.as(stdio.out(`${version}\n`), ExitCode.ok)
    if (flags.includes("--help") || flags.includes("-h")) {
      return yield* Effect.as(stdio.out(Help.render(Help.help(path, node), stdio.outIsTTY)), ExitCode.ok)
    }
    if (node.children.length > 0 && args.slice(path.length).every((arg) => arg.startsWith("-"))) {
      return yield* Effect.as(stdio.err(Help.shortUsage(path, node)), ExitCode.badInput)
    }
    const verbose = argv.includes("--verbose")
    return yield* app.run([...argv.slice(0, 2), ...args]).pipe(
      withoutCliErrorOutput,
      Effect.as<ExitCode>(ExitCode.ok),
      Effect.catchAllCause((cause) => {
        if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
        const failure = Cause.failureOption(cause)
        if (failure._tag === "Some") {
          const error: unknown = failure.value
          if (ValidationError.isValidationError(error)) {
            return Effect.as(stdio.err(`s2: ${Help.parseError(error, path, node, args)}\n`), ExitCode.badInput)
          }
          if (isCliError(error)) {
            return Effect.as(
              stdio.err(`s2: ${error.message}\n${verbose ? Cause.pretty(cause) + "\n" : ""}`),
              error.code
            )
          }
        }
        return Effect.as(
          stdio.err(
            `s2: unexpected failure: ${Cause.squash(cause)}${
              verbose ? "\n" + Cause.pretty(cause) : " (run with --verbose for details)"
            }\n`
          ),
          ExitCode.other
        )
      })
    )
  })

/** @effect/cli prints its parse errors with `Console.error`; {@link runWith} prints its own line. */
const withoutCliErrorOutput = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.console, (console) => Effect.withConsole(self, { ...console, error: () => Effect.void }))

const isCliError = (u: unknown): u is { readonly message: string; readonly code: ExitCode } =>
  typeof u === "object" && u !== null && "_tag" in u && u._tag === "CliError"

/**
 * Runs `s2` with `argv`.
 *
 * @since 0.1.0
 */
export const run = (
  argv: ReadonlyArray<string>
): Effect.Effect<ExitCode, never, Stdio | CliApp.CliApp.Environment> => runWith(app(root, [...commands, demo]), argv)
