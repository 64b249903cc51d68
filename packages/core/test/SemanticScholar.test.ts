import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, Result, Stream } from "effect"
import type { S2Error } from "../src/index.js"
import { Fields, SemanticScholar } from "../src/index.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const sha = (n: number) => n.toString(16).padStart(40, "0")
const paper = (n: number, extra: Record<string, unknown> = {}) => ({ paperId: sha(n), title: `Paper ${n}`, ...extra })

/** A batch endpoint that knows ids "known-…"-style by a predicate. */
const batchServer = (known: (id: string) => boolean, make: (id: string) => unknown) =>
  testLayer((request) =>
    Effect.succeed(
      json(
        (request.body as { ids: Array<string> }).ids.map((id) => known(id) ? make(id) : null)
      )
    )
  )

const fail = <A>(effect: Effect.Effect<A, S2Error, SemanticScholar>) => Effect.flip(effect)

describe("getPaper", () => {
  it.effect("sends the id as a path, the fields as one value, and decodes the record with unknown fields kept", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const p = yield* s2.getPaper("10.1093/mind/lix.236.433", { fields: ["title", "authors.name"] })
      expect(p.paperId).toBe(sha(1))
      expect(p.title).toBe("Paper 1")
      expect(p.keys()).toEqual(expect.arrayContaining(["paperId", "title", "newerField"]))
      expect(p.raw).toEqual(paper(1, { newerField: { a: [1, 2] } }))
      const [seen] = yield* requests
      expect(seen?.method).toBe("GET")
      expect(seen?.url.pathname).toBe("/graph/v1/paper/10.1093/mind/lix.236.433")
      expect(seen?.url.searchParams.get("fields")).toBe("title,authors.name")
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json(paper(1, { newerField: { a: [1, 2] } })))))))

  it.effect("asks for every field the endpoint serves when fields is omitted", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* s2.getPaper("CorpusId:42")
      const [seen] = yield* requests
      const asked = seen?.url.searchParams.get("fields")?.split(",") ?? []
      expect(asked).toEqual(
        expect.arrayContaining(["title", "abstract", "citations", "references", "embedding", "tldr"])
      )
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json(paper(1)))))))

  it.effect("accepts every id form of the wire reference", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const ids = [
        sha(7),
        "CorpusId:215416146",
        "CorpusID:215416146",
        "DOI:10.18653/v1/N18-3011",
        "10.2139/ssrn.2250500",
        "ARXIV:2106.15928",
        "MAG:112218234",
        "ACL:W12-3903",
        "PMID:19872477",
        "PMCID:2323736",
        "URL:https://arxiv.org/abs/2106.15928v1",
        "URL:https://export.arxiv.org/abs/2106.15928",
        "URL:https://dl.acm.org/doi/10.1145/3448016.3452841"
      ]
      for (const id of ids) yield* s2.getPaper(id, { fields: ["title"] })
      const seen = yield* requests
      expect(seen.map((r) => decodeURI(r.url.pathname))).toEqual(ids.map((id) => `/graph/v1/paper/${id}`))
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json(paper(1)))))))

  it.effect("keeps a DOI with reserved characters inside the path", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* s2.getPaper("10.1002/(SICI)1097-4636(199706)?x#y", { fields: ["title"] })
      const [seen] = yield* requests
      expect(seen?.url.pathname).toBe("/graph/v1/paper/10.1002/(SICI)1097-4636(199706)%3Fx%23y")
      expect(seen?.url.search).toBe("?fields=title")
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json(paper(1)))))))

  it.effect("Fields.unchecked passes a field the client does not know", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* s2.getPaper("CorpusId:1", { fields: ["title", Fields.unchecked("brandNewField")] })
      const [seen] = yield* requests
      expect(seen?.url.searchParams.get("fields")).toBe("title,brandNewField")
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json(paper(1)))))))
})

