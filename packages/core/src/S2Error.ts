/**
 * The typed errors of the client. Every failure of every operation is one of these, in the union
 * {@link S2Error}; each carries a message that says what went wrong, the HTTP status where there is
 * one, and the request's method and URL (never the API key).
 *
 * @since 1.0.0
 */

import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { causeOf } from "./internal/retrySteps.js"
import * as text from "./internal/text.js"

/**
 * The mark every {@link S2Error} carries, so that {@link isS2Error} tells them from other values by
 * what they are, not by a list of tags kept by hand.
 *
 * @category symbols
 * @since 1.0.0
 */
export const S2ErrorTypeId: unique symbol = Symbol.for("@s2-effect/core/S2Error")

/**
 * @category symbols
 * @since 1.0.0
 */
export type S2ErrorTypeId = typeof S2ErrorTypeId

/**
 * What kind of failure an error is, in one word, for whoever has to tell failures apart without
 * knowing every tag: the `s2` command's exit codes and the assistant tools' failure kinds are both
 * derived from it, so that the two never disagree. `badInput` is the caller's to fix; `notFound`
 * and `forbidden` the API's answer about what was asked; `rateLimited`, `timeout`, `server` and
 * `transport` are worth asking again later; `badAnswer` is an answer the client cannot use (a body
 * of another shape, a broken protocol, a status the API does not answer with); `rateLimiter` is
 * the shared rate limit's store.
 *
 * @category models
 * @since 1.2.0
 */
export const Category = Schema.Literals([
  "notFound",
  "badInput",
  "forbidden",
  "rateLimited",
  "timeout",
  "server",
  "transport",
  "badAnswer",
  "rateLimiter"
])
/**
 * @category models
 * @since 1.2.0
 */
export type Category = typeof Category.Type

/**
 * The one table of categories: each tag's, as data (a new error has to take a side). One fact
 * moves an error out of its tag's category, in {@link Base.category}: a time-out whose cause is a
 * 429 (the deadline stopped the retries of a rate limit) is the rate limit's doing.
 */
const categories: { readonly [Tag in S2Error["_tag"]]: Category } = {
  ObjectNotFound: "notFound",
  BadQueryParameters: "badInput",
  InvalidOptions: "badInput",
  UnexpectedStatus: "badAnswer",
  Timeout: "timeout",
  RateLimited: "rateLimited",
  Forbidden: "forbidden",
  ServerError: "server",
  TransportError: "transport",
  DecodeError: "badAnswer",
  RateLimiterUnavailable: "rateLimiter",
  ProtocolError: "badAnswer"
}

/**
 * Who was asked: the Semantic Scholar API (`"api"`), or the storage behind a dataset's pre-signed
 * links (`"fileHost"`, `@s2-effect/node`'s downloads), which is another host with its own failures.
 *
 * @category models
 * @since 1.1.0
 */
export const Responder = Schema.Literals(["api", "fileHost"])
/**
 * @category models
 * @since 1.1.0
 */
export type Responder = typeof Responder.Type

/**
 * The parts an error's message is made of, each optional: what was refused or failed (`subject`:
 * `paperId "x"`), what is wrong with it (`problem`), the exchange (`request`: `HTTP 404 from GET
 * …`), and what to do or what the server said about it (`advice`).
 *
 * @category models
 * @since 1.2.0
 */
export interface MessageParts {
  readonly subject?: string | undefined
  readonly problem?: string | undefined
  readonly request?: string | undefined
  readonly advice?: string | undefined
}

/**
 * The one composition of every error's `message` from its parts: `subject problem (request):
 * advice`, each part left out with its punctuation when absent or empty. Two shapes besides: the
 * advice follows `"; "` when there is neither subject nor request (`problem; advice`), and a
 * subject that is the request itself leads once, the problem after a comma (`HTTP 302 from GET …,
 * a redirect to …: advice`). Code that says an error in its own words composes the parts it
 * changed the same way.
 *
 * @example
 * ```ts
 * import { composeMessage } from "@s2-effect/core"
 *
 * composeMessage({ problem: "rate limited", request: "HTTP 429 from GET https://…", advice: "Too Many Requests" })
 * // "rate limited (HTTP 429 from GET https://…): Too Many Requests"
 * ```
 * @category utils
 * @since 1.2.0
 */
export const composeMessage: (parts: MessageParts) => string = text.compose

