/**
 * The options every command shares, and what they turn into: the client layer (real API, another
 * root, or the in-process emulator), the output format, the field selection, and the mapping of
 * client errors to one-line messages with exit codes.
 *
 * @since 0.1.0
 */
import * as Options from "@effect/cli/Options"
import * as HttpClient from "@effect/platform/HttpClient"
import type { S2Error } from "@s2-effect/core"
import { BadQueryParameters, Fields, isS2Error, SemanticScholar, Validate } from "@s2-effect/core"
import type { Emulator } from "@s2-effect/testing"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as fs from "node:fs"
import * as Cache from "./Cache.js"
import * as Cassettes from "./Cassettes.js"
import type { CliError } from "./ExitCode.js"
import { badInput, fileError, fromS2Error } from "./ExitCode.js"
import type { Format } from "./render/Format.js"
import * as SharedLimit from "./SharedLimit.js"
import { Stdio } from "./Stdio.js"

/**
 * The shared options, parsed.
 *
 * @since 0.1.0
 */
export interface Common extends Cache.Flags {
  readonly fields: Option.Option<string>
  readonly max: Option.Option<number>
  readonly format: Option.Option<Format>
  readonly apiUrl: Option.Option<string>
  readonly timeout: Option.Option<string>
  readonly noRetry: boolean
  readonly verbose: boolean
  readonly apiKeyFile: Option.Option<string>
  readonly emulator: boolean
  readonly redis: Option.Option<string>
  readonly record: Option.Option<string>
  readonly replay: Option.Option<string>
}

/**
 * The shared options, to be merged into every command's own.
 *
 * @since 0.1.0
 */
export const options = {
  fields: Options.text("fields").pipe(
    Options.withDescription("Comma-separated fields to return (e.g. title,year,authors.name); `all` for every field"),
    Options.optional
  ),
  max: Options.integer("max").pipe(Options.withDescription("Stop after N records"), Options.optional),
  format: Options.choice("format", ["json", "jsonl", "table", "csv"]).pipe(
    Options.withDescription("Output format (default: pretty JSON on a terminal, JSON lines when piped)"),
    Options.optional
  ),
  apiUrl: Options.text("api-url").pipe(
    Options.withDescription("API root (default S2_API_URL, else https://api.semanticscholar.org)"),
    Options.optional
  ),
  timeout: Options.text("timeout").pipe(
    Options.withDescription("Per-request time-out: seconds (30) or a duration (\"10 seconds\", 500ms)"),
    Options.optional
  ),
  noRetry: Options.boolean("no-retry").pipe(Options.withDescription("Make one attempt per request")),
  verbose: Options.boolean("verbose").pipe(
    Options.withDescription("Debug log of every request on stderr (API key redacted), stack traces on errors")
  ),
  apiKeyFile: Options.text("api-key-file").pipe(
    Options.withDescription("Read the API key from this file (default: the S2_API_KEY environment variable)"),
    Options.optional
  ),
  emulator: Options.boolean("emulator").pipe(
    Options.withDescription("Run against the in-process emulator (offline, no key; size from S2_EMULATOR_SIZE)")
  ),
  redis: SharedLimit.redisOption,
  ...Cache.options,
  ...Cassettes.options
} as const

/**
 * The in-process emulator used by `--emulator`: corpus size and seed. The default size is
 * `S2_EMULATOR_SIZE` or 10,000 papers; the demo provides 100,000.
 *
 * @since 0.1.0
 */
export class EmulatorSettings extends Context.Reference<EmulatorSettings>()("@s2-effect/cli/EmulatorSettings", {
  defaultValue: (): { readonly size: number | undefined; readonly seed: number } => ({ size: undefined, seed: 1 })
}) {}

type Built = Effect.Effect.Success<ReturnType<typeof Emulator["make"]>>
const emulators = new Map<string, Built>()

/**
 * The emulator's `HttpClient`, built once per process for a size and seed (the demo runs many
 * commands against one corpus).
 */
/**
 * The in-process emulator `--emulator` uses, built once per process for the size and seed of
 * {@link EmulatorSettings} (the demo reads its corpus to choose what to show).
 *
 * @since 0.1.0
 */
