import { describe, expect, it } from "@effect/vitest"
import type { Paper } from "@s2-effect/core"
import * as fc from "fast-check"
import { TitleMatch } from "../src/index.js"
import { type Candidate, type Open, settledBy } from "../src/internal/resolveTitles.js"

/** A page's paper as bulk search answers it (`title`, `citationCount`), counting the reads of its title. */
const paperOf = (paperId: string, title: string | null, citationCount: number, reads?: { n: number }) =>
  ({
    paperId,
    citationCount,
    get title() {
      if (reads !== undefined) reads.n++
      return title
    }
  }) as unknown as Paper

/**
 * The documented choice, by brute force over the whole page: among the papers whose title is the
 * same title (`TitleMatch.compare`), the most similar, then the most cited, then the first.
 */
const oracle = (titles: ReadonlyArray<Open>, page: ReadonlyArray<Paper>): Map<string, Candidate> => {
  const out = new Map<string, Candidate>()
  for (const { key, title } of titles) {
    const same = page.flatMap((paper, at) => {
      if (typeof paper.title !== "string") return []
      const { same, similarity } = TitleMatch.compare(title, paper.title)
      return same ? [{ paper, at, similarity }] : []
    })
    same.sort((a, b) =>
      b.similarity - a.similarity || (b.paper.citationCount ?? 0) - (a.paper.citationCount ?? 0) || a.at - b.at
    )
    if (same[0] !== undefined) out.set(key, { paperId: same[0].paper.paperId, similarity: same[0].similarity })
  }
  return out
}

const words = [
  "graph",
  "neural",
  "learning",
  "of",
  "the",
  "a",
  "pre",
  "training",
  "pretraining",
  "deep",
  "Models",
  "on"
]

/** A title changed as pages and references change them: case, punctuation, order, spacing, a word. */
const variant = (title: string, how: number, word: string): string => {
  const ws = title.split(" ")
  switch (how) {
    case 0:
      return title.toUpperCase()
    case 1:
      return `${title}.`
    case 2:
      return [...ws.slice(1), ws[0]!].join(" ")
    case 3:
      return ws.join("")
    case 4:
      return [...ws.slice(0, -1), word].join(" ")
    case 5:
      return ws.filter((w) => w !== "the" && w !== "of").join(" ")
    default:
      return title.replace("pre training", "pre-training")
  }
}

describe("settledBy (the titles a bulk page settles)", () => {
  it("normalises each title of a page once for the whole group, and answers as before", () => {
    const reads = { n: 0 }
    const page = Array.from(
      { length: 1000 },
      (_, i) => paperOf(`p${i}`, `Measuring effect ${i} of graph learning on models`, i % 7, reads)
    )
    const titles = Array.from({ length: 50 }, (_, k) => ({
      key: `k${k}`,
      title: k % 2 === 0
        ? `Measuring effect ${20 * k} of graph learning on models`
        : `MEASURING EFFECT ${20 * k}: graph-learning on models`
    }))
    const settled = settledBy(titles, page)
    // One read of each title, not one per title of the group (50,000 before).
    expect(reads.n).toBe(1000)
    expect([...settled].map(([key, c]) => [key, c.paperId])).toEqual(titles.map((t, k) => [t.key, `p${20 * k}`]))
    expect(settled).toEqual(oracle(titles, page))
    // The oracle's 50,000 comparisons take seconds on a busy 2-core machine: a bound, not a measure.
  }, 60_000)

  it("property: the same answers as comparing each title with every paper of the page", () => {
    const title = fc.array(fc.constantFrom(...words), { minLength: 2, maxLength: 6 }).map((ws) => ws.join(" "))
    fc.assert(
      fc.property(
        fc.array(title, { minLength: 1, maxLength: 6 }),
        fc.array(
          fc.tuple(fc.nat(10), fc.nat(7), fc.constantFrom(...words), fc.nat(3), fc.boolean()),
          { maxLength: 40 }
        ),
        (given, entries) => {
          const page = entries.map(([of, how, word, cited, none], i) =>
            paperOf(`p${i}`, none ? null : variant(given[of % given.length]!, how, word), cited)
          )
          const titles = given.map((t, k) => ({ key: `k${k}`, title: t }))
          expect(settledBy(titles, page)).toEqual(oracle(titles, page))
        }
      ),
      { numRuns: 500 }
    )
  })
})
