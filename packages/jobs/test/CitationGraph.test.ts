import { describe, expect, it } from "@effect/vitest"
import { type Paper, SemanticScholar, Validate } from "@s2-effect/core"
import { Emulator } from "@s2-effect/testing"
import { Effect, Layer, Logger, Result, Stream } from "effect"
import * as fc from "fast-check"
import { CitationGraph } from "../src/index.js"
import { json, requests, type Seen, testLayer } from "./support/Scripted.js"

const emulated = (size = 1000) => SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ seed: 1, size })))

const SEED = "arXiv:1706.03762"
const sha = (n: number) => n.toString(16).padStart(40, "0")

interface Walk {
  readonly nodes: ReadonlyArray<CitationGraph.Node>
  readonly edges: ReadonlyArray<CitationGraph.Edge>
  readonly notFound: ReadonlyArray<CitationGraph.NotFound>
  readonly skipped: ReadonlyArray<CitationGraph.Skipped>
  readonly all: ReadonlyArray<CitationGraph.Element>
}

const walk = (seeds: ReadonlyArray<string>, options: CitationGraph.CrawlOptions) =>
  Effect.map(Stream.runCollect(CitationGraph.crawl(seeds, options)), (all): Walk => ({
    all,
    nodes: all.filter((e): e is CitationGraph.Node => e._tag === "Node"),
    edges: all.filter((e): e is CitationGraph.Edge => e._tag === "Edge"),
    notFound: all.filter((e): e is CitationGraph.NotFound => e._tag === "NotFound"),
    skipped: all.filter((e): e is CitationGraph.Skipped => e._tag === "Skipped")
  }))

/** The invariants of every walk: returns a list of violations (empty when sound). */
const violations = (w: Walk, depth: number): Array<string> => {
  const out: Array<string> = []
  const depthOf = new Map<string, number>()
  const edges = new Set<string>()
  let lastDepth = 0
  for (const e of w.all) {
    if (e._tag === "Node") {
      const id = e.paper.paperId
      if (depthOf.has(id)) out.push(`node ${id} twice`)
      if (e.depth < lastDepth) out.push(`node ${id} at depth ${e.depth} after depth ${lastDepth}`)
      if (e.depth > depth) out.push(`node ${id} deeper than ${depth}`)
      lastDepth = e.depth
      depthOf.set(id, e.depth)
    } else if (e._tag === "Edge") {
      const key = `${e.from}>${e.to}`
      if (edges.has(key)) out.push(`edge ${key} twice`)
      edges.add(key)
      if (!depthOf.has(e.from) || !depthOf.has(e.to)) out.push(`edge ${key} before or without its ends`)
      if (e.from === e.to) out.push(`self edge ${key}`)
    }
  }
  // Breadth first: a node at depth d > 0 is linked to a node at depth d - 1.
  for (const [id, d] of depthOf) {
    if (d === 0) continue
    const linked = w.edges.some((e) =>
      (e.from === id && depthOf.get(e.to) === d - 1) || (e.to === id && depthOf.get(e.from) === d - 1)
    )
    if (!linked) out.push(`node ${id} at depth ${d} has no edge to depth ${d - 1}`)
  }
  return out
}

const isList = (path: string) => /\/paper\/[^/]+\/(citations|references)$/.test(path)

