/**
 * Builds the service: the layer's options checked (a typed `InvalidOptions`, nothing sent), the
 * transport configured once, the batching windows opened, and the three APIs' operations
 * assembled over them.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Persistence from "effect/persistence/Persistence"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { Invalid } from "../Invalid.js"
import type { Options } from "../Options.js"
import { defaultApiUrl } from "../Options.js"
import * as RateLimitModule from "../RateLimit.js"
import type { CacheOptions } from "../ResponseCache.js"
import { defaultPolicy } from "../RetryPolicy.js"
import type { InvalidOptions } from "../S2Error.js"
import type { Service } from "../SemanticScholar.js"
import type { Check } from "../Validate.js"
import * as ResponseCacheHook from "./cache.js"
import * as Datasets from "./datasets.js"
import * as Endpoint from "./endpoint.js"
import * as Graph from "./graph.js"
import * as Lookups from "./lookups.js"
import * as Recommendations from "./recommendations.js"
import { defaultMaxResponseBytes, holdsKey } from "./response.js"
import * as SharedLimiter from "./sharedLimiter.js"
import * as Transport from "./transport.js"
import * as Validate from "./validate.js"

/** The default of `Options.deadline`: above every budget of the default policy, below ten long `Retry-After`s. */
const defaultDeadline = "15 minutes"

/** A layer option's check as an effect: a typed `InvalidOptions`, nothing sent. */
const option = <A>(check: Check<A>) => Effect.fromResult(Validate.option(check))

const sharedLimiter = Effect.fnUntraced(function*(shared: RateLimitModule.Shared) {
  const perSecond = yield* option(Validate.positiveNumber("rateLimit.perSecond", shared.perSecond ?? 1))
  const key = shared.key ?? "s2-effect"
  if (key.length === 0) {
    return yield* option(Validate.refuse("rateLimit.key", "rateLimit.key is empty: give the counter a name"))
  }
  const storeTimeout = yield* option(
    Validate.positiveDuration("rateLimit.storeTimeout", shared.storeTimeout ?? "2 seconds")
  )
  return yield* SharedLimiter.make({
    store: shared.store,
    key,
    perSecond,
    onStoreError: shared.onStoreError ?? "fail",
    storeTimeout,
    label: shared.label ?? "a shared store",
    maxWait: yield* option(Validate.positiveDuration("rateLimit.maxWait", shared.maxWait ?? "1 minute"))
  }).pipe(Effect.mapError(storeError("rateLimit.store")))
})

/** A store named by an option that cannot be opened is a wrong setting of the client. */
const storeError = (parameter: string) => (error: unknown): InvalidOptions =>
  Validate.isInvalidOptions(error) ? error : Validate.asOption(
    new Invalid({
      parameter,
      message: `the ${parameter.split(".")[0]} store could not be opened: ${
        error instanceof Error ? error.message : String(error)
      }`
    })
  )

/** The pacing of requests: off, per process, or shared through a store. Default 1/s with a key. */
const rateLimiter = (
  rateLimit: Options["rateLimit"],
  apiKey: Redacted.Redacted<string> | undefined
): Effect.Effect<Option.Option<Transport.Pace>, InvalidOptions, Scope.Scope> =>
  Effect.gen(function*() {
    const chosen = rateLimit ?? (apiKey === undefined ? false : RateLimitModule.perKey)
    if (chosen === false) return Option.none()
    if (RateLimitModule.isShared(chosen)) return Option.some(yield* sharedLimiter(chosen))
    const limit = yield* option(Validate.wholeNumber("rateLimit.requests", chosen.requests, { min: 1 }))
    const interval = yield* option(Validate.positiveDuration("rateLimit.per", chosen.per))
    return Option.some(yield* SharedLimiter.perProcess({ limit, interval }))
  })

/**
 * The response cache over the store the option names (opened in the scope, guarded): the
 * transport's hook, and what the batching windows need to store each lookup on its own.
 */