describe("getPapers", () => {
  it.effect("returns papers in input order and, with returnNotFound, the ids that came back null", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const ids = ["CorpusId:1", "CorpusId:404", "URL:https://arxiv.org/abs/1", "CorpusId:3"]
      const { found, notFound } = yield* s2.getPapers(ids, { fields: ["title"], returnNotFound: true })
      expect(found.map((p) => p.title)).toEqual(["CorpusId:1", "URL:https://arxiv.org/abs/1", "CorpusId:3"])
      expect(notFound).toEqual(["CorpusId:404"])
      const plain = yield* s2.getPapers(ids, { fields: ["title"] })
      expect(plain).toHaveLength(3)
      const [seen] = yield* requests
      expect(seen?.method).toBe("POST")
      expect(seen?.url.pathname).toBe("/graph/v1/paper/batch")
      expect(seen?.body).toEqual({ ids })
    }).pipe(Effect.provide(batchServer((id) => !id.includes("404"), (id) => paper(1, { title: id })))))

  it.effect("splits more than 500 ids into 500-id calls and keeps the order", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const ids = Array.from({ length: 1201 }, (_, i) => `CorpusId:${i}`)
      const papers = yield* s2.getPapers(ids, { fields: ["title"], concurrency: 3 })
      expect(papers.map((p) => p.title)).toEqual(ids)
      const seen = yield* requests
      expect(seen.map((r) => (r.body as { ids: Array<string> }).ids.length)).toEqual([500, 500, 201])
    }).pipe(Effect.provide(batchServer(() => true, (id) => paper(1, { title: id })))))

  it.effect("fails with ObjectNotFound when none of the ids is found", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* fail(s2.getPapers(["CorpusId:1", "CorpusId:2"]))
      expect(error._tag).toBe("ObjectNotFound")
      expect(error.message).toContain("none of the 2 paper id(s) was found")
    }).pipe(Effect.provide(batchServer(() => false, () => null))))

  it.effect("with returnNotFound, none found is an answer: every id in notFound", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { found, notFound } = yield* s2.getPapers(["CorpusId:1", "CorpusId:2"], { returnNotFound: true })
      expect(found).toEqual([])
      expect(notFound).toEqual(["CorpusId:1", "CorpusId:2"])
    }).pipe(Effect.provide(batchServer(() => false, () => null))))

  it.effect("fails with DecodeError when the server answers fewer entries than ids", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* fail(s2.getPapers(["CorpusId:1", "CorpusId:2"]))
      expect(error._tag).toBe("DecodeError")
      expect(error.message).toContain("answered 1 entries for 2 ids")
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json([paper(1)]))))))
})

describe("getAuthor / getAuthors", () => {
  it.effect("looks up one author and a batch in chunks of 1000", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const one = yield* s2.getAuthor("1741101", { fields: ["name", "hIndex"] })
      expect(one.name).toBe("A 1741101")
      const ids = Array.from({ length: 2500 }, (_, i) => String(i + 1))
      const { found, notFound } = yield* s2.getAuthors(ids, { returnNotFound: true })
      expect(found).toHaveLength(2499)
      expect(notFound).toEqual(["7"])
      const seen = yield* requests
      expect(seen[0]?.url.pathname).toBe("/graph/v1/author/1741101")
      expect(seen[0]?.url.searchParams.get("fields")).toBe("name,hIndex")
      expect(seen.slice(1).map((r) => (r.body as { ids: Array<string> }).ids.length)).toEqual([1000, 1000, 500])
      expect(seen[1]?.url.searchParams.get("fields")?.split(",")).toContain("papers")
    }).pipe(Effect.provide(testLayer((request) => {
      const body = request.body as { ids: Array<string> } | undefined
      const author = (id: string) => ({
        authorId: id,
        name: `A ${id}`,
        hIndex: 3,
        papers: [{ paperId: null, title: "x" }]
      })
      return Effect.succeed(
        json(body === undefined ? author("1741101") : body.ids.map((id) => id === "7" ? null : author(id)))
      )
    }))))
})

