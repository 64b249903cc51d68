/**
 * The file host of the datasets: an object store behind pre-signed links, not the API. Requests go
 * through the plain `HttpClient` of the context, never with the API key, and the query of a link
 * (its signature, a credential) stays out of every message, log and error. Statuses are mapped by
 * the core's one mapping (`HttpStatus`), speaking of "the file host".
 */
import type { InvalidOptions, S2Error } from "@s2-effect/core"
import { Files, HttpStatus, Timeout, TransportError, Validate } from "@s2-effect/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import type * as PlatformError from "effect/PlatformError"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import { DatasetFileError } from "../DatasetFileError.js"

/** Where a request went, for messages: never the query of the link. */
export interface Target {
  readonly method: string
  readonly url: string
}

/**
 * A pre-signed link's query is its signature: keep it out of messages, logs and errors. A link of
 * a scheme without an origin (`file:`) keeps its scheme: `file:///etc/passwd`, not `null/etc/passwd`.
 */
export const withoutQuery = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.origin === "null" ? `${parsed.protocol}//${parsed.host}` : parsed.origin}${parsed.pathname}`
  } catch {
    return url.replace(/[?#].*$/, "")
  }
}

export const isUrl = (s: string): boolean => /^https?:\/\//i.test(s)

const defaultIdleTimeout = Duration.seconds(60)

/** How long the host may stay silent: the option checked, a bad one a typed `InvalidOptions`. */
export const idleTimeout = (
  given: Duration.Input | undefined
): Result.Result<Duration.Duration, InvalidOptions> =>
  Result.mapError(Validate.positiveDuration("idleTimeout", given ?? defaultIdleTimeout), Validate.asOption)

/**
 * A disk failure as a {@link DatasetFileError}: `what` the client tried, on which file, and why in
 * the system's words (`no space left on device (ENOSPC)`, not `Unknown: FileSystem.writeAll (21)`).
 */
export const ioError = (file: string, what: string) => (error: PlatformError.PlatformError) =>
  new DatasetFileError({ reason: "Io", file, message: `${what} ${file}: ${Files.describeError(error)}`, cause: error })

/** The kind of failure, as the platform names it: `Transport`, `Decode`, `InvalidUrl`, … */
const reasonName = (reason: HttpClientError.HttpClientErrorReason): string => reason._tag.replace(/Error$/, "")

/**
 * What went wrong, in the platform's words or else the socket's (undici's "other side closed",
 * "terminated"): never the platform's message, which repeats the full URL, signature included.
 */
const detail = (reason: HttpClientError.HttpClientErrorReason): string | undefined =>
  reason.description ?? (reason.cause instanceof Error ? reason.cause.message : undefined)

const transportError = (error: HttpClientError.HttpClientError, target: Target): TransportError => {
  const why = detail(error.reason)
  return new TransportError({
    problem: `failed: ${reasonName(error.reason)}${why === undefined ? "" : ` (${why})`}`,
    request: `${target.method} ${target.url}`,
    // Broken while the body was read: the host was there, so it gets the server-failure budget.
    ...("response" in error.reason ? { reason: "cutShort" as const } : {}),
    responder: "fileHost",
    ...target
  })
}

const timeoutError = (target: Target, idle: Duration.Duration): Timeout =>
  new Timeout({
    subject: "the file host",
    problem: `sent nothing for ${Duration.format(idle)}`,
    request: `${target.method} ${target.url}`,
    timeoutMillis: Duration.toMillis(idle),
    responder: "fileHost",
    ...target
  })

/** Pre-signed storage may redirect (to a region, a CDN); a chain longer than this is a loop. */
export const maxRedirects = 5

/** Ends the body after its first chunk at most, which aborts the request: nothing more is read. */
export const discard = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.ignore(Stream.runHead(response.stream))

/** The typed error of an answer that is not the one expected, after reading the start of its body. */
export const failWithStatus = (
  response: HttpClientResponse.HttpClientResponse,
  target: Target
): Effect.Effect<never, S2Error> =>
  Effect.flatMap(HttpStatus.fromResponse(response, { ...target, responder: "fileHost" }), Effect.fail)

/** The next URL of a redirect, or why it is not followed. */
const redirectTarget = (
  response: HttpClientResponse.HttpClientResponse,
  url: string,
  hops: number
): Result.Result<string, string> => {
  if (hops >= maxRedirects) return Result.fail(`more than ${maxRedirects} redirects`)
  const location = response.headers["location"]
  if (location === undefined) return Result.fail("a redirect without a location")
  try {
    const next = new URL(location, url)
    return next.protocol === "http:" || next.protocol === "https:"
      ? Result.succeed(next.href)
      : Result.fail(`a redirect to a ${next.protocol} URL is not followed`)
  } catch {
    return Result.fail("a redirect to an invalid location")
  }
}

/** An answer of the file host: the response, and where it came from (for messages). */
export interface Answered {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly target: Target
}

/**
 * Sends one request to the file host, following up to {@link maxRedirects} redirects. Only the
 * headers given here are sent, to every hop: no API key (the links are pre-signed and on another
 * host), and `accept-encoding: identity` so that the bytes on disk are the stored `.gz` bytes
 * whatever the host's content negotiation.
 */
export const request = (
  client: HttpClient.HttpClient,
  url: string,
  headers: Readonly<Record<string, string>>,
  idle: Duration.Duration,
  hops = 0
): Effect.Effect<Answered, S2Error> => {
  const target: Target = { method: "GET", url: withoutQuery(url) }
  return client.execute(
    HttpClientRequest.get(url).pipe(HttpClientRequest.setHeaders({ "accept-encoding": "identity", ...headers }))
  ).pipe(
    // No tracing span: it would record the full link, signature included.
    Effect.provideService(HttpClient.TracerDisabledWhen, () => true),
    Effect.mapError((error) => transportError(error, target)),
    Effect.timeoutOrElse({ duration: idle, orElse: () => Effect.fail(timeoutError(target, idle)) }),
    Effect.flatMap((response) => {
      if (!HttpStatus.isRedirect(response.status)) return Effect.succeed({ response, target })
      return Effect.andThen(
        discard(response),
        Result.match(redirectTarget(response, url, hops), {
          onFailure: (notFollowed) =>
            Effect.fail(HttpStatus.toError({
              status: response.status,
              ...target,
              location: response.headers["location"],
              responder: "fileHost",
              notFollowed
            })),
          onSuccess: (next) => request(client, next, headers, idle, hops + 1)
        })
      )
    })
  )
}

/** The body as a stream whose silence between chunks is bounded by `idle`. */
export const bodyOf = (
  response: HttpClientResponse.HttpClientResponse,
  target: Target,
  idle: Duration.Duration
): Stream.Stream<Uint8Array, S2Error> =>
  response.stream.pipe(
    Stream.mapError((error) => transportError(error, target)),
    // Per pull, so this bounds silence between chunks, not the length of a large download.
    Stream.timeoutOrElse({ duration: idle, orElse: () => Stream.fail(timeoutError(target, idle)) })
  )
