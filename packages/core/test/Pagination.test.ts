import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, References, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { SemanticScholar } from "../src/index.js"
import type { Handler, Seen } from "./support/Scripted.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const sha = (n: number) => n.toString(16).padStart(40, "0")
const item = (n: number) => ({ paperId: sha(n), title: `Paper ${n}` })

const int = (request: Seen, name: string, fallback: number) => {
  const value = request.url.searchParams.get(name)
  return value === null ? fallback : Number(value)
}

/** An offset-paginated list of `size` papers, `next` absent at the end, as on the wire. */
const offsetServer =
  (size: number, total?: number, wrap: (paper: object) => object = (p) => p): Handler => (request) => {
    const offset = int(request, "offset", 0)
    const limit = int(request, "limit", 100)
    const end = Math.min(size, offset + limit)
    const data = Array.from({ length: Math.max(0, end - offset) }, (_, i) => wrap(item(offset + i)))
    return Effect.succeed(json({
      ...(total === undefined ? {} : { total }),
      offset,
      ...(end < size ? { next: end } : {}),
      data
    }))
  }

/** Bulk search over `size` papers, 1000 a page, a fresh token per page, `"token": null` at the end. */
const bulkServer = (size: number, pageSize = 1000): Handler => (request) => {
  const token = request.url.searchParams.get("token")
  const start = token === null ? 0 : Number(token.split("-")[1])
  const end = Math.min(size, start + pageSize)
  const data = Array.from({ length: end - start }, (_, i) => item(start + i))
  return Effect.succeed(json({ total: size, token: end < size ? `t${start}-${end}` : null, data }))
}

const titles = <E, R>(stream: Stream.Stream<{ readonly title?: string | null | undefined }, E, R>) =>
  Effect.map(Stream.runCollect(stream), (all) => all.map((p) => p.title))

describe("offset lists", () => {
  it.effect("pages through citations until next is absent, sending offset and limit", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const citations = yield* Stream.runCollect(s2.getPaperCitations("CorpusId:1", { fields: ["title"], limit: 100 }))
      expect(citations.length).toBe(250)
      const seen = yield* requests
      expect(seen.map((r) => [r.url.pathname, r.url.searchParams.get("offset"), r.url.searchParams.get("limit")]))
        .toEqual([
          ["/graph/v1/paper/CorpusId:1/citations", "0", "100"],
          ["/graph/v1/paper/CorpusId:1/citations", "100", "100"],
          ["/graph/v1/paper/CorpusId:1/citations", "200", "100"]
        ])
    }).pipe(Effect.provide(testLayer(offsetServer(250, undefined, (p) => ({ contexts: [], citingPaper: p }))))))

  it.effect("is pull-based: a page is requested only when the consumer needs it", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const first = yield* titles(s2.getAuthorPapers("1741101", { fields: ["title"], limit: 10 }).pipe(Stream.take(15)))
      expect(first).toHaveLength(15)
      expect(yield* requests).toHaveLength(2)
    }).pipe(Effect.provide(testLayer(offsetServer(1000)))))

  it.effect("prefetch fetches at most that many pages ahead", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* s2.getAuthorPapers("1741101", { limit: 10, prefetch: 1 }).pipe(Stream.take(5), Stream.runDrain)
      const seen = (yield* requests).length
      expect(seen).toBeGreaterThanOrEqual(1)
      expect(seen).toBeLessThanOrEqual(3)
    }).pipe(Effect.provide(testLayer(offsetServer(1000)))))

  it.effect("stops at the ~10,000 ceiling of list endpoints without sending offset+limit past it", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const all = yield* Stream.runCount(s2.getPaperReferences("CorpusId:1", { limit: 1000 }))
      expect(all).toBe(9999)
      const seen = yield* requests
      for (const r of seen) expect(int(r, "offset", 0) + int(r, "limit", 0)).toBeLessThanOrEqual(9999)
      expect(seen.at(-1)?.url.searchParams.get("limit")).toBe("999")
    }).pipe(Effect.provide(testLayer(offsetServer(50_000, undefined, (p) => ({ citedPaper: p }))))))

  it.effect("paper authors decode authors whose id is null", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const authors = yield* Stream.runCollect(s2.getPaperAuthors("CorpusId:1"))
      expect(authors.map((a) => a.authorId)).toEqual(["1", null])
    }).pipe(Effect.provide(testLayer(() =>
      Effect.succeed(json({ offset: 0, data: [{ authorId: "1", name: "A" }, { authorId: null, name: "B" }] }))
    ))))

  it.effect("searchAuthor sends the query and pages", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const pages = yield* Stream.runCollect(s2.searchAuthorPages("turing", { limit: 2 }))
      expect(pages.map((p) => p.data.length)).toEqual([2, 1])
      const seen = yield* requests
      expect(seen[0]?.url.pathname).toBe("/graph/v1/author/search")
      expect(seen[0]?.url.searchParams.get("query")).toBe("turing")
    }).pipe(Effect.provide(testLayer((request) => {
      const offset = int(request, "offset", 0)
      return Effect.succeed(json(
        offset === 0
          ? { total: 3, offset: 0, next: 2, data: [{ authorId: "1" }, { authorId: "2" }] }
          : { total: 3, offset: 2, data: [{ authorId: "3" }] }
      ))
    }))))
})

