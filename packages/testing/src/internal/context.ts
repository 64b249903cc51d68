/** State shared by route handlers: the corpus and small caches. */
import type { Corpus } from "../Corpus.js"
import type { Timeline } from "./arrivals.js"
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
  /** When papers arrive, if they do (`EmulatorOptions.arrivals`). */
  readonly timeline: Timeline | undefined
  /** The clock of the request being answered (set by the core before each route). */
  now: number
}

/** Whether paper `i` is there at the time of the request being answered. */
export const shown = (ctx: RouteContext, i: number): boolean =>
  ctx.timeline === undefined || ctx.timeline.shown(i, ctx.now)

/** A paper id resolved to a paper that is there now, or `undefined`. */
export const resolveShown = (ctx: RouteContext, id: string): number | undefined => {
  const i = ctx.corpus.resolvePaper(id)
  return i === undefined || !shown(ctx, i) ? undefined : i
}

export const makeContext = (corpus: Corpus, fileBase: string, timeline?: Timeline): RouteContext => ({
  corpus,
  bulkSets: new Lru(32),
  relevance: new Lru(64),
  files: new Lru(64),
  serialized: new Lru(8),
  fileBase,
  timeline,
  now: 0
})
