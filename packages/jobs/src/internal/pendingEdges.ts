/**
 * The walk's edges that wait for an end to be decided (`CitationGraph.crawl`), indexed by the id
 * they wait for: settling looks only at the edges added since the last settling and at those
 * waiting for an id decided since, never at every pending edge (a level of 100,000 overlapping
 * edges rescanned after each paper took 45.6 s). The edges settled and their order are those of
 * a scan of every pending edge in the order they were added.
 */

/** What the walk has decided of an id: the paperId it names, and whether that is a node or refused. */
export interface Decisions {
  readonly canonical: (id: string) => string
  readonly isNode: (id: string) => boolean
  readonly isRefused: (id: string) => boolean
}

export class PendingEdges {
  private next = 0
  /** Pending edges by the order they were added, as last seen (ends made canonical). */
  private readonly edges = new Map<number, readonly [string, string]>()
  /** Id → the edges waiting for it (an edge may be listed twice: the candidates are a set). */
  private readonly waiting = new Map<string, Array<number>>()
  private fresh: Array<number> = []
  private decided: Array<string> = []
  /** The edges emitted, `from\0to`, each once. */
  private readonly emitted = new Set<string>()

  get size(): number {
    return this.edges.size
  }

  /** An edge found: `from` cites `to`. */
  add(from: string, to: string): void {
    const at = this.next++
    this.edges.set(at, [from, to])
    this.fresh.push(at)
  }

  /** `id` was decided (a node, an alias of one, or refused): the edges waiting for it are looked at again. */
  decide(id: string): void {
    this.decided.push(id)
  }

  /**
   * The edges that can be emitted now, in the order they were added: both ends nodes, not a loop,
   * not emitted before. An edge with a refused end (or a loop once merged ids are resolved) is
   * dropped; one with an end not decided waits for it.
   */
  settle(d: Decisions): Array<readonly [string, string]> {
    const look = new Set(this.fresh)
    for (const id of this.decided) {
      const edges = this.waiting.get(id)
      if (edges === undefined) continue
      this.waiting.delete(id)
      for (const at of edges) look.add(at)
    }
    this.fresh = []
    this.decided = []
    const out: Array<readonly [string, string]> = []
    for (const at of [...look].sort((a, b) => a - b)) {
      const edge = this.edges.get(at)
      if (edge === undefined) continue
      const from = d.canonical(edge[0])
      const to = d.canonical(edge[1])
      if (d.isRefused(from) || d.isRefused(to) || from === to) {
        this.edges.delete(at)
        continue
      }
      if (!d.isNode(from) || !d.isNode(to)) {
        this.edges.set(at, [from, to])
        if (!d.isNode(from)) this.wait(from, at)
        if (!d.isNode(to)) this.wait(to, at)
        continue
      }
      this.edges.delete(at)
      const key = `${from}\u0000${to}`
      if (this.emitted.has(key)) continue
      this.emitted.add(key)
      out.push([from, to])
    }
    return out
  }

  private wait(id: string, at: number) {
    const edges = this.waiting.get(id)
    if (edges === undefined) this.waiting.set(id, [at])
    else edges.push(at)
  }
}