export const inProcessEmulator: Effect.Effect<Built> = Effect.gen(function*() {
  const settings = yield* EmulatorSettings
  const fromEnv = yield* Config.integer("S2_EMULATOR_SIZE").pipe(Config.withDefault(10_000), Effect.orDie)
  const size = settings.size ?? fromEnv
  const key = `${settings.seed}/${size}`
  let built = emulators.get(key)
  if (built === undefined) {
    // Loaded only when asked for, so that commands against the API start faster.
    const testing = yield* Effect.promise(() => import("@s2-effect/testing"))
    built = yield* testing.Emulator.make({ seed: settings.seed, size })
    emulators.set(key, built)
  }
  return built
})

/**
 * Parses `--timeout`: a number of seconds, `500ms`, `10s`, `2m`, or an Effect duration
 * ("10 seconds").
 *
 * @since 0.1.0
 */
export const parseTimeout = (text: string): Effect.Effect<Duration.Duration, CliError> => {
  const trimmed = text.trim()
  const unit = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(trimmed)
  const input: Duration.DurationInput | undefined = unit === null
    ? Option.getOrUndefined(Duration.decodeUnknown(trimmed))
    : Duration.millis(Number(unit[1]) * (unit[2] === "ms" ? 1 : unit[2] === "m" ? 60_000 : 1000))
  const message = `--timeout ${JSON.stringify(text)} is invalid: give seconds (30), 500ms, 10s, 2m or "10 seconds"`
  return input === undefined
    ? Effect.fail(badInput(message))
    : check(Validate.positiveDuration("--timeout", input), message)
}

/**
 * A check of the client's `Validate` module as a CLI error (exit 2): its message names the flag,
 * or `message` replaces it.
 *
 * @since 0.1.0
 */
export const check = <A>(result: Validate.Check<A>, message?: string): Effect.Effect<A, CliError> =>
  Either.match(result, {
    onLeft: (invalid) => Effect.fail(badInput(message ?? invalid.message)),
    onRight: Effect.succeed
  })

/**
 * The key of `--api-key-file` (trimmed), if given; otherwise the client reads `S2_API_KEY`.
 */
const keyFile = (common: Common): Effect.Effect<Option.Option<Redacted.Redacted<string>>, CliError> =>
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
 * Key and API root: `--api-key-file` and `--api-url` when given, else what the client's own
 * `SemanticScholar.config` reads from `S2_API_KEY` and `S2_API_URL` (the same trimming rules).
 *
 * @since 0.1.0
 */
export const readApiSettings = (common: Common) =>
  Effect.gen(function*() {
    const file = yield* keyFile(common)
    return yield* SemanticScholar.config({
      ...(Option.isSome(file) ? { apiKey: file.value } : {}),
      ...(Option.isSome(common.apiUrl) ? { apiUrl: common.apiUrl.value } : {})
    }).pipe(Effect.mapError((error) => badInput(`the environment is invalid: ${String(error)}`)))
  })

/**
 * What a command needs to run against the API: the client layer and the facts the error messages use.
 *
 * @since 0.1.0
 */
export interface Client {
  readonly layer: Layer.Layer<SemanticScholar, CliError>
  readonly retries: number
  readonly hasKey: boolean
}

const defaultRetries = 10

/**
 * The API root under `--emulator`: requests never leave the process, and error messages should
 * not name api.semanticscholar.org as the server that answered.
 *
 * @since 0.1.0
 */
export const emulatorUrl = "https://emulator.s2.test"

/**
 * Builds the client from the shared options and the environment.
 *
 * @since 0.1.0
 */
