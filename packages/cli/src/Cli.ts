/**
 * The `s2` command tree and the one way to run it: from `main.ts` with the process's arguments, or
 * from the demo with arguments it chooses. Failures become one line on stderr and an exit code.
 *
 * @since 1.0.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeStdio from "@effect/platform-node/NodeStdio"
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import * as Cause from "effect/Cause"
import * as Argument from "effect/cli/Argument"
import * as CliConfig from "effect/cli/CliConfig"
import * as CliError from "effect/cli/CliError"
import * as CliOutput from "effect/cli/CliOutput"
import * as Command from "effect/cli/Command"
import * as Completions from "effect/cli/Completions"
import * as Flag from "effect/cli/Flag"
import * as GlobalFlag from "effect/cli/GlobalFlag"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import * as Terminal from "effect/Terminal"
import * as Authors from "./commands/authors.js"
import * as Datasets from "./commands/datasets.js"
import * as Demo from "./commands/demo.js"
import * as GraphCommand from "./commands/graph.js"
import * as Harvest from "./commands/harvest.js"
import * as Mcp from "./commands/mcp.js"
import * as Papers from "./commands/papers.js"
import * as Recommend from "./commands/recommend.js"
import * as Related from "./commands/related.js"
import * as Resolve from "./commands/resolve.js"
import * as Search from "./commands/search.js"
import * as Verify from "./commands/verify.js"
import * as Watch from "./commands/watch.js"
import { badInput, CommandError, ExitCode } from "./ExitCode.js"
import * as Help from "./Help.js"
import { Printer } from "./Printer.js"
import { visibleMessage } from "./render/Escape.js"
import { s2, toArgs } from "./SharedFlags.js"

/**
 * The version of `s2`: that of its package.
 *
 * @since 1.0.0
 */
export const version: string = packageJson.version

/**
 * The commands of `s2`.
 *
 * @since 1.0.0
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
  Harvest.harvest,
  Resolve.resolve,
  Verify.verify,
  GraphCommand.graph,
  Related.related,
  Watch.watch,
  Mcp.mcp
] as const

/**
 * The command tree without `demo`: what the demo runs, step by step.
 *
 * @since 1.0.0
 */
export const base = s2.pipe(Command.withSubcommands(commands))

/**
 * `s2 demo`: runs ordinary command lines of {@link base} against a 100,000-paper in-process emulator.
 *
 * @since 1.0.0
 */
export const demo = Command.make("demo", {}, () =>
  Effect.gen(function*() {
    // The flags every command takes act on each step of the demo (`s2 demo --verbose`).
    const shared = toArgs(yield* s2)
    const code = yield* Demo.program((argv) => runWith(base, argv), shared)
    if (code !== ExitCode.ok) return yield* Effect.fail(new CommandError({ message: "demo step failed", code }))
  })).pipe(Command.withDescription("Show the CLI at work against a 100,000-paper in-process emulator (offline)"))

/**
 * Checks that `names` is a command under `tree` (`datasets links`): a mistyped name is refused
 * with the nearest ones, as `s2 serach` is.
 */
const checkPath = (tree: Command.Command.Any, names: ReadonlyArray<string>): Effect.Effect<void, CommandError> => {
  let command = tree
  const path = [tree.name]
  for (const name of names) {
    const children = command.subcommands.flatMap((group) => group.commands)
    const child = children.find((candidate) => candidate.name === name)
    if (child === undefined) {
      const listed = children.filter((candidate) => !candidate.unlisted).map((candidate) => candidate.name)
      return Effect.fail(badInput(
        listed.length === 0
          ? `${path.join(" ")} has no commands: run "${path.join(" ")} --help"`
          : Help.unknownCommand(name, Help.nearest(name, listed), listed)
      ))
    }
    command = child
    path.push(name)
  }
  return Effect.void
}

/**
 * `s2 help [COMMAND…]`: the help of `s2 COMMAND… --help`, for those who type it the other way
 * round. The command line is run again with `--help`, so the text is the same by construction.
 * The tree is read when the command runs: it contains this command.
 */
const help = Command.make(
  "help",
  {
    command: Argument.String("command").pipe(
      Argument.withDescription("The command (and its subcommand) to show the help of"),
      Argument.variadic()
    )
  },
  ({ command }) =>
    Effect.andThen(
      checkPath(tree(), command),
      // Runs inside the `runWith` of the root, whose presenter and environment it uses.
      Command.runWith(tree(), { version })([...command, "--help"]) as Effect.Effect<void, CommandError, Printer>
    )
).pipe(Command.withDescription("Show the help of s2, or of a command (the same as s2 COMMAND --help)"))

/**
 * `s2 serach --help`: effect/cli shows the help before it looks at the command, so a mistyped
 * command would get the root's help and exit 0. The leading names are checked first, as
 * {@link help} checks its own, down to the first command that has no subcommands (whose words are
 * its arguments).
 */
const helpPath = (tree: Command.Command.Any, args: ReadonlyArray<string>): Effect.Effect<void, CommandError> => {
  if (!args.includes("--help") && !args.includes("-h")) return Effect.void
  const names: Array<string> = []
  let command: Command.Command.Any | undefined = tree
  for (const arg of args) {
    const children: ReadonlyArray<Command.Command.Any> = command?.subcommands.flatMap((group) => group.commands) ?? []
    if (arg.startsWith("-") || children.length === 0) break
    names.push(arg)
    command = children.find((candidate) => candidate.name === arg)
  }
  return checkPath(tree, names)
}

/** The root command, for {@link help}, which is part of it. */
const tree = (): Command.Command.Any => root

