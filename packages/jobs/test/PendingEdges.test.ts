import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { type Decisions, PendingEdges } from "../src/internal/pendingEdges.js"

/**
 * The walk's settling as it was written first, kept as the reference: after every step, scan every
 * pending edge in the order it was added; drop those with a refused end or that are loops, keep
 * (made canonical) those with an end not a node, emit the others once.
 */
class Reference {
  pending: Array<readonly [string, string]> = []
  readonly emitted = new Set<string>()
  add(from: string, to: string) {
    this.pending.push([from, to])
  }
  settle(d: Decisions) {
    const keep: Array<readonly [string, string]> = []
    const out: Array<readonly [string, string]> = []
    for (const [rawFrom, rawTo] of this.pending) {
      const from = d.canonical(rawFrom)
      const to = d.canonical(rawTo)
      if (d.isRefused(from) || d.isRefused(to) || from === to) continue
      if (!d.isNode(from) || !d.isNode(to)) {
        keep.push([from, to])
        continue
      }
      const key = `${from}\u0000${to}`
      if (this.emitted.has(key)) continue
      this.emitted.add(key)
      out.push([from, to])
    }
    this.pending = keep
    return out
  }
}

const id = fc.integer({ min: 0, max: 11 }).map((i) => `p${i}`)
const step = fc.oneof(
  fc.record({ op: fc.constant("add" as const), from: id, to: id }),
  fc.record({ op: fc.constant("node" as const), id }),
  fc.record({ op: fc.constant("refuse" as const), id }),
  fc.record({ op: fc.constant("alias" as const), id, to: id, refused: fc.boolean() }),
  fc.record({ op: fc.constant("settle" as const) })
)

describe("PendingEdges", () => {
  it("settles exactly the edges, in the order, that a scan of every pending edge settles (property)", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const nodes = new Set<string>()
        const refused = new Set<string>()
        const alias = new Map<string, string>()
        const decisions: Decisions = {
          canonical: (x) => alias.get(x) ?? x,
          isNode: (x) => nodes.has(x),
          isRefused: (x) => refused.has(x)
        }
        const decided = (x: string) => nodes.has(x) || refused.has(x) || alias.has(x)
        const indexed = new PendingEdges()
        const reference = new Reference()
        const all: Array<string> = []
        // As the walk decides ids: each once, a merged id naming a paperId that is no alias itself.
        for (const s of [...steps, { op: "settle" as const }]) {
          if (s.op === "add") {
            indexed.add(s.from, s.to)
            reference.add(s.from, s.to)
          } else if (s.op === "settle") {
            const settled = indexed.settle(decisions)
            expect(settled).toEqual(reference.settle(decisions))
            all.push(...settled.map(([a, b]) => `${a}>${b}`))
          } else if (!decided(s.id)) {
            if (s.op === "node") nodes.add(s.id)
            if (s.op === "refuse") refused.add(s.id)
            if (s.op === "alias") {
              if (s.to === s.id || alias.has(s.to) || refused.has(s.to)) continue
              if (s.refused && nodes.has(s.to)) continue
              alias.set(s.id, s.to)
              ;(s.refused ? refused : nodes).add(s.to)
              if (s.refused) refused.add(s.id)
              indexed.decide(s.to)
            }
            indexed.decide(s.id)
          }
        }
        expect(new Set(all).size).toBe(all.length)
      }),
      { numRuns: 500 }
    )
  })
})
