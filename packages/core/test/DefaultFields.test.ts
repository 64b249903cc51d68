/**
 * `fields` omitted means every field: each operation sends exactly the set the issue lists (spelled
 * out here, independently of Fields.ts), nested fields included.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { SemanticScholar } from "../src/index.js"
import { anyRoute } from "./support/AnyRoute.js"
import { requests, testLayer } from "./support/Scripted.js"

const summary = [
  "abstract",
  "authors",
  "citationCount",
  "citationStyles",
  "corpusId",
  "externalIds",
  "fieldsOfStudy",
  "influentialCitationCount",
  "isOpenAccess",
  "journal",
  "openAccessPdf",
  "paperId",
  "publicationDate",
  "publicationTypes",
  "publicationVenue",
  "referenceCount",
  "s2FieldsOfStudy",
  "title",
  "url",
  "venue",
  "year"
]
const authorFields = [
  "affiliations",
  "authorId",
  "citationCount",
  "externalIds",
  "hIndex",
  "homepage",
  "name",
  "paperCount",
  "url"
]
const under = (parent: string, names: ReadonlyArray<string>) => names.map((name) => `${parent}.${name}`)

const expected = {
  getPaper: [
    ...summary,
    "citations",
    "embedding",
    "references",
    "tldr",
    ...under("authors", authorFields),
    ...under("citations", summary),
    ...under("references", summary)
  ],
  summary,
  edges: ["contexts", "intents", "contextsWithIntent", "isInfluential", ...summary],
  author: [...authorFields, "papers", ...under("papers", summary.filter((name) => name !== "citationStyles"))],
  paperAuthors: authorFields
}

describe("fields omitted: the set sent per operation", () => {
  it.effect("matches the API's every-field rule as the Python client spells it", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const calls: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown>, ReadonlyArray<string>]> = [
        ["getPaper", s2.getPaper("CorpusId:1"), expected.getPaper],
        ["getPapers", s2.getPapers(["CorpusId:1"]), expected.summary],
        ["searchPaper", Stream.runDrain(s2.searchPaper("turing")), expected.summary],
        ["searchPaper bulk", Stream.runDrain(s2.searchPaper("turing", { bulk: true })), expected.summary],
        ["getAuthorPapers", Stream.runDrain(s2.getAuthorPapers("1")), expected.summary],
        ["getRecommendedPapers", s2.getRecommendedPapers("CorpusId:1"), expected.summary],
        ["getRecommendedPapersFromLists", s2.getRecommendedPapersFromLists(["CorpusId:1"]), expected.summary],
        ["getPaperCitations", Stream.runDrain(s2.getPaperCitations("CorpusId:1")), expected.edges],
        ["getPaperReferences", Stream.runDrain(s2.getPaperReferences("CorpusId:1")), expected.edges],
        ["getAuthor", s2.getAuthor("1"), expected.author],
        ["getAuthors", s2.getAuthors(["1"]), expected.author],
        ["searchAuthor", Stream.runDrain(s2.searchAuthor("turing")), expected.author],
        ["getPaperAuthors", Stream.runDrain(s2.getPaperAuthors("CorpusId:1")), expected.paperAuthors]
      ]
      for (const [, call] of calls) yield* call
      const seen = yield* requests
      expect(seen).toHaveLength(calls.length)
      const sent = seen.map((request, i) => [calls[i]![0], request.url.searchParams.get("fields")?.split(",").sort()])
      expect(sent).toEqual(calls.map(([name, , fields]) => [name, [...fields].sort()]))
    }).pipe(Effect.provide(testLayer(anyRoute))))
})