const responseCache = Effect.fnUntraced(function*(
  cache: CacheOptions,
  apiUrl: string,
  apiKey: Redacted.Redacted<string> | undefined
) {
  const timeToLive = yield* option(Validate.positiveDuration("cache.timeToLive", cache.timeToLive ?? "1 day"))
  const context = yield* Layer.build(cache.store).pipe(Effect.mapError(storeError("cache.store")))
  const persistence = ResponseCacheHook.guard(
    Context.get(context, Persistence.Persistence),
    holdsKey(apiKey === undefined ? undefined : Redacted.value(apiKey))
  )
  const storeId = cache.storeId ?? "s2-effect"
  const lookups: Lookups.Cache = {
    persistence,
    storeId,
    timeToLive: ResponseCacheHook.timeToLiveOf(timeToLive),
    keyOf: (request) => ResponseCacheHook.keyOf(apiUrl, request)
  }
  return { around: yield* ResponseCacheHook.make({ persistence, apiUrl, timeToLive, storeId }), lookups }
})

/** The batching windows of lookups; opened even when off, so `withBatching` can switch them on. */
const lookupLoaders = (
  batching: Options["batching"],
  transport: Transport.Transport,
  cache: Lookups.Cache | undefined
) =>
  Effect.gen(function*() {
    const given = typeof batching === "object" ? batching : {}
    const settings: Lookups.Settings = {
      enabled: batching !== undefined && batching !== false,
      window: yield* option(Validate.positiveDuration("batching.window", given.window ?? "10 millis")),
      maxSize: yield* option(
        Validate.wholeNumber("batching.maxSize", given.maxSize ?? Number.MAX_SAFE_INTEGER, { min: 1 })
      )
    }
    return {
      settings,
      papers: yield* Lookups.loader(
        { ...Graph.getPapers, route: Endpoint.route(Graph.getPapers) },
        transport,
        settings,
        cache
      ),
      authors: yield* Lookups.loader(
        { ...Graph.getAuthors, route: Endpoint.route(Graph.getAuthors) },
        transport,
        settings,
        cache
      )
    }
  })

/** The transport's settings from the layer's options, and the response cache's part for lookups. */
const transportConfig = (options: Options) =>
  Effect.gen(function*() {
    const apiUrl = yield* option(Validate.httpUrl("apiUrl", options.apiUrl ?? defaultApiUrl, defaultApiUrl))
    const timeout = yield* option(Validate.positiveDuration("timeout", options.timeout ?? "30 seconds"))
    const deadline = options.deadline === false
      ? undefined
      : yield* option(Validate.positiveDuration("deadline", options.deadline ?? defaultDeadline))
    if (options.apiKey !== undefined) yield* option(Validate.headerValue("apiKey", Redacted.value(options.apiKey)))
    const pace = yield* rateLimiter(options.rateLimit, options.apiKey)
    const cache = options.cache === undefined ? undefined : yield* responseCache(options.cache, apiUrl, options.apiKey)
    const config = {
      apiUrl,
      apiKey: Option.fromNullishOr(options.apiKey),
      timeout,
      deadline,
      retry: options.retry ?? defaultPolicy,
      rateLimiter: pace,
      around: cache?.around,
      maxResponseBytes: yield* option(
        Validate.wholeNumber("maxResponseBytes", options.maxResponseBytes ?? defaultMaxResponseBytes, { min: 1 })
      ),
      transformClient: options.transformClient
    } satisfies Transport.TransportConfig
    return { config, lookups: cache?.lookups }
  })

/** The service over the `HttpClient` in context; the limiter, windows and cache store live in the scope. */
export const make = (
  options: Options = {}
): Effect.Effect<Service, InvalidOptions, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function*() {
    const { config, lookups } = yield* transportConfig(options)
    const transport = yield* Transport.fromClient(config)
    const loaders = yield* lookupLoaders(options.batching, transport, lookups)
    const context = { transport, loaders }
    return { ...Graph.make(context), ...Recommendations.make(context), ...Datasets.make(context) }
  })
