/**
 * Exit codes and the one-line error messages of the CLI. Every failure ends as a {@link CommandError}
 * carrying its exit code; an {@link S2Error} of the client is turned into one by {@link fromS2Error},
 * which says what failed, why, and what to do.
 *
 * @since 1.0.0
 */
import type { Category, S2Error } from "@s2-effect/core"
import { excerpt, Files, isS2Error, RetryPolicy } from "@s2-effect/core"
import * as Schema from "effect/Schema"

/**
 * The exit codes, one per kind of failure.
 *
 * @since 1.0.0
 */
export const ExitCode = {
  ok: 0,
  other: 1,
  badInput: 2,
  notFound: 3,
  forbidden: 4,
  rateLimited: 5,
  serverError: 6,
  timeout: 7,
  transport: 8,
  decode: 9,
  file: 10,
  rateLimiter: 11,
  /** Another `s2 harvest` is writing the same `--out` (or another `s2 watch` the same state). */
  locked: 12,
  /**
   * `s2 watch check` found something new: not a failure, but told apart from "nothing new" (0)
   * for scripts. Not 10, which already means a file error.
   */
  somethingNew: 20,
  /** SIGINT (Ctrl-C): 128 + 2. */
  interrupted: 130,
  /** SIGTERM (`kill`, a service manager, a container stopping): 128 + 15; the same clean-up as SIGINT. */
  terminated: 143
} as const

/** @since 1.0.0 */
export type ExitCode = typeof ExitCode[keyof typeof ExitCode]

/**
 * A failure of a command, ready to print: `message` is the whole line (without the `s2: ` prefix),
 * `code` the exit code. Not effect/cli's `CliError`, which is a command line that did not parse
 * (`Help.presenter` prints those).
 *
 * @since 1.0.0
 */
export class CommandError extends Schema.TaggedError<CommandError>()("CommandError", {
  message: Schema.String,
  code: Schema.Literals(Object.values(ExitCode)),
  cause: Schema.optional(Schema.Defect())
}) {}

/**
 * A failure of bad input given on the command line (exit 2).
 *
 * @since 1.0.0
 */
export const badInput = (message: string): CommandError => new CommandError({ message, code: ExitCode.badInput })

/**
 * None of a command's seeds exists (exit 3, as a paper not found): `none of the seeds was found:
 * nothing to <what>`. The seeds not found are told first, one line each.
 *
 * @since 1.3.0
 */
export const noSeedFound = (what: string): CommandError =>
  new CommandError({ message: `none of the seeds was found: nothing to ${what}`, code: ExitCode.notFound })

/**
 * The line of a failure of `what` (the command line's own words, cut to 200 characters): `what
 * failed: why; todo`, as every client error is said ({@link fromS2Error}).
 *
 * @since 1.1.0
 */
export const failed = (what: string, why: string, todo: string, code: ExitCode, cause?: unknown): CommandError =>
  new CommandError({ message: `${excerpt(what, 200)} failed: ${why}; ${todo}`, code, cause })

/**
 * A failure reading or writing a local file (exit 10). The cause is said in the system's words
 * (`no space left on device (ENOSPC)`, `Files.describeError`), not as the platform names its call
 * (`Unknown: FileSystem.writeAll (21)`), which says nothing a user can act on.
 *
 * @since 1.0.0
 */
export const fileError = (what: string, cause: unknown): CommandError =>
  new CommandError({
    message: `${what}: ${Files.describeError(cause)}`,
    code: ExitCode.file,
    cause
  })

/**
 * The cassette's own failure under a client error (`CassetteMiss`, `CassetteFileError` of
 * `--record` / `--replay`), found by tag: the testing package is loaded only with those flags.
 *
 * @since 1.0.0
 */
export const cassetteFailure = (error: unknown): { readonly _tag: string; readonly message: string } | undefined => {
  for (let link = error, depth = 0; typeof link === "object" && link !== null && depth < 8; depth++) {
    const tag = (link as { readonly _tag?: unknown })._tag
    if (tag === "CassetteMiss" || tag === "CassetteFileError") return link as { _tag: string; message: string }
    link = (link as { readonly cause?: unknown }).cause
  }
  return undefined
}

/**
 * How the request was configured, for the hints of the error messages.
 *
 * @since 1.0.0
 */
export interface ErrorContext {
  /** What was being done, e.g. `paper CorpusId:1`. */
  readonly what: string
  /** 0 with `--no-retry`; otherwise the default policy is on and each cause says its own budget. */
  readonly retries: number
  readonly hasKey: boolean
}

/** ` (HTTP 404)`, unless the message names the exchange already (`request`, as every answer's error does). */
const where = (error: S2Error) =>
  error.status === undefined || error.request !== undefined ? "" : ` (HTTP ${error.status})`

