/**
 * Stores for the client's response cache on Node (the `cache` option of the layer; see
 * `ResponseCache` in `@s2-effect/core`): a directory of files, and Redis.
 *
 * @since 0.1.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import type { PlatformError } from "@effect/platform/Error"
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { ResponseCache } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { RedisOptions } from "ioredis"

/**
 * Answers kept as files in a directory (created when missing), one small JSON file per answer, so
 * they outlive the process and can be shared by processes on one machine.
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
 * @since 0.1.0
 */
export const fileSystem = (directory: string): Layer.Layer<ResponseCache.Store, PlatformError> =>
  ResponseCache.keyValueStore.pipe(
    Layer.provide(KeyValueStore.layerFileSystem(directory)),
    Layer.provide(Layer.merge(NodeFileSystem.layer, NodePath.layer))
  )

/** The client's defaults for Redis: a server that is down or slow ends in an error within seconds. */
const redisDefaults: RedisOptions = {
  connectTimeout: 2000,
  commandTimeout: 2000,
  maxRetriesPerRequest: 1
}

/**
 * Answers kept in Redis with their time to live, shared by every process and machine that uses the
 * server. Needs the `ioredis` package (an optional peer dependency). When Redis cannot be reached the
 * client logs a warning and asks the API instead; a request never fails because of the cache.
 *
 * @example
 * ```ts
 * import { NodeCache, NodeSemanticScholar } from "@s2-effect/node"
 *
 * const client = NodeSemanticScholar.layer({
 *   cache: { store: NodeCache.redis({ host: "127.0.0.1", port: 6379 }), timeToLive: "1 day" }
 * })
 * ```
 * @category constructors
 * @since 0.1.0
 */
export const redis = (options: RedisOptions = {}): Layer.Layer<ResponseCache.Store, Error> =>
  Layer.unwrapEffect(
    Effect.tryPromise({
      // Loaded only when asked for, so that ioredis is needed only by those who use Redis.
      try: () => import("@effect/experimental/Persistence/Redis"),
      catch: (cause) => new Error(`the Redis store needs the ioredis package (npm install ioredis): ${String(cause)}`)
    }).pipe(
      // The same service as core's (tags are matched by key), typed through another copy of the
      // package when pnpm resolves it with the optional ioredis peer.
      Effect.map((Redis) =>
        Redis.layerResult({ ...redisDefaults, ...options }) as unknown as Layer.Layer<ResponseCache.Store>
      )
    )
  )