describe("CitationGraph.crawl", () => {
  it.effect("walks breadth first: seeds at depth 0, each paper and edge once, edges after their ends", () =>
    Effect.gen(function*() {
      const w = yield* walk([SEED], { direction: "references", depth: 2, perNode: 5 })
      expect(w.nodes[0]?.depth).toBe(0)
      expect(w.nodes.filter((n) => n.depth === 0)).toHaveLength(1)
      expect(w.nodes.some((n) => n.depth === 1)).toBe(true)
      expect(w.nodes.some((n) => n.depth === 2)).toBe(true)
      expect(violations(w, 2)).toEqual([])
      // references: every edge leaves a node of a lower or equal depth's expansion
      const seed = w.nodes[0]!.paper.paperId
      expect(w.edges.filter((e) => e.from === seed).length).toBeGreaterThan(0)
      expect(w.edges.every((e) => e.to !== seed || e.from !== seed)).toBe(true)
    }).pipe(Effect.provide(emulated())))

  it.effect("the same paper named by two id forms is one node; a seed not found is a NotFound element", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const paper = yield* s2.getPaper(SEED, { fields: ["paperId"] })
      const w = yield* walk([SEED, paper.paperId, SEED, "DOI:10.0000/not-there"], {
        direction: "citations",
        depth: 0,
        perNode: 3
      })
      expect(w.nodes.map((n) => n.paper.paperId)).toEqual([paper.paperId])
      expect(w.notFound.map((n) => n.seed)).toEqual(["DOI:10.0000/not-there"])
      expect(w.edges).toEqual([])
    }).pipe(Effect.provide(emulated())))

  it.effect("a batch where no id is found is NotFound seeds and refused neighbours, not a failed walk", () =>
    Effect.gen(function*() {
      const alone = yield* walk(["DOI:10.0000/not-there"], { direction: "citations", depth: 1, perNode: 3 })
      expect(alone.all).toEqual([new CitationGraph.NotFound({ seed: "DOI:10.0000/not-there" })])
    }).pipe(Effect.provide(emulated())))

  it.effect("a level whose new neighbours are all unknown to the batch endpoint ends the walk cleanly", () =>
    Effect.gen(function*() {
      const w = yield* walk(["DOI:10.1/seed"], { direction: "citations", depth: 2, perNode: 10 })
      expect(w.nodes.map((n) => [n.paper.paperId, n.depth])).toEqual([[sha(1), 0]])
      expect(w.edges).toEqual([])
    }).pipe(Effect.provide(testLayer((request) => {
      if (request.url.pathname.endsWith("/paper/batch")) {
        const ids = (request.body as { ids: Array<string> }).ids
        return Effect.succeed(json(ids.map((id) => id === "DOI:10.1/seed" ? { paperId: sha(1) } : null)))
      }
      const citing = [sha(2), sha(3)].map((paperId) => ({ citingPaper: { paperId } }))
      return Effect.succeed(json({ offset: 0, data: citing }))
    }))))

  it.effect("perNode caps the neighbours taken from each list", () =>
    Effect.gen(function*() {
      const small = yield* walk([SEED], { direction: "both", depth: 1, perNode: 2 })
      const large = yield* walk([SEED], { direction: "both", depth: 1, perNode: 50 })
      const seed = small.nodes[0]!.paper.paperId
      expect(small.edges.filter((e) => e.to === seed).length).toBeLessThanOrEqual(2)
      expect(small.edges.filter((e) => e.from === seed).length).toBeLessThanOrEqual(2)
      expect(small.nodes.length).toBeLessThanOrEqual(5)
      expect(large.nodes.length).toBeGreaterThan(small.nodes.length)
      expect(violations(small, 1)).toEqual([])
      expect(violations(large, 1)).toEqual([])
    }).pipe(Effect.provide(emulated())))

  it.effect("direction both follows citing and cited papers", () =>
    Effect.gen(function*() {
      const w = yield* walk([SEED], { direction: "both", depth: 1, perNode: 10 })
      const seed = w.nodes[0]!.paper.paperId
      expect(w.edges.some((e) => e.to === seed)).toBe(true)
      expect(w.edges.some((e) => e.from === seed)).toBe(true)
      const cites = yield* walk([SEED], { direction: "citations", depth: 1, perNode: 10 })
      expect(cites.edges.every((e) => e.to === seed)).toBe(true)
    }).pipe(Effect.provide(emulated())))

  it.effect("filter prunes: refused papers are neither emitted nor expanded, and their edges dropped", () =>
    Effect.gen(function*() {
      const options = { direction: "both", depth: 2, perNode: 10, fields: ["year", "citationCount"] } as const
      const all = yield* walk([SEED], options)
      const keep = (p: Paper) => (p.year ?? 0) >= 2019
      const pruned = yield* walk([SEED], { ...options, filter: keep })
      expect(pruned.nodes.slice(1).every((n) => keep(n.paper))).toBe(true)
      expect(pruned.nodes.length).toBeLessThan(all.nodes.length)
      expect(pruned.nodes.length).toBeGreaterThan(1)
      expect(violations(pruned, 2)).toEqual([])
    }).pipe(Effect.provide(emulated())))

  it.effect(
    "request budget: one request per list page plus one batch per 500 new papers, nothing else",
    () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator
        yield* emulator.clearRequests
        const w = yield* walk([SEED], { direction: "both", depth: 2, perNode: 400 })
        const paths = (yield* emulator.requests).map((r) => new URL(r.url).pathname)
        const batches = paths.filter((p) => p.endsWith("/paper/batch")).length
        const lists = paths.filter(isList).length
        expect(paths.length).toBe(batches + lists)
        // Each level's new papers are fetched in batches of 500 (the seeds are a level of their own).
        const perLevel = [0, 1, 2].map((d) => w.nodes.filter((n) => n.depth === d).length)
        expect(perLevel[2]).toBeGreaterThan(500)
        const expectedBatches = perLevel.reduce((sum, n) => sum + Math.ceil(n / 500), 0)
        expect(batches).toBe(expectedBatches)
        // Expanded papers (depth 0 and 1): two lists each, one page each at this perNode.
        const expanded = perLevel[0]! + perLevel[1]!
        expect(lists).toBe(2 * expanded)
        expect(violations(w, 2)).toEqual([])
      }).pipe(Effect.provide(emulated(20_000))),
    60_000
  )

  it.effect("a hostile graph: null, duplicate and self neighbours, merged papers, give one node per paper", () =>
    Effect.gen(function*() {
      const w = yield* walk(["DOI:10.1/seed"], { direction: "citations", depth: 1, perNode: 10 })
      expect(w.nodes.map((n) => [n.paper.paperId, n.depth])).toEqual([[sha(1), 0], [sha(9), 1]])
      expect(w.edges.map((e) => [e.from, e.to])).toEqual([[sha(9), sha(1)]])
      expect(violations(w, 1)).toEqual([])
    }).pipe(Effect.provide(testLayer((request) => {
      if (request.url.pathname.endsWith("/paper/batch")) {
        const ids = (request.body as { ids: Array<string> }).ids
        // sha(2) was merged into sha(9), sha(3) into the seed itself.
        const merged: Record<string, string> = { "DOI:10.1/seed": sha(1), [sha(2)]: sha(9), [sha(3)]: sha(1) }
        return Effect.succeed(json(ids.map((id) => ({ paperId: merged[id] ?? id }))))
      }
      const citing = [null, sha(1), sha(2), sha(2), sha(3)].map((paperId) => ({ citingPaper: { paperId } }))
      return Effect.succeed(json({ offset: 0, data: citing }))
    }))))

  it.effect("a neighbour merged into a node already walked stays that node, whatever the filter says", () =>
    Effect.gen(function*() {
      const w = yield* walk(["DOI:10.1/seed"], {
        direction: "citations",
        depth: 1,
        perNode: 10,
        // Refuses the seed's paper: seeds are kept all the same, so an alias of it must be too.
        filter: (paper) => paper.paperId !== sha(1)
      })
      expect(w.nodes.map((n) => [n.paper.paperId, n.depth])).toEqual([[sha(1), 0], [sha(9), 1]])
      expect(w.edges.map((e) => [e.from, e.to])).toEqual([[sha(9), sha(1)]])
      expect(violations(w, 1)).toEqual([])
    }).pipe(Effect.provide(testLayer((request) => {
      if (request.url.pathname.endsWith("/paper/batch")) {
        const ids = (request.body as { ids: Array<string> }).ids
        // sha(3), listed before sha(2), was merged into the seed itself.
        const merged: Record<string, string> = { "DOI:10.1/seed": sha(1), [sha(2)]: sha(9), [sha(3)]: sha(1) }
        return Effect.succeed(json(ids.map((id) => ({ paperId: merged[id] ?? id }))))
      }
      const citing = [sha(3), sha(2)].map((paperId) => ({ citingPaper: { paperId } }))
      return Effect.succeed(json({ offset: 0, data: citing }))
    }))))

  it.effect("budget: a list page of null, duplicate and self ids is not topped up with another page", () =>
    Effect.gen(function*() {
      const w = yield* walk(["DOI:10.1/seed"], { direction: "citations", depth: 1, perNode: 4 })
      expect(w.nodes.map((n) => [n.paper.paperId, n.depth])).toEqual([[sha(1), 0], [sha(5), 1]])
      const lists = (yield* requests).filter((r) => isList(r.url.pathname))
      expect(lists.map((r) => [r.url.searchParams.get("offset") ?? "0", r.url.searchParams.get("limit")])).toEqual([
        ["0", "4"]
      ])
    }).pipe(Effect.provide(testLayer((request) => {
      if (request.url.pathname.endsWith("/paper/batch")) {
        const ids = (request.body as { ids: Array<string> }).ids
        return Effect.succeed(json(ids.map((id) => ({ paperId: id === "DOI:10.1/seed" ? sha(1) : id }))))
      }
      // An endless list: every page has a next one, and its first page yields one usable id.
      const offset = Number(request.url.searchParams.get("offset") ?? "0")
      const limit = Number(request.url.searchParams.get("limit"))
      const ids = [null, sha(1), sha(5), sha(5)].slice(0, limit)
      const data = ids.map((paperId) => ({ citingPaper: { paperId: offset === 0 ? paperId : sha(100 + offset) } }))
      return Effect.succeed(json({ offset, next: offset + limit, data }))
    }))))

  it.effect("order mostCited keeps the most cited of the first page; listed keeps the first ones, same requests", () => {
    const counts = [1, 50, 3, 20, 7]
    const server = testLayer((request) => {
      if (request.url.pathname.endsWith("/paper/batch")) {
        const ids = (request.body as { ids: Array<string> }).ids
        return Effect.succeed(json(ids.map((id) => ({ paperId: id === "seed" ? sha(1) : id }))))
      }
      const cited = counts.map((citationCount, i) => ({ citedPaper: { paperId: sha(10 + i), citationCount } }))
      return Effect.succeed(json({ offset: 0, data: cited }))
    })
    const options = { direction: "references", depth: 1, perNode: 2 } as const
    return Effect.gen(function*() {
      const ranked = yield* walk(["seed"], { ...options, order: "mostCited" })
      expect(ranked.nodes.slice(1).map((n) => n.paper.paperId)).toEqual([sha(11), sha(13)])
      const listed = yield* walk(["seed"], options)
      expect(listed.nodes.slice(1).map((n) => n.paper.paperId)).toEqual([sha(10), sha(11)])
      const lists = (yield* requests).filter((r) => r.url.pathname.endsWith("/references"))
      expect(lists.map((r) => r.url.searchParams.get("limit"))).toEqual(["1000", "2"])
      expect(lists[0]?.url.searchParams.get("fields")).toBe("paperId,citationCount")
    }).pipe(Effect.provide(server))
  })

  it.effect("pulled: taking the seed's node asks for the seed only; nothing runs before the stream does", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator
      yield* emulator.clearRequests
      const stream = CitationGraph.crawl([SEED], { direction: "both", depth: 3, perNode: 100 })
      expect(yield* emulator.requestCount).toBe(0)
      const first = yield* Stream.runCollect(Stream.take(stream, 1))
      expect(first.map((e) => e._tag)).toEqual(["Node"])
      expect(yield* emulator.requestCounts).toEqual({ "/graph/v1/paper/batch": 1 })
    }).pipe(Effect.provide(emulated())))

  it.effect("invalid options fail with BadQueryParameters before any request", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator
      yield* emulator.clearRequests
      const bad = yield* Effect.flip(Stream.runDrain(CitationGraph.crawl([SEED], {
        direction: "both",
        depth: -1,
        perNode: 3
      })))
      expect(bad._tag).toBe("BadQueryParameters")
      expect(bad.message).toContain("depth")
      const zero = yield* Effect.flip(Stream.runDrain(CitationGraph.crawl([SEED], {
        direction: "both",
        depth: 1,
        perNode: 0
      })))
      expect(zero.message).toContain("perNode")
      expect(yield* emulator.requestCount).toBe(0)
    }).pipe(Effect.provide(emulated())))

  it("every edge's ends are emitted nodes and no node or edge repeats (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom("citations", "references", "both"),
        fc.integer({ min: 1, max: 999 }),
        fc.constantFrom("listed", "mostCited"),
        async (depth, perNode, direction, corpusId, order) => {
          const w = await Effect.runPromise(
            walk([SEED, `CorpusId:${corpusId}`], { direction, depth, perNode, order }).pipe(Effect.provide(emulated()))
          )
          expect(violations(w, depth)).toEqual([])
        }
      ),
      { numRuns: 25 }
    )
  }, 60_000)
})

