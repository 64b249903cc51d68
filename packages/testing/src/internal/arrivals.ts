/**
 * When each paper reaches the emulator: a corpus that grows as the clock moves. A paper arrives a
 * few days after its publication date, or, for a seeded share, weeks later (as Semantic Scholar
 * adds papers late); until then it is hidden from lookups, batches, citation and author lists
 * and searches. Everything is a function of the seed and the clock, so tests replay exactly.
 */
import type { Corpus } from "../Corpus.js"
import type { Arrivals } from "../Emulator.js"
import { hash, unit } from "./prng.js"

const DAY = 86_400_000
const SALT = 0x41525256

/** The instant of a paper's publication: its date, or the middle of its year when it has none. */
const publishedAt = (date: string | null, year: number): number => {
  const parsed = date === null ? Number.NaN : Date.parse(`${date}T00:00:00Z`)
  return Number.isFinite(parsed) ? parsed : Date.UTC(year, 6, 1)
}

export class Timeline {
  /** Arrival instant of each materialized paper; those at or before `from` are there from the start. */
  readonly arrival: Float64Array
  /** The arrivals after `from`, ascending: how many papers have come by an instant, in log time. */
  private readonly later: Float64Array

  constructor(corpus: Corpus, readonly options: Arrivals) {
    const delayDays = options.delayDays ?? 7
    const lateShare = options.lateShare ?? 0.1
    const lateDays = Math.max(delayDays, options.lateDays ?? 60)
    this.arrival = new Float64Array(corpus.size)
    const later: Array<number> = []
    for (let i = 0; i < corpus.size; i++) {
      const paper = corpus.paper(i)
      const late = unit(hash(corpus.seed, SALT, i, 1)) < lateShare
      const draw = unit(hash(corpus.seed, SALT, i, 2))
      const days = late ? delayDays + draw * (lateDays - delayDays) : draw * delayDays
      const at = publishedAt(paper.publicationDate, paper.year) + Math.round(days * DAY)
      this.arrival[i] = at
      if (at > options.from) later.push(at)
    }
    this.later = Float64Array.from(later).sort()
  }

  /** Whether paper `i` is there at `now` (papers beyond the materialized ones always are). */
  shown(i: number, now: number): boolean {
    return i >= this.arrival.length || this.arrival[i]! <= this.options.from || this.arrival[i]! <= now
  }

  /** How many papers arrived after `from` by `now`: names the corpus as it is at `now`. */
  epoch(now: number): number {
    let lo = 0
    let hi = this.later.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.later[mid]! <= now) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
