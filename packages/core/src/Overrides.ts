/**
 * What the per-call overrides of the layer's settings are: the package's `withTimeout`,
 * `withRetry`, `withBatching` and `withStreamOverrides` work on an Effect or a Stream (an
 * {@link Overridable}), data-first or in a pipe, and hold for every request made inside. The
 * transport reads them for every request; another implementation of the service (the test stub of
 * `@s2-effect/testing`) reads them through {@link current}, so code under test behaves the same.
 *
 * @since 1.0.0
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import * as Transport from "./internal/transport.js"
import type { RetryPolicy } from "./RetryPolicy.js"
import * as SemanticScholar from "./SemanticScholar.js"

/**
 * The overrides: absent fields leave the layer's settings in force.
 *
 * @category models
 * @since 1.0.0
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
 * @since 1.0.0
 */
export const current: Effect.Effect<Overrides> = Effect.service(Transport.CurrentOverrides)

/**
 * An override applied to an Effect or a Stream, keeping which it is; `E2` is what the override
 * itself may fail with.
 *
 * @category models
 * @since 1.0.0
 */
export type Apply<E2> = <Self extends Overridable>(self: Self) => Overridden<Self, E2>

/**
 * What an override can be applied to: an Effect or a Stream.
 *
 * @category models
 * @since 1.2.0
 */
export type Overridable = Effect.Effect<unknown, unknown, unknown> | Stream.Stream<unknown, unknown, unknown>

/**
 * @deprecated Since 1.2.0: {@link Overridable} (a request's method and URL is what the messages
 * call its target).
 * @category models
 * @since 1.0.0
 */
export type Target = Overridable

/**
 * An Effect or a Stream with the override's own failure added.
 *
 * @category models
 * @since 1.0.0
 */
export type Overridden<Self, E2> = Self extends Effect.Effect<infer A, infer E, infer R> ? Effect.Effect<A, E | E2, R>
  : Self extends Stream.Stream<infer A, infer E, infer R> ? Stream.Stream<A, E | E2, R>
  : never

/**
 * @deprecated Since 1.2.0: the package's `withTimeout`, the same function (one name per function).
 * @category combinators
 * @since 1.0.0
 */
export const withTimeout: typeof SemanticScholar.withTimeout = SemanticScholar.withTimeout

/**
 * @deprecated Since 1.2.0: the package's `withRetry`, the same function.
 * @category combinators
 * @since 1.0.0
 */
export const withRetry: typeof SemanticScholar.withRetry = SemanticScholar.withRetry

/**
 * @deprecated Since 1.2.0: the package's `withStreamOverrides`, the same function.
 * @category combinators
 * @since 1.0.0
 */
export const withStreamOverrides: typeof SemanticScholar.withStreamOverrides = SemanticScholar.withStreamOverrides

/**
 * @deprecated Since 1.2.0: the package's `withBatching`, the same function.
 * @category combinators
 * @since 1.0.0
 */
export const withBatching: typeof SemanticScholar.withBatching = SemanticScholar.withBatching
