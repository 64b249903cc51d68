/**
 * Client-side pacing. The API allows one request per second per key, over all endpoints, so the
 * limiter is shared by every fiber that uses one client layer.
 *
 * @since 1.0.0
 */
import type * as Duration from "effect/Duration"
import type * as Layer from "effect/Layer"
import type { RateLimiterStore } from "effect/persistence/RateLimiter"
import type { InvalidOptions } from "./S2Error.js"

/**
 * At most `requests` requests in each window of `per`.
 *
 * @example
 * ```ts
 * import type { RateLimit } from "@s2-effect/core"
 *
 * const tenPerSecond: RateLimit.RateLimit = { requests: 10, per: "1 second" }
 * ```
 * @category models
 * @since 1.0.0
 */
export interface RateLimit {
  readonly requests: number
  readonly per: Duration.Input
}

/**
 * The pace the API grants a key: one request per second, cumulative over all endpoints. The
 * client keeps a margin of 2% under any pace it is given, counted from when requests actually
 * leave, so that a server counting the time between arrivals never sees two closer than its limit.
 *
 * @category constructors
 * @since 1.0.0
 */
export const perKey: RateLimit = { requests: 1, per: "1 second" }

/**
 * One pace for every process (or machine) on one API key, counted in a store they share: the
 * `RateLimiterStore` of `effect/persistence/RateLimiter` (Redis through `NodeRateLimit` of `@s2-effect/node`,
 * or its in-memory store in tests). Requests are spread evenly: `perSecond: 1` lets one request
 * through per second over all workers, never a burst at the start of each second.
 *
 * @example
 * ```ts
 * import { layerStoreMemory } from "effect/persistence/RateLimiter"
 * import type { RateLimit } from "@s2-effect/core"
 *
 * // Shared by the fibers of one process only; Redis shares it between processes.
 * const inMemory: RateLimit.Shared = { store: layerStoreMemory, key: "my-key", perSecond: 1 }
 * ```
 * @category models
 * @since 1.0.0
 */
export interface Shared {
  /**
   * Where the count lives; every worker that should share a pace uses the same store and key. A
   * store that cannot be set up (a bad URL) fails with `InvalidOptions`.
   */
  readonly store: Layer.Layer<RateLimiterStore, InvalidOptions>
  /** The counter's name in the store. Default `"s2-effect"`. A name, never the API key itself. */
  readonly key?: string | undefined
  /** Requests per second over all workers on the key, spread evenly. Default 1 (the API's grant). */
  readonly perSecond?: number | undefined
  /**
   * When the store fails or does not answer within `storeTimeout`: `"fail"` (default) ends the
   * request with `RateLimiterUnavailable`; `"local"` logs a warning and paces this process alone
   * at `perSecond` for 30 seconds before asking the store again (the workers together may then
   * exceed the key's rate and meet 429s, which are retried).
   */
  readonly onStoreError?: "fail" | "local" | undefined
  /** The longest wait for the store's answer. Default 2 seconds. */
  readonly storeTimeout?: Duration.Input | undefined
  /**
   * The longest wait for a slot the store may ask for. Default 1 minute. A store asking for more
   * (another program holding the key's slots, or a store that is not what it seems) is treated as
   * a failing store (see `onStoreError`); every wait it asks for is logged at Warning.
   */
  readonly maxWait?: Duration.Input | undefined
  /** How the store is named in errors and logs, e.g. `Redis at redis://127.0.0.1:6379`. */
  readonly label?: string | undefined
}

/**
 * Tells a {@link Shared} limit from a per-process {@link RateLimit}.
 *
 * @category guards
 * @since 1.0.0
 */
export const isShared = (limit: RateLimit | Shared): limit is Shared => "store" in limit
