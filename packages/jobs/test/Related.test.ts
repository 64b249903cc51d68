import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Corpus, Emulator } from "@s2-effect/testing"
import { Effect, Layer, Logger } from "effect"
import * as fc from "fast-check"
import { CitationGraph } from "../src/index.js"
import { pack, score } from "../src/internal/related.js"
import { type Handler, json, requests, testLayer } from "./support/Scripted.js"

const small = Corpus.make({ seed: 1, size: 1000 })
const large = Corpus.make({ seed: 1, size: 10_000 })

const emulated = (corpus: Corpus) =>
  SemanticScholar.layer({ rateLimit: false }).pipe(Layer.provideMerge(Emulator.layer({ corpus })))

const slice = (of: Int32Array, start: Int32Array, i: number) => Array.from(of.subarray(start[i]!, start[i + 1]!))

/** The papers citing a seed, and those a seed cites (corpus indices). */
const neighbourhood = (corpus: Corpus, seeds: ReadonlyArray<number>) => ({
  citing: new Set(seeds.flatMap((s) => slice(corpus.graph.citeSources, corpus.graph.citeStart, s))),
  cited: new Set(seeds.flatMap((s) => slice(corpus.graph.refTargets, corpus.graph.refStart, s)))
})

/**
 * The answer computed over the emulator's whole graph, by the definitions: `citing` are the papers
 * citing a seed, `cited` the papers a seed cites; coCitation(X) counts the citing papers whose
 * references hold X, coupling(X) the cited papers whose citations hold X, and per seed the same
 * through that seed's own citing papers and references; seeds are never candidates.
 */
const bruteForce = (corpus: Corpus, seeds: ReadonlyArray<number>) => {
  const { citeSources, citeStart, refStart, refTargets } = corpus.graph
  const memo = (of: Int32Array, start: Int32Array) => {
    const seen = new Map<number, Array<number>>()
    return (i: number) => seen.get(i) ?? seen.set(i, slice(of, start, i)).get(i)!
  }
  const citersOf = memo(citeSources, citeStart)
  const referencesOf = memo(refTargets, refStart)
  const isSeed = new Set(seeds)
  const { cited, citing } = neighbourhood(corpus, seeds)
  const citingList = [...citing]
  const citedList = [...cited]
  const candidates = new Set<number>([...citing, ...cited])
  for (const p of citing) referencesOf(p).forEach((x) => candidates.add(x))
  for (const r of cited) citersOf(r).forEach((x) => candidates.add(x))
  // The documented score, written here from its definition (not the implementation's `score`): for
  // each seed, the share of its citing papers that cite X plus the share of its references that X
  // cites too, a share of an empty list being 0; the seeds' shares combined as the square of the
  // mean of their square roots.
  const share = (part: number, whole: number) => whole === 0 ? 0 : part / whole
  const scoreOf = (x: number) => {
    const mean = seeds.reduce((sum, s) => {
      const coCitedThrough = citersOf(s).filter((p) => referencesOf(p).includes(x)).length
      const coupledThrough = referencesOf(s).filter((r) => citersOf(r).includes(x)).length
      return sum + Math.sqrt(share(coCitedThrough, citersOf(s).length) + share(coupledThrough, referencesOf(s).length))
    }, 0) / seeds.length
    return mean * mean
  }
  const rows = [...candidates].filter((x) => !isSeed.has(x)).map((x) => {
    const row = {
      paperId: corpus.paper(x).paperId,
      coCitation: citingList.filter((p) => referencesOf(p).includes(x)).length,
      coupling: citedList.filter((r) => citersOf(r).includes(x)).length,
      citesSeed: citing.has(x),
      citedBySeed: cited.has(x)
    }
    return { ...row, score: scoreOf(x) }
  })
  rows.sort((a, b) =>
    b.score - a.score || (b.coCitation + b.coupling) - (a.coCitation + a.coupling) ||
    (Number(b.citesSeed) + Number(b.citedBySeed)) - (Number(a.citesSeed) + Number(a.citedBySeed)) ||
    (a.paperId < b.paperId ? -1 : 1)
  )
  return { rows, citing, cited }
}

