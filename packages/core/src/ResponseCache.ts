/**
 * A response cache for the client: answers of the Graph and Recommendations APIs (lookups, batches,
 * recommendations, list and search pages) are kept for a time to live in a store of effect's
 * `Persistence` (`effect/persistence/Persistence`), and reused instead of asking the server again.
 * Concurrent identical requests are sent once. Give it to the layer as the `cache` option; off by
 * default.
 *
 * Keys are made from the API root, endpoint, ids, fields, filters, paging and body — never the API
 * key; an answer that holds the key (a server echoing it, in any spelling `redactKey` hides) is
 * never stored. Only answers that decoded are cached, and `ObjectNotFound` like a record (the server said
 * so); every other error, a `DecodeError` included, is not, so the next call asks the server
 * again. The Datasets API is never cached (its download links are pre-signed and expire).
 *
 * Each entry names the request it answers (method, path, query and body) and when it expires, and
 * is checked on read: an entry for another request, one that cannot be read (garbage, another
 * version's format) or whose answer no longer decodes is a miss, logged at Warning, and the server
 * is asked — a store's content never gives a wrong answer or fails a request.
 *
 * Stores: {@link memory} here, {@link keyValueStore} over any effect `KeyValueStore`
 * (`effect/persistence/KeyValueStore`: browser local storage, for instance), and on Node
 * `NodeCache.fileSystem(dir)` and `NodeCache.redis(options)` from `@s2-effect/node`. Any layer of
 * effect's `Persistence` is a store.
 *
 * @since 1.0.0
 */
import type * as Duration from "effect/Duration"
import type * as Layer from "effect/Layer"
import type * as KeyValueStore from "effect/persistence/KeyValueStore"
import * as Persistence from "effect/persistence/Persistence"

/**
 * What a store provides: effect's `Persistence` service.
 *
 * @category models
 * @since 1.0.0
 */
export type Store = Persistence.Persistence

/**
 * The `cache` option of the client layer.
 *
 * @example
 * ```ts
 * import { SemanticScholar, ResponseCache } from "@s2-effect/core"
 *
 * const layer = SemanticScholar.layer({ cache: { store: ResponseCache.memory, timeToLive: "1 hour" } })
 * ```
 * @category options
 * @since 1.0.0
 */
export interface CacheOptions {
  /** Where answers are kept. A store that cannot be opened fails the layer with `InvalidOptions`. */
  readonly store: Layer.Layer<Store, unknown>
  /** How long an answer is reused. Default 1 day. */
  readonly timeToLive?: Duration.Input | undefined
  /** Names this client's entries in a shared store; clients with the same id share answers. Default `s2-effect`. */
  readonly storeId?: string | undefined
}

/**
 * Answers kept in the memory of this process, for the life of the layer.
 *
 * @category constructors
 * @since 1.0.0
 */
export const memory: Layer.Layer<Store> = Persistence.layerMemory

/**
 * Answers kept in a `KeyValueStore`, one entry per answer (JSON with its expiry time). The store
 * must support `clearPrefix` (every store effect provides does).
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import * as KeyValueStore from "effect/persistence/KeyValueStore"
 * import { ResponseCache } from "@s2-effect/core"
 *
 * const store = ResponseCache.keyValueStore.pipe(Layer.provide(KeyValueStore.layerMemory))
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const keyValueStore: Layer.Layer<Store, never, KeyValueStore.KeyValueStore> = Persistence.layerKvs
