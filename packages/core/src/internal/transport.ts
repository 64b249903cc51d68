/**
 * The only place that talks HTTP. Every operation hands it a described request and a schema; here
 * the request gets its base URL and key, is paced, timed out, retried, logged (key redacted),
 * and its answer is turned into a record or a typed error.
 *
 * The platform client is composed with the HttpClient's own combinators (base URL and headers by
 * request mapping, trace headers off, each attempt counted and logged); one attempt (send, bounded
 * read, status) is an Effect, retried with the per-cause schedule of the retry policy.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { flow, identity } from "effect/Function"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as LogLevel from "effect/LogLevel"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Metrics from "../Metrics.js"
import type { Overrides } from "../Overrides.js"
import type { RetryPolicy } from "../RetryPolicy.js"
import type { S2Error } from "../S2Error.js"
import { DecodeError, TransportError } from "../S2Error.js"
import { retryWithin } from "./deadline.js"
import { fastDecoder, maxDepth, nestsDeeper, type Records } from "./decode.js"
import * as MetricsCount from "./metrics.js"
import { prefixes, type S2Request } from "./request.js"
import * as Response from "./response.js"
import { excerpt } from "./response.js"
import { withRetryLog } from "./retryLog.js"
import * as Status from "./status.js"
import { describeReason, hostPort, innermostMessage, reasonOf } from "./transportCause.js"

/** What the transport needs to know, resolved once when the layer is built. */
export interface TransportConfig {
  /** The API root, without a trailing slash. */
  readonly apiUrl: string
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  readonly timeout: Duration.Duration
  readonly retry: RetryPolicy | false
  /** The longest one call may take, retries, waits and pacing included; see `Options.deadline`. */
  readonly deadline?: Duration.Duration | undefined
  readonly rateLimiter: Option.Option<Pace>
  /**
   * Wraps each request's whole exchange (pacing, retries, time-outs) before its answer is decoded:
   * the one hook for layer options such as the response cache, so they stay out of this module.
   */
  readonly around?: Around | undefined
  /** The most bytes a response body may have; see `Options.maxResponseBytes`. */
  readonly maxResponseBytes: number
  /** The user's wrapper of the platform client (proxy, headers); see `Options.transformClient`. */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

/**
 * The rate-limit hook: waits for the request's turn (a per-process or a shared limiter) and runs it;
 * `target` names the request in the wait it reports.
 */
export type Pace = <A>(task: Effect.Effect<A, S2Error>, target: Response.Target) => Effect.Effect<A, S2Error>

/**
 * Given a request, the effect that fetches its JSON answer and the decoding of that answer, the
 * effect to run instead. The decoding is the hook's, so a cache can keep only what decoded.
 */
export type Around = <A>(
  request: S2Request,
  fetch: Effect.Effect<unknown, S2Error>,
  decode: (json: unknown) => Effect.Effect<A, DecodeError>
) => Effect.Effect<A, S2Error>

/**
 * The overrides in force for one call or one scope, set with `withTimeout` / `withRetry`. A context
 * reference rather than layer state, so it can be provided to an Effect or a Stream alike.
 */
export const CurrentOverrides: Context.Reference<Overrides> = Context.Reference<Overrides>(
  "@s2-effect/core/Overrides",
  { defaultValue: () => ({}) }
)

export interface Transport {
  readonly config: TransportConfig
  /** With `records: "wire"`, records are the answer's checked objects, not class instances. */
  readonly execute: <A, I>(
    request: S2Request,
    schema: Schema.Codec<A, I>,
    records?: Records
  ) => Effect.Effect<A, S2Error>
  /**
   * {@link decode} with this transport's key hidden: for JSON that came through `execute` and is
   * decoded later by its caller (a batched lookup's entry).
   */
  readonly decode: <A, I>(schema: Schema.Codec<A, I>, json: unknown, target: Target) => Effect.Effect<A, DecodeError>
}

type Target = Response.Target

/** What an error may show of a server's text: the text with the key hidden. */
type Hide = (text: string) => string

const redactedKey = "<redacted>"

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** The debug line of a request: method, URL, headers, payload and an equivalent curl command. */
export const describeForLog = (
  target: Target,
  headers: Readonly<Record<string, string>>,
  body: string | undefined
): string => {
  const shown = Object.entries(headers).map(([name, value]) => [name, name === "x-api-key" ? redactedKey : value])
  const curl = [
    "curl",
    "-X",
    target.method,
    shellQuote(target.url),
    ...shown.flatMap(([name, value]) => ["-H", shellQuote(`${name}: ${value}`)]),
    ...(body === undefined ? [] : ["-d", shellQuote(body)])
  ].join(" ")
  return [
    `S2 request: ${target.method} ${target.url}`,
    `headers: ${JSON.stringify(Object.fromEntries(shown))}`,
    `payload: ${body ?? "(none)"}`,
    `curl: ${curl}`
  ].join("\n")
}

/** The status on the operation's span; a 429 is counted whether it is retried or not. */
const annotateStatus = (status: number) =>
  status === 429
    ? Effect.andThen(
      Metric.update(Metrics.rateLimited, 1),
      Effect.annotateCurrentSpan("http.response.status_code", status)
    )
    : Effect.annotateCurrentSpan("http.response.status_code", status)

const transportError = (error: HttpClientError.HttpClientError, target: Target) => {
  const reason = reasonOf(error)
  const where = `${target.method} ${target.url}`
  if (reason !== undefined) {
    // A malformed answer: the parser's own words say what was wrong with it.
    const detail = reason === "malformed" ? innermostMessage(error.reason.cause) : undefined
    return new TransportError({
      problem: `${describeReason[reason](hostPort(target.url))}${detail === undefined ? "" : ` (${detail})`}`,
      request: where,
      reason,
      cause: error,
      ...target
    })
  }
  const detail = innermostMessage(error.reason.cause)
  return new TransportError({
    problem: `failed at ${hostPort(target.url)}: ${excerpt(error.message, platformMessageLength)}${
      detail === undefined ? "" : ` (${detail})`
    }`,
    request: where,
    cause: error,
    ...target
  })
}

/**
 * `hide` removes the key from the text of an error before it is cut to length (a server may echo
 * it). `fresh`: the JSON was parsed for this call alone, so its records may be built in place.
 * `records`: what a record becomes (`"wire"`: the checked object itself).
 */
export const decode = <A, I>(
  schema: Schema.Codec<A, I>,
  json: unknown,
  target: Target,
  hide: Hide = (text) => text,
  fresh = false,
  records: Records = "class"
): Effect.Effect<A, DecodeError> => {
  const fast = fastDecoder(schema, "preserve", records)?.(json, fresh)
  return fast !== undefined && Option.isSome(fast)
    ? Effect.succeed(fast.value)
    : slowDecode(schema, json, target, hide)
}

const tooDeep = "(a value nested too deeply to show)"

const formatIssue = SchemaIssue.makeFormatterDefault()

/** A bounded rendering of a server's value, the key hidden before it is cut. */
const shown = (render: () => string, max: number, hide: Hide): string => {
  try {
    return excerpt(hide(render()), max)
  } catch {
    return tooDeep
  }
}

const failureOf = <A, E>(result: Result.Result<A, E>): E | undefined =>
  Result.isFailure(result) ? result.failure : undefined

/** A number whose digits show the key, as the text they show; any other number as it is. */
const hiddenNumber = (n: number, hide: Hide): number | string => {
  const text = String(n)
  const hidden = hide(text)
  return hidden === text ? n : hidden
}

/** Sets an own, enumerable property: also a JSON name `__proto__`, which an assignment would not. */
const put = (into: object, name: string, value: unknown) =>
  Object.defineProperty(into, name, { value, enumerable: true, writable: true, configurable: true })

/**
 * A copy of a JSON value with the key hidden in every string, every name and every number, walked
 * without recursion (a hostile body may nest too deeply for it). Hiding values rather than the
 * JSON text also hides a key with characters that JSON escapes.
 */
const hiddenCopy = (json: unknown, hide: Hide): unknown => {
  const root = {}
  const stack: Array<readonly [unknown, object, string]> = [[json, root, "json"]]
  while (stack.length > 0) {
    const [value, into, name] = stack.pop()!
    if (typeof value === "object" && value !== null) {
      const copy = Array.isArray(value) ? new Array<unknown>(value.length) : {}
      put(into, name, copy)
      for (const [key, child] of Object.entries(value)) {
        const hidden = Array.isArray(value) ? key : hide(key)
        // Each name is set now, so the copy keeps the body's order (the stack fills the values in reverse).
        put(copy, hidden, undefined)
        stack.push([child, copy, hidden])
      }
    } else {
      put(
        into,
        name,
        typeof value === "string" ? hide(value) : typeof value === "number" ? hiddenNumber(value, hide) : value
      )
    }
  }
  return (root as { readonly json?: unknown }).json
}

/**
 * Schema's own decoder: the reference behaviour, and the source of the error. The error is built
 * from a copy of the body with the key hidden: its message reports the offending values (a body
 * nesting deeper than any record is refused first, unprinted), and its `cause` is Schema's error of the copy,
 * decoded without reporting values, so it holds the paths but no value of the body (nor the page).
 */
const slowDecode = <A, I>(
  schema: Schema.Codec<A, I>,
  json: unknown,
  target: Target,
  hide: Hide
): Effect.Effect<A, DecodeError> => {
  // Deeper than any record: refused before Schema's decoder (which would drop a deep unknown field,
  // or overflow the stack on records nested thousands deep) and never printed.
  if (nestsDeeper(json, maxDepth)) {
    return Effect.fail(
      new DecodeError({
        subject: "the response",
        problem: `nests more than ${maxDepth} levels deep, deeper than any record ${tooDeep}`,
        request: `${target.method} ${target.url}`,
        excerpt: tooDeep,
        reason: "depth",
        ...target
      })
    )
  }
  // Schema memoises the compiled parser per schema, so this does not rebuild it per page.
  const result = Schema.decodeUnknownResult(schema)(json)
  if (Result.isSuccess(result)) return Effect.succeed(result.success)
  const hidden = hiddenCopy(json, hide)
  // The copy passes only where the key itself was refused (say, in a string too long): no cause then.
  const cause = failureOf(Schema.decodeUnknownResult(schema)(hidden))
  const reported = failureOf(Schema.decodeUnknownResult(schema, { reportInput: true })(hidden))
  const issue = (reported ?? cause ?? result.failure).issue
  return Effect.fail(
    new DecodeError({
      subject: "the response",
      problem: "is not of the expected shape",
      request: `${target.method} ${target.url}`,
      advice: shown(() => formatIssue(issue), 1000, hide),
      excerpt: shown(() => JSON.stringify(hidden) ?? String(hidden), 500, hide),
      reason: "shape",
      cause,
      ...target
    })
  )
}

/** Status, headers and text of an answer: a success read whole up to the bound, an error's start only. */
const readResponse = (response: HttpClientResponse.HttpClientResponse, maxBytes: number, target: Target) => {
  const { headers, status } = response
  const text: Effect.Effect<string, HttpClientError.HttpClientError | Response.TooLarge> = status >= 200 && status < 300
    ? Response.readCapped(response, maxBytes)
    : Response.readStart(response)
  return text.pipe(
    Effect.mapError((error) =>
      error._tag === "TooLarge" ? Response.tooLarge(error, maxBytes, target, status) : transportError(error, target)
    ),
    Effect.map((text): Read => ({ status, headers, text }))
  )
}

/**
 * Whether a body that does not parse looks like JSON that broke off: empty, or begun as an object
 * or array (every answer of the API is one). Anything else (an HTML page, plain text) arrived whole
 * and is not JSON. Judged from the text, not the parser's message, which differs between engines.
 */
const brokeOff = (text: string): boolean => {
  const start = text.trimStart()
  return start === "" || start.startsWith("{") || start.startsWith("[")
}

/**
 * The JSON of a 2xx answer. A body that does not parse was cut short (retried) if it looks like
 * JSON that broke off; otherwise the server answered with something that is not JSON: a
 * `DecodeError`, which no retry mends.
 */
const parseJson = (text: string, status: number, target: Target, hide: Hide) =>
  Effect.try({
    try: (): unknown => JSON.parse(text),
    catch: (): S2Error => {
      const where = `${target.method} ${target.url} (HTTP ${status})`
      const start = excerpt(hide(text), 120)
      return brokeOff(text)
        ? new TransportError({
          subject: "the body",
          problem: "is not valid JSON: was it cut short?",
          request: `HTTP ${status} from ${target.method} ${target.url}`,
          advice: `it starts: ${start}`,
          reason: "cutShort",
          status,
          ...target
        })
        : new DecodeError({
          // The exchange inside the sentence, as `s2` and its users read it: no `request` part.
          problem: `the server answered ${where} with a body that is not JSON`,
          advice: `it starts: ${start}`,
          excerpt: start,
          reason: "notJson",
          status,
          ...target
        })
    }
  })

/** What was read of an answer. */
interface Read {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

/**
 * An answer read: its JSON when the status is 2xx, else the typed error of the status. Any other
 * status, a redirect included, is final (not followed: the key goes to the API root only).
 */
const toAnswer = (target: Target, hide: Hide) => ({ headers, status, text }: Read): Effect.Effect<unknown, S2Error> =>
  status >= 200 && status < 300
    ? parseJson(text, status, target, hide)
    : Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.fail(Status.toError({
        status,
        ...target,
        body: hide(text),
        retryAfterMillis: Status.parseRetryAfter(headers["retry-after"], now),
        location: headers.location === undefined ? undefined : hide(headers.location)
      })))

/** The body of a request as text, for the debug line. */
const bodyText = (request: HttpClientRequest.HttpClientRequest): string | undefined =>
  request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : undefined

/**
 * The headers of a request as the debug line shows them: the body's own headers last, beside the
 * payload, and without `content-length`, which curl computes from `-d` itself.
 */
const loggedHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> => {
  const entries = Object.entries(headers).filter(([name]) => name !== "content-length")
  const body = (name: string) => name.startsWith("content-")
  return Object.fromEntries([...entries.filter(([name]) => !body(name)), ...entries.filter(([name]) => body(name))])
}

/** The debug line of each attempt, built only when debug logging is on. */
const logRequest = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.flatMap(LogLevel.isEnabled("Debug"), (enabled) =>
    enabled
      ? Effect.logDebug(
        describeForLog(
          { method: request.method, url: request.url },
          loggedHeaders(request.headers),
          bodyText(request)
        )
      )
      : Effect.void)

/**
 * The API's redirects are never followed: the key goes to the API root only. undici and
 * `node:http` hand a 3xx back as it is; `fetch` follows by default, so a fetch-based client is
 * asked for `redirect: "manual"` (its other options kept), which answers with an opaque redirect.
 */
const manualRedirects = <A, E, R>(exchange: Effect.Effect<A, E, R>) =>
  Effect.flatMap(
    Effect.serviceOption(FetchHttpClient.RequestInit),
    (init) =>
      Effect.provideService(exchange, FetchHttpClient.RequestInit, {
        ...Option.getOrUndefined(init),
        redirect: "manual"
      })
  )

/** `fetch`'s answer to a redirect it did not follow: status 0, status and location hidden. */
const isOpaqueRedirect = (response: HttpClientResponse.HttpClientResponse): boolean =>
  response.status === 0 && Option.exists(HttpClientResponse.toWeb(response), (web) => web.type === "opaqueredirect")

/** Counts one attempt in the registry of the fiber making it. */
const countAttempt = Effect.withFiber((fiber) => Effect.succeed(MetricsCount.countRequest(fiber.context)))

/**
 * The platform client as the API wants it: the base URL and the headers (the key among them) set
 * by request mapping, each attempt counted and logged, redirects not followed, then the user's
 * wrapper (which sees the request as it will be sent, as before). No b3/traceparent headers: they
 * would make every browser call a CORS preflight that the API (or a proxy) may refuse, and would
 * hand the caller's trace ids to a third party.
 */
const apiClient = (platformClient: HttpClient.HttpClient, config: TransportConfig, key: string | undefined) => {
  const client = platformClient.pipe(
    HttpClient.mapRequest(flow(
      HttpClientRequest.prependUrl(config.apiUrl),
      HttpClientRequest.acceptJson,
      key === undefined ? identity : HttpClientRequest.setHeader("x-api-key", key)
    )),
    HttpClient.tapRequest((request) => Effect.andThen(countAttempt, logRequest(request))),
    HttpClient.transformResponse(
      flow(Effect.provideService(HttpClient.TracerPropagationEnabled, false), manualRedirects)
    )
  )
  return config.transformClient === undefined ? client : config.transformClient(client)
}

/** The longest URL a message names: every message naming a request quotes its target. */
const shownUrlLength = 1000

/**
 * The platform's message, bounded (a 120,000-character host made a 240 KB line) but long enough for a
 * cassette's miss, which names the nearest recorded request field by field in some 700 characters.
 */
const platformMessageLength = 2000

/**
 * Where a request goes, for messages and logs (never holds the key; cut, so that a huge id makes
 * no huge message), and its path for the client.
 */
const targetOf = (root: string, request: S2Request) => {
  const search = new URLSearchParams(request.query.map(([name, value]) => [name, value])).toString()
  const path = `${prefixes[request.api]}${request.path}${search === "" ? "" : `?${search}`}`
  const target: Target = { method: request.method, url: excerpt(`${root}${path}`, shownUrlLength) }
  return { target, path }
}

/** The request for the client: its path below the root, and its body as JSON. */
const httpRequest = (request: S2Request, path: string): HttpClientRequest.HttpClientRequest => {
  const bare = HttpClientRequest.make(request.method)(path)
  return request.body === undefined
    ? bare
    : HttpClientRequest.bodyText(bare, JSON.stringify(request.body), "application/json")
}

/** The attempt's number (1 for the first) on the operation's span, from the retry schedule's count. */
const annotateAttempt = Effect.flatMap(
  Effect.service(Schedule.CurrentMetadata),
  (meta) => Effect.annotateCurrentSpan("s2.attempts", meta.attempt + 1)
)

/** `retry: false`: one attempt, through the same retry as any policy (which numbers the attempts). */
const noRetry = Schedule.recurs(0)

export const make = (platformClient: HttpClient.HttpClient, config: TransportConfig): Transport => {
  const key = Option.getOrUndefined(Option.map(config.apiKey, Redacted.value))
  const client = apiClient(platformClient, config, key)
  const hideKey = Response.redactKey(key)
  const pace = Option.getOrElse(config.rateLimiter, (): Pace => identity)
  const paced = Option.isSome(config.rateLimiter)

  /**
   * One attempt: numbered, sent, its status on the span and its body read (a body cut short is
   * retried like any failed attempt), then its JSON or the typed error of its status. The steps
   * after the send are one continuation, not a combinator each: they run for every page.
   */
  const attempt = (request: HttpClientRequest.HttpClientRequest, target: Target): Effect.Effect<unknown, S2Error> =>
    Effect.andThen(annotateAttempt, client.execute(request)).pipe(
      Effect.matchEffect({
        onFailure: (error) => Effect.fail(transportError(error, target)),
        onSuccess: (response) =>
          Effect.andThen(
            annotateStatus(response.status),
            isOpaqueRedirect(response)
              ? Effect.fail(Status.opaqueRedirect(target))
              : Effect.flatMap(readResponse(response, config.maxResponseBytes, target), toAnswer(target, hideKey))
          )
      })
    )

  /**
   * The JSON of one call: each attempt paced and within the time-out (and the deadline); failed
   * attempts retried by the policy, each retry logged.
   */
  const fetchJson = (
    request: HttpClientRequest.HttpClientRequest,
    target: Target,
    timeout: Duration.Duration,
    policy: RetryPolicy | false
  ) =>
    retryWithin(
      (bound) => pace(bound(attempt(request, target)), target),
      timeout,
      policy === false ? noRetry : policy,
      policy === false ? identity : (bounded) => withRetryLog(bounded, target),
      config.deadline,
      target,
      paced
    )

  const execute = Effect.fnUntraced(function*<A, I>(
    request: S2Request,
    schema: Schema.Codec<A, I>,
    records: Records = "class"
  ) {
    const overrides = yield* Effect.service(CurrentOverrides)
    const { path, target } = targetOf(config.apiUrl, request)
    const fetch = fetchJson(
      httpRequest(request, path),
      target,
      overrides.timeout ?? config.timeout,
      overrides.retry ?? config.retry
    )
    // Without `around` the JSON is this exchange's own; with it (the response cache) it may be shared.
    return yield* config.around === undefined
      ? Effect.flatMap(fetch, (json) => decode(schema, json, target, hideKey, true, records))
      : config.around(request, fetch, (json) => decode(schema, json, target, hideKey, false, records))
  })

  return {
    config,
    execute,
    decode: (schema, json, target) => decode(schema, json, target, hideKey)
  }
}

/** Used by the service layer to build the transport from its dependencies. */
export const fromClient = (config: TransportConfig) =>
  Effect.map(Effect.service(HttpClient.HttpClient), (client) => make(client, config))