/**
 * The map's data by its definitions, over the lists the job reads (each seed's two lists, the
 * references of each paper citing a seed, the citations of each paper a seed cites; a seed's own
 * list once): pairs of map papers named together in references lists (co-citation) and citations
 * lists (coupling), strength over the geometric mean of the lists naming each, each paper's five
 * strongest; and the papers off the map cited by / citing the most map papers.
 */
const mapData = (corpus: Corpus, seeds: ReadonlyArray<number>, answers: ReadonlyArray<string>) => {
  const { cited, citing } = neighbourhood(corpus, seeds)
  const id = (i: number) => corpus.paper(i).paperId
  const refs = (i: number) => slice(corpus.graph.refTargets, corpus.graph.refStart, i).map(id)
  const cits = (i: number) => slice(corpus.graph.citeSources, corpus.graph.citeStart, i).map(id)
  const lists: Array<{ owner: string; kind: "references" | "citations"; members: Array<string> }> = []
  for (const s of seeds) lists.push({ owner: id(s), kind: "references", members: refs(s) })
  for (const s of seeds) lists.push({ owner: id(s), kind: "citations", members: cits(s) })
  for (const p of citing) if (!seeds.includes(p)) lists.push({ owner: id(p), kind: "references", members: refs(p) })
  for (const r of cited) if (!seeds.includes(r)) lists.push({ owner: id(r), kind: "citations", members: cits(r) })
  const map = [...seeds.map(id), ...answers]
  // Per map paper, the lists naming it (by position in `lists`); a pair's lists are the intersection.
  const listsOf = new Map<string, Set<number>>()
  lists.forEach((l, at) => l.members.forEach((x) => listsOf.set(x, (listsOf.get(x) ?? new Set()).add(at))))
  const naming = map.map((x) => listsOf.get(x) ?? new Set<number>())
  const holding = (i: number) => naming[i]!.size
  const links = []
  for (let i = 0; i < map.length; i++) {
    for (let j = i + 1; j < map.length; j++) {
      const both = (kind: string) =>
        [...naming[i]!].filter((at) => naming[j]!.has(at) && lists[at]!.kind === kind).length
      const [coCitation, coupling] = [both("references"), both("citations")]
      if (coCitation + coupling === 0) continue
      const strength = (coCitation + coupling) / Math.sqrt(holding(i) * holding(j))
      links.push({ i, j, a: map[i]!, b: map[j]!, coCitation, coupling, strength })
    }
  }
  links.sort((x, y) =>
    y.strength - x.strength || (y.coCitation + y.coupling) - (x.coCitation + x.coupling) || x.i - y.i || x.j - y.j
  )
  const seen = new Map<number, number>()
  const similar = links.filter((l) => {
    const keep = (seen.get(l.i) ?? 0) < 5 || (seen.get(l.j) ?? 0) < 5
    seen.set(l.i, (seen.get(l.i) ?? 0) + 1)
    seen.set(l.j, (seen.get(l.j) ?? 0) + 1)
    return keep
  }).map(({ a, b, coCitation, coupling, strength }) => ({ a, b, coCitation, coupling, strength }))
  const cites = new Set<string>()
  for (const l of lists) {
    for (const m of l.members) cites.add(l.kind === "references" ? `${l.owner}>${m}` : `${m}>${l.owner}`)
  }
  const onMap = new Set(map)
  const count = (side: 0 | 1) => {
    const counts = new Map<string, number>()
    for (const pair of cites) {
      const ends = pair.split(">")
      if (!onMap.has(ends[side]!) && onMap.has(ends[1 - side]!)) {
        counts.set(ends[side]!, (counts.get(ends[side]!) ?? 0) + 1)
      }
    }
    return [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, 10)
  }
  return { similar, foundations: count(1), derivatives: count(0) }
}

const rowsOf = (answer: CitationGraph.Related) =>
  answer.papers.map((r) => ({
    paperId: r.paper.paperId,
    coCitation: r.coCitation,
    coupling: r.coupling,
    citesSeed: r.citesSeed,
    citedBySeed: r.citedBySeed,
    score: r.score
  }))

