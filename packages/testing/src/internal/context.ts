/** State shared by route handlers: the corpus and small caches. */
import type { Corpus } from "../Corpus.js"
import type { ResultSet } from "./bulk.js"

export class Lru<V> {
  private readonly map = new Map<string, V>()
  constructor(private readonly capacity: number) {}
  get(key: string, make: () => V): V {
    const hit = this.map.get(key)
    if (hit !== undefined) {
      this.map.delete(key)
      this.map.set(key, hit)
      return hit
    }
    const value = make()
    this.map.set(key, value)
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next()
      if (oldest.done !== true) this.map.delete(oldest.value)
    }
    return value
  }
}

export interface RouteContext {
  readonly corpus: Corpus
  readonly bulkSets: Lru<ResultSet>
  readonly relevance: Lru<ReadonlyArray<{ readonly id: number; readonly score: number }>>
  readonly files: Lru<Uint8Array>
  /** Pre-serialized materialized papers per `fields` value: bulk pages are mostly string joins. */
  readonly serialized: Lru<Array<string | undefined>>
  /** Base URL (no trailing slash) dataset file links point at; not the API root. */
  readonly fileBase: string
}

export const makeContext = (corpus: Corpus, fileBase: string): RouteContext => ({
  corpus,
  bulkSets: new Lru(32),
  relevance: new Lru(64),
  files: new Lru(64),
  serialized: new Lru(8),
  fileBase
})
