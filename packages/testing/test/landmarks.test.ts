import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Corpus, Emulator } from "../src/index.js"
import { arr, call, obj } from "./helpers.js"

const turing = "DOI:10.1093/mind/lix.236.433"
const attention = "ARXIV:1706.03762"

describe("landmark papers", () => {
  it.effect("are found by their real ids, with their real titles, authors, years and venues", () =>
    Effect.gen(function*() {
      const fields = "title,year,venue,authors,externalIds,corpusId"
      const ids = [
        turing,
        "CorpusId:14636783",
        "2d5673caa9e6af3a7b82a43f19ee920992db07ad",
        "DOI:10.1093/MIND/LIX.236.433"
      ]
      for (const id of ids) {
        const paper = obj((yield* call("GET", `/graph/v1/paper/${id}?fields=${fields}`)).json)
        expect(paper.paperId, id).toBe("2d5673caa9e6af3a7b82a43f19ee920992db07ad")
        expect(paper.title).toBe("Computing Machinery and Intelligence")
        expect(paper.year).toBe(1950)
        expect(paper.venue).toBe("Mind")
        expect(paper.corpusId).toBe(14636783)
        expect(arr(paper.authors).map(obj)).toEqual([{ authorId: "2262347", name: "A. Turing" }])
      }
      for (const id of [attention, "CorpusId:13756489", "204e3073870fae3d05bcbc2f6a8e263d9b72e776"]) {
        const paper = obj((yield* call("GET", `/graph/v1/paper/${id}?fields=${fields}`)).json)
        expect(paper.title, id).toBe("Attention Is All You Need")
        expect(paper.year).toBe(2017)
        expect(paper.venue).toBe("Neural Information Processing Systems")
        expect(arr(paper.authors).map((a) => obj(a).name)).toContain("Ashish Vaswani")
        expect(obj(paper.externalIds).ArXiv).toBe("1706.03762")
      }
      const literatureGraph = obj((yield* call("GET", "/graph/v1/paper/DOI:10.18653/v1/N18-3011?fields=title")).json)
      expect(literatureGraph.title).toBe("Construction of the Literature Graph in Semantic Scholar")
      const etzioni = obj((yield* call("GET", "/graph/v1/author/1741101?fields=name,paperCount,papers.title")).json)
      expect(etzioni.name).toBe("Oren Etzioni")
      expect(etzioni.paperCount).toBe(1)
      const batch = arr(
        (yield* call("POST", "/graph/v1/paper/batch?fields=title", {
          body: { ids: ["CorpusId:3142471", "10.2139/ssrn.2250500", "CorpusId:470667"] }
        })).json
      ).map(obj)
      expect(batch.map((p) => p.title)).toEqual([
        "The Miracle of Microfinance? Evidence from a Randomized Evaluation",
        "The Miracle of Microfinance? Evidence from a Randomized Evaluation",
        "How Much Should We Trust Differences-in-Differences Estimates?"
      ])
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 1000 }))))

  it.effect("are cited by the generated graph and cite earlier papers", () =>
    Effect.gen(function*() {
      for (const id of [turing, attention]) {
        const paper = obj((yield* call("GET", `/graph/v1/paper/${id}?fields=citationCount,year`)).json)
        expect(Number(paper.citationCount), id).toBeGreaterThanOrEqual(20)
        const citing = arr(obj((yield* call("GET", `/graph/v1/paper/${id}/citations?fields=year&limit=100`)).json).data)
        expect(citing.length).toBeGreaterThan(0)
        for (const c of citing) expect(Number(obj(obj(c).citingPaper).year)).toBeGreaterThanOrEqual(Number(paper.year))
      }
      const refs = arr(obj((yield* call("GET", `/graph/v1/paper/${attention}/references?fields=year`)).json).data)
      for (const r of refs) {
        const cited = obj(obj(r).citedPaper)
        if (cited.paperId !== null) expect(Number(cited.year)).toBeLessThanOrEqual(2017)
      }
    }).pipe(Effect.provide(Emulator.layer({ seed: 3, size: 2000 }))))

  it("are in every corpus from 50 papers, whatever the seed, and the generated papers keep their text", () => {
    for (const seed of [1, 2, 99]) {
      const corpus = Corpus.make({ seed, size: 60 })
      const titles = [...corpus.landmarks].map((i) => corpus.paper(i).title)
      expect(titles).toContain("Computing Machinery and Intelligence")
      expect(titles).toContain("Attention Is All You Need")
      const bigger = Corpus.make({ seed, size: 500 })
      // Landmarks take the last slots: the generated papers before them keep their text.
      expect(bigger.paper(10).title).toBe(corpus.paper(10).title)
      expect(bigger.paper(10).abstract).toBe(corpus.paper(10).abstract)
      expect(corpus.resolvePaper(turing)).toBe(corpus.landmarks[0])
    }
    expect(Corpus.make({ seed: 1, size: 9 }).landmarks.length).toBe(0)
  })

  it.effect("keep bulk search in paperId order, over a virtual universe too", () =>
    Effect.gen(function*() {
      let url = "/graph/v1/paper/search/bulk?query=&fields=title"
      const ids: Array<string> = []
      for (;;) {
        const page = obj((yield* call("GET", url)).json)
        ids.push(...arr(page.data).map((p) => String(obj(p).paperId)))
        if (page.token === null) break
        url = `/graph/v1/paper/search/bulk?query=&fields=title&token=${String(page.token)}`
      }
      expect(ids.length).toBe(5000)
      expect(ids).toContain("204e3073870fae3d05bcbc2f6a8e263d9b72e776")
      expect([...ids].sort()).toEqual(ids)
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 500, bulkSize: 5000 }))))
})

describe("search stems words", () => {
  it.effect("singular finds plural in relevance and bulk search, and phrases match inflected words", () =>
    Effect.gen(function*() {
      const titles = (json: unknown) => arr(obj(json).data).map((p) => String(obj(p).title).toLowerCase())
      const relevance = titles(
        (yield* call("GET", "/graph/v1/paper/search?query=transformer&fields=title&limit=100")).json
      )
      expect(relevance.length).toBeGreaterThan(0)
      expect(relevance.some((t) => t.includes("transformers"))).toBe(true)
      const bulk = titles((yield* call("GET", "/graph/v1/paper/search/bulk?query=transformer&fields=title")).json)
      expect(bulk.length).toBeGreaterThan(0)
      const plural = titles((yield* call("GET", "/graph/v1/paper/search/bulk?query=transformers&fields=title")).json)
      expect(plural).toEqual(bulk)
      const phrase = titles(
        (yield* call("GET", "/graph/v1/paper/search/bulk?query=%22graph%20neural%20network%22&fields=title")).json
      )
      expect(phrase.some((t) => t.includes("graph neural networks"))).toBe(true)
      const prefix = titles((yield* call("GET", "/graph/v1/paper/search/bulk?query=transformer*&fields=title")).json)
      expect(prefix.length).toBe(bulk.length)
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 3000 }))))
})