/** The requests the emulator saw, by kind. */
const requestKinds = Effect.map(Effect.flatMap(Emulator, (e) => e.requests), (all) => ({
  all,
  batches: all.filter((r) => r.path.endsWith("/paper/batch")),
  lists: all.filter((r) => /\/paper\/[^/]+\/(citations|references)$/.test(r.path)),
  other: all.filter((r) => !r.path.endsWith("/paper/batch") && !/\/(citations|references)$/.test(r.path))
}))

const sha = (n: number) => n.toString(16).padStart(40, "0")

const TURING = "DOI:10.1093/mind/lix.236.433"
const LITERATURE_GRAPH = "DOI:10.18653/v1/N18-3011"
const MICROFINANCE = "DOI:10.2139/ssrn.2250500"

describe("CitationGraph.related", () => {
  it(
    "the counts, flags, scores and ranking equal a brute-force computation over the whole graph (property)",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 0, max: small.size - 1 }), { minLength: 1, maxLength: 5 }),
          async (seeds) => {
            const expected = bruteForce(small, seeds)
            const program = Effect.gen(function*() {
              const answer = yield* CitationGraph.related(seeds.map((i) => `CorpusId:${small.paper(i).corpusId}`), {
                top: 500
              })
              return { answer, requests: yield* requestKinds }
            })
            const { answer, requests } = await Effect.runPromise(program.pipe(Effect.provide(emulated(small))))
            expect(rowsOf(answer)).toEqual(expected.rows.slice(0, 500))
            const data = mapData(small, seeds, answer.papers.map((r) => r.paper.paperId))
            expect(answer.similar.map((l) => ({ ...l }))).toEqual(data.similar)
            expect(answer.foundations.map((f) => [f.paper.paperId, f.count])).toEqual(data.foundations)
            expect(answer.derivatives.map((d) => [d.paper.paperId, d.count])).toEqual(data.derivatives)
            expect(answer.candidates).toBe(expected.rows.length)
            expect(answer.citing).toBe(expected.citing.size)
            expect(answer.cited).toBe(expected.cited.size)
            expect(answer.truncated).toEqual([])
            expect(answer.seeds.map((p) => p.paperId)).toEqual(seeds.map((i) => small.paper(i).paperId))
            // The budget: batches only, about 1 + 2 × ⌈papers ÷ 500⌉, and the details of seeds,
            // answers, foundations and derivatives (one batch per 500 of them).
            const neighbours = new Set([...expected.citing, ...expected.cited]).size
            const shown = seeds.length + answer.papers.length + answer.foundations.length + answer.derivatives.length
            expect(requests.lists).toEqual([])
            expect(requests.other).toEqual([])
            expect(requests.batches.length).toBeLessThanOrEqual(
              1 + 2 * Math.ceil(neighbours / 500) + Math.ceil(shown / 500)
            )
          }
        ),
        // Each run builds an emulator and a related walk of up to 5 seeds: 3 s a run at load 14 on 2
        // cores (30 runs, 98 s). Ten keep the check; fast-check's seed differs from run to run.
        { numRuns: 10 }
      )
    },
    300_000
  )

  it.effect(
    "three landmarks: a seed's list cut at 1,000 is paged whole; other cut lists are reported",
    () =>
      Effect.gen(function*() {
        const answer = yield* CitationGraph.related([TURING, LITERATURE_GRAPH, MICROFINANCE], { top: 30 })
        const { batches, lists, other } = yield* requestKinds
        const turing = large.landmarks[0]!
        expect(large.citationCount(turing)).toBe(1150)
        // Turing's 1,150 citing papers: the nested list holds 1,000, two pages of the list give them all.
        expect(lists.map((r) => r.path)).toEqual([
          `/graph/v1/paper/${large.paper(turing).paperId}/citations`,
          `/graph/v1/paper/${large.paper(turing).paperId}/citations`
        ])
        expect(other).toEqual([])
        const seeds = [TURING, LITERATURE_GRAPH, MICROFINANCE].map((id) => large.resolvePaper(id)!)
        const expected = neighbourhood(large, seeds)
        expect(answer.citing).toBe(expected.citing.size)
        expect(answer.cited).toBe(expected.cited.size)
        const neighbours = new Set([...expected.citing, ...expected.cited]).size
        expect(batches.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(neighbours / 500) + 1)
        // The cut lists are exactly the neighbours' lists longer than 1,000, none of a seed.
        const long = [...expected.cited].filter((i) => large.citationCount(i) > 1000)
        expect(answer.truncated.map((c) => [c.paperId, c.list, c.read, c.total, c.seed]).sort()).toEqual(
          long.map((i) => [large.paper(i).paperId, "citations", 1000, large.citationCount(i), false]).sort()
        )
        // Direct links are flags, and every paper answered has its details.
        expect(answer.papers.every((r) => typeof r.paper.title === "string" && r.paper.year !== undefined)).toBe(true)
        expect(answer.papers.some((r) => r.citesSeed)).toBe(true)
      }).pipe(Effect.provide(emulated(large))),
    120_000
  )

  it.effect("with maxPages 0, a seed's cut list is reported instead of paged", () =>
    Effect.gen(function*() {
      const answer = yield* CitationGraph.related([TURING], { maxPages: 0 })
      const { lists } = yield* requestKinds
      expect(lists).toEqual([])
      const turing = large.paper(large.landmarks[0]!).paperId
      expect(answer.truncated.filter((c) => c.seed).map((c) => [c.paperId, c.list, c.read, c.total])).toEqual([
        [turing, "citations", 1000, 1150]
      ])
      expect(answer.citing).toBe(1000)
    }).pipe(Effect.provide(emulated(large))), 120_000)

  it.effect("links: the citations among the seeds and the papers answered, each once", () =>
    Effect.gen(function*() {
      const seeds = [small.landmarks[1]!, small.landmarks[3]!]
      const answer = yield* CitationGraph.related(seeds.map((i) => small.paper(i).paperId), { top: 40 })
      const index = new Map(
        [...answer.seeds, ...answer.papers.map((r) => r.paper)].map((p) => [p.paperId, small.resolvePaper(p.paperId)!])
      )
      const expected: Array<string> = []
      for (const [from, i] of index) {
        for (const j of slice(small.graph.refTargets, small.graph.refStart, i)) {
          const to = small.paper(j).paperId
          if (index.has(to)) expected.push(`${from}>${to}`)
        }
      }
      expect(answer.links.map((l) => `${l.from}>${l.to}`).sort()).toEqual(expected.sort())
      expect(expected.length).toBeGreaterThan(0)
    }).pipe(Effect.provide(emulated(small))))

  it.effect("seeds not found are listed as given; the same paper named twice is one seed", () =>
    Effect.gen(function*() {
      const turing = small.paper(small.landmarks[0]!)
      const answer = yield* CitationGraph.related([TURING, turing.paperId, "DOI:10.0000/not-there"], { top: 5 })
      expect(answer.notFound).toEqual(["DOI:10.0000/not-there"])
      expect(answer.seeds.map((p) => p.paperId)).toEqual([turing.paperId])
      expect(answer.papers).toHaveLength(5)
      expect(answer.papers.every((r) => r.paper.paperId !== turing.paperId)).toBe(true)
      const none = yield* CitationGraph.related(["DOI:10.0000/not-there"])
      expect(none.papers).toEqual([])
      expect(none.notFound).toEqual(["DOI:10.0000/not-there"])
    }).pipe(Effect.provide(emulated(small))))

  it.effect("stopAfter: no list request once it has passed; the seeds' own links are ranked", () =>
    Effect.gen(function*() {
      const answer = yield* CitationGraph.related([TURING], { stopAfter: 0, top: 500 })
      const { batches, lists } = yield* requestKinds
      // The seed, then the details: nothing read between.
      expect(batches).toHaveLength(2)
      expect(lists).toEqual([])
      expect(answer.stopped).toBe(true)
      expect(answer.papers.length).toBeGreaterThan(0)
      expect(answer.papers.every((r) => r.citesSeed || r.citedBySeed)).toBe(true)
    }).pipe(Effect.provide(emulated(small))))

  it.effect("an id in the server's lists that no request can carry is left out with a Warning, not a failed job", () =>
    Effect.gen(function*() {
      const warnings: Array<string> = []
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel === "Warn") warnings.push(Array.isArray(message) ? message.join(" ") : String(message))
      })
      const answer = yield* CitationGraph.related(["DOI:10.1/seed"]).pipe(Effect.provide(Logger.layer([logger])))
      expect(answer.papers.map((r) => [r.paper.paperId, r.citesSeed])).toEqual([[sha(2), true]])
      const asked = (yield* requests).filter((r) => r.url.pathname.endsWith("/paper/batch")).flatMap((r) =>
        (r.body as { ids: Array<string> }).ids
      )
      expect(asked).toEqual(["DOI:10.1/seed", sha(2), sha(1), sha(2)])
      expect(warnings).toEqual([
        "related papers: 1 id(s) in the server's lists left out, since no request can carry them (first: \"../../author/1\")"
      ])
    }).pipe(Effect.provide(testLayer((request) => {
      const ids = (request.body as { ids: Array<string> }).ids
      return Effect.succeed(json(ids.map((id) =>
        id === "DOI:10.1/seed"
          ? { paperId: sha(1), citations: [{ paperId: "../../author/1" }, { paperId: sha(2) }], references: [] }
          : { paperId: id, title: "t", references: [] }
      )))
    }))))

  it.effect(
    "a server sending lists past the cap: each is read to 1,000 and reported cut, and the requests stay in budget",
    () => {
      const maxPages = 2
      // The seed lists 20,000 citing papers and 20,000 references (some 2 MB, far under the
      // response cap); each neighbour batch's first paper lists 5,000; a list page holds 5,000.
      const many = (from: number, n: number, extra: object) =>
        Array.from({ length: n }, (_, i) => ({ paperId: sha(from + i), ...extra }))
      const handler: Handler = (request) => {
        if (request.method === "GET") {
          const citations = request.url.pathname.endsWith("/citations")
          const data = many(3_000_000, 5000, {}).map((paper) =>
            citations
              ? { citingPaper: { ...paper, referenceCount: 2 } }
              : { citedPaper: { ...paper, citationCount: 2 } }
          )
          return Effect.succeed(json({ offset: 0, next: 1000, data }))
        }
        const ids = (request.body as { ids: Array<string> }).ids
        if (ids[0] === "DOI:10.1/seed") {
          return Effect.succeed(json([{
            paperId: sha(1),
            citationCount: 20_000,
            referenceCount: 20_000,
            citations: many(1_000_000, 20_000, { referenceCount: 2 }),
            references: many(2_000_000, 20_000, { citationCount: 2 })
          }]))
        }
        return Effect.succeed(json(ids.map((id, i) => {
          const list = many(4_000_000, i === 0 ? 5000 : 2, {})
          return {
            paperId: id,
            title: "t",
            citationCount: list.length,
            referenceCount: list.length,
            citations: list,
            references: list
          }
        })))
      }
      return Effect.gen(function*() {
        const answer = yield* CitationGraph.related(["DOI:10.1/seed"], { maxPages })
        const seen = yield* requests
        // The documented budget: the papers whose lists are read are at most seeds × 2 × 1,000 plus
        // maxPages × 1,000; one request for the seeds, the pages, a batch per 500 of each kind of
        // neighbour (their lists are short, they said), one for the details.
        const neighbours = 1 * 2 * 1000 + maxPages * 1000
        expect(answer.citing + answer.cited).toBeLessThanOrEqual(neighbours)
        expect(seen.length).toBeLessThanOrEqual(1 + maxPages + 2 * Math.ceil(neighbours / 500) + 1)
        expect(seen.filter((r) => r.method === "GET")).toHaveLength(1)
        const cut = answer.truncated.map((c) => [c.paperId, c.list, c.read, c.total, c.seed])
        // The seed's citing papers: 1,000 nested and the 2,000 records of its pages; its references:
        // 1,000, no page left.
        expect(cut.filter((c) => c[4])).toEqual([
          [sha(1), "citations", 3000, 20_000, true],
          [sha(1), "references", 1000, 20_000, true]
        ])
        const neighbourCuts = cut.filter((c) => !c[4])
        expect(neighbourCuts.length).toBeGreaterThan(0)
        expect(neighbourCuts.every((c) => c[2] === 1000 && c[3] === 5000)).toBe(true)
      }).pipe(Effect.provide(testLayer(handler)))
    },
    120_000
  )

  it.effect("input that can never succeed is refused before any request", () =>
    Effect.gen(function*() {
      const tries = [
        CitationGraph.related([]),
        CitationGraph.related(Array.from({ length: 21 }, (_, i) => `CorpusId:${i + 1}`)),
        CitationGraph.related([TURING], { top: 0 }),
        CitationGraph.related([TURING], { top: 501 }),
        CitationGraph.related([TURING], { maxPages: -1 }),
        CitationGraph.related([" "])
      ]
      for (const attempt of tries) {
        const error = yield* Effect.flip(attempt)
        expect(error._tag).toBe("BadQueryParameters")
      }
      expect((yield* requestKinds).all).toEqual([])
    }).pipe(Effect.provide(emulated(small))))
})

