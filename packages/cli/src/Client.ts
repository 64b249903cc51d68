/**
 * The client of a command: `SemanticScholar` built from the shared flags and the environment (the
 * key, the API root or the in-process emulator, time-outs, retries, the cache, a cassette, the
 * shared pace of `--redis`), what its error messages say of it ({@link ClientFacts}), the name it
 * gives itself to servers, and the logging of `--verbose`. `ClientCommand.ts` provides them to a
 * command.
 *
 * @since 1.1.0
 */
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import type { S2Error } from "@s2-effect/core"
import { isS2Error, SemanticScholar } from "@s2-effect/core"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as References from "effect/References"
import * as fs from "node:fs"
import * as Cache from "./Cache.js"
import * as Cassettes from "./Cassettes.js"
import type { CommandError } from "./ExitCode.js"
import { badInput, fileError, fromS2Error } from "./ExitCode.js"
import * as InProcessEmulator from "./InProcessEmulator.js"
import * as Parse from "./Parse.js"
import { consoleTo, Printer } from "./Printer.js"
import type { SharedFlags } from "./SharedFlags.js"
import * as SharedLimit from "./SharedLimit.js"

/**
 * The key of `--api-key-file` (trimmed), if given; otherwise the client reads `S2_API_KEY`.
 */
const keyFile = (common: SharedFlags): Effect.Effect<Option.Option<Redacted.Redacted<string>>, CommandError> =>
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
 */
const readApiSettings = Effect.fnUntraced(function*(common: SharedFlags) {
  const file = yield* keyFile(common)
  const apiUrl = Option.filter(Option.map(common.apiUrl, (url) => url.trim()), (url) => url.length > 0)
  return yield* SemanticScholar.config({
    ...(Option.isSome(file) ? { apiKey: file.value } : {}),
    ...(Option.isSome(apiUrl) ? { apiUrl: apiUrl.value } : {})
  }).pipe(Effect.mapError((error) => badInput(`the environment is invalid: ${String(error)}`)))
})

/**
 * What the error messages of a command say of its client: how many retries it makes and whether
 * it sends a key. Provided with the client by {@link layer}.
 *
 * @since 1.0.0
 */
export class ClientFacts extends Context.Service<ClientFacts, {
  readonly retries: number
  readonly hasKey: boolean
}>()("@s2-effect/cli/ClientFacts") {}

const defaultRetries = 10

/** The `HttpClient` of the flags: the in-process emulator, or Node's `fetch` for the API (then a cassette around it). */
const httpClient = (common: SharedFlags, emulator: InProcessEmulator.Built | undefined) =>
  Cassettes.around(
    common,
    emulator !== undefined
      ? Layer.succeed(HttpClient.HttpClient, emulator.client)
      // Loaded when a command talks to the API (`s2 --help` needs none of it).
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
 */
const conflicts = (common: SharedFlags): Effect.Effect<void, CommandError> =>
  common.emulator && Option.exists(common.apiUrl, (url) => url.trim().length > 0)
    ? Effect.fail(badInput("--emulator and --api-url exclude each other: give one (--emulator needs no API root)"))
    : Effect.void

/**
 * The client of the shared flags and the environment, with its {@link ClientFacts}.
 *
 * @since 1.0.0
 */
export const layer = (common: SharedFlags): Layer.Layer<SemanticScholar | ClientFacts, CommandError> =>
  Layer.unwrap(Effect.gen(function*() {
    yield* conflicts(common)
    const { apiKey: key, apiUrl } = yield* readApiSettings(common)
    const apiKey = Option.fromUndefinedOr(key)
    const timeout = Option.isSome(common.timeout) ? yield* Parse.duration("--timeout", common.timeout.value) : undefined
    const deadline = Option.isSome(common.deadline)
      ? yield* Parse.duration("--deadline", common.deadline.value)
      : undefined
    // Built here, so that a bad S2_EMULATOR_FAULTS is a CLI error (exit 2) before any request.
    const http = yield* httpClient(common, common.emulator ? yield* InProcessEmulator.get : undefined)
    // A replay answers retries with the recorded retries (Cassettes.retry), so it retries too.
    const noRetry = common.noRetry
    const cache = yield* Cache.cacheOption(common, common.emulator)
    const facts = { retries: noRetry ? 0 : defaultRetries, hasKey: Option.isSome(apiKey) }
    const client = SemanticScholar.layer({
      cache,
      apiKey: Option.getOrUndefined(apiKey),
      apiUrl: common.emulator ? InProcessEmulator.url : apiUrl,
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
    return Layer.merge(client, Layer.succeed(ClientFacts, facts))
  }))

/**
 * With `--verbose`: debug-level logging to stderr. Otherwise warnings and above, to stderr: stdout
 * carries records.
 *
 * @since 1.0.0
 */
export const logging = (verbose: boolean): Layer.Layer<never, never, Printer> =>
  Layer.mergeAll(
    Logger.layer([Logger.consolePretty({ colors: false })]),
    Layer.succeed(Logger.LogToStderr, true),
    // Log lines quote URLs, causes and bodies from servers: their control characters are escaped.
    Layer.effect(Console.Console, Effect.map(Effect.service(Printer), (printer) => consoleTo(printer.errStream))),
    Layer.succeed(References.MinimumLogLevel, verbose ? "Debug" : "Warn")
  )