describe("input validation: a typed error and zero requests", () => {
  const cases: ReadonlyArray<
    readonly [string, (s2: SemanticScholar["Service"]) => Effect.Effect<unknown, S2Error>, string]
  > = [
    ["empty paper id", (s2) => s2.getPaper(""), "paperId is empty"],
    ["white-space paper id", (s2) => s2.getPaper(" \t "), "paperId is empty"],
    ["unknown prefix", (s2) => s2.getPaper("FOO:1"), "prefix FOO:, which the API does not know"],
    ["nothing after a prefix", (s2) => s2.getPaper("CorpusId:"), "nothing after CorpusId:"],
    ["control character", (s2) => s2.getPaper("CorpusId:1\n"), "contains a control character"],
    [
      "unknown field",
      (s2) => s2.getPaper("CorpusId:1", { fields: ["titel" as "title"] }),
      "unknown paper field \"titel\""
    ],
    ["empty fields", (s2) => s2.getPaper("CorpusId:1", { fields: [] }), "fields is empty"],
    ["empty id list", (s2) => s2.getPapers([]), "paperIds is empty"],
    ["empty id in list", (s2) => s2.getPapers(["CorpusId:1", ""]), "paperIds[1] is empty"],
    ["author id with a control character", (s2) => s2.getAuthor("17\u0000"), "contains a control character"],
    // The URL resolves dot segments: these asked GET /graph/author/123 and a paper as an author.
    ["paper id with a .. segment", (s2) => s2.getPaper("../../author/123"), "has a \"..\" path segment"],
    ["DOI with a . segment", (s2) => s2.getPaperCitations("DOI:10.1/./x").pipe(Stream.runDrain), "\".\" path segment"],
    ["author id with a .. segment", (s2) => s2.getAuthor("../paper/abc"), "which would reach another endpoint"],
    [
      "recommendation seed with a .. segment",
      (s2) => s2.getRecommendedPapers("../../../graph/v1/paper/search"),
      "path segment"
    ],
    ["empty author id", (s2) => s2.getAuthors(["1", ""]), "authorIds[1] is empty"],
    // No URL of the API carries these (it ends at 8,192 bytes): refused before any work on them.
    [
      "a 10 MB title to match",
      (s2) => s2.matchPaperTitle("word ".repeat(2_000_000)),
      "(10000000 characters) is longer than a URL of the API can carry (8192 bytes)"
    ],
    [
      "a bulk query of 3,000 CJK characters",
      (s2) => s2.searchPaper("文".repeat(3000), { bulk: true }).pipe(Stream.runDrain),
      "longer than a URL of the API can carry"
    ],
    ["a paper id of 9,000 characters", (s2) => s2.getPaper(`CorpusId:${"1".repeat(9000)}`), "longer than a URL"],
    ["a batch id of 9,000 characters", (s2) => s2.getPapers(["CorpusId:1", "x".repeat(9000)]), "paperIds[1]"],
    ["bad concurrency", (s2) => s2.getPapers(["CorpusId:1"], { concurrency: 0 }), "concurrency 0"]
  ]
  for (const [name, run, message] of cases) {
    it.effect(name, () =>
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const error = yield* Effect.flip(run(s2))
        expect(error._tag).toBe("BadQueryParameters")
        expect(error.message).toContain(message)
        expect(error.status).toBeUndefined()
        expect(yield* requests).toHaveLength(0)
      }).pipe(Effect.provide(testLayer(() => Effect.succeed(json(paper(1)))))))
  }

  it.effect("a non-positive timeout fails the layer", () =>
    Effect.gen(function*() {
      const result = yield* Effect.result(
        Effect.provide(SemanticScholar, testLayer(() => Effect.succeed(json({})), { timeout: "0 seconds" }))
      )
      expect(Result.isFailure(result) && result.failure.message).toContain("timeout 0 seconds is invalid")
    }))

  it.effect("an apiUrl that is not a URL fails the layer", () =>
    Effect.gen(function*() {
      const result = yield* Effect.result(
        Effect.provide(SemanticScholar, testLayer(() => Effect.succeed(json({})), { apiUrl: "api.example" }))
      )
      expect(Result.isFailure(result) && result.failure.message).toContain("is not a URL")
    }))
})