/**
 * The one definition every error extends: the fields they share (`status`, `method`, `url`,
 * `responder` — `"fileHost"` when a dataset file host failed rather than the API —, the message's
 * parts `subject`, `problem`, `request` and `advice`, and `cause`, the failure underneath), the
 * mark {@link S2ErrorTypeId} and the getters `message` (the parts composed, see
 * {@link composeMessage}), `category`, `isRetryable` and `retryAfter` (as effect's `AiError` reasons
 * have them). Each error is this class `extend`ed with its own `_tag` and fields, so `catchTag` and
 * the union work as with `Schema.TaggedError`. Not exported: every error is one of the twelve below.
 */
const baseFields = {
  // Replaced by each error's own `Schema.tag`; first here so that `_tag` comes first when encoded.
  _tag: Schema.String,
  // Derived from the parts below (the getter `message`). Accepted as input for errors made before
  // the parts existed (a 1.x `new Timeout({ message })`, an entry of a response cache): without a
  // part, the sentence given becomes the `problem`; with one, it is ignored.
  message: Schema.optional(Schema.String),
  status: Schema.optional(Schema.Number),
  method: Schema.optional(Schema.String),
  url: Schema.optional(Schema.String),
  // Who failed, when it is not the API (absent): `"fileHost"` for a dataset file host, so that
  // advice about the API root (`apiUrl`) is not given for it. (Line comments: a doc comment here is
  // read twice by typedoc, once per side of the schema.)
  responder: Schema.optional(Responder),
  // The parts the message is made of, for code that says the error in its own words (the `s2`
  // command names its flags, not the library's options): what was refused or failed (`paperId
  // "x"`, `apiKey`), what is wrong with it, the exchange (`HTTP 404 from GET …`), and what to do
  // or what the server said about it. Read these, never the message.
  subject: Schema.optional(Schema.String),
  problem: Schema.optional(Schema.String),
  advice: Schema.optional(Schema.String),
  request: Schema.optional(Schema.String),
  // What went wrong underneath, when something did: the transport's error, the schema issue, the
  // store's failure. Also the standard `Error.cause`.
  cause: Schema.optional(Schema.Defect())
}

class Base extends Schema.Error<Base>("@s2-effect/core/S2Error")(baseFields) {
  readonly [S2ErrorTypeId]: S2ErrorTypeId = S2ErrorTypeId

  constructor(props: Schema.Struct<typeof baseFields>["~type.make.in"], options?: Schema.MakeOptions) {
    super(props, options)
    // The sentence of a maker that gave no parts becomes the problem; the message is the getter.
    const given = Object.getOwnPropertyDescriptor(this, "message")?.value as unknown
    delete (this as { message?: string }).message
    if (typeof given === "string" && given !== "" && !hasParts(this)) {
      ;(this as { problem?: string }).problem = given
    }
  }

  /** The fields, with the message they make (`Error`'s own `toJSON` would show the input's). */
  override toJSON() {
    return { ...(super.toJSON() as object), message: this.message }
  }

  /**
   * Whether the default retry policy tries again after this error: `true` for `RateLimited`,
   * `ServerError`, `Timeout` and `TransportError`, the errors `RetryPolicy.causeOf` gives a cause
   * (and so a budget) to.
   *
   * @since 1.0.0
   */
  get isRetryable(): boolean {
    // The retry policy's own table (a cause and its budget per retried error), not a second one.
    return causeOf(this as unknown as S2Error) !== undefined
  }

  /**
   * What kind of failure this is ({@link Category}): the tag's, except that a `Timeout` whose
   * `cause` is a `RateLimited` (a deadline hit while waiting out a 429) is `"rateLimited"`.
   *
   * @since 1.2.0
   */
  get category(): Category {
    const error = this as unknown as S2Error
    return error._tag === "Timeout" && isS2Error(error.cause) && error.cause._tag === "RateLimited"
      ? "rateLimited"
      : categories[error._tag]
  }

  /**
   * The wait the server asked for with `Retry-After` (`RateLimited`, `ServerError`), if it did.
   *
   * @since 1.0.0
   */
  get retryAfter(): Duration.Duration | undefined {
    return "retryAfterMillis" in this && typeof this.retryAfterMillis === "number"
      ? Duration.millis(this.retryAfterMillis)
      : undefined
  }
}

const hasParts = (parts: MessageParts): boolean =>
  parts.subject !== undefined || parts.problem !== undefined || parts.request !== undefined ||
  parts.advice !== undefined

