/**
 * Redis for the shared rate limit and the response cache: `@effect/platform-node`'s `NodeRedis`
 * (node-redis), connected on first use rather than when the client's layer is built. A Redis that
 * is down when the client starts then costs what a Redis lost mid-run costs — each consumer's own
 * fallback (a typed error, pacing alone, asking the API) — instead of failing the whole client.
 */
import type * as NodeRedis from "@effect/platform-node/NodeRedis"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import type * as Redis from "effect/persistence/Redis"
import * as References from "effect/References"
import * as Scope from "effect/Scope"

/** node-redis's client options, as `NodeRedis.layer` takes them (the same type as the public `NodeCache.RedisOptions`, which typedoc needs spelled out there). */
export type Options = NonNullable<Parameters<typeof NodeRedis.layer>[0]>

/**
 * Fail fast rather than queue: a command is not held while the client reconnects, and one not
 * answered within 2 s fails, so a lost Redis ends in a typed error (or a fallback) within seconds.
 */
export const defaults: Options = {
  socket: { connectTimeout: 2_000 },
  commandOptions: { timeout: 2_000 },
  disableOfflineQueue: true
}

export const withDefaults = (options: Options): Options =>
  ({
    ...defaults,
    ...options,
    socket: { ...defaults.socket, ...options.socket },
    commandOptions: { ...defaults.commandOptions, ...options.commandOptions }
  }) as Options

/**
 * `NodeRedis`, with its own warnings (one per failed reconnection) left out: the consumers say in
 * their own words, once, that the store is gone, and what they do instead. The module (and with it
 * the `redis` package) is loaded only when a Redis store is first used, so a client without Redis
 * never loads it.
 */
export const layer = (options: Options): Layer.Layer<Redis.Redis | NodeRedis.NodeRedis, Redis.RedisError> =>
  Layer.unwrap(
    Effect.map(
      Effect.promise(() => import("@effect/platform-node/NodeRedis")),
      (module) => module.layer(options)
    )
  ).pipe(Layer.provide(Layer.succeed(References.MinimumLogLevel, "Error")))

/**
 * `build` run on first use, in the scope of the layer that calls this, and kept once it succeeds;
 * callers that arrive while it runs share that attempt, and the use after a failure tries again.
 * Built in a fiber of its own, so an interrupted caller does not abort it for the others.
 */
export const lazily = <A, E>(
  build: Effect.Effect<A, E, Scope.Scope>
): Effect.Effect<Effect.Effect<A, E>, never, Scope.Scope> =>
  Effect.map(Effect.scope, (scope) => {
    let current: Deferred.Deferred<A, E> | undefined
    const attempt = (deferred: Deferred.Deferred<A, E>) =>
      Effect.gen(function*() {
        const child = yield* Scope.fork(scope)
        const exit = yield* Effect.exit(Scope.provide(build, child))
        if (Exit.isFailure(exit)) {
          current = undefined
          yield* Scope.close(child, exit)
        }
        yield* Deferred.done(deferred, exit)
      })
    return Effect.suspend(() => {
      if (current !== undefined) return Deferred.await(current)
      const deferred = Deferred.makeUnsafe<A, E>()
      current = deferred
      return Effect.andThen(Effect.forkIn(attempt(deferred), scope), Deferred.await(deferred))
    })
  })