/** The retry policy's default `maxRetryAfter`, which the CLI uses: longer waits are not slept through. */
const maxRetryAfterMillis = 10 * 60 * 1000

/** A `Retry-After` over the limit: the error came back at once, with no retry made. */
const waitTooLong = (error: S2Error): string | undefined => {
  const asked = error._tag === "RateLimited" || error._tag === "ServerError" ? error.retryAfterMillis : undefined
  return asked !== undefined && asked > maxRetryAfterMillis
    ? `(the server asked to wait ${RetryPolicy.formatWait(asked)}, over the ${
      RetryPolicy.formatWait(maxRetryAfterMillis, "limit")
    } limit of Retry-After waits, so no retry was made)`
    : undefined
}

/** The line saying what happened, and what to do. */
type Line = readonly [string, string]

/**
 * The exit code of each {@link Category} of client error: the one mapping from an error to an
 * exit code, so that the `s2` command and the assistant tools (whose failure kinds derive from the
 * same category) never disagree about what an error is.
 *
 * @since 1.2.0
 */
export const exitCodes: { readonly [C in Category]: ExitCode } = {
  badInput: ExitCode.badInput,
  notFound: ExitCode.notFound,
  forbidden: ExitCode.forbidden,
  rateLimited: ExitCode.rateLimited,
  server: ExitCode.serverError,
  timeout: ExitCode.timeout,
  transport: ExitCode.transport,
  badAnswer: ExitCode.decode,
  rateLimiter: ExitCode.rateLimiter
}

/**
 * Who a failure is about, and the advice that fits it: the API, whose root `--api-url` /
 * `S2_API_URL` sets, or a dataset file host (`responder: "fileHost"`), named by its host: the
 * download links the Datasets API gave point at it, and `--api-url` has no say there.
 */
interface Who {
  /** `the API`, or `the file host files.example.org`. */
  readonly name: string
  /** `the server` (the one at the API root), or the file host's name. */
  readonly server: string
  /** Advice when nobody answered. */
  readonly unreachable: string
  /** Advice when it answered something that is not its answer, after `run with --verbose and report it`. */
  readonly notIt: string
  /** Advice when it answered, but not in HTTP. */
  readonly notHttp: string
  /** Advice when an attempt's time ran out. */
  readonly slow: string
}

const hostOf = (url: string | undefined): string => {
  try {
    return excerpt(new URL(url ?? "").host, 200)
  } catch {
    return ""
  }
}

const whoFailed = (error: S2Error): Who => {
  if (error.responder !== "fileHost") {
    return {
      name: "the API",
      server: "the server",
      unreachable: "check the network and --api-url / S2_API_URL",
      notIt: "; --api-url may point at something that is not the API",
      notHttp: "--api-url / S2_API_URL may point at something that is not the API",
      slow: "raise --timeout or try again later"
    }
  }
  const host = `the file host ${hostOf(error.url)}`.trimEnd()
  return {
    name: host,
    server: host,
    unreachable: "check the network or try again later (the dataset's download links point at that host)",
    notIt: "",
    notHttp: "try again later",
    // The file host's silence is bounded on its own (60 s), not by --timeout.
    slow: "try again later"
  }
}

/** A `TransportError` by what broke: nobody reached, or a server that answered and then failed. */
const transportLine = (error: Extract<S2Error, { readonly _tag: "TransportError" }>, after: string, who: Who) => {
  switch (error.reason) {
    case "reset":
      return { why: `${who.server} dropped the connection ${after}`, todo: "try again later" }
    case "cutShort":
      return { why: `${who.server}'s answer broke off ${after}`, todo: "try again later" }
    case "malformed":
      return {
        why: `${who.server} answered, but not in valid HTTP, ${after}`,
        todo: who.notHttp
      }
    default:
      return { why: `could not reach ${who.name} ${after}`, todo: who.unreachable }
  }
}

/** A `DecodeError` by what the server sent. */
const decodeWhy = (error: Extract<S2Error, { readonly _tag: "DecodeError" }>): string => {
  switch (error.reason) {
    case "notJson":
      return error.message
    case "length":
      return `the server answered with the wrong number of entries: ${error.message}`
    default:
      return `the server answered, but not in the shape the API answers in: ${error.message}`
  }
}

/**
 * The one-line message and exit code of a client error.
 *
 * @since 1.0.0
 */