describe("relevance search", () => {
  it.effect("stops at 1,000 results", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const count = yield* Stream.runCount(s2.searchPaper("turing"))
      expect(count).toBe(1000)
      const seen = yield* requests
      expect(seen).toHaveLength(10)
      expect(seen.at(-1)?.url.searchParams.get("offset")).toBe("900")
    }).pipe(Effect.provide(testLayer(offsetServer(5000, 5000)))))

  it.effect("an empty result {total:0, offset:0} without data is an empty stream", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const pages = yield* Stream.runCollect(s2.searchPaperPages("n0 r3sult"))
      expect(pages).toEqual([{ total: 0, offset: 0, data: [] }])
      expect(yield* Stream.runCount(s2.searchPaper("n0 r3sult"))).toBe(0)
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json({ total: 0, offset: 0 }))))))

  it.effect("every filter reaches the wire with its wire name", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* Stream.runDrain(s2.searchPaper("turing", {
        year: "2016-2020",
        publicationTypes: ["JournalArticle", "Conference"],
        openAccessPdf: true,
        venue: ["Nature", "Radiology"],
        fieldsOfStudy: ["Computer Science", "Mathematics"],
        publicationDateOrYear: "2016-03-05:2020-06-06",
        minCitationCount: 10,
        fields: ["title", "year"],
        limit: 50
      }))
      const [seen] = yield* requests
      expect(seen?.url.search).toBe(
        "?query=turing&year=2016-2020&publicationTypes=JournalArticle%2CConference&openAccessPdf=&venue=Nature%2CRadiology" +
          "&fieldsOfStudy=Computer+Science%2CMathematics&publicationDateOrYear=2016-03-05%3A2020-06-06&minCitationCount=10" +
          "&fields=title%2Cyear&offset=0&limit=50"
      )
    }).pipe(Effect.provide(testLayer(offsetServer(3)))))
})

