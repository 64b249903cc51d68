/**
 * Per-call overrides of the layer's settings: `withTimeout`, `withRetry` and `withBatching` work on
 * an Effect or a Stream, data-first or in a pipe, and hold for every request made inside. The
 * transport reads them for every request; another implementation of the service (the test stub of
 * `@s2-effect/testing`) reads them through {@link current}, so code under test behaves the same.
 *
 * @since 1.0.0
 */
import type * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Function from "effect/Function"
import * as Stream from "effect/Stream"
import * as Lookups from "./internal/lookups.js"
import * as Transport from "./internal/transport.js"
import * as Validate from "./internal/validate.js"
import type { RetryPolicy } from "./RetryPolicy.js"
import type { InvalidOptions } from "./S2Error.js"

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
export const current: Effect.Effect<Overrides> = Effect.service(Transport.Overrides)

/**
 * An override applied to an Effect or a Stream, keeping which it is; `E2` is what the override
 * itself may fail with.
 *
 * @category models
 * @since 1.0.0
 */
export type Apply<E2> = <Self extends Target>(self: Self) => Overridden<Self, E2>

/**
 * What an override can be applied to.
 *
 * @category models
 * @since 1.0.0
 */
export type Target = Effect.Effect<unknown, unknown, unknown> | Stream.Stream<unknown, unknown, unknown>

/**
 * An Effect or a Stream with the override's own failure added.
 *
 * @category models
 * @since 1.0.0
 */
export type Overridden<Self, E2> = Self extends Effect.Effect<infer A, infer E, infer R> ? Effect.Effect<A, E | E2, R>
  : Self extends Stream.Stream<infer A, infer E, infer R> ? Stream.Stream<A, E | E2, R>
  : never

/** Provides a reference's value (checked lazily, when the Effect or Stream runs) to an Effect or a Stream. */
const provide = <Self extends Target, I, S, E2>(
  self: Self,
  tag: Context.Key<I, S>,
  value: Effect.Effect<S, E2>
): Overridden<Self, E2> =>
  (Stream.isStream(self)
    ? Stream.unwrap(Effect.map(value, (v) => Stream.provideService(self, tag, v)))
    : Effect.flatMap(value, (v) => Effect.provideService(self, tag, v))) as Overridden<Self, E2>

/** The overrides in force with `change` applied: the one place they are merged. */
const overridden = (
  change: Overrides & { readonly timeoutInput?: Duration.Input }
): Effect.Effect<Overrides, InvalidOptions> =>
  Effect.gen(function*() {
    const now: Overrides = yield* Effect.service(Transport.Overrides)
    const retry = change.retry === undefined ? {} : { retry: change.retry }
    if (change.timeoutInput === undefined) return { ...now, ...retry }
    const timeout = yield* Effect.fromResult(Validate.option(Validate.positiveDuration("timeout", change.timeoutInput)))
    return { ...now, timeout, ...retry }
  })

/**
 * Overrides the per-attempt time-out of every request made by an Effect or a Stream. A
 * non-positive time-out fails with `InvalidOptions` before any request.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { SemanticScholar, withTimeout } from "@s2-effect/core"
 *
 * const quick = SemanticScholar.pipe(
 *   Effect.flatMap((s2) => s2.getPaper("CorpusId:1")),
 *   withTimeout("5 seconds")
 * )
 * const harvest = Stream.unwrap(Effect.map(SemanticScholar, (s2) => s2.searchPaper("graph", { bulk: true })))
 * const failFast = withTimeout(harvest, "10 seconds")
 * ```
 * @category combinators
 * @since 1.0.0
 */
export const withTimeout: {
  (timeout: Duration.Input): Apply<InvalidOptions>
  <Self extends Target>(self: Self, timeout: Duration.Input): Overridden<Self, InvalidOptions>
} = Function.dual(
  2,
  <Self extends Target>(self: Self, timeout: Duration.Input) =>
    provide(self, Transport.Overrides, overridden({ timeoutInput: timeout }))
)

/**
 * Overrides the retry policy of every request made by an Effect or a Stream; `false` makes one
 * attempt each.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar, withRetry } from "@s2-effect/core"
 *
 * const once = SemanticScholar.pipe(
 *   Effect.flatMap((s2) => s2.getPaper("CorpusId:1")),
 *   withRetry(false)
 * )
 * ```
 * @category combinators
 * @since 1.0.0
 */
export const withRetry: {
  (retry: RetryPolicy | false): Apply<never>
  <Self extends Target>(self: Self, retry: RetryPolicy | false): Overridden<Self, never>
} = Function.dual(
  2,
  // Nothing to check: cannot fail.
  <Self extends Target>(self: Self, retry: RetryPolicy | false) =>
    provide(self, Transport.Overrides, Effect.orDie(overridden({ retry })))
)

/**
 * Both overrides at once, on a Stream or an Effect, e.g. a harvest that should fail fast.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { SemanticScholar, withStreamOverrides } from "@s2-effect/core"
 *
 * const harvest = Stream.unwrap(Effect.map(SemanticScholar, (s2) => s2.searchPaper("graph", { bulk: true })))
 * const failFast = withStreamOverrides(harvest, { retry: false, timeout: "10 seconds" })
 * ```
 * @category combinators
 * @since 1.0.0
 */
export const withStreamOverrides = <Self extends Target>(
  self: Self,
  overrides: { readonly timeout?: Duration.Input; readonly retry?: RetryPolicy | false }
): Overridden<Self, InvalidOptions> =>
  provide(
    self,
    Transport.Overrides,
    overridden({
      ...(overrides.timeout === undefined ? {} : { timeoutInput: overrides.timeout }),
      ...(overrides.retry === undefined ? {} : { retry: overrides.retry })
    })
  )

/**
 * Switches automatic batching of `getPaper` / `getAuthor` on or off for every lookup made by an
 * Effect or a Stream, whatever the layer's `batching` option says; the window and size are the
 * layer's. Batched lookups run with the layer's time-out and retry policy.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar, withBatching } from "@s2-effect/core"
 *
 * const titles = (ids: ReadonlyArray<string>) =>
 *   SemanticScholar.pipe(
 *     Effect.flatMap((s2) =>
 *       Effect.forEach(ids, (id) => s2.getPaper(id, { fields: ["title"] }), { concurrency: "unbounded" })
 *     ),
 *     withBatching(true)
 *   )
 * ```
 * @category combinators
 * @since 1.0.0
 */
export const withBatching: {
  (enabled: boolean): Apply<never>
  <Self extends Target>(self: Self, enabled: boolean): Overridden<Self, never>
} = Function.dual(
  2,
  <Self extends Target>(self: Self, enabled: boolean) =>
    provide(self, Lookups.BatchingOverride, Effect.succeed({ enabled }))
)