/**
 * A server whose lists name ids the client cannot send: the seed `DOI:10.1/seed` is sha(1), every
 * list gives `listed` (a function of the paper listed), the batch answers each id as itself but
 * for `renamed`.
 */
const listing = (listed: (of: string) => ReadonlyArray<string | null>, renamed: Record<string, string> = {}) =>
  testLayer((request) => {
    if (request.url.pathname.endsWith("/paper/batch")) {
      const ids = (request.body as { ids: Array<string> }).ids
      return Effect.succeed(json(ids.map((id) => ({ paperId: id === "DOI:10.1/seed" ? sha(1) : renamed[id] ?? id }))))
    }
    const of = decodeURIComponent(request.url.pathname.split("/").at(-2)!)
    const data = listed(of).map((paperId) => ({ citingPaper: { paperId }, citedPaper: { paperId } }))
    return Effect.succeed(json({ offset: 0, data }))
  })

/** The ids each batch request asked for. */
const batched = Effect.map(
  requests,
  (seen: ReadonlyArray<Seen>) =>
    seen.filter((r) => r.url.pathname.endsWith("/paper/batch")).flatMap((r) => (r.body as { ids: Array<string> }).ids)
)

/** The Warning lines logged while `effect` runs, and its result. */
const warned = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (logLevel === "Warn") lines.push(Array.isArray(message) ? message.join(" ") : String(message))
    })
    return Effect.map(Effect.provide(effect, Logger.layer([logger])), (value) => ({ value, lines }))
  })