describe("bulk search", () => {
  it.effect("follows the token until it is null, never sending offset or limit", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const all = yield* titles(
        s2.searchPaper("kubernetes", { bulk: true, sort: "citationCount:desc", fields: ["title"] })
      )
      expect(all).toEqual(Array.from({ length: 2500 }, (_, i) => `Paper ${i}`))
      const seen = yield* requests
      expect(seen.map((r) => r.url.searchParams.get("token"))).toEqual([null, "t0-1000", "t1000-2000"])
      for (const r of seen) {
        expect(r.url.pathname).toBe("/graph/v1/paper/search/bulk")
        expect(r.url.searchParams.get("sort")).toBe("citationCount:desc")
        expect(r.url.searchParams.has("offset") || r.url.searchParams.has("limit")).toBe(false)
      }
    }).pipe(Effect.provide(testLayer(bulkServer(2500)))))

  it.effect("the page form yields envelopes with total and token, and can start from a token", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const pages = yield* Stream.runCollect(s2.searchPaperPages("x", { bulk: true, token: "t0-1000" }))
      expect(pages.map((p) => [p.total, p.token, p.data.length])).toEqual([[2500, "t1000-2000", 1000], [
        2500,
        null,
        500
      ]])
    }).pipe(Effect.provide(testLayer(bulkServer(2500)))))

  it.effect("prefetch: 1 has the next page's request out, and only that one, when a page reaches the consumer", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      // How many requests had gone out when each page reached the consumer.
      const sentBy = (prefetch: number) =>
        s2.searchPaperPages("x", { bulk: true, prefetch }).pipe(
          Stream.mapEffect(() => Effect.map(requests, (seen) => seen.length)),
          Stream.runCollect
        )
      expect(yield* sentBy(0)).toEqual([1, 2, 3])
      expect((yield* sentBy(1)).map((n) => n - 3)).toEqual([2, 3, 3])
    }).pipe(Effect.provide(testLayer(bulkServer(3000)))))

  it.effect("an early end interrupts the page fetched ahead, and sends nothing more", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const first = yield* s2.searchPaperPages("x", { bulk: true, prefetch: 1 }).pipe(Stream.take(1), Stream.runCollect)
      expect(first.map((p) => p.token)).toEqual(["t0-1000"])
      yield* TestClock.adjust("1 minute")
      expect((yield* requests).map((r) => r.url.searchParams.get("token"))).toEqual([null, "t0-1000"])
    }).pipe(Effect.provide(testLayer((request, i) => i === 0 ? bulkServer(3000)(request, i) : Effect.never))))

  it.effect("interrupting the consumer cancels the request in flight", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const fiber = yield* Effect.forkChild(Stream.runDrain(s2.searchPaper("x", { bulk: true })))
      yield* TestClock.adjust("1 second")
      yield* Fiber.interrupt(fiber)
      const exit = yield* Fiber.await(fiber)
      expect(exit._tag).toBe("Failure")
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(() => Effect.never))))

  it.effect("a failed page is retried on its own: the stream resumes from it, not from the start", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const fiber = yield* Effect.forkChild(titles(s2.searchPaper("x", { bulk: true })))
      yield* TestClock.adjust("10 minutes")
      const all = yield* Fiber.join(fiber)
      expect(all).toHaveLength(3000)
      expect(new Set(all).size).toBe(3000)
      expect((yield* requests).map((r) => r.url.searchParams.get("token"))).toEqual([
        null,
        "t0-1000",
        "t0-1000",
        "t1000-2000"
      ])
    }).pipe(
      Effect.provide(
        testLayer((request, i) =>
          i === 1 ? Effect.succeed(json({ message: "Internal" }, 503)) : bulkServer(3000)(request, i)
        )
      )
    ))

  it("under random faults the stream delivers exactly the fault-free sequence (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        // A storm of what the policy retries longest; a hung server gets its own, shorter budget (Transport.test.ts).
        fc.array(fc.constantFrom("ok", "429", "500", "502", "503", "504", "reset", "cut"), {
          minLength: 1,
          maxLength: 12
        }),
        fc.integer({ min: 1, max: 4000 }),
        async (faults, size) => {
          const handler: Handler = (request, i) => {
            const fault = faults[i % faults.length]
            // Every sixth attempt is clean, so each page gets through within the 5 retries a server failure gets.
            if (i % 6 === 5 || fault === "ok") return bulkServer(size)(request, i)
            if (fault === "reset") return Effect.succeed("reset" as const)
            if (fault === "cut") return Effect.succeed({ status: 200, text: "{\"total\": 5, \"data\": [{\"pa" })
            return Effect.succeed(json({ message: "fault" }, Number(fault)))
          }
          const program = Effect.gen(function*() {
            const s2 = yield* SemanticScholar
            const fiber = yield* Effect.forkChild(titles(s2.searchPaper("x", { bulk: true })))
            yield* TestClock.adjust("1 day")
            return yield* Fiber.join(fiber)
          }).pipe(Effect.provide(testLayer(handler)))
          // Silent: each retry logs a Warning line, and printing thousands of them is slow.
          const got = await Effect.runPromise(
            program.pipe(Effect.provideService(References.MinimumLogLevel, "None"), Effect.provide(TestClock.layer()))
          )
          expect(got).toEqual(Array.from({ length: size }, (_, i) => `Paper ${i}`))
        }
      ),
      { numRuns: 40 }
    )
  }, 60_000) // 40 runs of up to four pages under faults: over 5 s on a loaded machine
})