export const fromS2Error = (error: S2Error, context: ErrorContext): CommandError => {
  // Each cause has its own budget (RetryPolicy.defaultBudgets): say how many retries this one got.
  const cause = RetryPolicy.causeOf(error)
  const retries = context.retries > 0 && cause !== undefined ? RetryPolicy.defaultBudgets[cause].times : 0
  const after = context.retries > 0 ? `after ${retries} retries` : "with retries off (--no-retry)"
  const line = (code: ExitCode, why: string, todo: string) => failed(context.what, why, todo, code, error)
  // A cassette that could not be written is a local file's failure, as any other write of the CLI.
  const cassette = cassetteFailure(error)
  if (cassette?._tag === "CassetteFileError") {
    return line(ExitCode.file, cassette.message, "check the directory of --record (permissions, free space)")
  }
  // A miss is no network failure (there is no network under --replay): the cassette, a local file,
  // lacks the request, so it is exit 10 as a missing cassette is, and no retry or network advice.
  if (cassette?._tag === "CassetteMiss") {
    return line(
      ExitCode.file,
      `the request is not in the cassette (--replay): ${cassette.message}`,
      "record the command again with --record"
    )
  }
  const [why, todo] = isRefusal(error) ? refusedLine(error, context, after) : failedLine(error, after)
  return line(exitCodes[error.category], why, todo)
}

const refusalTags = ["BadQueryParameters", "InvalidOptions", "ObjectNotFound", "Forbidden", "RateLimited"] as const

/** The errors of a refusal: of the input, or by the API. */
type Refusal = Extract<S2Error, { readonly _tag: typeof refusalTags[number] }>

const isRefusal = (error: S2Error): error is Refusal => (refusalTags as ReadonlyArray<string>).includes(error._tag)

/** What the API or the input refused: the message, exit code and advice. */
const refusedLine = (error: Refusal, context: ErrorContext, after: string): Line => {
  const line = (why: string, todo: string): Line => [why, todo]
  switch (error._tag) {
    case "BadQueryParameters":
      return line(`${error.message}${where(error)}`, "fix the argument or option (see --help)")
    case "InvalidOptions":
      return line( // The CLI's key comes from the environment or a file, never from an option named apiKey.
        error.option === "apiKey" && error.problem !== undefined
          ? [`the API key (S2_API_KEY or --api-key-file) ${error.problem}`, error.advice].filter(Boolean).join(": ")
          : error.message,
        "fix the option or the environment variable (see --help)"
      )
    case "ObjectNotFound":
      // The command's words name the id already: the server's "Paper with id X not found" would say it twice.
      return line(
        error.request === undefined ? `${error.message}${where(error)}` : `not found (${error.request})`,
        "check the id or the query"
      )
    case "Forbidden":
      // The file host never sees the key: its 403 is about the pre-signed link, which the error says.
      if (error.responder === "fileHost") {
        return line(
          error.message,
          "run the command again, which fetches fresh links (the API key is never sent to the file host)"
        )
      }
      return line(
        `forbidden${where(error)}`,
        context.hasKey
          ? "the API refused the key in S2_API_KEY / --api-key-file: check it is valid and has access"
          : "this needs an API key: set S2_API_KEY (or --api-key-file)"
      )
    case "RateLimited": {
      const tooLong = waitTooLong(error)
      if (tooLong !== undefined) {
        return line(`rate limited ${tooLong}`, "try again after that time")
      }
      return line(
        `rate limited ${after}`,
        context.hasKey
          ? "wait a minute and try again (a key allows 1 request per second)"
          : "set S2_API_KEY for a higher limit, or try again later"
      )
    }
  }
}

/** What failed on the way, or in the server's answer: the message, exit code and advice. */
const failedLine = (
  error: Exclude<
    S2Error,
    { readonly _tag: "BadQueryParameters" | "InvalidOptions" | "ObjectNotFound" | "Forbidden" | "RateLimited" }
  >,
  after: string
): Line => {
  const line = (why: string, todo: string): Line => [why, todo]
  const who = whoFailed(error)
  switch (error._tag) {
    case "ServerError":
      return line(
        `${who.name} failed ${waitTooLong(error) ?? after}: ${error.message}${where(error)}`,
        "try again later"
      )
    case "Timeout":
      return error.reason === "deadline"
        ? line(
          `no complete answer within the deadline of ${RetryPolicy.formatWait(error.timeoutMillis)}, retries and ` +
            `waits included${isS2Error(error.cause) ? `; the last attempt: ${error.cause.message}` : ""}`,
          "raise --deadline or try again later"
        )
        : line(`no complete answer within ${RetryPolicy.formatWait(error.timeoutMillis)} ${after}`, who.slow)
    case "TransportError": {
      const { todo, why } = transportLine(error, after, who)
      return line(`${why}: ${error.message}`, todo)
    }
    case "DecodeError":
      return line(decodeWhy(error), `run with --verbose and report it${who.notIt}`)
    case "ProtocolError":
    case "UnexpectedStatus":
      return line(`unexpected answer: ${error.message}`, `run with --verbose and report it${who.notIt}`)
    case "RateLimiterUnavailable":
      return line(
        error.message,
        error.reason === "waitTooLong"
          ? "something else may be using the key's slots in that Redis; run without --redis to pace this process alone"
          : "check that Redis runs at --redis / S2_REDIS_URL, or run without --redis to pace this process alone"
      )
  }
}
