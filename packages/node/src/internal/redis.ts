/**
 * Redis for the shared rate limit and the response cache: `@effect/platform-node`'s `NodeRedis`
 * (node-redis), connected on first use rather than when the client's layer is built. A Redis that
 * is down when the client starts then costs what a Redis lost mid-run costs — each consumer's own
 * fallback (a typed error, pacing alone, asking the API) — instead of failing the whole client.
 */
import type * as NodeRedis from "@effect/platform-node/NodeRedis"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import type * as Redis from "effect/persistence/Redis"
import { Redis as RedisService, RedisError as RedisErrorClass } from "effect/persistence/Redis"
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
  disableOfflineQueue: true,
  // The CLIENT SETINFO of node-redis's handshake has no time-out: a server that answers it with
  // something that is not RESP (garbage, an HTTP server) would hold the connection, and the
  // process, forever. Without it the first real command meets that answer, under its 2 s bound.
  disableClientInfo: true
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
      (module) =>
        Layer.effectContext(Effect.map(Layer.build(module.layer(options)), (context) => {
          const { client } = Context.get(context, module.NodeRedis)
          let unreadable: Error | undefined
          client.on("error", (error: unknown) => {
            if (!notRedis(error) || !client.isOpen) return
            unreadable = error as Error
            client.destroy()
          })
          // The commands the destroyed client failed say why: not "Disconnects client".
          const named = <A>(effect: Effect.Effect<A, Redis.RedisError>) =>
            Effect.mapError(effect, (error) =>
              unreadable === undefined ? error : new RedisErrorClass({
                cause: new Error(`answered something that is not Redis (${unreadable.message})`)
              }))
          const redis = Context.get(context, RedisService)
          return Context.add(
            context,
            RedisService,
            RedisService.of({
              ...redis,
              send: (command, ...args) => named(redis.send(command, ...args)),
              eval: (script) => (...params) => named(redis.eval(script)(...params))
            })
          )
        }))
    )
  ).pipe(Layer.provide(Layer.succeed(References.MinimumLogLevel, "Error")))

/**
 * An answer node-redis cannot read at all (garbage, an HTTP server at the port): its decoder
 * throws, and the command waiting for that answer is never settled, not even by its time-out, nor
 * is the client's `close`. Destroying the client fails that command (and every later one) at once,
 * so the consumer gets its typed error and the process can exit.
 */
const notRedis = (error: unknown): boolean =>
  error instanceof Error && !("code" in error) && /^Unknown RESP type/.test(error.message)

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