describe("score", () => {
  it("combines the seeds' shares (of their citing papers and of their references) as the square of the mean of their roots", () => {
    // Seed 0: 2 of its 4 citing papers and 1 of its 2 references; seed 1: 0 of 10 and 3 of 3.
    expect(score([2, 0, 1, 3], [4, 10], [2, 3])).toBeCloseTo(
      ((Math.sqrt(2 / 4 + 1 / 2) + Math.sqrt(0 / 10 + 3 / 3)) / 2) ** 2,
      12
    )
    // A seed whose lists were not read adds nothing, and lowers the mean (the linear mean said 0.5:
    // a paper related to one seed of two scored as much as one related to both with the same counts).
    expect(score([1, 0, 0, 0], [1, 0], [0, 0])).toBe(0.25)
    // One seed: its share.
    expect(score([3, 1], [4], [2])).toBeCloseTo(3 / 4 + 1 / 2, 12)
    expect(score([], [], [])).toBe(0)
  })
})

describe("pack", () => {
  it("500 ids a batch, and at most 100,000 listed ids, each list counted at most 1,000", () => {
    const ids = Array.from({ length: 1200 }, (_, i) => `p${i}`)
    expect(pack(ids, () => 10).map((c) => c.length)).toEqual([500, 500, 200])
    expect(pack(ids.slice(0, 250), () => 5000).map((c) => c.length)).toEqual([100, 100, 50])
    expect(pack(ids.slice(0, 150), () => undefined).map((c) => c.length)).toEqual([100, 50])
    expect(pack([], () => 1)).toEqual([])
  })
})

