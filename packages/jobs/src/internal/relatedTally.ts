/**
 * The counts of `CitationGraph.related`, kept as the lists arrive: every paper met is an integer
 * (the seeds first, `0 … k-1`), its counts live in flat typed arrays that grow, and each list read
 * is kept as the integers of its papers. Nothing else of a list is held: its strings go when its
 * batch does. The best papers are then chosen with a bounded heap (never a sort of every
 * candidate), and the map's data (`similar`, `foundations`, `derivatives`) is counted in one pass
 * over the kept lists, among the at most `top + 20` papers of the map.
 *
 * Memory, for `n` papers met and `e` list entries kept: the id → integer map (about 100 bytes a
 * paper with its 40-character id), `4 + 4 + 1 + 4 × k` bytes of counts a paper (two totals, flags,
 * two 16-bit counts per seed), and 4 bytes an entry. {@link Tally.full} says when `n` or `e` reach
 * their bound, after which the reader starts no list.
 */
import { SimilarLink } from "../CitationGraphRecords.js"

/** A list as its owner names it: `references` (of a paper citing a seed) or `citations` (of one a seed cites). */
export type Kind = "references" | "citations"

/** A list read, as integers: `owner`'s `kind` list, its papers (never the owner itself). */
interface Kept {
  readonly owner: number
  readonly kind: Kind
  readonly members: Int32Array
}

/** Entries kept per candidate allowed: the lists' bound is this times `maxCandidates`. */
export const ENTRIES_PER_CANDIDATE = 16

/** The strongest links kept per paper of the map. */
export const LINKS_PER_PAPER = 5

const grow = <A extends Int32Array | Uint16Array | Uint8Array>(array: A, size: number, make: (n: number) => A): A => {
  if (array.length >= size) return array
  let length = Math.max(array.length, 1024)
  while (length < size) length *= 2
  const next = make(length)
  next.set(array)
  return next
}

/**
 * A bounded top set: the `k` best of the integers offered, by `before` (negative: `a` ranks
 * before `b`, a strict total order), as a heap whose root is the worst kept. Answers them best first.
 */
export const topK = (
  k: number,
  offer: (push: (x: number) => void) => void,
  before: (a: number, b: number) => number
) => {
  const heap: Array<number> = []
  // The root is the one every other ranks before.
  const worse = (i: number, j: number) => before(heap[i]!, heap[j]!) > 0
  const swap = (i: number, j: number) => {
    const t = heap[i]!
    heap[i] = heap[j]!
    heap[j] = t
  }
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let w = i
      if (l < heap.length && worse(l, w)) w = l
      if (r < heap.length && worse(r, w)) w = r
      if (w === i) return
      swap(i, w)
      i = w
    }
  }
  offer((x) => {
    if (k <= 0) return
    if (heap.length < k) {
      heap.push(x)
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1)
    } else if (before(x, heap[0]!) < 0) {
      heap[0] = x
      down(0)
    }
  })
  return heap.sort(before)
}

/**
 * The score of one paper from its per-seed counts (`perSeed[at … at + 2k)`: the co-citations
 * through each seed's citing papers, then the couplings through each seed's references) and how
 * many lists of each seed were read. For each seed, its share: the share of its citing papers that
 * cite the paper too plus the share of its references that the paper cites too (each at most 1,
 * so neither signal outweighs the other because one list is longer, and every seed has the same
 * say however well cited). The seeds' shares combine as a power mean of exponent ½, the square of
 * the mean of their square roots: equal shares give that share, and a paper related to every seed
 * ranks above one with the same counts through a single seed (two seeds: shares ½ and ½ score ½,
 * 1 and 0 score ¼). At most 2.
 */
export const score = (
  perSeed: ArrayLike<number>,
  citingRead: ArrayLike<number>,
  citedRead: ArrayLike<number>,
  at = 0
): number => {
  const k = citingRead.length
  let sum = 0
  for (let i = 0; i < k; i++) {
    const share = (citingRead[i]! > 0 ? perSeed[at + i]! / citingRead[i]! : 0) +
      (citedRead[i]! > 0 ? perSeed[at + k + i]! / citedRead[i]! : 0)
    sum += Math.sqrt(share)
  }
  const mean = k > 0 ? sum / k : 0
  return mean * mean
}

const CITES_SEED = 1
const CITED_BY_SEED = 2

/** A paper ranked: its integer, and what `RelatedPaper` says of it. */
export interface Ranked {
  readonly at: number
  readonly score: number
  readonly coCitation: number
  readonly coupling: number
  readonly citesSeed: boolean
  readonly citedBySeed: boolean
}

