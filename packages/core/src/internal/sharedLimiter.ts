/**
 * The transport's pacing hook over `@effect/experimental`'s RateLimiter and a store shared by many
 * processes. Each request takes the next free slot of `1 / perSecond` in the store and waits for
 * it, so the workers together send evenly spaced requests instead of each bursting at its own pace.
 */
import * as ExperimentalRateLimiter from "@effect/experimental/RateLimiter"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as RateLimiter from "effect/RateLimiter"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import type { Shared } from "../RateLimit.js"
import type { InvalidOptions, S2Error } from "../S2Error.js"
import { RateLimiterUnavailable } from "../S2Error.js"
import type { Pace } from "./transport.js"

/** The options of a {@link Shared} limit, checked and with their defaults. */
export interface Resolved {
  readonly store: Shared["store"]
  readonly key: string
  readonly perSecond: number
  readonly onStoreError: "fail" | "local"
  readonly storeTimeout: Duration.Duration
  readonly label: string
}

/** How long a process that lost its store paces itself before asking the store again. */
const localSpell = Duration.seconds(30)

const describe = (cause: unknown): string =>
  cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "unknown failure"

export const make = (options: Resolved): Effect.Effect<Pace, InvalidOptions, Scope.Scope> =>
  Effect.gen(function*() {
    const context = yield* Layer.build(ExperimentalRateLimiter.layer.pipe(Layer.provide(options.store)))
    const limiter = Context.get(context, ExperimentalRateLimiter.RateLimiter)
    const interval = Duration.millis(1000 / options.perSecond)
    const problem = (why: string) => `the shared rate limit's store (${options.label}) ${why}`
    // A slot of `interval` per request: the store answers how long to wait for ours. Fails with
    // what went wrong with the store.
    const slot = limiter.consume({
      key: options.key,
      limit: 1,
      window: interval,
      onExceeded: "delay",
      algorithm: "fixed-window"
    }).pipe(
      Effect.mapError((error) => problem(`failed: ${describe(error.reason === "StoreError" ? error.cause : error)}`)),
      Effect.timeoutFail({
        duration: options.storeTimeout,
        onTimeout: () => problem(`did not answer within ${Duration.format(options.storeTimeout)}`)
      }),
      Effect.map(({ delay }) => delay)
    )
    const wait = <A>(task: Effect.Effect<A, S2Error>) => (delay: Duration.Duration) =>
      Duration.isZero(delay) ? task : Effect.delay(task, delay)
    const shared: Pace = (task) =>
      slot.pipe(
        Effect.mapError((why) =>
          new RateLimiterUnavailable({ message: `${why}; no request was sent`, store: options.label })
        ),
        Effect.flatMap(wait(task))
      )
    if (options.onStoreError === "fail") return shared

    const local = yield* RateLimiter.make({ limit: 1, interval, algorithm: "fixed-window" })
    const localUntil = yield* Ref.make(0)
    const fallBack = <A>(task: Effect.Effect<A, S2Error>) => (why: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.set(localUntil, now + Duration.toMillis(localSpell))).pipe(
        Effect.zipRight(Effect.logWarning(
          `${why}: pacing this process alone at ${options.perSecond}/s for ${
            Duration.format(localSpell)
          }, then asking the store again`
        )),
        Effect.zipRight(local(task))
      )
    return <A>(task: Effect.Effect<A, S2Error>) =>
      Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Ref.get(localUntil)), ([now, until]) =>
        now < until
          ? local(task)
          : Effect.matchEffect(slot, { onFailure: fallBack(task), onSuccess: wait(task) }))
  })
