import { describe, expect, it, vi } from "@effect/vitest"
import * as fc from "fast-check"
import { Corpus } from "../src/index.js"
import { EmulatorCore } from "../src/internal/core.js"
import { drawnAuthors, paperColumns, paperCore } from "../src/internal/corpus/generate.js"
import { SearchIndexBuilder } from "../src/internal/corpus/searchIndex.js"
import { parseFields } from "../src/internal/fields.js"
import { paperJson } from "../src/internal/serialize.js"

const ALL = parseFields(
  "paperId,corpusId,externalIds,url,title,abstract,venue,publicationVenue,year,referenceCount,citationCount,influentialCitationCount,isOpenAccess,openAccessPdf,fieldsOfStudy,s2FieldsOfStudy,tldr,publicationTypes,publicationDate,journal,citationStyles,textAvailability,authors",
  "paper"
)
const spec = ALL._tag === "Ok" ? ALL.spec : undefined

const serialize = (c: Corpus) => JSON.stringify(c.papers.map((_, i) => paperJson(c, i, spec!)))

describe("Corpus", () => {
  it("same seed gives a byte-identical corpus; another seed a different one", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const a = Corpus.make({ seed, size: 150 })
        const b = Corpus.make({ seed, size: 150 })
        expect(serialize(a)).toBe(serialize(b))
        expect(serialize(Corpus.make({ seed: seed + 1, size: 150 }))).not.toBe(serialize(a))
      }),
      { numRuns: 15 }
    )
  })

  it("serialized bulk pages are byte-identical across instances", () => {
    const url = new URL(
      "https://api.semanticscholar.org/graph/v1/paper/search/bulk?query=learning&fields=title,year,authors"
    )
    const body = () =>
      new EmulatorCore({ seed: 9, size: 2000 }, "https://files.test").route({
        method: "GET",
        url,
        headers: {},
        body: undefined
      }).body
    expect(body()).toEqual(body())
  })

  it("1,000 papers build without their search index, which the first search builds", () => {
    // What keeps a build quick (packages/bench's start-up rows time it): no paper is indexed yet.
    const add = vi.spyOn(SearchIndexBuilder.prototype, "addUpTo")
    try {
      const corpus = Corpus.make({ seed: 3, size: 1000 })
      expect(add).not.toHaveBeenCalled()
      expect(corpus.searchIndex.search("learning").length).toBeGreaterThan(0)
      expect(add).toHaveBeenCalledWith(1000)
    } finally {
      add.mockRestore()
    }
  })

  it("has realistic records and a heavy-tailed citation graph whose counts follow the edges", () => {
    const c = Corpus.make({ seed: 1, size: 20_000 })
    const counts = Array.from(c.graph.citationCount).sort((a, b) => b - a)
    expect(counts[0]!).toBeGreaterThan(1000)
    expect(counts[Math.floor(counts.length / 2)]!).toBeLessThan(10)
    for (let i = 0; i < 200; i++) {
      expect(c.citationCount(i)).toBe(c.graph.citeStart[i + 1]! - c.graph.citeStart[i]!)
      const p = c.paper(i)
      expect(p.paperId).toMatch(/^[0-9a-f]{40}$/)
      expect(c.resolvePaper(p.paperId)).toBe(i)
      expect(c.resolvePaper(`CorpusId:${p.corpusId}`)).toBe(i)
      if (typeof p.externalIds.DOI === "string") expect(c.resolvePaper(p.externalIds.DOI)).toBe(i)
      if (typeof p.externalIds.ArXiv === "string") expect(c.resolvePaper(`ARXIV:${p.externalIds.ArXiv}`)).toBe(i)
    }
    // Paper ids increase with the index: paperId order is index order.
    for (let i = 1; i < 500; i++) expect(c.paper(i).paperId > c.paper(i - 1).paperId).toBe(true)
    const years = c.papers.map((p) => p.year)
    expect(Math.min(...years)).toBeLessThan(1950)
    expect(Math.max(...years)).toBe(2025)
  })

  it("a build draws each paper's date and authors as the paper made when read has them", () => {
    // Issue 47 point 4: a build makes no paper (it draws what the graph and the authors' tables
    // need, see `paperColumns`); the papers are made when read. Both must take the same draws.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 0, max: 100_000 }), (seed, i) => {
        const authorCount = 1 + (i % 5000)
        const dates = new Int32Array(i + 1)
        const topics = new Uint8Array(i + 1)
        const n = paperColumns(seed, i, authorCount, dates, topics)
        const paper = paperCore(seed, i, 200_000, authorCount, "stored")
        expect(Array.from(drawnAuthors.subarray(0, n))).toEqual(paper.authors)
        expect(topics[i]).toBe(paper.topic)
        const [y, m, d] = (paper.publicationDate ?? `${paper.year}-01-01`).split("-").map(Number)
        expect(dates[i]).toBe(y! * 10000 + m! * 100 + d!)
      }),
      { numRuns: 300 }
    )
  })

  it("papers and authors are made when first read, once", () => {
    const c = Corpus.make({ seed: 4, size: 500 })
    expect(c.paper(17)).toBe(c.paper(17))
    expect(c.papers[17]).toBe(c.paper(17))
    expect(c.author(3)).toBe(c.authors[3])
    expect(c.papers.map((p) => p.index)).toEqual(Array.from({ length: 500 }, (_, i) => i))
    // Year and topic are read without making the paper, for every paper, landmarks included.
    expect(c.papers.map((_, i) => [c.year(i), c.topic(i)])).toEqual(c.papers.map((p) => [p.year, p.topic]))
    expect(c.authors.map((a) => a.index)).toEqual(Array.from({ length: c.authorCount }, (_, j) => j))
  })

  it("virtual papers are pure functions of (seed, index)", () => {
    const a = Corpus.make({ seed: 5, size: 100, bulkSize: 10_000_000 })
    const b = Corpus.make({ seed: 5, size: 100, bulkSize: 10_000_000 })
    expect(a.paper(9_999_999)).toEqual(b.paper(9_999_999))
    expect(a.resolvePaper(a.paper(7_654_321).paperId)).toBe(7_654_321)
  })
})