describe("filters are validated before the first request", () => {
  const bad: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
    ["year", { year: "20-19" }, "year \"20-19\" is malformed"],
    ["year range reversed", { year: "2020-2010" }, "start ≤ end"],
    ["publicationDateOrYear", { publicationDateOrYear: "2019-13" }, "is not a date"],
    ["date range reversed", { publicationDateOrYear: "2020:2019" }, "starts after it ends"],
    ["publicationTypes", { publicationTypes: ["Journal"] }, "unknown value(s) \"Journal\""],
    ["fieldsOfStudy", { fieldsOfStudy: ["CS"] }, "allowed: Computer Science"],
    ["minCitationCount", { minCitationCount: -1 }, "minCitationCount -1 is invalid"],
    ["limit above 100", { limit: 101 }, "limit 101 is out of range: give a whole number from 1 to 100"],
    ["sort without bulk", { sort: "citationCount" }, "sort is only allowed with bulk: true"],
    ["sort syntax", { bulk: true, sort: "citations:up" }, "sort \"citations:up\" is invalid"],
    ["unknown field", { fields: ["titel"] }, "unknown paper field"],
    ["empty venue", { venue: [] }, "venue must list"]
  ]
  for (const [name, options, message] of bad) {
    it.effect(name, () =>
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        // Plain-JavaScript callers can pass anything; the type system is not the only guard.
        const error = yield* Effect.flip(Stream.runDrain(s2.searchPaper("x", options as never)))
        expect(error._tag).toBe("BadQueryParameters")
        expect(error.message).toContain(message)
        expect(yield* requests).toHaveLength(0)
      }).pipe(Effect.provide(testLayer(bulkServer(10)))))
  }

  it.effect("list limits and offsets", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const tooBig = yield* Effect.flip(Stream.runDrain(s2.getPaperCitations("CorpusId:1", { limit: 1001 })))
      expect(tooBig.message).toContain("from 1 to 1000")
      const past = yield* Effect.flip(Stream.runDrain(s2.getPaperCitations("CorpusId:1", { offset: 9999 })))
      expect(past.message).toContain("offset 9999 is out of range")
      const emptyQuery = yield* Effect.flip(Stream.runDrain(s2.searchPaper("  ")))
      expect(emptyQuery.message).toContain("query is empty")
      expect(yield* requests).toHaveLength(0)
    }).pipe(Effect.provide(testLayer(bulkServer(10)))))
})

/**
 * Runs a stream to its end (a day of TestClock covers any retry), or to its first 30,000 elements
 * (a stream that never ends fails the test rather than hang it): what it gave, and its error.
 */
const drain = <A, E>(stream: Stream.Stream<A, E>) =>
  Effect.gen(function*() {
    const got: Array<A> = []
    const fiber = yield* Effect.forkChild(
      Stream.runForEach(Stream.take(stream, 30_000), (a) => Effect.sync(() => got.push(a)))
    )
    yield* TestClock.adjust("1 day")
    const error = yield* Effect.flip(Fiber.join(fiber)).pipe(Effect.option)
    return { got, error: error._tag === "Some" ? error.value : undefined }
  })

/** Bulk pages that always carry a fresh token: `data(page)` the records of page `page` (from 0). */
const endlessBulk = (total: number, data: (page: number) => ReadonlyArray<object>): Handler => (_request, i) =>
  Effect.succeed(json({ total, token: `fresh-${i + 1}`, data: data(i) }))

