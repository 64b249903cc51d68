/**
 * The flags of `s2` and what they turn into. The flags every command takes (the API root, the key
 * file, time-outs, retries, logging, the emulator, Redis, the cache, cassettes) are defined once,
 * on the root command {@link s2}, and inherited by every subcommand; `--fields`, `--max` and
 * `--format` are flags of the commands they act on. The client is built from the root's flags and
 * provided to a command by the framework ({@link withClient}); {@link run} maps client errors to
 * one-line messages with exit codes.
 *
 * @since 1.0.0
 */
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import type { S2Error } from "@s2-effect/core"
import { BadQueryParameters, excerpt, Fields, isS2Error, SemanticScholar, Validate } from "@s2-effect/core"
import type { Emulator } from "@s2-effect/testing"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as References from "effect/References"
import * as Result from "effect/Result"
import * as fs from "node:fs"
import * as Cache from "./Cache.js"
import * as Cassettes from "./Cassettes.js"
import type { CommandError } from "./ExitCode.js"
import { badInput, fileError, fromS2Error } from "./ExitCode.js"
import { Printer, safeConsole } from "./Printer.js"
import type { Format } from "./render/Format.js"
import * as Progress from "./render/Progress.js"
import * as SharedLimit from "./SharedLimit.js"
import * as TextFlag from "./TextFlag.js"

/**
 * The flags every command takes, parsed.
 *
 * @since 1.0.0
 */
