/**
 * A tool's failure: the `ToolFailure` (declared in `ToolFailure.ts`) of a kind and a detail, and the
 * failure of each client error.
 */
import type { Category, S2Error } from "@s2-effect/core"
import { isS2Error, RetryPolicy } from "@s2-effect/core"
import * as Duration from "effect/Duration"
import { type FailureKind, ToolFailure } from "../ToolFailure.js"
import { bounds } from "./answerParts.js"
import * as text from "./text.js"

const kindWords: { readonly [K in FailureKind]: string } = {
  notFound: "not found",
  badParameter: "bad parameter",
  rateLimited: "rate limited",
  timeout: "timed out",
  forbidden: "forbidden",
  serverError: "server error",
  unreachable: "unreachable",
  badAnswer: "bad answer from the server",
  stateUnavailable: "the watch state is unavailable"
}

/**
 * A URL's query (the field list, the query text) told the model nothing it did not send, and
 * pushed the server's own words out of the 300 characters.
 */
const withoutQueries = (detail: string) => detail.replace(/(https?:\/\/[^\s?#)]+)[?#][^\s)]*/g, "$1")

/** A failure of `kind`: its words, then `detail` on one line (URLs without their query), ≤ 300 characters. */
export const failure = (kind: FailureKind, detail: string, retryAfterSeconds?: number): ToolFailure =>
  new ToolFailure({
    kind,
    message: text.cut(text.oneLine(`${kindWords[kind]}: ${withoutQueries(detail)}`), bounds.message),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds })
  })

/** The server's wait, else the longest the default policy waits after a 429 (no wait is safe to advise). */
const seconds = (millis: number | undefined) =>
  Math.max(1, Math.ceil((millis ?? Duration.toMillis(RetryPolicy.defaultBudgets.rateLimited.cap)) / 1000))

const rateLimited = (retryAfterMillis: number | undefined, what: string) => {
  const wait = seconds(retryAfterMillis)
  return failure("rateLimited", `${what}; retry after ${wait} s`, wait)
}

/**
 * The failure kind of each category of client error (`S2Error`'s `category`, from which the `s2`
 * command's exit codes also derive): the one mapping, so that the model and the command line are
 * told the same about an error. The rate limiter's store, like a host, is not there to answer.
 */
export const failureKinds: { readonly [C in Category]: FailureKind } = {
  notFound: "notFound",
  badInput: "badParameter",
  rateLimited: "rateLimited",
  timeout: "timeout",
  forbidden: "forbidden",
  server: "serverError",
  transport: "unreachable",
  badAnswer: "badAnswer",
  rateLimiter: "unreachable"
}

/** An `S2Error` as the tool failure the model sees. */
export const toolFailure = (error: S2Error): ToolFailure => {
  const kind = failureKinds[error.category]
  if (kind !== "rateLimited") return failure(kind, error.message)
  // A deadline that stopped the retries of a 429 is rate limited too: the model should wait, not
  // treat it as slowness.
  if (error._tag === "RateLimited") {
    return rateLimited(error.retryAfterMillis, "the API answered 429 (too many requests) to every retry")
  }
  const cause = isS2Error(error.cause) && error.cause._tag === "RateLimited" ? error.cause : undefined
  return rateLimited(
    cause?.retryAfterMillis,
    "the API answered 429 (too many requests) and the wait would pass the deadline"
  )
}
