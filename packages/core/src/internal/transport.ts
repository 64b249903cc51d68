/**
 * The only place that talks HTTP. Every operation hands it a described request and a schema; here
 * the request gets its base URL and key, is paced, timed out, retried, logged (key redacted),
 * and its answer is turned into a record or a typed error.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as LogLevel from "effect/LogLevel"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Metrics from "../Metrics.js"
import type { RetryPolicy } from "../RetryPolicy.js"
import type { S2Error } from "../S2Error.js"
import { DecodeError, Timeout, TransportError } from "../S2Error.js"
import { fastDecoder } from "./decode.js"
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

/** The rate-limit hook: waits for the request's turn (a per-process or a shared limiter) and runs it. */
export type Pace = <A>(task: Effect.Effect<A, S2Error>) => Effect.Effect<A, S2Error>

/** Given a request and the effect that fetches its JSON answer, the effect to run instead. */
export type Around = (request: S2Request, fetch: Effect.Effect<unknown, S2Error>) => Effect.Effect<unknown, S2Error>

/**
 * Overrides of time-out and retry for one call or one scope, set with `withTimeout` / `withRetry`.
 * A context reference rather than layer state, so it can be provided to an Effect or a Stream alike.
 */
export class Overrides extends Context.Reference<Overrides>()("@s2-effect/core/Overrides", {
  defaultValue: (): {
    readonly timeout?: Duration.Duration
    readonly retry?: RetryPolicy | false
  } => ({})
}) {}

export interface Transport {
  readonly config: TransportConfig
  readonly execute: <A, I>(request: S2Request, schema: Schema.Schema<A, I>) => Effect.Effect<A, S2Error>
}

type Target = Response.Target

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
    ? Effect.zipRight(
      Metric.increment(Metrics.rateLimited),
      Effect.annotateCurrentSpan("http.response.status_code", status)
    )
    : Effect.annotateCurrentSpan("http.response.status_code", status)

const transportError = (error: HttpClientError.HttpClientError, target: Target) => {
  const reason = reasonOf(error)
  const where = `${target.method} ${target.url}`
  if (reason !== undefined) {
    return new TransportError({
      message: `${describeReason[reason](hostPort(target.url))} (${where})`,
      reason,
      ...target
    })
  }
  const detail = innermostMessage(error.cause)
  return new TransportError({
    message: `${where} failed at ${hostPort(target.url)}: ${error.message}${
      detail === undefined ? "" : ` (${detail})`
    }`,
    ...target
  })
}

/** Unknown fields are preserved: the server adds fields over time, and `raw` must show them. */
const decodeOptions = { onExcessProperty: "preserve" } as const

/**
 * `hide` removes the key from the text of an error before it is cut to length (a server may echo
 * it). `fresh`: the JSON was parsed for this call alone, so its records may be built in place.
 */
export const decode = <A, I>(
  schema: Schema.Schema<A, I>,
  json: unknown,
  target: Target,
  hide: (text: string) => string = (text) => text,
  fresh = false
): Effect.Effect<A, DecodeError> => {
  const fast = fastDecoder(schema)?.(json, fresh)
  return fast !== undefined && Option.isSome(fast)
    ? Effect.succeed(fast.value)
    : slowDecode(schema, json, target, hide)
}

/**
 * A bounded rendering of a server's value. A hostile body can nest deeply enough to overflow the
 * stack of any recursive printer; that must still end as a `DecodeError`, not a defect.
 */
const shown = (render: () => string, max: number, hide: (text: string) => string): string => {
  try {
    return excerpt(hide(render()), max)
  } catch {
    return "(a value nested too deeply to show)"
  }
}

/** Schema's own decoder: the reference behaviour, and the source of the error message. */
const slowDecode = <A, I>(
  schema: Schema.Schema<A, I>,
  json: unknown,
  target: Target,
  hide: (text: string) => string
): Effect.Effect<A, DecodeError> =>
  // Schema memoises the compiled parser per schema, so this does not rebuild it per page.
  Schema.decodeUnknownEither(schema, decodeOptions)(json).pipe(
    Effect.mapError((error) =>
      new DecodeError({
        message: `the response of ${target.method} ${target.url} is not of the expected shape: ${
          shown(() => ParseResult.TreeFormatter.formatIssueSync(error.issue), 1000, hide)
        }`,
        excerpt: shown(() => JSON.stringify(error.issue.actual) ?? String(error.issue.actual), 500, hide),
        ...target
      })
    )
  )

/** Status, headers and text of an answer: a success read whole up to the bound, an error's start only. */
const readResponse = (response: HttpClientResponse.HttpClientResponse, maxBytes: number, target: Target) => {
  const { headers, status } = response
  const text: Effect.Effect<string, HttpClientError.ResponseError | Response.TooLarge> = status >= 200 && status < 300
    ? Response.readCapped(response, maxBytes)
    : Response.readStart(response)
  return text.pipe(
    Effect.mapError((error) =>
      error._tag === "TooLarge" ? Response.tooLarge(error, maxBytes, target, status) : transportError(error, target)
    ),
    Effect.map((text) => ({ status, headers, text }))
  )
}

