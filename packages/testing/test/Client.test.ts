/**
 * The core client against the emulator, in memory and over HTTP: every operation decodes every
 * emulator answer, filters reach the wire, sort orders hold, caps and empty results behave.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it } from "@effect/vitest"
import type { Options } from "@s2-effect/core"
import { SemanticScholar } from "@s2-effect/core"
import { Effect, Fiber, Layer, Redacted, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { Corpus, Emulator, Faults, startEmulator } from "../src/index.js"

const corpus = Corpus.make({ seed: 7, size: 3000 })
const mostCited = Array.from({ length: corpus.size }, (_, i) => i).reduce((best, i) =>
  corpus.citationCount(i) > corpus.citationCount(best) ? i : best
)
const key = Redacted.make("client-test-key")
const options: Options = { apiKey: key, rateLimit: false }

const inMemory = SemanticScholar.layer(options).pipe(Layer.provideMerge(Emulator.layer({ corpus })))
const overHttp = Layer.unwrap(Effect.map(
  startEmulator({ corpus }),
  (server) => SemanticScholar.layer({ ...options, apiUrl: server.url }).pipe(Layer.provide(NodeHttpClient.layerUndici))
))

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>): Effect.Effect<ReadonlyArray<A>, E, R> =>
  Stream.runCollect(stream)

const everyOperation = Effect.gen(function*() {
  const s2 = yield* SemanticScholar
  const top = corpus.paper(mostCited)
  const author = corpus.author(top.authors[0] ?? 0)

  const paper = yield* s2.getPaper(top.paperId)
  expect(paper.paperId).toBe(top.paperId)
  expect(paper.title).toBe(top.title)
  expect(paper.citationCount).toBe(corpus.citationCount(mostCited))
  const byCorpusId = yield* s2.getPaper(`CorpusId:${top.corpusId}`, { fields: ["title", "authors.name"] })
  expect(byCorpusId.keys()).toEqual(expect.arrayContaining(["paperId", "title", "authors"]))

  const { found, notFound } = yield* s2.getPapers([top.paperId, "CorpusId:999999999", corpus.paper(1).paperId], {
    fields: ["title", "year"],
    returnNotFound: true
  })
  expect(found.map((p) => p.paperId)).toEqual([top.paperId, corpus.paper(1).paperId])
  expect(notFound).toEqual(["CorpusId:999999999"])

  const a = yield* s2.getAuthor(author.authorId)
  expect(a.name).toBe(author.name)
  const authors = yield* s2.getAuthors([author.authorId], { fields: ["name", "hIndex"] })
  expect(authors[0]?.hIndex).toBeTypeOf("number")

  const citations = yield* collect(
    s2.getPaperCitations(top.paperId, { fields: ["title", "contexts", "intents"], limit: 1000 })
  )
  expect(citations.length).toBe(Math.min(corpus.citationCount(mostCited), 9999))
  expect(new Set(citations.map((c) => c.citingPaper.paperId)).size).toBe(citations.length)
  const references = yield* collect(s2.getPaperReferences(citations[0]!.citingPaper.paperId!, { fields: ["title"] }))
  expect(references.map((r) => r.citedPaper.paperId)).toContain(top.paperId)
  const paperAuthors = yield* collect(s2.getPaperAuthors(top.paperId))
  expect(paperAuthors.map((x) => x.authorId)).toContain(author.authorId)
  const authorPapers = yield* collect(s2.getAuthorPapers(author.authorId, { fields: ["title", "year"], limit: 5 }))
  expect(authorPapers.map((p) => p.paperId)).toContain(top.paperId)

  const word = top.title.split(" ").find((w) => w.length > 5) ?? top.title
  const relevance = yield* collect(s2.searchPaper(word, { fields: ["title", "year"], year: "1900-2100" }))
  expect(relevance.length).toBeGreaterThan(0)
  expect(relevance.length).toBeLessThanOrEqual(1000)
  const empty = yield* collect(s2.searchPaper("qqqzzzxxyy nothingmatches"))
  expect(empty).toEqual([])

  const bulk = yield* collect(s2.searchPaper("", { bulk: true, sort: "citationCount:desc", fields: ["citationCount"] }))
  expect(bulk.length).toBe(corpus.size)
  const counts = bulk.map((p) => p.citationCount ?? 0)
  expect(counts).toEqual([...counts].sort((x, y) => y - x))
  const filtered = yield* collect(s2.searchPaper("", {
    bulk: true,
    fields: ["year", "publicationTypes", "fieldsOfStudy", "citationCount"],
    year: "2000-2010",
    minCitationCount: 1
  }))
  for (const p of filtered) {
    expect(p.year).toBeGreaterThanOrEqual(2000)
    expect(p.year).toBeLessThanOrEqual(2010)
    expect(p.citationCount).toBeGreaterThanOrEqual(1)
  }

  const searchAuthor = yield* collect(
    s2.searchAuthor(author.name.split(" ").at(-1) ?? author.name, { limit: 10 }).pipe(Stream.take(30))
  )
  expect(searchAuthor.length).toBeGreaterThan(0)

  const match = yield* s2.matchPaperTitle(top.title, { fields: ["title"] })
  expect(match.title).toBe(top.title)
  expect(match.matchScore).toBeTypeOf("number")
  const completions = yield* s2.getAutocomplete(top.title.slice(0, 12))
  expect(completions.length).toBeGreaterThan(0)
  const snippets = yield* s2.searchSnippet(word, { limit: 3 })
  expect(snippets.length).toBeLessThanOrEqual(3)

  const recommended = yield* s2.getRecommendedPapers(top.paperId, { limit: 20, fields: ["title"] })
  expect(recommended.length).toBeGreaterThan(0)
  const fromLists = yield* s2.getRecommendedPapersFromLists([top.paperId], [corpus.paper(2).paperId], { limit: 5 })
  expect(fromLists.length).toBeGreaterThan(0)

  const releases = yield* s2.getAvailableReleases()
  expect(releases.length).toBeGreaterThan(1)
  const release = yield* s2.getRelease(releases.at(-1)!)
  const links = yield* s2.getDatasetDownloadLinks(release.release_id, release.datasets[0]!.name)
  expect(links.files.length).toBeGreaterThan(0)
  const diff = yield* s2.getDatasetDiffs(release.datasets[0]!.name, releases.at(-3)!, "latest")
  expect(diff.diffs.length).toBe(2)
})

describe("the core client against the emulator", () => {
  it.effect(
    "in memory: every operation decodes every answer",
    () => everyOperation.pipe(Effect.provide(inMemory)),
    60_000
  )
  it.live(
    "over HTTP: every operation decodes every answer",
    () => everyOperation.pipe(Effect.provide(overHttp)),
    60_000
  )

  it.effect("the client's API key reaches every API request, redacted in the emulator's log", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const emulator = yield* Emulator
      yield* s2.getPaper(corpus.paper(0).paperId, { fields: ["title"] })
      yield* s2.getRecommendedPapers(corpus.paper(0).paperId, { limit: 1 })
      const seen = yield* emulator.requests
      expect(seen.map((r) => r.keyPresent)).toEqual([true, true])
      expect(JSON.stringify(seen)).not.toContain("client-test-key")
    }).pipe(Effect.provide(inMemory)))

  it(
    "under random seeded faults a bulk harvest and a citation list are exactly the fault-free sequences (property)",
    async () => {
      const small = Corpus.make({ seed: 3, size: 600, bulkSize: 3_500 })
      const cited = Array.from({ length: small.size }, (_, i) => i).reduce((best, i) =>
        small.citationCount(i) > small.citationCount(best) ? i : best
      )
      const harvest = Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const bulk = yield* collect(s2.searchPaper("", { bulk: true, fields: ["title"] }))
        const citations = yield* collect(
          s2.getPaperCitations(small.paper(cited).paperId, { fields: ["title"], limit: 10 })
        )
        return [...bulk.map((p) => p.paperId), ...citations.map((c) => c.citingPaper.paperId)]
      })
      let faulted = 0
      const run = (faults: Faults.Config) =>
        Effect.gen(function*() {
          const fiber = yield* Effect.forkChild(harvest)
          // Hangs end at the 30 s time-out and retries wait up to 60 s: a day of TestClock covers them.
          yield* TestClock.adjust("1 day")
          const ids = yield* Fiber.join(fiber)
          const seen = yield* (yield* Emulator).requests
          faulted += seen.filter((r) => r.outcome !== 200).length
          return ids
        }).pipe(
          Effect.provide(SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ corpus: small, faults })))),
          Effect.provide(TestClock.layer()),
          Effect.runPromise
        )
      const clean = await run({})
      expect(clean.length).toBe(3_500 + small.citationCount(cited))
      const every = [
        Faults.tooManyRequests(),
        Faults.tooManyRequests({ retryAfter: 3 }),
        Faults.status(500),
        Faults.status(502),
        Faults.status(503),
        Faults.status(504),
        Faults.reset,
        Faults.truncate()
      ]
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 2 ** 30 }),
          // At most 12% of answers that failed but came (429, 5xx, reset, cut short): a page then fails
          // all six attempts the server-failure budget allows with a chance below 3 in a million.
          // Hangs have a budget of 3 attempts by design (a hung server must end quickly): they are in
          // the property below, where a stream may end in Timeout.
          fc.double({ min: 0.05, max: 0.12, noNaN: true }),
          fc.subarray(every, { minLength: 1 }),
          async (seed, rate, faults) => {
            expect(await run({ random: { seed, rate, faults } })).toEqual(clean)
          }
        ),
        { numRuns: 20 }
      )
      // The runs did meet faults (resets and cut bodies included), not just clean answers.
      expect(faulted).toBeGreaterThan(20)
    },
    120_000
  )

  it(
    "with broken cursors and hangs among the faults, every stream ends: the fault-free sequence, or a prefix of it and a ProtocolError or Timeout (property)",
    async () => {
      const small = Corpus.make({ seed: 5, size: 400, bulkSize: 2_500 })
      const cited = Array.from({ length: small.size }, (_, i) => i).reduce((best, i) =>
        small.citationCount(i) > small.citationCount(best) ? i : best
      )
      const streams = (s2: SemanticScholar["Service"]) => [
        Stream.map(s2.searchPaper("", { bulk: true, fields: ["title"] }), (p) => p.paperId),
        Stream.map(
          s2.getPaperCitations(small.paper(cited).paperId, { fields: ["title"], limit: 10 }),
          (c) => c.citingPaper.paperId
        )
      ]
      const run = (faults: Faults.Config) =>
        Effect.gen(function*() {
          const s2 = yield* SemanticScholar
          const outcomes: Array<{ readonly ids: ReadonlyArray<string | null>; readonly error: unknown }> = []
          for (const stream of streams(s2)) {
            const ids: Array<string | null> = []
            const fiber = yield* Effect.forkChild(
              Effect.result(Stream.runForEach(stream, (id) => Effect.sync(() => ids.push(id))))
            )
            yield* TestClock.adjust("1 day")
            const result = yield* Fiber.join(fiber)
            outcomes.push({ ids, error: result._tag === "Failure" ? result.failure : undefined })
          }
          return { outcomes, requests: (yield* (yield* Emulator).requests).length }
        }).pipe(
          Effect.provide(SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ corpus: small, faults })))),
          Effect.provide(TestClock.layer()),
          Effect.runPromise
        )
      const clean = await run({})
      expect(clean.outcomes.map((o) => o.error)).toEqual([undefined, undefined])
      let broken = 0
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 2 ** 30 }),
          fc.double({ min: 0.05, max: 0.3, noNaN: true }),
          fc.subarray([Faults.status(503), Faults.reset, Faults.truncate(), Faults.hang]),
          fc.subarray([Faults.cursorLoop, Faults.cursorBack], { minLength: 1 }),
          async (seed, rate, transient, cursors) => {
            const got = await run({ random: { seed, rate, faults: [...transient, ...cursors] } })
            // Each page is fetched at most once more than fault-free, plus its retries.
            expect(got.requests).toBeLessThanOrEqual(clean.requests * 12)
            got.outcomes.forEach((outcome, k) => {
              const expected = clean.outcomes[k]!.ids
              if (outcome.error === undefined) {
                expect(outcome.ids).toEqual(expected)
              } else {
                broken++
                // A Timeout only where hangs were among the faults (3 hangs in a row end a stream).
                const ended = transient.includes(Faults.hang) ? ["ProtocolError", "Timeout"] : ["ProtocolError"]
                expect(ended).toContain((outcome.error as { readonly _tag: string })._tag)
                expect(outcome.ids).toEqual(expected.slice(0, outcome.ids.length))
              }
            })
          }
        ),
        { numRuns: 15 }
      )
      // The broken cursors were met, not only clean answers.
      expect(broken).toBeGreaterThan(5)
    },
    120_000
  )
})