// `message` is a getter over the parts: on the prototype, where `Error`'s own field would shadow
// it were it declared in the class body (and the schema still reads it when it encodes).
Object.defineProperty(Base.prototype, "message", {
  get(this: Base) {
    return text.compose(this)
  },
  // `Error` and the schema's constructor assign the input's message; the constructor takes it.
  set(this: Base, value: string) {
    Object.defineProperty(this, "message", { value, writable: true, configurable: true, enumerable: false })
  },
  configurable: true,
  enumerable: false
})

/**
 * The object asked for does not exist (HTTP 404): an unknown paper or author id, or no title match.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * const title = SemanticScholar.pipe(
 *   Effect.flatMap((s2) => s2.getPaper("CorpusId:1")),
 *   Effect.map((paper) => paper.title),
 *   Effect.catchTag("ObjectNotFound", () => Effect.succeed(null))
 * )
 * ```
 * @category errors
 * @since 1.0.0
 */
export class ObjectNotFound
  extends Base.extend<ObjectNotFound>("ObjectNotFound")({ _tag: Schema.tag("ObjectNotFound") })
{}

/**
 * Who refused a request: the client before sending, or the server with HTTP 400.
 *
 * @category models
 * @since 1.0.0
 */
export const RefusedBy = Schema.Literals(["client", "server"])
/**
 * @category models
 * @since 1.0.0
 */
export type RefusedBy = typeof RefusedBy.Type

/**
 * The request input is wrong: caught by the client before sending (`refusedBy: "client"`, nothing
 * was sent, `status` is absent) or rejected by the server with HTTP 400 (`refusedBy: "server"`).
 * `parameter` names the offending argument or option when known.
 *
 * @category errors
 * @since 1.0.0
 */
export class BadQueryParameters extends Base.extend<BadQueryParameters>("BadQueryParameters")({
  _tag: Schema.tag("BadQueryParameters"),
  parameter: Schema.optional(Schema.String),
  refusedBy: RefusedBy.pipe(
    Schema.withDecodingDefaultType(Effect.succeed("client" as const)),
    Schema.withConstructorDefault(Effect.succeed("client" as const))
  )
}) {}

/**
 * The client's own settings are wrong: an option of the layer, of `layerConfig`'s environment or of
 * an override (`withTimeout`, …) is out of range, or a store it names cannot be opened. Nothing was
 * sent. `option` names the setting.
 *
 * @category errors
 * @since 1.0.0
 */
export class InvalidOptions extends Base.extend<InvalidOptions>("InvalidOptions")({
  _tag: Schema.tag("InvalidOptions"),
  option: Schema.String
}) {}

/**
 * A status the API (or a dataset file host) does not answer with for this request: a redirect the
 * client does not follow (status 0 from `fetch` in a browser, which hides the redirect), a 4xx
 * other than 400, 401, 403, 404 and 429, or anything outside 2xx–5xx. Not retried: asking again gets the same answer. The message carries the start of the body.
 *
 * @category errors
 * @since 1.0.0
 */
export class UnexpectedStatus extends Base.extend<UnexpectedStatus>("UnexpectedStatus")({
  _tag: Schema.tag("UnexpectedStatus"),
  status: Schema.Number
}) {}

/**
 * Which time ran out: one attempt's time-out (`"attempt"`, also when absent), or the deadline of
 * the whole call, its retries and waits included (`"deadline"`).
 *
 * @category models
 * @since 1.0.0
 */
export const TimeoutReason = Schema.Literals(["attempt", "deadline"])
/**
 * @category models
 * @since 1.0.0
 */
export type TimeoutReason = typeof TimeoutReason.Type

/**
 * No complete response arrived in time: within the time-out of one attempt (retried by the default
 * policy), or, with `reason: "deadline"`, within the deadline of the whole call (`timeoutMillis` is
 * then the deadline, and `cause` the last attempt's error when a retry's wait would have crossed it).
 *
 * @category errors
 * @since 1.0.0
 */
export class Timeout extends Base.extend<Timeout>("Timeout")({
  _tag: Schema.tag("Timeout"),
  timeoutMillis: Schema.Number,
  reason: Schema.optional(TimeoutReason)
}) {}

/**
 * HTTP 429 after the retry policy gave up (or with retry off). `retryAfterMillis` is the server's
 * last `Retry-After`, when it sent one.
 *
 * @category errors
 * @since 1.0.0
 */
export class RateLimited extends Base.extend<RateLimited>("RateLimited")({
  _tag: Schema.tag("RateLimited"),
  retryAfterMillis: Schema.optional(Schema.Number)
}) {}