describe("CitationGraph.crawl, ids from the server that no request can carry", () => {
  const control = "a\u0001b"
  const dots = "x/../../author/1"

  it.effect("a listed id with a control character or a dot segment is Skipped with a Warning, once; the walk goes on", () =>
    Effect.gen(function*() {
      const { lines, value: w } = yield* warned(
        walk(["DOI:10.1/seed"], { direction: "citations", depth: 2, perNode: 10 })
      )
      expect(w.nodes.map((n) => [n.paper.paperId, n.depth])).toEqual([[sha(1), 0], [sha(2), 1], [sha(3), 1]])
      expect(w.skipped).toEqual([
        new CitationGraph.Skipped({
          id: control,
          source: "citations",
          of: sha(1),
          reason: "contains a control character"
        }),
        new CitationGraph.Skipped({
          id: dots,
          source: "citations",
          of: sha(1),
          reason: `has a ".." path segment, which would reach another endpoint`
        })
      ])
      expect(violations(w, 2)).toEqual([])
      // Neither was sent, nor asked for by path; each is warned of once though two lists name it.
      expect((yield* batched).filter((id) => Result.isFailure(Validate.paperId(id)))).toEqual([])
      expect(lines).toHaveLength(2)
      expect(lines[0]).toContain(`skipped "a\\u0001b", which the server gave among the papers citing ${sha(1)}`)
      expect(lines[0]).toContain("contains a control character")
      // The caller's own seed of that form is still refused before sending, as bad input.
      const before = (yield* requests).length
      const bad = yield* Effect.flip(Stream.runDrain(CitationGraph.crawl([control], {
        direction: "both",
        depth: 1,
        perNode: 3
      })))
      expect(bad._tag).toBe("BadQueryParameters")
      expect(yield* requests).toHaveLength(before)
    }).pipe(Effect.provide(listing((of) => of === sha(1) ? [sha(2), control, dots, sha(3)] : [control, dots]))))

  it.effect("a batch answering with a paperId no request can carry: that paper is Skipped, not expanded", () =>
    Effect.gen(function*() {
      const w = yield* walk(["DOI:10.1/seed"], { direction: "references", depth: 2, perNode: 10 })
      expect(w.nodes.map((n) => n.paper.paperId)).toEqual([sha(1), sha(3)])
      expect(w.skipped).toEqual([
        new CitationGraph.Skipped({ id: control, source: "batch", of: sha(2), reason: "contains a control character" })
      ])
      expect(w.edges.map((e) => [e.from, e.to])).toEqual([[sha(1), sha(3)]])
      const lists = (yield* requests).filter((r) => isList(r.url.pathname)).map((r) => r.url.pathname)
      expect(lists.every((path) => !path.includes("%01"))).toBe(true)
    }).pipe(Effect.provide(listing((of) => of === sha(1) ? [sha(2), sha(3)] : [], { [sha(2)]: control }))))

  it(
    "whatever strings the lists hold, the walk ends, sends only ids the client accepts, and keeps its invariants",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.string({ unit: "binary", maxLength: 6 }),
              fc.constantFrom(sha(4), sha(5), "..", "DOI:", "foo:bar", " ", "a\nb", "a/./b")
            ),
            { maxLength: 8 }
          ),
          async (listed) => {
            const w = await Effect.runPromise(
              walk(["DOI:10.1/seed"], { direction: "both", depth: 2, perNode: 8 }).pipe(
                Effect.provide(Layer.merge(listing(() => listed), Logger.layer([])))
              )
            )
            expect(violations(w, 2)).toEqual([])
            const skippedIds = new Set(w.skipped.map((s) => s.id))
            for (const id of new Set(listed)) {
              if (id === "" || id === sha(1)) continue
              const refused = Result.isFailure(Validate.paperId(id))
              expect(skippedIds.has(id), JSON.stringify(id)).toBe(refused)
            }
          }
        ),
        // A walk per run: 40 runs took 20 s at load 14 on 2 cores; 20 keep the check.
        { numRuns: 20 }
      )
    },
    60_000
  )
})
