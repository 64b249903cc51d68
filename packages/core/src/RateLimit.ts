/**
 * Client-side pacing. The API allows one request per second per key, over all endpoints, so the
 * limiter is shared by every fiber that uses one client layer.
 *
 * @since 0.1.0
 */
import type { Duration } from "effect"

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
 * @since 0.1.0
 */
export interface RateLimit {
  readonly requests: number
  readonly per: Duration.DurationInput
}

/**
 * The pace the API grants a key: one request per second, cumulative over all endpoints.
 *
 * @category constructors
 * @since 0.1.0
 */
export const perKey: RateLimit = { requests: 1, per: "1 second" }