/** `s2 version`: as `s2 --version`. */
const versionCommand = Command.make("version", {}, () => Printer.use((printer) => printer.out(`${version}\n`))).pipe(
  Command.withDescription("Print the version of s2 (the same as s2 --version)")
)

/**
 * The root command.
 *
 * @since 1.0.0
 */
export const root = s2.pipe(
  Command.withSubcommands([...commands, demo, help, versionCommand])
)

/**
 * The shells `s2 --completions` writes a script for: those docs/cli.md tells how to install it in.
 * The framework's own flag also takes `powershell` and the aliases `sh` and `pwsh`, which `s2` does
 * not document or test.
 *
 * @since 1.0.0
 */
export const completionShells = ["bash", "zsh", "fish"] as const

/** `--completions SHELL`: the framework's script (Completions.generate) for the shells above. */
const completions = GlobalFlag.Action<Option.Option<Completions.Shell>>({
  flag: Flag.Literals("completions", completionShells).pipe(
    Flag.optional,
    Flag.withMetavar(`<${completionShells.join("|")}>`),
    Flag.withDescription("Print the shell completion script (docs/cli.md says where to put it)")
  ),
  run: (shell, { command }) =>
    Option.isNone(shell)
      ? Effect.void
      : Console.log(Completions.generate(command.name, shell.value, Completions.fromCommand(command)))
})

/**
 * The built-in flags `s2` has: help, version and shell completions (`s2 --completions bash`); no
 * wizard (it prompts) or log level (`--verbose` is `s2`'s) of the framework.
 */
const cliConfig = CliConfig.make({ builtIns: [GlobalFlag.Help, GlobalFlag.Version, completions] })

const isCommandError = (u: unknown): u is CommandError =>
  typeof u === "object" && u !== null && "_tag" in u && u._tag === "CommandError"

/** The exit code of a failed run, and its line on stderr (parse errors are printed by {@link Help.presenter}). */
const failure = (cause: Cause.Cause<unknown>, verbose: boolean) =>
  Effect.gen(function*() {
    const printer = yield* Printer
    if (Cause.hasInterruptsOnly(cause)) return yield* Effect.interrupt
    const error = Option.getOrUndefined(Cause.findErrorOption(cause))
    // Help shown for a command line that could not be parsed, or a missing command.
    if (CliError.isCliError(error) && error._tag === "ShowHelp") return ExitCode.badInput
    if (isCommandError(error)) {
      // What the message quotes from a server is escaped and cannot start a line of its own (Escape.ts).
      yield* printer.err(`s2: ${visibleMessage(error.message)}\n${verbose ? Cause.pretty(cause) + "\n" : ""}`)
      return error.code
    }
    yield* printer.err(
      `s2: unexpected failure: ${visibleMessage(String(Cause.squash(cause)))}${
        verbose ? "\n" + Cause.pretty(cause) : " (run with --verbose for details)"
      }\n`
    )
    return ExitCode.other
  })

/**
 * Runs a command tree with `argv` (as `process.argv`: two leading entries, then the arguments) and
 * answers the exit code. `--help`, `--version`, a missing command and parse errors are printed by
 * {@link Help.presenter}; other errors are printed as one line (`s2: …`); with `--verbose`, the
 * full cause follows.
 *
 * @since 1.0.0
 */
export const runWith = <Name extends string, Input, ContextInput, E, R>(
  command: Command.Command<Name, Input, ContextInput, E, R>,
  argv: ReadonlyArray<string>
): Effect.Effect<ExitCode, never, R | Printer | Command.Environment> =>
  Effect.gen(function*() {
    const printer = yield* Printer
    const args = argv.slice(2)
    const verbose = (args.includes("--") ? args.slice(0, args.indexOf("--")) : args).includes("--verbose")
    return yield* Effect.andThen(helpPath(command, args), Command.runWith(command, { version })(args)).pipe(
      Effect.as<ExitCode>(ExitCode.ok),
      Effect.provideService(CliOutput.Presenter, Help.presenter({ printer, root: command, version })),
      Effect.provideService(CliConfig.CliConfig, cliConfig),
      Effect.catchCause((cause) => failure(cause, verbose))
    )
  })

const unused = (what: string) => Effect.die(new Error(`s2 has no ${what}`))

/**
 * What `effect/cli` needs to run `s2` in Node: the file system, paths and standard streams of
 * `@effect/platform-node`. The terminal (prompts, the wizard) and child processes are in its
 * environment too, but `s2` has none of them: Node's terminal would open standard input as a
 * stream, after which `--ids-file -` could not read it from a pipe (EAGAIN), and both would be
 * loaded on every start.
 *
 * @since 1.0.0
 */
export const platform: Layer.Layer<Command.Environment> = Layer.mergeAll(
  NodeFileSystem.layer,
  NodePath.layer,
  NodeStdio.layer,
  Layer.succeed(
    Terminal.Terminal,
    Terminal.make({
      columns: Effect.sync(() => process.stdout.columns ?? 80),
      rows: Effect.sync(() => process.stdout.rows ?? 24),
      size: unused("terminal input"),
      readInput: unused("terminal input"),
      readLine: unused("terminal input"),
      display: (text) => Effect.sync(() => void process.stdout.write(text))
    })
  ),
  Layer.succeed(ChildProcessSpawner.ChildProcessSpawner, ChildProcessSpawner.make(() => unused("child processes")))
)

/**
 * Runs `s2` with `argv`.
 *
 * @since 1.0.0
 */
export const run = (
  argv: ReadonlyArray<string>
): Effect.Effect<ExitCode, never, Printer | Command.Environment> => runWith(root, argv)
