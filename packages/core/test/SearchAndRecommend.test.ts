import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { Filters, SemanticScholar } from "../src/index.js"
import type { Handler } from "./support/Scripted.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const sha = (n: number) => n.toString(16).padStart(40, "0")
const answer = (body: unknown): Handler => () => Effect.succeed(json(body))

describe("matchPaperTitle", () => {
  it.effect("returns the best match with its matchScore, sending filters and fields", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const paper = yield* s2.matchPaperTitle("mining association rules between", { year: "1993", fields: ["title"] })
      expect(paper.title).toBe("Mining association rules between sets of items in large databases")
      expect(paper.matchScore).toBe(109.55)
      const [seen] = yield* requests
      expect(seen?.url.pathname).toBe("/graph/v1/paper/search/match")
      expect([...(seen?.url.searchParams.entries() ?? [])]).toEqual([
        ["query", "mining association rules between"],
        ["year", "1993"],
        ["fields", "title"]
      ])
    }).pipe(Effect.provide(testLayer(answer({
      data: [{
        paperId: sha(1),
        title: "Mining association rules between sets of items in large databases",
        matchScore: 109.55
      }]
    })))))

  it.effect("no match is ObjectNotFound (the server's 404 and an empty answer alike)", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const fromServer = yield* Effect.flip(s2.matchPaperTitle("zzzz"))
      expect(fromServer._tag).toBe("ObjectNotFound")
      expect(fromServer.message).toContain("Title match not found")
      const empty = yield* Effect.flip(s2.matchPaperTitle("zzzz"))
      expect(empty._tag).toBe("ObjectNotFound")
    }).pipe(Effect.provide(testLayer((_, i) =>
      Effect.succeed(i === 0 ? json({ error: "Title match not found" }, 404) : json({ data: [] }))
    ))))
})

describe("filters newer than the client", () => {
  it.effect("Filters.unchecked passes a publication type or field of study as written; a bad one is refused", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* Stream.runDrain(s2.searchPaper("q", {
        publicationTypes: ["Review", Filters.unchecked("Preprint")],
        fieldsOfStudy: [Filters.unchecked("Quantum Studies")],
        fields: ["title"]
      }))
      const [seen] = yield* requests
      expect(seen?.url.searchParams.get("publicationTypes")).toBe("Review,Preprint")
      expect(seen?.url.searchParams.get("fieldsOfStudy")).toBe("Quantum Studies")
      const refused = yield* Effect.flip(Stream.runDrain(s2.searchPaper("q", {
        publicationTypes: [Filters.unchecked("a,b")]
      })))
      expect(refused.message).toContain("publicationTypes values must be non-empty and without commas")
      const typo = yield* Effect.flip(Stream.runDrain(s2.searchPaper("q", { fieldsOfStudy: ["CS" as "Art"] })))
      expect(typo.message).toContain("Filters.unchecked")
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(answer({ total: 0, offset: 0 })))))
})

describe("getAutocomplete", () => {
  it.effect("cuts the query to 100 characters and decodes matches", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const matches = yield* s2.getAutocomplete("x".repeat(150))
      expect(matches.map((m) => m.authorsYear)).toEqual(["Turing, 1950"])
      // raw and keys() like every record, unknown fields kept
      expect(matches[0]?.keys()).toEqual(["id", "title", "authorsYear", "newer"])
      expect(matches[0]?.raw).toEqual({ id: sha(1), title: "CMI", authorsYear: "Turing, 1950", newer: 1 })
      const [seen] = yield* requests
      expect(seen?.url.searchParams.get("query")).toBe("x".repeat(100))
    }).pipe(
      Effect.provide(
        testLayer(answer({ matches: [{ id: sha(1), title: "CMI", authorsYear: "Turing, 1950", newer: 1 }] }))
      )
    ))

  it.effect("an answer without matches is an empty array", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      expect(yield* s2.getAutocomplete("qqq")).toEqual([])
    }).pipe(Effect.provide(testLayer(answer({})))))
})

