/**
 * The server decides which ids exist: an id the client cannot recognise is still sent, and the
 * emulator (like the API) answers 404 for one and `null` in a batch.
 */
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Effect, Layer } from "effect"
import { Corpus, Emulator } from "../src/index.js"

const corpus = Corpus.make({ seed: 7, size: 200 })
const layer = SemanticScholar.layer({ rateLimit: false }).pipe(Layer.provideMerge(Emulator.layer({ corpus })))

describe("ids the server judges", () => {
  it.effect("paper id 0 is ObjectNotFound, as the API answers", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getPaper("0", { fields: ["title"] }))
      expect(error._tag).toBe("ObjectNotFound")
      expect(error.status).toBe(404)
      expect(error.message).toContain("Paper with id 0 not found")
    }).pipe(Effect.provide(layer)))

  it.effect("author id 0 and a non-numeric author id are ObjectNotFound", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      for (const id of ["0", "Turing"]) {
        const error = yield* Effect.flip(s2.getAuthor(id, { fields: ["name"] }))
        expect(error._tag).toBe("ObjectNotFound")
        expect(error.message).toContain(`Author with id ${id} not found`)
      }
    }).pipe(Effect.provide(layer)))

  it.effect("in a batch, id 0 and a malformed CorpusId land in notFound and the rest is found", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const known = corpus.paper(3).paperId
      const { found, notFound } = yield* s2.getPapers(["0", known, "CorpusID:abc"], {
        fields: ["title"],
        returnNotFound: true
      })
      expect(found.map((p) => p.paperId)).toEqual([known])
      expect(notFound).toEqual(["0", "CorpusID:abc"])
      const authors = yield* s2.getAuthors(["0", corpus.author(1).authorId], { returnNotFound: true })
      expect(authors.notFound).toEqual(["0"])
    }).pipe(Effect.provide(layer)))

  it.effect("a rejected id in a batch names its position and nothing is sent", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getPapers(["0", "CorpusId:1", "ISBN:123"]))
      expect(error._tag).toBe("BadQueryParameters")
      expect(error.message).toContain("paperIds[2] \"ISBN:123\" has the prefix ISBN:")
    }).pipe(Effect.provide(layer)))
})