describe("errors: every status is typed, never an empty result", () => {
  const statusCases: ReadonlyArray<readonly [number, unknown, string, string]> = [
    [
      400,
      { error: "Unrecognized or unsupported fields: [x]" },
      "BadQueryParameters",
      "Unrecognized or unsupported fields"
    ],
    [401, { message: "Unauthorized" }, "Forbidden", "S2_API_KEY"],
    [403, { message: "Forbidden" }, "Forbidden", "Forbidden"],
    [404, { error: "Paper with id CorpusId:1 not found" }, "ObjectNotFound", "Paper with id CorpusId:1 not found"],
    // A status the API never answers with: UnexpectedStatus (issue 17), no longer BadQueryParameters.
    [405, { message: "Method not allowed" }, "UnexpectedStatus", "Method not allowed"],
    [418, "teapot", "UnexpectedStatus", "teapot"],
    [200, null, "TransportError", "not valid JSON"],
    // A redirect not followed: UnexpectedStatus, no longer a TransportError with a 3xx status.
    [
      302,
      { message: "moved" },
      "UnexpectedStatus",
      "HTTP 302 from GET https://api.test/graph/v1/paper/CorpusId:1?fields=title, a redirect"
    ]
  ]
  for (const [status, body, tag, message] of statusCases) {
    it.effect(`HTTP ${status} → ${tag}`, () =>
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const error = yield* fail(s2.getPaper("CorpusId:1", { fields: ["title"] }))
        expect(error._tag).toBe(tag)
        expect(error.message).toContain(message)
        expect(error.method).toBe("GET")
        expect(error.url).toBe("https://api.test/graph/v1/paper/CorpusId:1?fields=title")
        expect(error.status).toBe(status)
        expect(yield* requests).toHaveLength(1)
      }).pipe(Effect.provide(testLayer(
        () => Effect.succeed({ status, text: body === null ? "" : JSON.stringify(body) + "\n" }),
        { retry: false }
      ))))
  }

  it.effect("5xx and 429 surface as ServerError / RateLimited with retry off", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const first = yield* fail(s2.getPaper("CorpusId:1"))
      const second = yield* fail(s2.getPaper("CorpusId:2"))
      expect(first._tag).toBe("ServerError")
      expect(first.status).toBe(500)
      expect(second._tag).toBe("RateLimited")
      expect(second._tag === "RateLimited" && second.retryAfterMillis).toBe(7000)
      expect(yield* requests).toHaveLength(2)
    }).pipe(Effect.provide(testLayer(
      (_, i) =>
        Effect.succeed(
          i === 0
            ? json({ message: "Internal Server Error" }, 500)
            : json({ message: "Too Many Requests.", code: "429" }, 429, { "retry-after": "7" })
        ),
      { retry: false }
    ))))

  it.effect("a 2xx body that is JSON of the wrong shape is a DecodeError with an excerpt", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* fail(s2.getPaper("CorpusId:1"))
      expect(error._tag).toBe("DecodeError")
      expect(error._tag === "DecodeError" && error.excerpt).toContain("\"year\":\"nineteen fifty\"")
      expect(error.message).toContain("not of the expected shape")
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json({ paperId: sha(1), year: "nineteen fifty" }))))))

  it.effect("a body cut short is a TransportError (and so is retried)", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* fail(s2.getPaper("CorpusId:1"))
      expect(error._tag).toBe("TransportError")
      expect(error.message).toContain("cut short")
    }).pipe(
      Effect.provide(testLayer(() => Effect.succeed({ status: 200, text: "{\"paperId\": \"ab" }), { retry: false }))
    ))

  it.effect("a reset connection is a TransportError", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* fail(s2.getPaper("CorpusId:1"))
      expect(error._tag).toBe("TransportError")
      expect(error.message).toContain("connection reset")
    }).pipe(Effect.provide(testLayer(() => Effect.succeed("reset" as const), { retry: false }))))
})

describe("the API key", () => {
  const key = Redacted.make("sekret-key-123")
  it.effect("is sent as x-api-key to the API root and appears in no error", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* fail(s2.getPaper("CorpusId:1"))
      const seen = yield* requests
      expect(seen[0]?.headers["x-api-key"]).toBe("sekret-key-123")
      expect(seen[0]?.url.host).toBe("api.test")
      expect(JSON.stringify(error)).not.toContain("sekret")
      expect(String(error)).not.toContain("sekret")
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json({ message: "Forbidden" }, 403)), { apiKey: key }))))

  it.effect("is not sent without one", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* s2.getPaper("CorpusId:1")
      const [seen] = yield* requests
      expect(seen?.headers["x-api-key"]).toBeUndefined()
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json(paper(1)))))))
})
