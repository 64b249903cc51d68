/**
 * Stores for the client's response cache on Node (the `cache` option of the layer; see
 * `ResponseCache` in `@s2-effect/core`): a directory of files, and Redis.
 *
 * @since 1.0.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import type * as PlatformNodeRedis from "@effect/platform-node/NodeRedis"
import { ResponseCache } from "@s2-effect/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Persistence from "effect/persistence/Persistence"
import type * as PersistenceRedis from "effect/persistence/Redis"
import type { PlatformError } from "effect/PlatformError"
import * as FileStore from "./internal/fileStore.js"
import * as NodeRedis from "./internal/redis.js"

/**
 * Answers kept as files in a directory (created when missing, with `Files.makeDirectory`), one
 * small JSON file per answer, so they outlive the process and can be shared by processes on one
 * machine. Each file names the request it answers and is checked on read: a file swapped, copied or
 * spoiled is a logged miss, never another request's answer. The file names are predictable, so
 * nothing goes through a symbolic link: an answer is written with `Files.writeAtomic` (a link
 * planted under its name is replaced, its target untouched), and a link (or anything but a file)
 * under an entry's name is a miss with a Warning, never read.
 *
 * @example
 * ```ts
 * import { NodeCache, NodeSemanticScholar } from "@s2-effect/node"
 *
 * const client = NodeSemanticScholar.layer({
 *   cache: { store: NodeCache.fileSystem(".s2-cache"), timeToLive: "7 days" }
 * })
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const fileSystem = (directory: string): Layer.Layer<ResponseCache.Store, PlatformError> =>
  ResponseCache.keyValueStore.pipe(
    Layer.provide(FileStore.layer(directory)),
    Layer.provide(NodeFileSystem.layer)
  )

/**
 * node-redis's client options (`createClient` of the `redis` package), such as
 * `{ url: "redis://127.0.0.1:6379" }` or `{ socket: { host, port } }`.
 *
 * @category models
 * @since 1.0.0
 */
export type RedisOptions = NonNullable<Parameters<typeof PlatformNodeRedis.layer>[0]>

const unreachable = (error: PersistenceRedis.RedisError) =>
  new Persistence.PersistenceError({
    // The cache's warning adds the cause's own words.
    message: "cannot connect to Redis",
    cause: error.cause
  })

/**
 * `Persistence`'s Redis backing, connected on first use (see `internal/redis.ts`): every operation
 * waits for the connection, and one that cannot be made fails the operation, which the cache turns
 * into a warning and a request to the API.
 */
const lazyBacking = (options: RedisOptions): Layer.Layer<Persistence.BackingPersistence> =>
  Layer.effect(
    Persistence.BackingPersistence,
    Effect.map(
      NodeRedis.lazily(
        Layer.build(Persistence.layerBackingRedis.pipe(Layer.provide(NodeRedis.layer(options)))).pipe(
          Effect.map(Context.get(Persistence.BackingPersistence)),
          Effect.mapError(unreachable)
        )
      ),
      (backing) =>
        Persistence.BackingPersistence.of({
          make: (storeId) =>
            Effect.map(
              NodeRedis.lazily(Effect.flatMap(backing, (b) => b.make(storeId))),
              (store): Persistence.BackingPersistenceStore => ({
                get: (key) => Effect.flatMap(store, (s) => s.get(key)),
                getMany: (keys) => Effect.flatMap(store, (s) => s.getMany(keys)),
                set: (key, value, ttl) => Effect.flatMap(store, (s) => s.set(key, value, ttl)),
                setMany: (entries) => Effect.flatMap(store, (s) => s.setMany(entries)),
                remove: (key) => Effect.flatMap(store, (s) => s.remove(key)),
                clear: Effect.flatMap(store, (s) => s.clear)
              })
            )
        })
    )
  )

/**
 * Answers kept in Redis with their time to live, shared by every process and machine that uses the
 * server, through `@effect/platform-node`'s `NodeRedis` (the `redis` package). The connection is
 * made on first use; when Redis cannot be reached the client logs a warning and asks the API
 * instead: a request never fails because of the cache. A server that is down or slow ends in an
 * error within seconds (defaults: 2 s to connect, 2 s per command, no queueing while reconnecting).
 *
 * @example
 * ```ts
 * import { NodeCache, NodeSemanticScholar } from "@s2-effect/node"
 *
 * const client = NodeSemanticScholar.layer({
 *   cache: { store: NodeCache.redis({ url: "redis://127.0.0.1:6379" }), timeToLive: "1 day" }
 * })
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const redis = (options: RedisOptions = {}): Layer.Layer<ResponseCache.Store> =>
  Persistence.layer.pipe(Layer.provide(lazyBacking(NodeRedis.withDefaults(options))))