export interface Common extends Cache.Flags, Cassettes.Settings {
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
    // S2_API_URL is read by the client's config (readApiSettings), not as this flag's fallback: a
    // default in the environment does not conflict with --emulator, a flag does (conflicts).
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
export const toArgs = (common: Common): Array<string> =>
  Object.keys(flags).flatMap((key) => {
    // Each key is its flag's name in camel case (`apiKeyFile`: `--api-key-file`).
    const name = `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`
    const value: unknown = common[key as keyof Common]
    if (typeof value === "boolean") return value ? [name] : []
    return Option.isOption(value) && Option.isSome(value) ? [name, String(value.value)] : []
  })

/**
 * `--fields`: the fields to return, for the commands that select fields.
 *
 * @since 1.0.0
 */
export const fieldsFlag = TextFlag.optional(
  "fields",
  "list",
  "Comma-separated fields to return (e.g. title,year,authors.name); `all` for every field"
)

/**
 * `--max`: for the commands that print a list.
 *
 * @since 1.0.0
 */
export const maxFlag = Flag.Int("max").pipe(Flag.withDescription("Stop after N records"), Flag.optional)

/**
 * `--format`: for the commands that print records.
 *
 * @since 1.0.0
 */
export const formatFlag = Flag.Literals("format", ["json", "jsonl", "table", "csv"]).pipe(
  Flag.withDescription("Output format (default: pretty JSON on a terminal, JSON lines when piped)"),
  Flag.optional
)

/**
 * The output flags of a command that prints one record.
 *
 * @since 1.0.0
 */
export interface Shown {
  readonly format: Option.Option<Format>
}

/**
 * The output flags of a command that prints a list.
 *
 * @since 1.0.0
 */
export interface Listed extends Shown {
  readonly max: Option.Option<number>
}

/**
 * The in-process emulator used by `--emulator`: corpus size and seed. The default size is
 * `S2_EMULATOR_SIZE` or 10,000 papers; the demo provides 100,000.
 *
 * @since 1.0.0
 */
export const EmulatorSettings = Context.Reference<{ readonly size: number | undefined; readonly seed: number }>(
  "@s2-effect/cli/EmulatorSettings",
  { defaultValue: () => ({ size: undefined, seed: 1 }) }
)

type Built = Effect.Success<ReturnType<typeof Emulator["make"]>>
const emulators = new Map<string, Built>()

/**
 * The in-process emulator `--emulator` uses, built once per process for the size and seed of
 * {@link EmulatorSettings} (the demo runs many commands against one corpus, and reads it to choose
 * what to show), with the faults of `S2_EMULATOR_FAULTS` (the JSON of a `Faults.Config`), so that
 * a 429 storm can be tried offline; a value that does not decode is refused (exit 2).
 *
 * @since 1.0.0
 */
export const inProcessEmulator: Effect.Effect<Built, CommandError> = Effect.gen(function*() {
  const settings = yield* EmulatorSettings
  const fromEnv = yield* Config.Int("S2_EMULATOR_SIZE").pipe(Config.withDefault(10_000), Effect.orDie)
  const faultsText = Option.filter(
    yield* Config.option(Config.String("S2_EMULATOR_FAULTS")).pipe(Effect.orDie),
    (text) => text.trim().length > 0
  )
  const size = settings.size ?? fromEnv
  const key = `${settings.seed}/${size}/${Option.getOrElse(faultsText, () => "")}`
  let built = emulators.get(key)
  if (built === undefined) {
    // Loaded only when asked for, so that commands against the API start faster.
    const testing = yield* Effect.promise(() => import("@s2-effect/testing"))
    const faults = Option.isNone(faultsText) ? undefined : yield* Result.match(
      testing.Faults.parseConfig(faultsText.value),
      {
        onFailure: (why) =>
          Effect.fail(badInput(`S2_EMULATOR_FAULTS is not a fault configuration (Faults.Config as JSON): ${why}`)),
        onSuccess: Effect.succeed
      }
    )
    built = yield* testing.Emulator.make({ seed: settings.seed, size, ...(faults === undefined ? {} : { faults }) })
    emulators.set(key, built)
  }
  return built
})

/**
 * Parses `--timeout`: a number of seconds, `500ms`, `10s`, `2m`, or an Effect duration
 * ("10 seconds").
 *
 * @since 1.0.0
 */
export const parseTimeout = (text: string): Effect.Effect<Duration.Duration, CommandError> =>
  parseDuration("--timeout", text)

/**
 * Parses a duration flag (`--timeout`, `--deadline`): a number of seconds, `500ms`, `10s`, `2m`, or
 * an Effect duration ("10 seconds").
 *
 * @since 1.0.0
 */
export const parseDuration = (flag: string, text: string): Effect.Effect<Duration.Duration, CommandError> => {
  const trimmed = text.trim()
  const unit = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(trimmed)
  const input: Duration.Input | undefined = unit === null
    ? Option.getOrUndefined(Duration.fromInput(trimmed as Duration.Input))
    : Duration.millis(Number(unit[1]) * (unit[2] === "ms" ? 1 : unit[2] === "m" ? 60_000 : 1000))
  const message = `${flag} ${
    JSON.stringify(excerpt(text, 200))
  } is invalid: give seconds (30), 500ms, 10s, 2m or "10 seconds"`
  return input === undefined
    ? Effect.fail(badInput(message))
    : check(Validate.positiveDuration(flag, input), message)
}

/**
 * A check of the client's `Validate` module as a CLI error (exit 2): its message names the flag,
 * or `message` replaces it.
 *
 * @since 1.0.0
 */
export const check = <A>(result: Validate.Check<A>, message?: string): Effect.Effect<A, CommandError> =>
  Result.match(result, {
    onFailure: (invalid) => Effect.fail(badInput(message ?? invalid.message)),
    onSuccess: Effect.succeed
  })

/**
 * The key of `--api-key-file` (trimmed), if given; otherwise the client reads `S2_API_KEY`.
 */
const keyFile = (common: Common): Effect.Effect<Option.Option<Redacted.Redacted<string>>, CommandError> =>
  Option.match(common.apiKeyFile, {
    onNone: () => Effect.succeedNone,
    onSome: (file) =>
      Effect.try({
        try: () => fs.readFileSync(file, "utf8").trim(),
        catch: (cause) => fileError(`cannot read --api-key-file ${file}`, cause)
      }).pipe(
        Effect.flatMap((key) =>
          key.length === 0
            ? Effect.fail(badInput(`--api-key-file ${file} is empty: put the key in it`))
            : Effect.succeed(Option.some(Redacted.make(key)))
        )
      )
  })

/**
 * Key and API root: `--api-key-file` and `--api-url` (or its fallback `S2_API_URL`) when given, else
 * what the client's own `SemanticScholar.config` reads from `S2_API_KEY`. The API root is trimmed
 * and a blank one is unset, as the client's config does.
 *
 * @since 1.0.0
 */
export const readApiSettings = Effect.fnUntraced(function*(common: Common) {
  const file = yield* keyFile(common)
  const apiUrl = Option.filter(Option.map(common.apiUrl, (url) => url.trim()), (url) => url.length > 0)
  return yield* SemanticScholar.config({
    ...(Option.isSome(file) ? { apiKey: file.value } : {}),
    ...(Option.isSome(apiUrl) ? { apiUrl: apiUrl.value } : {})
  }).pipe(Effect.mapError((error) => badInput(`the environment is invalid: ${String(error)}`)))
})

/**
 * What the error messages of a command say of its client: how many retries it makes and whether
 * it sends a key. Provided with the client by {@link withClient}.
 *
 * @since 1.0.0
 */
export class ClientFacts extends Context.Service<ClientFacts, {
  readonly retries: number
  readonly hasKey: boolean
}>()("@s2-effect/cli/ClientFacts") {}

const defaultRetries = 10

/**
 * The API root under `--emulator`: requests never leave the process, and error messages should
 * not name api.semanticscholar.org as the server that answered.
 *
 * @since 1.0.0
 */
export const emulatorUrl = "https://emulator.s2.test"

/** The `HttpClient` of the flags: the in-process emulator, or undici for the API (then a cassette around it). */
const httpClient = (common: Common, emulator: Built | undefined) =>
  Cassettes.around(
    common,
    emulator !== undefined
      ? Layer.succeed(HttpClient.HttpClient, emulator.client)
      // Loaded when a command talks to the API: undici is a fifth of `s2`'s code (`s2 --help` needs none).
      : Layer.unwrap(
        Effect.promise(() => import("@s2-effect/node")).pipe(
          Effect.map((node) => node.NodeSemanticScholar.httpClient)
        )
      )
  )

/**
 * What `s2` calls itself to the servers it asks: its name and the version `s2 --version` prints, so
 * that a server's operators can tell its requests (and its versions) apart.
 *
 * @since 1.0.0
 */
export const userAgent = `s2/${packageJson.version} (@s2-effect/cli)`

const withUserAgent = HttpClient.mapRequest(HttpClientRequest.setHeader("user-agent", userAgent))

/**
 * Refuses shared flags that contradict each other, rather than silently preferring one:
 * `--emulator` with `--api-url` (two servers). `--record` with `--replay` is refused by the cassette
 * (Cassettes.around).
 *
 * @since 1.0.0
 */
export const conflicts = (common: Common): Effect.Effect<void, CommandError> =>
  common.emulator && Option.exists(common.apiUrl, (url) => url.trim().length > 0)
    ? Effect.fail(badInput("--emulator and --api-url exclude each other: give one (--emulator needs no API root)"))
    : Effect.void

/**
 * The client of the shared flags and the environment, with its {@link ClientFacts}.
 *
 * @since 1.0.0
 */
export const client = (common: Common): Layer.Layer<SemanticScholar | ClientFacts, CommandError> =>
  Layer.unwrap(Effect.gen(function*() {
    yield* conflicts(common)
    const { apiKey: key, apiUrl } = yield* readApiSettings(common)
    const apiKey = Option.fromUndefinedOr(key)
    const timeout = Option.isSome(common.timeout) ? yield* parseTimeout(common.timeout.value) : undefined
    const deadline = Option.isSome(common.deadline)
      ? yield* parseDuration("--deadline", common.deadline.value)
      : undefined
    // Built here, so that a bad S2_EMULATOR_FAULTS is a CLI error (exit 2) before any request.
    const http = yield* httpClient(common, common.emulator ? yield* inProcessEmulator : undefined)
    // A replay answers retries with the recorded retries (Cassettes.retry), so it retries too.
    const noRetry = common.noRetry
    const cache = yield* Cache.cacheOption(common, common.emulator)
    const facts = { retries: noRetry ? 0 : defaultRetries, hasKey: Option.isSome(apiKey) }
    const layer = SemanticScholar.layer({
      cache,
      apiKey: Option.getOrUndefined(apiKey),
      apiUrl: common.emulator ? emulatorUrl : apiUrl,
      timeout,
      deadline,
      transformClient: withUserAgent,
      ...(noRetry ? { retry: false } : Cassettes.retry(common)),
      // The emulator and a replay need no pacing; the real API gets the client's default (1/s with a key).
      ...(common.emulator || Cassettes.replaying(common) ? { rateLimit: false } : {}),
      // --redis: one pace shared with the other processes on the key, even against the emulator.
      ...(yield* SharedLimit.rateLimit(common.redis))
    }).pipe(
      Layer.provide(http),
      Cassettes.mapLayerError((error: S2Error | CommandError) =>
        isS2Error(error) ? fromS2Error(error, { what: "configuring the client", ...facts, retries: 0 }) : error
      )
    )
    return Layer.merge(layer, Layer.succeed(ClientFacts, facts))
  }))

/**
 * With `--verbose`: debug-level logging to stderr. Otherwise warnings and above, to stderr: stdout
 * carries records.
 *
 * @since 1.0.0
 */
export const logging = (verbose: boolean): Layer.Layer<never> =>
  Layer.mergeAll(
    Logger.layer([Logger.consolePretty({ colors: false })]),
    Layer.succeed(Logger.LogToStderr, true),
    // Log lines quote URLs, causes and bodies from servers: their control characters are escaped.
    Layer.succeed(Console.Console, safeConsole),
    Layer.succeed(References.MinimumLogLevel, verbose ? "Debug" : "Warn")
  )

/**
 * Provides a command with the client of the shared flags, and the logging of `--verbose`: the
 * framework builds them once the command line is parsed, before the command's handler runs.
 *
 * @since 1.0.0
 */
export const withClient = <Name extends string, Input, ContextInput, E, R>(
  self: Command.Command<Name, Input, ContextInput, E, R>,
  /** A command's own defaults for the shared flags (`s2 mcp`: a shorter `--deadline`). */
  defaults: (common: Common) => Common = (common) => common
) =>
  Command.provide(
    self,
    Layer.unwrap(
      Effect.map(s2, (common) => client(defaults(common)).pipe(Layer.provideMerge(logging(common.verbose))))
    )
  )

/**
 * The output format: `--format`, else pretty JSON on a terminal and JSON lines when piped.
 *
 * @since 1.0.0
 */
export const format = (shown: Shown): Effect.Effect<Format, never, Printer> =>
  Printer.useSync((printer) => Option.getOrElse(shown.format, () => (printer.outIsTTY ? "json" : "jsonl")))

/**
 * The `--max` limit, checked (a whole number ≥ 1), or `undefined` for no limit.
 *
 * @since 1.0.0
 */
export const max = (listed: { readonly max: Option.Option<number> }): Effect.Effect<number | undefined, CommandError> =>
  Option.match(listed.max, {
    onNone: () => Effect.succeed(undefined),
    onSome: (n) => check(Validate.wholeNumber("--max", n, { min: 1 }))
  })

/**
 * The field selection of a command: `--fields` checked against what the endpoint accepts (a typed
 * `BadQueryParameters` naming the unknown field), the command's defaults when omitted, and the
 * client's own default (every field) for `--fields all`.
 *
 * @since 1.0.0
 */
export const fields = (
  selected: { readonly fields: Option.Option<string> },
  set: Fields.FieldSet,
  defaults: ReadonlyArray<string>
): Effect.Effect<Fields.Selection | undefined, S2Error> => {
  const given = Option.getOrUndefined(selected.fields)
  if (given !== undefined && given.trim() === "all") return Effect.succeed(undefined)
  // Checked once here; the client sends a Selection as is. Names the client does not know are
  // refused: `--fields all` is the way to fields newer than this client.
  return Fields.select(set, given === undefined ? defaults : splitList(given)).pipe(Effect.mapError(forCli))
}

/**
 * The client's advice for an unknown field is for code (`Fields.unchecked(…)`); on the command
 * line, `--fields all` asks for every field the API has, newer ones included.
 */
const forCli = (error: S2Error): S2Error =>
  error._tag === "BadQueryParameters" && error.message.includes("Fields.unchecked(")
    ? new BadQueryParameters({
      ...error,
      message: error.message.replace(
        /use Fields\.unchecked\(.*?\) for a field newer than this client/,
        "--fields all returns every field the API has, including fields newer than this client"
      )
    })
    : error

/**
 * Splits a comma-separated option value, trimming and dropping empty entries.
 *
 * @since 1.0.0
 */
export const splitList = (text: string): Array<string> =>
  text.split(",").map((s) => s.trim()).filter((s) => s.length > 0)

/**
 * Runs the body of a command against the client {@link withClient} provides, turning client errors
 * into one-line {@link CommandError}s (`what` says what was being done).
 *
 * @since 1.0.0
 */
export const run = <A, R>(
  what: string,
  body: Effect.Effect<A, S2Error | CommandError, R>
): Effect.Effect<A, CommandError, R | ClientFacts> =>
  ClientFacts.use((facts) =>
    body.pipe(
      Effect.catchIf(isS2Error, (error) => Effect.fail(fromS2Error(error, { what, ...facts })))
    )
  )