describe("servers that do not advance: every stream ends", () => {
  it.effect("bulk: the same 10 records with a fresh token each page fail with ProtocolError(stalled) at page 2", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { error, got } = yield* drain(s2.searchPaper("x", { bulk: true }))
      expect(got.map((p) => p.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Paper ${i}`))
      expect(error?._tag).toBe("ProtocolError")
      expect(error?._tag === "ProtocolError" && error.reason).toBe("stalled")
      expect(error?.message).toContain("GET /graph/v1/paper/search/bulk")
      expect(error?.message).toContain("page 2 has the same 10 records as page 1")
      expect(yield* requests).toHaveLength(2)
    }).pipe(Effect.provide(testLayer(endlessBulk(10, () => Array.from({ length: 10 }, (_, i) => item(i)))))))

  it.effect("bulk: a page repeating one from long before is caught as well (A B C A)", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { error, got } = yield* drain(s2.searchPaper("x", { bulk: true }))
      expect(got).toHaveLength(300)
      expect(error?.message).toContain("page 4 has the same 100 records as page 1")
    }).pipe(
      Effect.provide(
        testLayer(endlessBulk(1e6, (page) => Array.from({ length: 100 }, (_, i) => item((page % 3) * 100 + i))))
      )
    ))

  it.effect("bulk: fresh records forever past a total of 10 fail once far beyond it, in bounded pages", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { error, got } = yield* drain(s2.searchPaper("x", { bulk: true }))
      expect(error?._tag === "ProtocolError" && error.reason).toBe("stalled")
      expect(error?.message).toContain("for a search it said has 10")
      // The bound: twice the largest total reported, plus 10,000 (docs/errors.md).
      expect(got.length).toBeLessThanOrEqual(10_020)
      expect(got.length).toBeGreaterThanOrEqual(10_000)
      expect((yield* requests).length).toBeLessThanOrEqual(12)
    }).pipe(
      Effect.provide(
        testLayer(endlessBulk(10, (page) => Array.from({ length: 1000 }, (_, i) => item(page * 1000 + i))))
      )
    ))

  it.effect("bulk: a total that is approximate (records past it, within the margin) is no alarm", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { error, got } = yield* drain(s2.searchPaper("x", { bulk: true }))
      expect(error).toBeUndefined()
      expect(got).toHaveLength(12_000)
    }).pipe(Effect.provide(testLayer((request, i) =>
      Effect.map(
        bulkServer(12_000)(request, i),
        (reply) => typeof reply === "string" ? reply : { ...reply, body: { ...(reply.body as object), total: 1000 } }
      )
    ))))

  it.effect("offset lists: a next beyond total ends the list there instead of walking to the window", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { error, got } = yield* drain(s2.getPaperCitations("CorpusId:1", { limit: 100 }))
      expect(error).toBeUndefined()
      expect(got).toHaveLength(300)
      expect((yield* requests).map((r) => r.url.searchParams.get("offset"))).toEqual(["0", "100", "200"])
    }).pipe(Effect.provide(testLayer((request) => {
      const offset = int(request, "offset", 0)
      const data = Array.from({ length: 100 }, (_, i) => ({ citingPaper: item(offset + i) }))
      return Effect.succeed(json({ total: 250, offset, next: offset + 100, data }))
    }))))
})

describe("a negative total is unknown", () => {
  it.effect("bulk pages decode it as 0, offset pages as absent; the records come through", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const [bulk] = yield* Stream.runCollect(s2.searchPaperPages("x", { bulk: true }).pipe(Stream.take(1)))
      expect(bulk?.total).toBe(0)
      expect(bulk?.data).toHaveLength(10)
      const [list] = yield* Stream.runCollect(s2.searchPaperPages("x").pipe(Stream.take(1)))
      expect(list).not.toHaveProperty("total")
      expect(list?.data).toHaveLength(10)
    }).pipe(Effect.provide(testLayer((request) =>
      Effect.succeed(json({
        total: -5,
        ...(request.url.pathname.endsWith("/bulk") ? { token: null } : { offset: 0 }),
        data: Array.from({ length: 10 }, (_, i) => item(i))
      }))
    ))))
})
