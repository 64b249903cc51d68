import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, Stream } from "effect"
import { SemanticScholar } from "../src/index.js"
import { anyRoute } from "./support/AnyRoute.js"
import { requests, testLayer } from "./support/Scripted.js"

describe("every operation", () => {
  it.effect("sends the API key on every call of every API (the reference client forgets it on four)", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const calls: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown>]> = [
        ["getPaper", s2.getPaper("CorpusId:1")],
        ["getPapers", s2.getPapers(["CorpusId:1"])],
        ["getAuthor", s2.getAuthor("1")],
        ["getAuthors", s2.getAuthors(["1"])],
        ["getPaperAuthors", Stream.runDrain(s2.getPaperAuthors("CorpusId:1"))],
        ["getPaperCitations", Stream.runDrain(s2.getPaperCitations("CorpusId:1"))],
        ["getPaperReferences", Stream.runDrain(s2.getPaperReferences("CorpusId:1"))],
        ["getAuthorPapers", Stream.runDrain(s2.getAuthorPapers("1"))],
        ["searchAuthor", Stream.runDrain(s2.searchAuthor("turing"))],
        ["searchPaper", Stream.runDrain(s2.searchPaper("turing"))],
        ["searchPaper bulk", Stream.runDrain(s2.searchPaper("turing", { bulk: true }))],
        ["matchPaperTitle", s2.matchPaperTitle("turing")],
        ["getAutocomplete", s2.getAutocomplete("turing")],
        ["searchSnippet", s2.searchSnippet("turing")],
        ["getRecommendedPapers", s2.getRecommendedPapers("CorpusId:1")],
        ["getRecommendedPapersFromLists", s2.getRecommendedPapersFromLists(["CorpusId:1"])],
        ["getAvailableReleases", s2.getAvailableReleases()],
        ["getRelease", s2.getRelease("latest")],
        ["getDatasetDownloadLinks", s2.getDatasetDownloadLinks("latest", "papers")],
        ["getDatasetDiffs", s2.getDatasetDiffs("papers", "2025-01-01", "latest")]
      ]
      // A new operation fails this line until it is added to the list above.
      const operations = Object.keys(s2).filter((name) => !name.endsWith("Pages"))
      expect(new Set(calls.map(([name]) => name.split(" ")[0]))).toEqual(new Set(operations))
      for (const [name, call] of calls) {
        const before = (yield* requests).length
        yield* call
        const made = (yield* requests).slice(before)
        expect(made.length, name).toBeGreaterThan(0)
        for (const request of made) {
          expect(request.headers["x-api-key"], `${name} ${request.url}`).toBe("every-call")
          // No trace headers: in a browser they would turn every call into a CORS preflight.
          expect(request.headers["traceparent"], name).toBeUndefined()
          expect(request.headers["b3"], name).toBeUndefined()
        }
      }
    }).pipe(Effect.provide(testLayer(anyRoute, { apiKey: Redacted.make("every-call"), rateLimit: false }))))
})