/**
 * A scripted server over a graph given as functions: each batch id answers its paper with both of
 * its lists (entries carrying the other list's size), whatever fields were asked.
 */
const graphServer = (
  citationsOf: (id: string) => ReadonlyArray<string>,
  referencesOf: (id: string) => ReadonlyArray<string>,
  paperIdOf: (id: string) => string = (id) => id
): Handler =>
(request) => {
  const ids = (request.body as { ids: Array<string> }).ids
  return Effect.succeed(json(ids.map((id) => {
    const citations = citationsOf(id)
    const references = referencesOf(id)
    return {
      paperId: paperIdOf(id),
      title: `title ${id}`,
      citationCount: citations.length,
      referenceCount: references.length,
      citations: citations.map((p) => ({ paperId: p, referenceCount: referencesOf(p).length })),
      references: references.map((p) => ({ paperId: p, citationCount: citationsOf(p).length }))
    }
  })))
}

/** A graph from its citations: `from` cites each of `cites[from]`. */
const graph = (cites: Record<string, ReadonlyArray<string>>) => {
  const citers = new Map<string, Array<string>>()
  for (const [from, tos] of Object.entries(cites)) {
    for (const to of tos) citers.set(to, [...(citers.get(to) ?? []), from])
  }
  return graphServer((id) => citers.get(id) ?? [], (id) => cites[id] ?? [])
}

const warningsOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const warnings: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (logLevel === "Warn") warnings.push(Array.isArray(message) ? message.join(" ") : String(message))
    })
    const value = yield* effect.pipe(Effect.provide(Logger.layer([logger])))
    return { value, warnings }
  })

describe("CitationGraph.related, several seeds and the server's ids", () => {
  it.effect("a paper related to both seeds ranks above one with the same counts through a single seed", () => {
    // Seed 1 is cited by c1…c4, seed 2 by c5…c8. A is cited by c1, c2 (seed 1) and c5, c6 (seed 2);
    // B by c1…c4 (seed 1 only): 4 co-citations each, shares ½ and ½ against 1 and 0.
    const [s1, s2, a, b] = [sha(1), sha(2), sha(0xa2), sha(0xa1)]
    const c = (i: number) => sha(0xc0 + i)
    const cites: Record<string, Array<string>> = {}
    for (let i = 1; i <= 4; i++) cites[c(i)] = [s1, b, ...(i <= 2 ? [a] : [])]
    for (let i = 5; i <= 8; i++) cites[c(i)] = [s2, ...(i <= 6 ? [a] : [])]
    return Effect.gen(function*() {
      const answer = yield* CitationGraph.related([s1, s2], { top: 2 })
      expect(answer.papers.map((r) => [r.paper.paperId, r.coCitation])).toEqual([[a, 4], [b, 4]])
      expect(answer.papers[0]!.score).toBeCloseTo(0.5, 12)
      expect(answer.papers[1]!.score).toBeCloseTo(0.25, 12)
    }).pipe(Effect.provide(testLayer(graph(cites))))
  })

  it.effect("a seed the server names with a control character is left out with a Warning; the others are ranked", () => {
    const bad = "abc\u0001def"
    const cites: Record<string, Array<string>> = { [sha(3)]: [sha(2), sha(4)] }
    const server = graph(cites)
    const handler: Handler = (request, index) => {
      const ids = (request.body as { ids: Array<string> }).ids
      if (ids.includes("DOI:10.1/bad")) {
        return Effect.succeed(json(ids.map((id) =>
          id === "DOI:10.1/bad"
            ? { paperId: bad, citations: [{ paperId: sha(3) }], references: [] }
            : { paperId: id, citations: [{ paperId: sha(3), referenceCount: 2 }], references: [] }
        )))
      }
      return server(request, index)
    }
    return Effect.gen(function*() {
      const { value: answer, warnings } = yield* warningsOf(CitationGraph.related(["DOI:10.1/bad", sha(2)]))
      expect(answer.seeds.map((p) => p.paperId)).toEqual([sha(2)])
      expect(answer.notFound).toEqual([])
      expect(answer.papers.map((r) => r.paper.paperId).sort()).toEqual([sha(3), sha(4)])
      expect(warnings).toEqual([
        `related papers: seed "DOI:10.1/bad" left out: the server named it "abc\\u0001def", which no request can carry`
      ])
      const sent = (yield* requests).flatMap((r) => (r.body as { ids: Array<string> }).ids)
      expect(sent.some((id) => id.includes("\u0001"))).toBe(false)
      // Every seed so named: the server's fault, not the caller's argument.
      const error = yield* Effect.flip(CitationGraph.related(["DOI:10.1/bad"]))
      expect(error._tag).toBe("DecodeError")
    }).pipe(Effect.provide(testLayer(handler)))
  })

  it.effect(
    "memory is bounded: past maxCandidates papers met no other list is read, with stopped and a Warning naming it",
    () => {
      // One seed cited by 100 papers, each citing 1,000 papers of its own: 100,100 candidates.
      const seed = sha(1)
      const citer = (i: number) => sha(0x100000 + i)
      const server = graphServer(
        (id) => id === seed ? Array.from({ length: 100 }, (_, i) => citer(i)) : [],
        (id) => {
          const i = parseInt(id, 16) - 0x100000
          return i >= 0 && i < 100
            ? [seed, ...Array.from({ length: 1000 }, (_, j) => sha(0x200000 + i * 1000 + j))]
            : []
        }
      )
      return Effect.gen(function*() {
        const { value: answer, warnings } = yield* warningsOf(
          CitationGraph.related([seed], { maxCandidates: 10_000, top: 5 })
        )
        expect(answer.stopped).toBe(true)
        // The bound, and at most one list (1,000 papers) past it.
        expect(answer.candidates).toBeGreaterThanOrEqual(10_000)
        expect(answer.candidates).toBeLessThanOrEqual(11_000)
        expect(answer.citing).toBeLessThan(100)
        expect(warnings.some((w) => w.includes("maxCandidates 10000"))).toBe(true)
        expect(answer.papers).toHaveLength(5)
      }).pipe(Effect.provide(testLayer(server)))
    },
    60_000
  )
})
