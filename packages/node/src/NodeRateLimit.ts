/**
 * One rate limit for every process and machine on one API key, counted in Redis through
 * `effect/persistence`'s RateLimiter and its Redis store, over `@effect/platform-node`'s
 * `NodeRedis` (node-redis). The connection is made on first use: a client whose Redis is down
 * still starts, and meets the limit's `onStoreError` when it asks.
 *
 * @since 1.0.0
 */
import type { RateLimit } from "@s2-effect/core"
import { InvalidOptions } from "@s2-effect/core"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as RateLimiter from "effect/persistence/RateLimiter"
import type * as PersistenceRedis from "effect/persistence/Redis"
import * as NodeRedis from "./internal/redis.js"

/**
 * The shared limit in the layer options: `rateLimit: { store: "redis", url, key, perSecond }`.
 *
 * @category models
 * @since 1.0.0
 */
export interface Redis {
  readonly store: "redis"
  /** `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS. */
  readonly url: string
  /** The counter's name; every worker on one API key uses the same. Default `"s2-effect"`. */
  readonly key?: string | undefined
  /** Requests per second over all workers, spread evenly. Default 1 (the API's grant per key). */
  readonly perSecond?: number | undefined
  /** `"fail"` (default): `RateLimiterUnavailable` when Redis is gone; `"local"`: pace this process alone. */
  readonly onStoreError?: "fail" | "local" | undefined
  /** The longest wait for Redis's answer. Default 2 seconds. */
  readonly storeTimeout?: Duration.Input | undefined
  /** The longest wait for a slot Redis may ask for; a longer one is `RateLimiterUnavailable`. Default 1 minute. */
  readonly maxWait?: Duration.Input | undefined
}

/** The URL as it may be shown: without its password. */
const shown = (url: URL) => {
  const copy = new URL(url.href)
  if (copy.password !== "") copy.password = "***"
  return copy.href.replace(/\/$/, "")
}

/** What the limiter is told when Redis cannot be reached at all (it names the store itself). */
const unreachable = (error: PersistenceRedis.RedisError) =>
  new RateLimiter.RateLimiterError({
    reason: new RateLimiter.RateLimitStoreError({
      // The limiter's message adds the cause's own words.
      message: "cannot connect",
      cause: error.cause
    })
  })

/**
 * The Redis store for a parsed URL, connected on first use (see `internal/redis.ts`): each
 * operation waits for the connection, and a connection that cannot be made fails the operation
 * with the store error the limiter turns into `RateLimiterUnavailable` or its local pace.
 */
const lazyStore = (url: URL): Layer.Layer<RateLimiter.RateLimiterStore> =>
  Layer.effect(
    RateLimiter.RateLimiterStore,
    Effect.map(
      NodeRedis.lazily(
        Effect.flatMap(
          Layer.build(NodeRedis.layer(NodeRedis.withDefaults({ url: url.href }))),
          (redis) => Effect.provideContext(RateLimiter.makeStoreRedis({ prefix: "s2-effect:ratelimit:" }), redis)
        ).pipe(Effect.mapError(unreachable))
      ),
      (store) =>
        RateLimiter.RateLimiterStore.of({
          fixedWindow: (options) => Effect.flatMap(store, (s) => s.fixedWindow(options)),
          tokenBucket: (options) => Effect.flatMap(store, (s) => s.tokenBucket(options)),
          adaptiveConsume: (options) => Effect.flatMap(store, (s) => s.adaptiveConsume(options)),
          adaptiveFeedback: (options) => Effect.flatMap(store, (s) => s.adaptiveFeedback(options))
        })
    )
  )

const parse = (url: string): URL | undefined => {
  try {
    const parsed = new URL(url)
    const db = parsed.pathname.slice(1)
    return (parsed.protocol === "redis:" || parsed.protocol === "rediss:") && /^\d*$/.test(db) ? parsed : undefined
  } catch {
    return undefined
  }
}

/**
 * The Redis store of `effect/persistence`'s RateLimiter for a `redis://` URL. The connection is
 * made on first use and lives as long as the layer; a URL that is not `redis://` or `rediss://`
 * fails the layer.
 *
 * @example
 * ```ts
 * import { NodeRateLimit } from "@s2-effect/node"
 *
 * const store = NodeRateLimit.redisStore("redis://127.0.0.1:6379")
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const redisStore = (url: string): Layer.Layer<RateLimiter.RateLimiterStore, InvalidOptions> => {
  const parsed = parse(url)
  if (parsed === undefined) {
    return Layer.effect(
      RateLimiter.RateLimiterStore,
      Effect.fail(
        new InvalidOptions({
          subject: `rateLimit.url ${JSON.stringify(url.replace(/:[^:@/]*@/, ":***@"))}`,
          problem: "is invalid",
          advice: "give redis://host:port",
          option: "rateLimit.url"
        })
      )
    )
  }
  return lazyStore(parsed)
}

/**
 * The core's {@link RateLimit.Shared} limit for the `{ store: "redis", … }` options.
 *
 * @example
 * ```ts
 * import { SemanticScholar } from "@s2-effect/core"
 * import { NodeRateLimit, NodeSemanticScholar } from "@s2-effect/node"
 * import { Layer } from "effect"
 *
 * const client = SemanticScholar.layer({
 *   rateLimit: NodeRateLimit.shared({ store: "redis", url: "redis://127.0.0.1:6379", perSecond: 1 })
 * }).pipe(Layer.provide(NodeSemanticScholar.httpClient))
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const shared = (options: Redis): RateLimit.Shared => {
  const parsed = parse(options.url)
  return {
    store: redisStore(options.url),
    key: options.key,
    perSecond: options.perSecond,
    onStoreError: options.onStoreError,
    storeTimeout: options.storeTimeout,
    maxWait: options.maxWait,
    label: `Redis at ${parsed === undefined ? "an invalid URL" : shown(parsed)}`
  }
}

/**
 * Tells the `{ store: "redis" }` options from the core's limits.
 *
 * @category guards
 * @since 1.0.0
 */
export const isRedis = (limit: unknown): limit is Redis =>
  typeof limit === "object" && limit !== null && "store" in limit && limit.store === "redis"
