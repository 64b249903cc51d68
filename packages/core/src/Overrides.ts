/**
 * The time-out and retry overrides in force, as set by `withTimeout`, `withRetry` and
 * `withStreamOverrides`. The client's transport reads them for every request; another
 * implementation of the service (the test stub of `@s2-effect/testing`) reads them here so that
 * code under test behaves the same against it.
 *
 * @since 0.1.0
 */
import type { Duration } from "effect"
import { Effect } from "effect"
import * as Transport from "./internal/transport.js"
import type { RetryPolicy } from "./RetryPolicy.js"

/**
 * The overrides: absent fields leave the layer's settings in force.
 *
 * @category models
 * @since 0.1.0
 */
export interface Overrides {
  readonly timeout?: Duration.Duration
  readonly retry?: RetryPolicy | false
}

/**
 * The overrides of the current effect or stream (empty when none was set).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Overrides, withRetry } from "@s2-effect/core"
 *
 * const retry = Overrides.current.pipe(Effect.map((o) => o.retry), withRetry(false)) // false
 * ```
 * @category constructors
 * @since 0.1.0
 */
export const current: Effect.Effect<Overrides> = Effect.map(Transport.Overrides, (overrides): Overrides => overrides)
