/**
 * One rate limit for every process and machine on one API key, counted in Redis through
 * `@effect/experimental`'s `RateLimiter/Redis` store (ioredis). Loaded only when asked for, so a
 * client without Redis never loads ioredis.
 *
 * @since 0.1.0
 */
import type { RateLimiterStore } from "@effect/experimental/RateLimiter"
import type { RateLimit } from "@s2-effect/core"
import { InvalidOptions } from "@s2-effect/core"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { RedisOptions } from "ioredis"

/**
 * The shared limit in the layer options: `rateLimit: { store: "redis", url, key, perSecond }`.
 *
 * @category models
 * @since 0.1.0
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
  readonly storeTimeout?: Duration.DurationInput | undefined
}

/** The URL as it may be shown: without its password. */
const shown = (url: URL) => {
  const copy = new URL(url.href)
  if (copy.password !== "") copy.password = "***"
  return copy.href.replace(/\/$/, "")
}

const connection = (url: URL): RedisOptions => ({
  host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
  port: url.port === "" ? 6379 : Number(url.port),
  ...(url.username === "" ? {} : { username: decodeURIComponent(url.username) }),
  ...(url.password === "" ? {} : { password: decodeURIComponent(url.password) }),
  ...(url.pathname.length > 1 ? { db: Number(url.pathname.slice(1)) } : {}),
  ...(url.protocol === "rediss:" ? { tls: {} } : {}),
  // Fail fast rather than queue: a command waits for at most one reconnection, and the client
  // gives up on one that is not answered, so a lost Redis ends in a typed error within seconds.
  connectTimeout: 2_000,
  commandTimeout: 2_000,
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt) => Math.min(attempt * 200, 2_000)
})

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
 * The Redis store of `@effect/experimental`'s RateLimiter for a `redis://` URL. The connection
 * lives as long as the layer; a URL that is not `redis://` or `rediss://` fails the layer.
 *
 * @example
 * ```ts
 * import { NodeRateLimit } from "@s2-effect/node"
 *
 * const store = NodeRateLimit.redisStore("redis://127.0.0.1:6379")
 * ```
 * @category constructors
 * @since 0.1.0
 */
export const redisStore = (url: string): Layer.Layer<RateLimiterStore, InvalidOptions> => {
  const parsed = parse(url)
  if (parsed === undefined) {
    return Layer.fail(
      new InvalidOptions({
        message: `rateLimit.url ${
          JSON.stringify(url.replace(/:[^:@/]*@/, ":***@"))
        } is invalid: give redis://host:port`,
        option: "rateLimit.url"
      })
    )
  }
  return Layer.unwrapEffect(
    Effect.map(
      Effect.promise(() => import("@effect/experimental/RateLimiter/Redis")),
      (Redis) => Redis.layerStore({ ...connection(parsed), prefix: "s2-effect:ratelimit:" })
    )
  )
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
 * @since 0.1.0
 */
export const shared = (options: Redis): RateLimit.Shared => {
  const parsed = parse(options.url)
  return {
    store: redisStore(options.url),
    key: options.key,
    perSecond: options.perSecond,
    onStoreError: options.onStoreError,
    storeTimeout: options.storeTimeout,
    label: `Redis at ${parsed === undefined ? "an invalid URL" : shown(parsed)}`
  }
}

/**
 * Tells the `{ store: "redis" }` options from the core's limits.
 *
 * @category guards
 * @since 0.1.0
 */
export const isRedis = (limit: unknown): limit is Redis =>
  typeof limit === "object" && limit !== null && "store" in limit && limit.store === "redis"
