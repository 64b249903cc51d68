/**
 * The `s2` command tree and the one way to run it: from `main.ts` with the process's arguments, or
 * from the demo with arguments it chooses. Failures become one line on stderr and an exit code.
 *
 * @since 0.1.0
 */
import type { CliApp } from "@effect/cli"
import { Command, ValidationError } from "@effect/cli"
import { Cause, Effect } from "effect"
import * as Authors from "./commands/authors.js"
import * as Datasets from "./commands/datasets.js"
import * as Demo from "./commands/demo.js"
import * as Harvest from "./commands/harvest.js"
import * as Papers from "./commands/papers.js"
import * as Recommend from "./commands/recommend.js"
import * as Search from "./commands/search.js"
import { CliError, ExitCode } from "./ExitCode.js"
import { Stdio } from "./Stdio.js"

/** @since 0.1.0 */
export const version = "0.1.0"

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
    Demo.program((argv) => runWith(Command.run(base, { name: "s2", version }), argv)),
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
 * Runs a command tree with `argv` (as `process.argv`: two leading entries, then the arguments) and
 * answers the exit code. Errors are printed as one line (`s2: …`); with `--verbose`, the full cause
 * follows.
 *
 * @since 0.1.0
 */
export const runWith = <E, R>(
  run: (argv: ReadonlyArray<string>) => Effect.Effect<void, E, R>,
  argv: ReadonlyArray<string>
): Effect.Effect<ExitCode, never, R | Stdio> =>
  Effect.gen(function*() {
    const stdio = yield* Stdio
    const verbose = argv.includes("--verbose")
    return yield* run(argv).pipe(
      Effect.as<ExitCode>(ExitCode.ok),
      Effect.catchAllCause((cause) => {
        if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
        const failure = Cause.failureOption(cause)
        if (failure._tag === "Some") {
          const error: unknown = failure.value
          // @effect/cli has printed the usage error already.
          if (ValidationError.isValidationError(error)) {
            return Effect.succeed<ExitCode>(ValidationError.isHelpRequested(error) ? ExitCode.ok : ExitCode.badInput)
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

const isCliError = (u: unknown): u is { readonly message: string; readonly code: ExitCode } =>
  typeof u === "object" && u !== null && "_tag" in u && u._tag === "CliError"

/**
 * Runs `s2` with `argv`.
 *
 * @since 0.1.0
 */
export const run = (
  argv: ReadonlyArray<string>
): Effect.Effect<ExitCode, never, Stdio | CliApp.CliApp.Environment> =>
  runWith(Command.run(root, { name: "s2", version }), argv)