export const make = (platformClient: HttpClient.HttpClient, config: TransportConfig): Transport => {
  // No b3/traceparent headers: they would make every browser call a CORS preflight that the API
  // (or a proxy) may refuse, and they would hand the caller's trace ids to a third party.
  const client = HttpClient.withTracerPropagation(
    config.transformClient === undefined ? platformClient : config.transformClient(platformClient),
    false
  )
  const root = config.apiUrl
  const key = Option.map(config.apiKey, Redacted.value)
  const hideKey = Response.redactKey(Option.getOrUndefined(key))

  const attempt = (request: S2Request, timeout: Duration.Duration) => {
    const url = `${root}${prefixes[request.api]}${request.path}`
    const search = new URLSearchParams(request.query.map(([name, value]) => [name, value])).toString()
    const target: Target = { method: request.method, url: search === "" ? url : `${url}?${search}` }
    const body = request.body === undefined ? undefined : JSON.stringify(request.body)
    const headers: Record<string, string> = { accept: "application/json" }
    if (Option.isSome(key)) headers["x-api-key"] = key.value
    if (body !== undefined) headers["content-type"] = "application/json"
    const httpRequest = HttpClientRequest.make(request.method)(target.url).pipe(
      HttpClientRequest.setHeaders(headers),
      body === undefined ? (r) => r : HttpClientRequest.bodyText(body, "application/json")
    )
    const exchange = Effect.suspend(() => {
      MetricsCount.countRequest()
      return client.execute(httpRequest)
    }).pipe(
      Effect.mapError((error) => transportError(error, target)),
      Effect.tap((response) => annotateStatus(response.status)),
      Effect.flatMap((response) => readResponse(response, config.maxResponseBytes, target)),
      Effect.timeoutFail({
        duration: timeout,
        onTimeout: () =>
          new Timeout({
            message: `no response from ${target.method} ${target.url} within ${Duration.format(timeout)}`,
            timeoutMillis: Duration.toMillis(timeout),
            ...target
          })
      }),
      Effect.flatMap(({ headers: responseHeaders, status, text }) =>
        Effect.flatMap(Clock.currentTimeMillis, (now): Effect.Effect<unknown, S2Error> => {
          if (status >= 200 && status < 300) {
            try {
              return Effect.succeed(JSON.parse(text))
            } catch {
              return Effect.fail(
                new TransportError({
                  message:
                    `the body of ${target.method} ${target.url} (HTTP ${status}) is not valid JSON; was it cut short? It starts: ${
                      excerpt(hideKey(text), 120)
                    }`,
                  reason: "cutShort",
                  status,
                  ...target
                })
              )
            }
          }
          // Any other status, a redirect included (not followed: the key goes to the API root only).
          const retryAfterMillis = Status.parseRetryAfter(responseHeaders["retry-after"], now)
          const { location } = responseHeaders
          return Effect.fail(Status.toError({ status, ...target, body: hideKey(text), retryAfterMillis, location }))
        })
      )
    )
    const paced = Option.match(config.rateLimiter, { onNone: () => exchange, onSome: (limit) => limit(exchange) })
    return {
      target,
      // The debug line (with its curl command) is only built when debug logging is on.
      run: Effect.zipRight(
        Effect.whenLogLevel(
          Effect.suspend(() => Effect.logDebug(describeForLog(target, headers, body))),
          LogLevel.Debug
        ),
        paced
      )
    }
  }

  const logFailure = (error: S2Error) => Effect.logDebug(`S2 attempt failed (${error._tag}): ${error.message}`)

  /**
   * The first attempt runs bare; the retry schedule (a driver and its state per call) is built only
   * when it fails, and sees that failure first, as if it had run from the start. Nearly every page
   * of a harvest succeeds at once, and the schedule was a measurable part of its per-page cost.
   */
  const withRetry = (once: Effect.Effect<unknown, S2Error>, policy: RetryPolicy, target: Target) =>
    Effect.catchAll(once, (first) => {
      let replay: S2Error | undefined = first
      const again = Effect.suspend(() => {
        if (replay === undefined) return Effect.tapError(once, logFailure)
        const error = replay
        replay = undefined
        return Effect.fail(error)
      })
      return Effect.zipRight(logFailure(first), Effect.retry(again, withRetryLog(policy, target)))
    })

  const execute = <A, I>(request: S2Request, schema: Schema.Schema<A, I>) =>
    Effect.gen(function*() {
      const overrides = yield* Overrides
      const policy = overrides.retry ?? config.retry
      const { run: once, target } = attempt(request, overrides.timeout ?? config.timeout)
      let attempts = 0
      const run = Effect.suspend(() => {
        attempts++
        return once
      })
      const fetch = Effect.ensuring(
        policy === false ? run : withRetry(run, policy, target),
        Effect.suspend(() => Effect.annotateCurrentSpan("s2.attempts", attempts))
      )
      const json = yield* config.around === undefined ? fetch : config.around(request, fetch)
      // Without `around` the JSON is this exchange's own; with it (the response cache) it may be shared.
      return yield* decode(schema, json, target, hideKey, config.around === undefined)
    })

  return { config, execute }
}

/** Used by the service layer to build the transport from its dependencies. */
export const fromClient = (config: TransportConfig) =>
  Effect.map(HttpClient.HttpClient, (client) => make(client, config))
