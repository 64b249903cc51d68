/**
 * The root command `s2` and the flags every command takes (the API root, the key file, time-outs,
 * retries, logging, the emulator, Redis, the cache, cassettes): defined once, on the root, and
 * inherited by every subcommand, which reads them with `yield* s2`. The client is built from them
 * in `Client.ts`; what else they turn into is here: a command's progress (`-q/--quiet`) and the
 * command line the demo passes on.
 *
 * @since 1.1.0
 */
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Cache from "./Cache.js"
import * as Cassettes from "./Cassettes.js"
import { badInput } from "./ExitCode.js"
import { Printer } from "./Printer.js"
import * as Progress from "./render/Progress.js"
import * as SharedLimit from "./SharedLimit.js"
import * as TextFlag from "./TextFlag.js"

/**
 * The flags every command takes, parsed.
 *
 * @since 1.0.0
 */
export interface SharedFlags extends Cache.Flags, Cassettes.Settings {
  readonly apiUrl: Option.Option<string>
  readonly timeout: Option.Option<string>
  readonly deadline: Option.Option<string>
  readonly noRetry: boolean
  readonly verbose: boolean
  readonly apiKeyFile: Option.Option<string>
  readonly emulator: boolean
  readonly redis: Option.Option<string>
  readonly quiet: boolean
}

const bool = (name: string, description: string) =>
  Flag.Boolean(name).pipe(Flag.withDescription(description), Flag.withDefault(false))

/**
 * The flags every command takes: the root's shared flags.
 *
 * @since 1.0.0
 */
export const flags = {
  apiUrl: Flag.String("api-url").pipe(
    Flag.withMetavar("url"),
    Flag.withDescription("API root (default S2_API_URL, else https://api.semanticscholar.org)"),
    // S2_API_URL is read by the client's config (Client.ts), not as this flag's fallback: a
    // default in the environment does not conflict with --emulator, a flag does.
    Flag.optional
  ),
  timeout: TextFlag.optional(
    "timeout",
    "duration",
    "Per-request time-out: seconds (30) or a duration (\"10 seconds\", 500ms)"
  ),
  deadline: TextFlag.optional(
    "deadline",
    "duration",
    "Longest one request may take with its retries and waits (default 15m; each page of a list is one request)"
  ),
  noRetry: bool("no-retry", "Make one attempt per request"),
  verbose: bool(
    "verbose",
    "Debug log of every request on stderr (API key redacted), stack traces on errors"
  ),
  apiKeyFile: TextFlag.optional(
    "api-key-file",
    "file",
    "Read the API key from this file (default: the S2_API_KEY environment variable)"
  ),
  quiet: bool("quiet", "No progress lines (harvest, bulk search, downloads); warnings still show").pipe(
    Flag.withAlias("q")
  ),
  emulator: bool(
    "emulator",
    "Run against the in-process emulator (offline, no key; size from S2_EMULATOR_SIZE, faults from S2_EMULATOR_FAULTS)"
  ),
  redis: SharedLimit.redisFlag,
  ...Cache.flags,
  ...Cassettes.flags
} as const

const description =
  "The Semantic Scholar APIs from the command line. The API key comes from S2_API_KEY (or --api-key-file)."

/**
 * The root command `s2` with the flags every command takes, before its subcommands are attached
 * (see `Cli.ts`). A command reads those flags with `yield* s2`.
 *
 * @since 1.0.0
 */
export const s2 = Command.make("s2").pipe(Command.withDescription(description), Command.withSharedFlags(flags))

/**
 * How long a command runs before its progress shows: a second, or `S2_PROGRESS_DELAY_MS`
 * milliseconds (for tests, which must not depend on how fast the machine is; docs/cli.md).
 */
const progressDelay = Config.Int("S2_PROGRESS_DELAY_MS").pipe(
  Config.withDefault(1000),
  Effect.mapError(() => badInput("S2_PROGRESS_DELAY_MS is not a whole number of milliseconds"))
)

/**
 * The progress of a long command on stderr, shown once it has run a second: nothing under
 * `-q/--quiet`; the bar on a terminal; into a pipe, plain lines labelled `piped` (`harvest`,
 * `graph`: a log of how far a long job got), or nothing when `piped` is omitted (`search --bulk`,
 * whose records are what is piped).
 *
 * @since 1.0.0
 */
export const progress = (piped?: string) =>
  Effect.gen(function*() {
    const printer = yield* Printer
    const { quiet } = yield* s2
    if (quiet || (!printer.errIsTTY && piped === undefined)) return Progress.silent
    return Progress.delayed(
      printer.errIsTTY
        ? Progress.tty(printer.errStream, () => printer.columns)
        : Progress.plain(printer.err, 1000, piped),
      yield* progressDelay
    )
  })

/**
 * The shared flags as a command line (`--emulator --cache DIR`): what `s2 demo` passes on to each
 * of its steps, so that every shared flag acts on the demo too. Values that came from the
 * environment (`S2_CACHE`, `S2_REDIS_URL`) are spelled out; they are the same values.
 *
 * @since 1.0.0
 */
export const toArgs = (common: SharedFlags): Array<string> =>
  Object.keys(flags).flatMap((key) => {
    // Each key is its flag's name in camel case (`apiKeyFile`: `--api-key-file`).
    const name = `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`
    const value: unknown = common[key as keyof SharedFlags]
    if (typeof value === "boolean") return value ? [name] : []
    return Option.isOption(value) && Option.isSome(value) ? [name, String(value.value)] : []
  })
