/**
 * Exit codes and the one-line error messages of the CLI. Every failure ends as a {@link CliError}
 * carrying its exit code; an {@link S2Error} of the client is turned into one by {@link fromS2Error},
 * which says what failed, why, and what to do.
 *
 * @since 0.1.0
 */
import type { S2Error } from "@s2-effect/core"
import { RetryPolicy } from "@s2-effect/core"
import * as Schema from "effect/Schema"

/**
 * The exit codes, one per kind of failure.
 *
 * @since 0.1.0
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
  /** Another `s2 harvest` is writing the same `--out`. */
  locked: 12,
  interrupted: 130
} as const

/** @since 0.1.0 */
export type ExitCode = typeof ExitCode[keyof typeof ExitCode]

/**
 * A failure of the CLI, ready to print: `message` is the whole line (without the `s2: ` prefix).
 *
 * @since 0.1.0
 */
export class CliError extends Schema.TaggedError<CliError>()("CliError", {
  message: Schema.String,
  code: Schema.Literals(Object.values(ExitCode)),
  cause: Schema.optional(Schema.Defect())
}) {}

/**
 * A failure of bad input given on the command line (exit 2).
 *
 * @since 0.1.0
 */
export const badInput = (message: string): CliError => new CliError({ message, code: ExitCode.badInput })

/**
 * A failure reading or writing a local file (exit 10).
 *
 * @since 0.1.0
 */
export const fileError = (what: string, cause: unknown): CliError =>
  new CliError({
    message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}`,
    code: ExitCode.file,
    cause
  })

/**
 * How the request was configured, for the hints of the error messages.
 *
 * @since 0.1.0
 */
export interface ErrorContext {
  /** What was being done, e.g. `paper CorpusId:1`. */
  readonly what: string
  /** 0 with `--no-retry`; otherwise the default policy is on and each cause says its own budget. */
  readonly retries: number
  readonly hasKey: boolean
}

const where = (error: S2Error) =>
  error.status === undefined || error.message.includes(`HTTP ${error.status}`) ? "" : ` (HTTP ${error.status})`

/** The retry policy's default `maxRetryAfter`, which the CLI uses: longer waits are not slept through. */
const maxRetryAfterMillis = 10 * 60 * 1000

/** `45 seconds`, `3 hours`, `3650 days`: the largest whole unit, as the server's wait is meant. */
const wait = (millis: number): string => {
  const units = [["day", 86_400_000], ["hour", 3_600_000], ["minute", 60_000], ["second", 1000]] as const
  const [name, size] = units.find(([, size]) => millis >= size) ?? units[3]
  const n = Math.round(millis / size)
  return `${n} ${name}${n === 1 ? "" : "s"}`
}

/** A `Retry-After` over the limit: the error came back at once, with no retry made. */
const waitTooLong = (error: S2Error): string | undefined => {
  const asked = error._tag === "RateLimited" || error._tag === "ServerError" ? error.retryAfterMillis : undefined
  return asked !== undefined && asked > maxRetryAfterMillis
    ? `(the server asked to wait ${wait(asked)} with Retry-After, over the client's maxRetryAfter of ${
      wait(maxRetryAfterMillis)
    }, so no retry was made)`
    : undefined
}

/**
 * The one-line message and exit code of a client error.
 *
 * @since 0.1.0
 */
export const fromS2Error = (error: S2Error, context: ErrorContext): CliError => {
  // Each cause has its own budget (RetryPolicy.defaultBudgets): say how many retries this one got.
  const cause = RetryPolicy.causeOf(error)
  const retries = context.retries > 0 && cause !== undefined ? RetryPolicy.defaultBudgets[cause].times : 0
  const after = context.retries > 0 ? `after ${retries} retries` : "with retries off (--no-retry)"
  const line = (code: ExitCode, why: string, todo: string) =>
    new CliError({ message: `${context.what} failed: ${why}; ${todo}`, code, cause: error })
  switch (error._tag) {
    case "BadQueryParameters":
      return line(
        ExitCode.badInput,
        `${error.message}${where(error)}`,
        "fix the argument or option (see --help)"
      )
    case "InvalidOptions":
      return line(ExitCode.badInput, error.message, "fix the option or the environment variable (see --help)")
    case "ObjectNotFound":
      return line(ExitCode.notFound, `${error.message}${where(error)}`, "check the id or the query")
    case "Forbidden":
      return line(
        ExitCode.forbidden,
        `forbidden${where(error)}`,
        context.hasKey
          ? "the API refused the key in S2_API_KEY / --api-key-file: check it is valid and has access"
          : "this needs an API key: set S2_API_KEY (or --api-key-file)"
      )
    case "RateLimited": {
      const tooLong = waitTooLong(error)
      if (tooLong !== undefined) {
        return line(ExitCode.rateLimited, `rate limited ${tooLong}`, "try again after that time")
      }
      return line(
        ExitCode.rateLimited,
        `rate limited ${after}`,
        context.hasKey
          ? "wait a minute and try again (a key allows 1 request per second)"
          : "set S2_API_KEY for a higher limit, or try again later"
      )
    }
    case "ServerError":
      return line(
        ExitCode.serverError,
        `the API failed ${waitTooLong(error) ?? after}: ${error.message}${where(error)}`,
        "try again later"
      )
    case "Timeout":
      return line(
        ExitCode.timeout,
        `no complete answer within ${error.timeoutMillis / 1000} s ${after}`,
        "raise --timeout or try again later"
      )
    case "TransportError":
      return line(
        ExitCode.transport,
        `could not reach the API ${after}: ${error.message}`,
        "check the network and --api-url / S2_API_URL"
      )
    case "DecodeError":
    case "ProtocolError":
    case "UnexpectedStatus":
      return line(
        ExitCode.decode,
        `unexpected answer: ${error.message}`,
        "run with --verbose and report it; --api-url may point at something that is not the API"
      )
    case "RateLimiterUnavailable":
      return line(
        ExitCode.rateLimiter,
        error.message,
        "check that Redis runs at --redis / S2_REDIS_URL, or run without --redis to pace this process alone"
      )
  }
}
