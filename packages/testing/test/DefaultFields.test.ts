/**
 * `fields` omitted against the emulator: every field comes back, nested ones included, and decodes
 * into typed fields (nothing only in `raw`). The emulator answers nested selections as the API does.
 */
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Effect, Layer, Stream } from "effect"
import { Corpus, Emulator } from "../src/index.js"

const corpus = Corpus.make({ seed: 11, size: 400 })
const layer = SemanticScholar.layer({ rateLimit: false }).pipe(Layer.provideMerge(Emulator.layer({ corpus })))
const cited = Array.from({ length: corpus.size }, (_, i) => i).find((i) =>
  corpus.citationCount(i) > 0 && corpus.referenceCount(i) > 0
)!

describe("fields omitted, against the emulator", () => {
  it.effect("getPaper: authors with all their fields, citations and references with the summary", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const paper = yield* s2.getPaper(corpus.paper(cited).paperId)
      expect(paper.keys()).toEqual(expect.arrayContaining(["tldr", "embedding", "citations", "references"]))
      const author = paper.authors![0]!
      expect(author.keys()).toEqual(expect.arrayContaining(["hIndex", "paperCount", "affiliations", "url"]))
      expect(author.hIndex).toBeTypeOf("number")
      const citing = paper.citations![0]!
      expect(citing.keys()).toEqual(expect.arrayContaining(["year", "authors", "citationStyles", "venue"]))
      expect(citing.authors?.[0]?.name).toBeTypeOf("string")
    }).pipe(Effect.provide(layer)))

  it.effect("getAuthor: papers with their summary; getPaperAuthors: no papers", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const author = yield* s2.getAuthor(corpus.author(corpus.paper(cited).authors[0]!).authorId)
      const first = author.papers![0]!
      expect(first.keys()).toEqual(expect.arrayContaining(["year", "abstract", "authors", "externalIds"]))
      expect(first.keys()).not.toContain("citationStyles")
      const listed = yield* Stream.runCollect(s2.getPaperAuthors(corpus.paper(cited).paperId))
      expect(listed[0]?.keys()).toEqual(expect.arrayContaining(["hIndex", "homepage", "externalIds"]))
      expect(listed[0]?.keys()).not.toContain("papers")
    }).pipe(Effect.provide(layer)))

  it.effect("a paper's author, asked for with papers, types them as PaperRef", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const listed = yield* Stream.runCollect(
        s2.getPaperAuthors(corpus.paper(cited).paperId, { fields: ["name", "papers.year"] })
      )
      const papers = listed[0]!.papers ?? []
      expect(papers.length).toBeGreaterThan(0)
      expect(papers[0]?.year).toBeTypeOf("number")
    }).pipe(Effect.provide(layer)))

  it.effect("nested selection: plain authors gives authorId and name; authors.url adds url", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const id = corpus.paper(cited).paperId
      const plain = yield* s2.getPaper(id, { fields: ["authors"] })
      expect([...plain.authors![0]!.keys()].sort()).toEqual(["authorId", "name"])
      const withUrl = yield* s2.getPaper(id, { fields: ["authors.url"] })
      expect([...withUrl.authors![0]!.keys()].sort()).toEqual(["authorId", "name", "url"])
      const refs = yield* s2.getPaper(id, { fields: ["references.year"] })
      expect([...refs.references![0]!.keys()].sort()).toEqual(["paperId", "year"])
    }).pipe(Effect.provide(layer)))
})