describe("searchSnippet", () => {
  const snippet = {
    snippet: {
      text: "The Turing test …",
      snippetKind: "abstract",
      section: null,
      snippetOffset: { start: 0, end: 17 },
      annotations: {
        sentences: [{ start: 0, end: 17 }],
        refMentions: [{ start: 1, end: 2, matchedPaperCorpusId: "9" }]
      }
    },
    score: 0.9,
    paper: { corpusId: "19170988", title: "CMI", authors: ["Alan Turing"], openAccessInfo: null }
  }
  it.effect("sends every option with its wire name and decodes the full snippet record", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const results = yield* s2.searchSnippet("turing test", {
        paperIds: ["CorpusId:1", "ARXIV:2106.15928"],
        authors: ["Turing", "Church"],
        minCitationCount: 5,
        insertedBefore: "2024-01",
        year: 1950,
        venue: ["Mind"],
        fieldsOfStudy: ["Computer Science", Filters.unchecked("Quantum Studies")],
        publicationDateOrYear: "1950:",
        fields: ["snippet.text", "snippet.annotations.refMentions"],
        limit: 2
      })
      expect(results.retrievalVersion).toBe("v1")
      const [first] = results
      expect(first?.score).toBe(0.9)
      expect(first?.snippet?.annotations?.refMentions?.[0]?.matchedPaperCorpusId).toBe("9")
      expect(first?.paper.corpusId).toBe("19170988")
      const [seen] = yield* requests
      expect(Object.fromEntries(seen?.url.searchParams.entries() ?? [])).toEqual({
        query: "turing test",
        limit: "2",
        fields: "snippet.text,snippet.annotations.refMentions",
        paperIds: "CorpusId:1,ARXIV:2106.15928",
        authors: "Turing,Church",
        insertedBefore: "2024-01",
        year: "1950",
        venue: "Mind",
        fieldsOfStudy: "Computer Science,Quantum Studies",
        publicationDateOrYear: "1950:",
        minCitationCount: "5"
      })
    }).pipe(Effect.provide(testLayer(answer({ data: [snippet], retrievalVersion: "v1" })))))

  const bad: ReadonlyArray<readonly [string, Parameters<SemanticScholar["Service"]["searchSnippet"]>[1], string]> = [
    ["limit 0", { limit: 0 }, "from 1 to 1000"],
    ["limit 1001", { limit: 1001 }, "from 1 to 1000"],
    ["101 paper ids", { paperIds: Array.from({ length: 101 }, (_, i) => `CorpusId:${i}`) }, "give at most 100"],
    ["a paper id with an unknown prefix", { paperIds: ["NOPE:1"] }, "paperIds[0] \"NOPE:1\" has the prefix NOPE:"],
    ["a paper id with a comma", { paperIds: ["CorpusId:1", "DOI:10.1000/a,b"] }, "paperIds[1] contains a comma"],
    ["11 authors", { authors: Array.from({ length: 11 }, (_, i) => `A${i}`) }, "give 1 to 10"],
    ["a paper field", { fields: ["title" as `snippet.${string}`] }, "snippet.* paths"],
    ["insertedBefore range", { insertedBefore: "2020:2021" }, "not a range"]
  ]
  for (const [name, options, message] of bad) {
    it.effect(`rejects ${name} before sending`, () =>
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const error = yield* Effect.flip(s2.searchSnippet("q", options))
        expect(error._tag).toBe("BadQueryParameters")
        expect(error.message).toContain(message)
        expect(yield* requests).toHaveLength(0)
      }).pipe(Effect.provide(testLayer(answer({ data: [] })))))
  }
})

describe("recommendations", () => {
  const recommended = { recommendedPapers: [{ paperId: sha(1), title: "R1" }, { paperId: sha(2), title: "R2" }] }

  it.effect("for one paper: /recommendations/v1 on the same root, with limit and from", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const papers = yield* s2.getRecommendedPapers("10.2139/ssrn.2250500", {
        poolFrom: "all-cs",
        limit: 2,
        fields: ["title"]
      })
      expect(papers.map((p) => p.title)).toEqual(["R1", "R2"])
      const [seen] = yield* requests
      expect(seen?.url.toString()).toBe(
        "https://api.test/recommendations/v1/papers/forpaper/10.2139/ssrn.2250500?fields=title&limit=2&from=all-cs"
      )
    }).pipe(Effect.provide(testLayer(answer(recommended)))))

  it.effect("from lists: POST /papers/ with positives and negatives; positives only when no negatives", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* s2.getRecommendedPapersFromLists(["CorpusId:1"], ["CorpusId:2"], { limit: 10 })
      yield* s2.getRecommendedPapersFromLists(["CorpusId:1"])
      const seen = yield* requests
      expect(seen.map((r) => [r.method, r.url.pathname, r.body])).toEqual([
        ["POST", "/recommendations/v1/papers/", { positivePaperIds: ["CorpusId:1"], negativePaperIds: ["CorpusId:2"] }],
        ["POST", "/recommendations/v1/papers/", { positivePaperIds: ["CorpusId:1"] }]
      ])
      expect(seen[0]?.url.searchParams.get("limit")).toBe("10")
      expect(seen[1]?.url.searchParams.get("limit")).toBe("100")
    }).pipe(Effect.provide(testLayer(answer(recommended)))))

  it.effect("an empty positive list, a limit over 500 and an unknown pool fail before sending", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const noPositive = yield* Effect.flip(s2.getRecommendedPapersFromLists([], ["CorpusId:2"]))
      expect(noPositive.message).toContain("positivePaperIds is empty")
      const tooMany = yield* Effect.flip(s2.getRecommendedPapers("CorpusId:1", { limit: 501 }))
      expect(tooMany.message).toContain("from 1 to 500")
      const pool = yield* Effect.flip(s2.getRecommendedPapers("CorpusId:1", { poolFrom: "all" as "recent" }))
      expect(pool.message).toContain("\"recent\" or \"all-cs\"")
      expect(yield* requests).toHaveLength(0)
    }).pipe(Effect.provide(testLayer(answer(recommended)))))

  it.effect("apiUrl moves the recommendations API too", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* s2.getRecommendedPapers("CorpusId:1")
      const [seen] = yield* requests
      expect(`${seen?.url.origin}${seen?.url.pathname}`).toBe(
        "http://127.0.0.1:9/prefix/recommendations/v1/papers/forpaper/CorpusId:1"
      )
    }).pipe(Effect.provide(testLayer(answer(recommended), { apiUrl: "http://127.0.0.1:9/prefix/" }))))
})