/**
 * HTTP 401 or 403: a key is missing, wrong, or lacks access to the resource (datasets links, diffs).
 *
 * @category errors
 * @since 1.0.0
 */
export class Forbidden extends Base.extend<Forbidden>("Forbidden")({ _tag: Schema.tag("Forbidden") }) {}

/**
 * HTTP 5xx from the API (retried by the default policy before it reaches you).
 *
 * @category errors
 * @since 1.0.0
 */
export class ServerError extends Base.extend<ServerError>("ServerError")({
  _tag: Schema.tag("ServerError"),
  retryAfterMillis: Schema.optional(Schema.Number)
}) {}

/**
 * What broke below HTTP, when it is known: the connection was refused, the host name did not
 * resolve, the connection was reset, the body was cut short, or the answer was not valid HTTP (a
 * header with characters a header cannot carry, say). The retry policy reads it: the first two
 * mean nobody is there, the others that a server answered but failed.
 *
 * @category errors
 * @since 1.0.0
 */
export const TransportReason = Schema.Literals(["refused", "hostNotFound", "reset", "cutShort", "malformed"])
/**
 * @category models
 * @since 1.0.0
 */
export type TransportReason = typeof TransportReason.Type

/**
 * The exchange broke below HTTP: connection refused or reset, DNS failure, a body cut short, or
 * (in a browser) a request blocked or lost before any answer, status 0. `reason` says which, when
 * known; the message names the host and port.
 *
 * @category errors
 * @since 1.0.0
 */
export class TransportError extends Base.extend<TransportError>("TransportError")({
  _tag: Schema.tag("TransportError"),
  reason: Schema.optional(TransportReason)
}) {}

/**
 * Why a 2xx body could not be used: its value is not of the expected shape (`"shape"`), a batch
 * answer has another number of entries than ids were asked for (`"length"`), the whole body
 * arrived but is not JSON at all (`"notJson"`: an HTML page, plain text), or it nests deeper than
 * any record (`"depth"`: more than 100 levels, which no printer could show).
 *
 * @category models
 * @since 1.0.0
 */
export const DecodeReason = Schema.Literals(["shape", "length", "notJson", "depth"])
/**
 * @category models
 * @since 1.0.0
 */
export type DecodeReason = typeof DecodeReason.Type

/**
 * A 2xx body that is JSON but not of the expected shape, or (`reason: "notJson"`) a whole body that
 * is not JSON at all: the server answered, so no retry is made. `excerpt` holds the start of the offending
 * value so the mismatch can be seen without a debugger; `reason` says which mismatch, when known.
 * For `"depth"` (JSON nested more than 100 levels deep) nothing of the body is shown.
 * For `"shape"`, `cause` is Schema's `SchemaError`: its issue gives the paths that failed and what
 * was expected, but no value of the body (the message and excerpt show those, with the API key
 * hidden wherever the server echoed it).
 *
 * @category errors
 * @since 1.0.0
 */
export class DecodeError extends Base.extend<DecodeError>("DecodeError")({
  _tag: Schema.tag("DecodeError"),
  excerpt: Schema.String,
  reason: Schema.optional(DecodeReason)
}) {}

/**
 * Why the shared rate limit's store could not pace a request: it failed or could not be reached
 * (`"failed"`), did not answer within `storeTimeout` (`"timeout"`), answered something that is not
 * a slot (`"badAnswer"`), or asked for a wait over `maxWait` (`"waitTooLong"`).
 *
 * @category models
 * @since 1.0.0
 */
export const RateLimiterReason = Schema.Literals(["failed", "timeout", "badAnswer", "waitTooLong"])
/**
 * @category models
 * @since 1.0.0
 */
export type RateLimiterReason = typeof RateLimiterReason.Type

/**
 * The store of a shared rate limit (`RateLimit.Shared`, e.g. Redis) failed or did not answer in
 * time, answered nonsense or asked for a wait over `maxWait` (`reason` says which), and the layer
 * was set to fail rather than pace this process alone. Not retried: the store
 * is what is broken, and retrying without it would break the pace the workers share. `store` names
 * it (a Redis URL without its password).
 *
 * @category errors
 * @since 1.0.0
 */
export class RateLimiterUnavailable extends Base.extend<RateLimiterUnavailable>("RateLimiterUnavailable")({
  _tag: Schema.tag("RateLimiterUnavailable"),
  store: Schema.String,
  reason: Schema.optional(RateLimiterReason)
}) {}

