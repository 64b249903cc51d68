/**
 * What an HTTP status means for this client: the one mapping from a status to an {@link S2Error},
 * shared by the API transport and by the dataset downloads of `@s2-effect/node` (whose files come
 * from another host, the object store behind pre-signed links).
 *
 * | status | error | retried by the default policy |
 * |---|---|---|
 * | 400 from the API | `BadQueryParameters` with `refusedBy: "server"` | no |
 * | 401, 403 | `Forbidden` (API: the key; file host: the link may have expired) | no |
 * | 404 | `ObjectNotFound` | no |
 * | 429 | `RateLimited`, with `retryAfterMillis` | yes |
 * | 5xx | `ServerError`, with `retryAfterMillis` | yes |
 * | 301, 302, 303, 307, 308 (not followed) | `UnexpectedStatus` naming where it pointed | no |
 * | 0 (a browser's blocked or lost request) | `TransportError` | yes |
 * | anything else (1xx, another 2xx, 3xx or 4xx, a file host's 400, 600+) | `UnexpectedStatus` | no |
 *
 * @since 1.0.0
 */
import type * as Effect from "effect/Effect"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as internal from "./internal/status.js"
import type { Responder as S2ErrorResponder, S2Error } from "./S2Error.js"

/**
 * @deprecated Since 1.2.0: the package's `Responder` (from the errors' module), the same type.
 * @category models
 * @since 1.0.0
 */
export type Responder = S2ErrorResponder

/**
 * A status and what came with it. `url` and `body` must be free of credentials: the API key
 * removed from an echoing body, the query of a pre-signed link dropped from its URL.
 *
 * @category models
 * @since 1.0.0
 */
export interface Answer {
  readonly status: number
  readonly method: string
  readonly url: string
  /** The start of the body; a JSON `{"error": …}` or `{"message": …}` gives the message. */
  readonly body?: string | undefined
  /** The server's `Retry-After`, parsed (see {@link parseRetryAfter}). */
  readonly retryAfterMillis?: number | undefined
  /** The `location` header of a redirect, named in the message. */
  readonly location?: string | undefined
  /** Default `"api"`. */
  readonly responder?: S2ErrorResponder | undefined
  /** Why a redirect was not followed, when the caller knows better than the default. */
  readonly notFollowed?: string | undefined
}

/**
 * Where a response came from, for {@link fromResponse}: the request's method and URL (without
 * credentials), who answered, and how to remove a credential the body may echo.
 *
 * @category models
 * @since 1.0.0
 */
export interface ResponseContext {
  readonly method: string
  readonly url: string
  /** Default `"api"`. */
  readonly responder?: S2ErrorResponder | undefined
  /** Why a redirect was not followed, when the caller knows better than the default. */
  readonly notFollowed?: string | undefined
  /** Applied to the body before it is used, e.g. to replace an echoed key. */
  readonly redact?: ((text: string) => string) | undefined
}

/**
 * The error of an answer whose status is not the success the caller expected: see the table of
 * this module. Every status maps to an error; none to an empty result.
 *
 * @example
 * ```ts
 * import { HttpStatus } from "@s2-effect/core"
 *
 * const error = HttpStatus.toError({
 *   status: 400,
 *   method: "GET",
 *   url: "https://api.semanticscholar.org/graph/v1/paper/search?query=x&limit=1000",
 *   body: "{\"error\":\"Requested data for this limit and/or offset is not available\"}"
 * })
 * error._tag // "BadQueryParameters", with refusedBy "server"
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const toError: (answer: Answer) => S2Error = internal.toError

/**
 * Reads the start of a response's body (at most 8 KB: a hostile endless body is not read further),
 * its `Retry-After` and `location`, and gives the error of its status ({@link toError}). `redact`
 * removes a credential a server may echo in the body.
 *
 * @category constructors
 * @since 1.0.0
 */
export const fromResponse: (
  response: HttpClientResponse.HttpClientResponse,
  request: ResponseContext
) => Effect.Effect<S2Error> = internal.fromResponse

/**
 * Whether a status is a redirect a client may follow (301, 302, 303, 307, 308). The API's are
 * never followed (the key goes to the API root only); the file host's are, a few hops.
 *
 * @category guards
 * @since 1.0.0
 */
export const isRedirect: (status: number) => boolean = internal.isRedirect

/**
 * The wait a `Retry-After` header asks for, in milliseconds: delay-seconds or an HTTP date
 * (relative to `nowMillis`); `undefined` when absent or unreadable.
 *
 * @example
 * ```ts
 * import { HttpStatus } from "@s2-effect/core"
 *
 * HttpStatus.parseRetryAfter("30", Date.now()) // 30000
 * ```
 * @category utils
 * @since 1.0.0
 */
export const parseRetryAfter: (value: string | undefined, nowMillis: number) => number | undefined =
  internal.parseRetryAfter