export const client = (common: Common): Effect.Effect<Client, CliError> =>
  Effect.gen(function*() {
    const { apiKey: key, apiUrl } = yield* readApiSettings(common)
    const apiKey = Option.fromNullable(key)
    const timeout = Option.isSome(common.timeout) ? yield* parseTimeout(common.timeout.value) : undefined
    const http = yield* Cassettes.around(
      common,
      common.emulator
        ? Layer.effect(HttpClient.HttpClient, Effect.map(inProcessEmulator, (built) => built.client))
        // Loaded when a command talks to the API: undici is a fifth of `s2`'s code (`s2 --help` needs none).
        : Layer.unwrapEffect(
          Effect.promise(() => import("@s2-effect/node")).pipe(
            Effect.map((node) => node.NodeSemanticScholar.httpClient)
          )
        )
    )
    // A replay answers the same every time: retrying cannot help.
    const noRetry = common.noRetry || Cassettes.replaying(common)
    const cache = yield* Cache.cacheOption(common, common.emulator)
    const layer = SemanticScholar.layer({
      cache,
      apiKey: Option.getOrUndefined(apiKey),
      apiUrl: common.emulator ? emulatorUrl : apiUrl,
      timeout,
      ...(noRetry ? { retry: false } : {}),
      // The emulator and a replay need no pacing; the real API gets the client's default (1/s with a key).
      ...(common.emulator || Cassettes.replaying(common) ? { rateLimit: false } : {}),
      // --redis: one pace shared with the other processes on the key, even against the emulator.
      ...(yield* SharedLimit.rateLimit(common.redis))
    }).pipe(
      Layer.provide(http),
      Layer.mapError((error) =>
        isS2Error(error)
          ? fromS2Error(error, { what: "configuring the client", retries: 0, hasKey: Option.isSome(apiKey) })
          : error
      )
    )
    return { layer, retries: noRetry ? 0 : defaultRetries, hasKey: Option.isSome(apiKey) }
  })

/**
 * The output format: `--format`, else pretty JSON on a terminal and JSON lines when piped.
 *
 * @since 0.1.0
 */
export const format = (common: Common): Effect.Effect<Format, never, Stdio> =>
  Effect.map(Stdio, (stdio) => Option.getOrElse(common.format, () => (stdio.outIsTTY ? "json" : "jsonl")))

/**
 * The `--max` limit, checked (a whole number ≥ 1), or `undefined` for no limit.
 *
 * @since 0.1.0
 */
export const max = (common: Common): Effect.Effect<number | undefined, CliError> =>
  Option.match(common.max, {
    onNone: () => Effect.succeed(undefined),
    onSome: (n) => check(Validate.wholeNumber("--max", n, { min: 1 }))
  })

/**
 * The field selection of a command: `--fields` checked against what the endpoint accepts (a typed
 * `BadQueryParameters` naming the unknown field), the command's defaults when omitted, and the
 * client's own default (every field) for `--fields all`.
 *
 * @since 0.1.0
 */
export const fields = (
  common: Common,
  set: Fields.FieldSet,
  defaults: ReadonlyArray<string>
): Effect.Effect<Fields.Selection | undefined, S2Error> => {
  const given = Option.getOrUndefined(common.fields)
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
 * @since 0.1.0
 */
export const splitList = (text: string): Array<string> =>
  text.split(",").map((s) => s.trim()).filter((s) => s.length > 0)

/**
 * Runs the body of a command against the client: provides the client layer, turns client errors
 * into one-line {@link CliError}s (`what` says what was being done), and with `--verbose` logs
 * every request at debug level on stderr.
 *
 * @since 0.1.0
 */
export const run = <A, R>(
  common: Common,
  what: string,
  body: Effect.Effect<A, S2Error | CliError, R>
): Effect.Effect<A, CliError, Exclude<R, SemanticScholar>> =>
  Effect.gen(function*() {
    const built = yield* client(common)
    return yield* body.pipe(
      Effect.provide(built.layer),
      Effect.catchIf(
        isS2Error,
        (error) => Effect.fail(fromS2Error(error, { what, retries: built.retries, hasKey: built.hasKey }))
      )
    )
  }).pipe(withLogging(common.verbose))

/**
 * With `--verbose`: debug-level logging to stderr. Otherwise warnings and above, to stderr.
 *
 * @since 0.1.0
 */
export const withLogging = (verbose: boolean) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  self.pipe(
    Logger.withMinimumLogLevel(verbose ? LogLevel.Debug : LogLevel.Warning),
    Effect.provide(stderrOnly)
  )

const stderrLogger = Logger.prettyLogger({ stderr: true, colors: false })

/**
 * The log goes to stderr only: stdout carries records. `NodeRuntime.runMain` has already swapped
 * the default logger (stdout) for its pretty one (stdout too), so both are replaced.
 */
const stderrOnly = Layer.merge(
  Logger.replace(Logger.defaultLogger, stderrLogger),
  Logger.replace(Logger.prettyLoggerDefault, stderrLogger)
)