/**
 * Which rule of the protocol the server broke: a pagination cursor that does not advance, goes
 * back, repeats or leaves the result window (`"cursor"`), a bulk search that does not advance
 * whatever its tokens say — a page with the same records as an earlier one, or far more records
 * than its `total` (`"stalled"`) — or a response over `maxResponseBytes` (`"tooLarge"`).
 *
 * @category models
 * @since 1.0.0
 */
export const ProtocolReason = Schema.Literals(["cursor", "stalled", "tooLarge"])
/**
 * @category models
 * @since 1.0.0
 */
export type ProtocolReason = typeof ProtocolReason.Type

/**
 * The server broke the protocol in a way no retry can mend: a pagination cursor that does not
 * advance, goes back, repeats or leaves the result window, a bulk search serving a page again or
 * records far beyond its total (a stream would otherwise never end), or a response larger than
 * the client's `maxResponseBytes`. `endpoint` names the operation and
 * `cursor` the offending `next` / `token`, when the error is about one; `reason` says which rule.
 *
 * @category errors
 * @since 1.0.0
 */
export class ProtocolError extends Base.extend<ProtocolError>("ProtocolError")({
  _tag: Schema.tag("ProtocolError"),
  endpoint: Schema.optional(Schema.String),
  cursor: Schema.optional(Schema.String),
  reason: Schema.optional(ProtocolReason)
}) {}

/**
 * Every error an operation of the client can fail with.
 *
 * @category errors
 * @since 1.0.0
 */
export type S2Error =
  | ObjectNotFound
  | BadQueryParameters
  | InvalidOptions
  | UnexpectedStatus
  | Timeout
  | RateLimited
  | Forbidden
  | ServerError
  | TransportError
  | DecodeError
  | RateLimiterUnavailable
  | ProtocolError

/**
 * Tells an {@link S2Error} from any other value, e.g. in a `catchIf`.
 *
 * @example
 * ```ts
 * import { isS2Error, Timeout } from "@s2-effect/core"
 *
 * isS2Error(new Timeout({ problem: "no response within 1s", timeoutMillis: 1000 })) // true
 * ```
 * @category guards
 * @since 1.0.0
 */
export const isS2Error = (u: unknown): u is S2Error => Predicate.hasProperty(u, S2ErrorTypeId)

/**
 * Whether the default retry policy tries again after this error: the error's own `isRetryable`,
 * as a function to pass where one is wanted (`RetryPolicy.make({ while: … })`, a `filter`).
 *
 * @category guards
 * @since 1.0.0
 */
export const isRetryable = (error: S2Error): boolean => error.isRetryable

/**
 * The wait the server asked for with `Retry-After`, if any, in milliseconds: the error's own
 * `retryAfter`, as a number.
 *
 * @category utils
 * @since 1.0.0
 */
export const retryAfterMillis = (error: S2Error): number | undefined =>
  error.retryAfter === undefined ? undefined : Duration.toMillis(error.retryAfter)

/**
 * The start of a value a message quotes (an id, a query, a server's words): at most `max`
 * characters (300 by default), ending in "…" when cut. Every message of the client quotes what a
 * user or a server gave through it, so that a huge value never makes a huge message; code that
 * builds its own messages around these errors (the `s2` command) does the same.
 *
 * @example
 * ```ts
 * import { excerpt } from "@s2-effect/core"
 *
 * excerpt("a".repeat(120_000), 10) // "aaaaaaaaa…"
 * ```
 * @category utils
 * @since 1.0.0
 */
export const excerpt: (value: string, max?: number) => string = text.excerpt

/**
 * `text` with each character that would act on a terminal or make text read otherwise than it is
 * replaced by what `by` gives for it: the C0 and C1 controls (escape sequences, a bell, line
 * breaks), the line and paragraph separators, the bidirectional marks, embeddings, overrides and
 * isolates (U+202E turns the rest of a line around), and lone UTF-16 surrogates (not text: strict
 * JSON readers refuse them). Whatever a server sends, code that shows it (a table, a one-line
 * message, a citation, an assistant's context) replaces these one way or another: spelled out,
 * as spaces, dropped. Text without one is returned as it is.
 *
 * @example
 * ```ts
 * import { replaceUnsafe } from "@s2-effect/core"
 *
 * replaceUnsafe("Title\u001b]0;pwned\u0007 \u202egnp.exe", () => " ") // "Title ]0;pwned   gnp.exe"
 * ```
 * @category utils
 * @since 1.1.0
 */
export const replaceUnsafe: (text: string, by: (char: string) => string) => string = text.replaceUnsafe
