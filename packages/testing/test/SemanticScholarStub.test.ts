/**
 * The stub layer and the record builders: what a user's test writes, what the code under test sees.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Paper } from "@s2-effect/core"
import {
  ObjectNotFound,
  RateLimited,
  RetryPolicy,
  SemanticScholar,
  ServerError,
  withRetry,
  withTimeout
} from "@s2-effect/core"
import { Cause, Effect, Exit, Fiber, Layer, Option, Stream } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { Fixtures, SemanticScholarStub } from "../src/index.js"

// The code under test: a paper's title with the titles of the papers citing it.
const citedBy = (id: string) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const paper = yield* s2.getPaper(id, { fields: ["title"] })
    const citing = yield* Stream.runCollect(s2.getPaperCitations(paper.paperId, { fields: ["title"] }))
    return { title: paper.title, citing: citing.map((c) => c.citingPaper.title) }
  })

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>): Effect.Effect<ReadonlyArray<A>, E, R> =>
  Stream.runCollect(stream)

const defectMessage = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit)
    ? Option.map(Option.fromUndefinedOr(exit.cause.reasons.find(Cause.isDieReason)), (d) => (d.defect as Error).message)
    : Option.none()

describe("SemanticScholarStub", () => {
  it.effect("serves the operations given: a function of the arguments, an array as a stream", () =>
    Effect.gen(function*() {
      const result = yield* citedBy("CorpusId:1")
      expect(result).toEqual({ title: "Graphs", citing: ["A", "B"] })
      const missing = yield* Effect.flip(citedBy("CorpusId:2"))
      expect(missing).toBeInstanceOf(ObjectNotFound)
    }).pipe(Effect.provide(SemanticScholarStub.layer({
      getPaper: (id) =>
        id === "CorpusId:1" ? Fixtures.paper({ title: "Graphs" }) : new ObjectNotFound({ message: `${id} not found` }),
      getPaperCitations: [
        Fixtures.citation({ citingPaper: { title: "A" } }),
        Fixtures.citation({ citingPaper: { title: "B" } })
      ]
    }))))

  it.effect("an operation not given dies, naming it and saying it is not stubbed in this test", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const effect = yield* Effect.exit(s2.getAuthor("1"))
      expect(Option.getOrThrow(defectMessage(effect))).toBe(
        "SemanticScholar.getAuthor is not stubbed in this test: give it to SemanticScholarStub.layer({ getAuthor: … })"
      )
      const stream = yield* Effect.exit(Stream.runDrain(s2.getPaperReferences("x")))
      expect(Option.getOrThrow(defectMessage(stream))).toContain("SemanticScholar.getPaperReferences is not stubbed")
      // A defect is not an error the code under test can swallow.
      const caught = yield* Effect.exit(Effect.catch(s2.searchSnippet("q"), () => Effect.succeed([])))
      expect(Exit.isFailure(caught)).toBe(true)
    }).pipe(Effect.provide(SemanticScholarStub.layer({}))))

  it("the table lists every operation of the real service, and only those", async () => {
    const never = HttpClient.make((request) => Effect.die(`no request expected: ${request.url}`))
    const real = await Effect.runPromise(
      Effect.provide(
        SemanticScholar,
        SemanticScholar.layer().pipe(Layer.provide(Layer.succeed(HttpClient.HttpClient, never)))
      )
    )
    expect([...SemanticScholarStub.operations].sort()).toEqual(Object.keys(real).sort())
    const stub = SemanticScholarStub.make({})
    expect(Object.keys(stub).sort()).toEqual(Object.keys(real).sort())
  })

  it.effect("a stream ends with the error in its array, after the records before it", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const seen: Array<string | null | undefined> = []
      const exit = yield* Effect.exit(
        Stream.runForEach(s2.searchPaper("graphs"), (p) => Effect.sync(() => seen.push(p.title)))
      )
      expect(seen).toEqual(["a", "b"])
      expect(exit).toStrictEqual(Exit.fail(new ServerError({ message: "boom", status: 503 })))
    }).pipe(Effect.provide(SemanticScholarStub.layer({
      searchPaper: [
        Fixtures.paper({ title: "a" }),
        Fixtures.paper({ title: "b" }),
        new ServerError({ message: "boom", status: 503 })
      ]
    }))))

  it("records are paged by limit from offset; the …Pages form serves the same records", () =>
    fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 45 }),
        async (n, limit, offset) => {
          const papers = Array.from({ length: n }, (_, i) => Fixtures.paper({ paperId: `p${i}`, title: `t${i}` }))
          const layer = SemanticScholarStub.layer({ getAuthorPapers: papers })
          const { pages, records } = await Effect.runPromise(Effect.provide(
            Effect.gen(function*() {
              const s2 = yield* SemanticScholar
              return {
                records: yield* collect(s2.getAuthorPapers("1", { limit, offset })),
                pages: yield* collect(s2.getAuthorPapersPages("1", { limit, offset }))
              }
            }),
            layer
          ))
          expect(records.map((p) => p.paperId)).toEqual(papers.slice(offset).map((p) => p.paperId))
          expect(pages.flatMap((p) => p.data)).toEqual(records)
          expect(pages.every((p) => p.data.length <= limit)).toBe(true)
          pages.forEach((page, i) => {
            expect(page.offset).toBe(offset + i * limit)
            expect(page.next).toBe(i === pages.length - 1 ? undefined : page.offset + page.data.length)
          })
        }
      ),
      { numRuns: 60 }
    ))

  it.effect("fixed pages, bulk tokens, and ids looked up in an array of records", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const pages = yield* collect(s2.searchPaperPages("", { bulk: true }))
      expect(pages.map((p) => [p.total, p.token, p.data.length])).toEqual([[9, "stub-offset:2", 2], [9, null, 1]])
      const paper = yield* s2.getPaper("DOI:10.1/x")
      expect(paper.title).toBe("by doi")
      expect((yield* s2.getPaper("CorpusId:42")).title).toBe("by corpus id")
      const unknown = yield* Effect.flip(s2.getPaper("CorpusId:43"))
      expect(unknown._tag).toBe("ObjectNotFound")
      const batch = yield* s2.getPapers(["CorpusId:42", "nope", "DOI:10.1/x"], { returnNotFound: true })
      expect(batch.found.map((p) => p.title)).toEqual(["by corpus id", "by doi"])
      expect(batch.notFound).toEqual(["nope"])
      const none = yield* Effect.flip(s2.getPapers(["nope"]))
      expect(none._tag).toBe("ObjectNotFound")
    }).pipe(Effect.provide(SemanticScholarStub.layer(
      (() => {
        const known = [
          Fixtures.paper({ title: "by doi", externalIds: { DOI: "10.1/x" } }),
          Fixtures.paper({ title: "by corpus id", corpusId: 42 })
        ]
        return {
          searchPaper: SemanticScholarStub.pages([known, [Fixtures.paper()]], { total: 9 }),
          getPaper: known,
          getPapers: known
        }
      })()
    ))))

  it.effect("withTimeout fails a slow stub on the TestClock", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const fiber = yield* Effect.forkChild(s2.getPaper("CorpusId:1").pipe(withTimeout("5 seconds")))
      yield* TestClock.adjust("5 seconds")
      const exit = yield* Fiber.await(fiber)
      expect(Exit.isFailure(exit) && Cause.findErrorOption(exit.cause).pipe(Option.map((e) => e._tag))).toEqual(
        Option.some("Timeout")
      )
    }).pipe(Effect.provide(SemanticScholarStub.layer({
      getPaper: () => Effect.as(Effect.sleep("1 minute"), Fixtures.paper())
    }))))

  it.effect("withRetry calls the stub again after a retryable error; without it, one attempt", () =>
    Effect.gen(function*() {
      let calls = 0
      const layer = SemanticScholarStub.layer({
        getPaper: (): Paper | RateLimited =>
          ++calls < 3 ? new RateLimited({ message: "slow down", status: 429 }) : Fixtures.paper({ title: "third" })
      })
      const get = Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1"))

      const once = yield* Effect.flip(Effect.provide(get, layer))
      expect([once._tag, calls]).toEqual(["RateLimited", 1])

      calls = 0
      const policy = RetryPolicy.make({ times: 3, base: "1 second" })
      const fiber = yield* Effect.forkChild(Effect.provide(get.pipe(withRetry(policy)), layer))
      yield* TestClock.adjust("1 second")
      yield* TestClock.adjust("2 seconds")
      const paper = yield* Fiber.join(fiber)
      expect([paper.title, calls]).toEqual(["third", 3])
    }))
})

/** The client's answer to a JSON body, as on real data. */
const fromWire = (json: unknown) =>
  Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1")).pipe(
    Effect.provide(SemanticScholar.layer({ retry: false })),
    Effect.provideService(
      HttpClient.HttpClient,
      HttpClient.make((request) =>
        Effect.succeed(HttpClientResponse.fromWeb(request, new Response(JSON.stringify(json), { status: 200 })))
      )
    )
  )