/** See the module's documentation. */
export class Tally {
  readonly k: number
  readonly index = new Map<string, number>()
  readonly ids: Array<string> = []
  coCitation = new Int32Array(0)
  coupling = new Int32Array(0)
  flags = new Uint8Array(0)
  /**
   * Per paper `2k` counts: a paper's count through one seed is at most that seed's list, which
   * holds at most 11,000 ids (1,000 nested and 10 pages of 1,000), so 16 bits hold it.
   */
  perSeed = new Uint16Array(0)
  readonly citingRead: Int32Array
  readonly citedRead: Int32Array
  /** The seeds (by position) whose citations list holds a paper, and whose references list does. */
  readonly citersOf = new Map<number, Array<number>>()
  readonly citedOf = new Map<number, Array<number>>()
  readonly kept: Array<Kept> = []
  entries = 0
  /** The papers whose list of each kind was counted. */
  citing = 0
  cited = 0

  constructor(seeds: ReadonlyArray<string>, readonly maxCandidates: number) {
    this.k = seeds.length
    this.citingRead = new Int32Array(this.k)
    this.citedRead = new Int32Array(this.k)
    for (const seed of seeds) this.intern(seed)
  }

  /** How many papers were met that are not seeds. */
  get candidates(): number {
    return this.ids.length - this.k
  }

  /** Whether the papers met or the entries kept have reached their bound: start no other list. */
  get full(): boolean {
    return this.candidates >= this.maxCandidates || this.entries >= ENTRIES_PER_CANDIDATE * this.maxCandidates
  }

  intern(id: string): number {
    const known = this.index.get(id)
    if (known !== undefined) return known
    const at = this.ids.length
    this.index.set(id, at)
    this.ids.push(id)
    const size = at + 1
    this.coCitation = grow(this.coCitation, size, (n) => new Int32Array(n))
    this.coupling = grow(this.coupling, size, (n) => new Int32Array(n))
    this.flags = grow(this.flags, size, (n) => new Uint8Array(n))
    this.perSeed = grow(this.perSeed, size * 2 * this.k, (n) => new Uint16Array(n))
    return at
  }

  /** `id` is on seed `seed`'s `list`: it cites the seed (citations) or the seed cites it (references). */
  neighbour(id: string, list: Kind, seed: number): void {
    const at = this.intern(id)
    const of = list === "citations" ? this.citersOf : this.citedOf
    const seeds = of.get(at)
    if (seeds === undefined) of.set(at, [seed])
    else if (!seeds.includes(seed)) seeds.push(seed)
    if (at >= this.k) this.flags[at]! |= list === "citations" ? CITES_SEED : CITED_BY_SEED
  }

  /**
   * Keeps `owner`'s `kind` list and, when `count`, counts it: each paper on it (seeds never, nor
   * the owner) gets one co-citation (a references list) or coupling (a citations list), and one
   * through each seed the owner is a neighbour of, whose lists read it raises by one.
   */
  add(owner: string, kind: Kind, ids: Iterable<string>, count: boolean): void {
    const o = this.intern(owner)
    const through = count ? (kind === "references" ? this.citersOf : this.citedOf).get(o) ?? [] : []
    if (count) {
      const read = kind === "references" ? this.citingRead : this.citedRead
      for (const i of through) read[i]!++
      if (kind === "references") this.citing++
      else this.cited++
    }
    const members: Array<number> = []
    for (const id of ids) {
      const x = this.intern(id)
      if (x === o) continue
      members.push(x)
      if (!count || x < this.k) continue
      ;(kind === "references" ? this.coCitation : this.coupling)[x]!++
      const row = x * 2 * this.k + (kind === "references" ? 0 : this.k)
      for (const i of through) this.perSeed[row + i]!++
    }
    this.kept.push({ owner: o, kind, members: Int32Array.from(members) })
    this.entries += members.length
  }

  /** Ranks before: score, then the counts' sum, then direct links, then the paperId. */
  private before(scores: Float64Array) {
    return (a: number, b: number) => {
      const links = (f: number) => (f & 1) + ((f >> 1) & 1)
      const ids = this.ids
      return scores[b - this.k]! - scores[a - this.k]! ||
        (this.coCitation[b]! + this.coupling[b]!) - (this.coCitation[a]! + this.coupling[a]!) ||
        links(this.flags[b]!) - links(this.flags[a]!) ||
        (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0)
    }
  }

  /** The `top` best candidates, best first. */
  rank(top: number): Array<Ranked> {
    const n = this.ids.length
    const scores = new Float64Array(Math.max(0, n - this.k))
    for (let x = this.k; x < n; x++) {
      scores[x - this.k] = score(this.perSeed, this.citingRead, this.citedRead, x * 2 * this.k)
    }
    const best = topK(top, (push) => {
      for (let x = this.k; x < n; x++) push(x)
    }, this.before(scores))
    return best.map((at) => ({
      at,
      score: scores[at - this.k]!,
      coCitation: this.coCitation[at]!,
      coupling: this.coupling[at]!,
      citesSeed: (this.flags[at]! & CITES_SEED) !== 0,
      citedBySeed: (this.flags[at]! & CITED_BY_SEED) !== 0
    }))
  }

