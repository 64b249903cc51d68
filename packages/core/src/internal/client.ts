/**
 * Builds the service: the layer's options checked (a typed `InvalidOptions`, nothing sent), the
 * transport configured once, the batching windows opened, and the three APIs' operations
 * assembled over them.
 */
import * as Persistence from "@effect/experimental/Persistence"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as RateLimiter from "effect/RateLimiter"
import type * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import type { Options } from "../Options.js"
import { defaultApiUrl } from "../Options.js"
import * as RateLimitModule from "../RateLimit.js"
import type { CacheOptions } from "../ResponseCache.js"
import { defaultPolicy } from "../RetryPolicy.js"
import type { InvalidOptions } from "../S2Error.js"
import type { Service } from "../SemanticScholar.js"
import * as ResponseCacheHook from "./cache.js"
import * as Datasets from "./datasets.js"
import * as Graph from "./graph.js"
import * as Lookups from "./lookups.js"
import * as Recommendations from "./recommendations.js"
import { defaultMaxResponseBytes } from "./response.js"
import * as SharedLimiter from "./sharedLimiter.js"
import * as Transport from "./transport.js"
import * as Validate from "./validate.js"

const option = Validate.option

const sharedLimiter = (shared: RateLimitModule.Shared) =>
  Effect.gen(function*() {
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
      label: shared.label ?? "a shared store"
    }).pipe(Effect.mapError(storeError("rateLimit.store")))
  })

/** A store named by an option that cannot be opened is a wrong setting of the client. */
const storeError = (parameter: string) => (error: unknown): InvalidOptions =>
  Validate.isInvalidOptions(error) ? error : Validate.asOption(
    new Validate.Invalid({
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
    return Option.some<Transport.Pace>(yield* RateLimiter.make({ limit, interval, algorithm: "fixed-window" }))
  })

/** The response cache's transport hook, over the store the option names (opened in the scope). */
const responseCache = (cache: CacheOptions, apiUrl: string) =>
  Effect.gen(function*() {
    const timeToLive = yield* option(Validate.positiveDuration("cache.timeToLive", cache.timeToLive ?? "1 day"))
    const context = yield* Layer.build(cache.store).pipe(Effect.mapError(storeError("cache.store")))
    return yield* ResponseCacheHook.make({
      persistence: Context.get(context, Persistence.ResultPersistence),
      apiUrl,
      timeToLive,
      storeId: cache.storeId ?? "s2-effect"
    })
  })

/** The batching windows of lookups; opened even when off, so `withBatching` can switch them on. */
const lookupLoaders = (batching: Options["batching"], execute: Transport.Transport["execute"]) =>
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
      papers: yield* Lookups.loader(Graph.getPapers, execute, settings),
      authors: yield* Lookups.loader(Graph.getAuthors, execute, settings)
    }
  })

/** The transport's settings from the layer's options. */
const transportConfig = (options: Options) =>
  Effect.gen(function*() {
    const apiUrl = yield* option(Validate.httpUrl("apiUrl", options.apiUrl ?? defaultApiUrl, defaultApiUrl))
    return {
      apiUrl,
      apiKey: Option.fromNullable(options.apiKey),
      timeout: yield* option(Validate.positiveDuration("timeout", options.timeout ?? "30 seconds")),
      retry: options.retry ?? defaultPolicy,
      rateLimiter: yield* rateLimiter(options.rateLimit, options.apiKey),
      around: options.cache === undefined ? undefined : yield* responseCache(options.cache, apiUrl),
      maxResponseBytes: yield* option(
        Validate.wholeNumber("maxResponseBytes", options.maxResponseBytes ?? defaultMaxResponseBytes, { min: 1 })
      ),
      transformClient: options.transformClient
    } satisfies Transport.TransportConfig
  })

/** The service over the `HttpClient` in context; the limiter, windows and cache store live in the scope. */
export const make = (
  options: Options = {}
): Effect.Effect<Service, InvalidOptions, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function*() {
    const config = yield* transportConfig(options)
    const transport = yield* Transport.fromClient(config)
    // Batched lookups are cached one lookup at a time (in Graph), so their batch calls skip the cache.
    const direct = config.around === undefined
      ? transport
      : yield* Transport.fromClient({ ...config, around: undefined })
    const loaders = yield* lookupLoaders(options.batching, direct.execute)
    const context = { transport, loaders }
    return { ...Graph.make(context), ...Recommendations.make(context), ...Datasets.make(context) }
  })