describe("Fixtures", () => {
  it.effect("build the record the client would decode from the same JSON: raw, keys(), unknown fields", () =>
    Effect.gen(function*() {
      const wire = { paperId: "abc", title: "T", year: 2020, authors: [{ authorId: null, name: "N" }], venueRank: 3 }
      const built = Fixtures.paper(wire)
      const decoded = yield* fromWire(wire)
      expect(built.raw).toEqual(wire)
      expect(built.keys()).toEqual(["paperId", "title", "year", "authors", "venueRank"])
      expect(built).toEqual(decoded)
      expect(built.keys()).toEqual(decoded.keys())
      expect(built.authors?.[0]?.raw).toEqual({ authorId: null, name: "N" })
    }))

  it("fill required ids, stable for the same input, and refuse values the API never sends", () => {
    const a = Fixtures.paper({ title: "x" })
    expect(a.keys()).toEqual(["paperId", "title"])
    expect(a.paperId).toMatch(/^[0-9a-f]{40}$/)
    expect(Fixtures.paper({ title: "x" }).paperId).toBe(a.paperId)
    expect(Fixtures.paper({ title: "y" }).paperId).not.toBe(a.paperId)
    expect(Fixtures.citation({ isInfluential: true }).raw).toEqual({
      isInfluential: true,
      citingPaper: { paperId: expect.stringMatching(/^[0-9a-f]{40}$/) }
    })
    expect(Fixtures.author({ name: "Ada" }).authorId).toMatch(/^\d+$/)
    expect(Fixtures.snippet({ snippet: { text: "t" } }).raw).toEqual({ score: 1, paper: {}, snippet: { text: "t" } })
    expect(Fixtures.release().release_id).toBe("2025-01-07")
    expect(() => Fixtures.paper({ year: "1999" as unknown as number })).toThrow(/year/)
  })
})