  /**
   * The links among the map's papers (`map`: integers, seeds first), from the kept lists in one
   * pass: `coCitation` the references lists holding both, `coupling` the citations lists holding
   * both; `strength` their sum over the geometric mean of the lists holding each (Salton's cosine,
   * 0 … 1). Each paper keeps its {@link LINKS_PER_PAPER} strongest; strongest first.
   */
  similar(map: ReadonlyArray<number>): Array<SimilarLink> {
    const m = map.length
    const position = new Map(map.map((x, i) => [x, i]))
    const co = new Int32Array(m * m)
    const cp = new Int32Array(m * m)
    const holding = new Int32Array(m)
    const on: Array<number> = []
    for (const list of this.kept) {
      on.length = 0
      for (const x of list.members) {
        const p = position.get(x)
        if (p !== undefined) on.push(p)
      }
      const pairs = list.kind === "references" ? co : cp
      for (let i = 0; i < on.length; i++) {
        holding[on[i]!]!++
        for (let j = i + 1; j < on.length; j++) {
          const [a, b] = on[i]! < on[j]! ? [on[i]!, on[j]!] : [on[j]!, on[i]!]
          pairs[a * m + b]!++
        }
      }
    }
    const links: Array<{ a: number; b: number; strength: number; sum: number }> = []
    for (let a = 0; a < m; a++) {
      for (let b = a + 1; b < m; b++) {
        const sum = co[a * m + b]! + cp[a * m + b]!
        if (sum > 0) links.push({ a, b, strength: sum / Math.sqrt(holding[a]! * holding[b]!), sum })
      }
    }
    const order = (x: (typeof links)[number], y: (typeof links)[number]) =>
      y.strength - x.strength || y.sum - x.sum || x.a - y.a || x.b - y.b
    links.sort(order)
    const perPaper = new Int32Array(m)
    const kept = links.filter((l) => {
      const keep = perPaper[l.a]! < LINKS_PER_PAPER || perPaper[l.b]! < LINKS_PER_PAPER
      perPaper[l.a]!++
      perPaper[l.b]!++
      return keep
    })
    return kept.map(({ a, b, strength }) =>
      new SimilarLink({
        a: this.ids[map[a]!]!,
        b: this.ids[map[b]!]!,
        coCitation: co[a * m + b]!,
        coupling: cp[a * m + b]!,
        strength
      })
    )
  }

  /**
   * The papers off the map most cited by the map's papers (`foundations`) and citing most of them
   * (`derivatives`), `n` of each kind, with how many map papers each is counted for, from the kept
   * lists: a references list says its owner cites each paper on it, a citations list that each
   * paper on it cites its owner; each (paper, map paper) pair counts once.
   */
  around(map: ReadonlyArray<number>, n: { readonly foundations: number; readonly derivatives: number }) {
    const m = map.length
    const position = new Map(map.map((x, i) => [x, i]))
    const pairs = { foundations: new Set<number>(), derivatives: new Set<number>() }
    const counts = { foundations: new Int32Array(this.ids.length), derivatives: new Int32Array(this.ids.length) }
    // `citing` cites `cited`: counted when exactly one of them is on the map.
    const cites = (citing: number, cited: number) => {
      const from = position.get(citing)
      const to = position.get(cited)
      if (from !== undefined && to === undefined) note("foundations", cited, from)
      else if (from === undefined && to !== undefined) note("derivatives", citing, to)
    }
    const note = (which: keyof typeof pairs, x: number, p: number) => {
      const key = x * m + p
      if (pairs[which].has(key)) return
      pairs[which].add(key)
      counts[which][x]!++
    }
    for (const list of this.kept) {
      for (const x of list.members) {
        if (list.kind === "references") cites(list.owner, x)
        else cites(x, list.owner)
      }
    }
    const best = (which: keyof typeof pairs) => {
      const c = counts[which]
      const chosen = topK(n[which], (push) => {
        for (let x = 0; x < c.length; x++) if (c[x]! > 0) push(x)
      }, (a, b) => c[b]! - c[a]! || (this.ids[a]! < this.ids[b]! ? -1 : this.ids[a]! > this.ids[b]! ? 1 : 0))
      return chosen.map((x) => ({ id: this.ids[x]!, count: c[x]! }))
    }
    return { foundations: best("foundations"), derivatives: best("derivatives") }
  }
}
