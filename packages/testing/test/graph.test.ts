import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Emulator } from "../src/index.js"
import { arr, call, obj } from "./helpers.js"

const layer = Emulator.layer({ seed: 1, size: 3000 })

describe("graph routes", () => {
  it.effect("paper lookup by every id form", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const i = corpus.papers.findIndex((p) =>
        p.externalIds.DOI !== undefined && p.externalIds.ArXiv !== undefined && p.externalIds.MAG !== undefined
      )
      const p = corpus.paper(i)
      const ids = [
        p.paperId,
        `CorpusId:${p.corpusId}`,
        `CorpusID:${p.corpusId}`,
        `DOI:${String(p.externalIds.DOI)}`,
        String(p.externalIds.DOI),
        `ARXIV:${String(p.externalIds.ArXiv)}`,
        `MAG:${String(p.externalIds.MAG)}`,
        `URL:https://www.semanticscholar.org/paper/${p.paperId}`,
        `URL:https://arxiv.org/abs/${String(p.externalIds.ArXiv)}`
      ]
      for (const id of ids) {
        const r = yield* call("GET", `/graph/v1/paper/${id}`)
        expect(r.status, id).toBe(200)
        expect(r.json).toEqual({ paperId: p.paperId, title: p.title })
        expect(r.text.endsWith("\n")).toBe(true)
      }
      const med = corpus.papers.find((q) =>
        q.externalIds.PubMed !== undefined && q.externalIds.PubMedCentral !== undefined
      )!
      expect((yield* call("GET", `/graph/v1/paper/PMID:${String(med.externalIds.PubMed)}`)).status).toBe(200)
      expect((yield* call("GET", `/graph/v1/paper/PMCID:PMC${String(med.externalIds.PubMedCentral)}`)).status).toBe(200)
      const acl = corpus.papers.find((q) => q.externalIds.ACL !== undefined)!
      expect((yield* call("GET", `/graph/v1/paper/ACL:${String(acl.externalIds.ACL)}`)).status).toBe(200)
      const missing = yield* call("GET", "/graph/v1/paper/0")
      expect(missing.status).toBe(404)
      expect(missing.text).toBe("{\"error\":\"Paper with id 0 not found\"}\n")
      expect((yield* call("GET", "/graph/v1/paper/DOI:10.9999/unknown")).status).toBe(404)
    }).pipe(Effect.provide(layer)))

  it.effect("fields: defaults, selection, nested, unknown", () =>
    Effect.gen(function*() {
      const r = yield* call(
        "GET",
        "/graph/v1/paper/CorpusId:1015?fields=year,authors.hIndex,authors.name,citations.year,embedding.specter_v2,citationCount,externalIds"
      )
      const body = obj(r.json)
      expect(Object.keys(body)).toEqual([
        "paperId",
        "externalIds",
        "year",
        "citationCount",
        "embedding",
        "authors",
        "citations"
      ])
      expect(Object.keys(obj(arr(body.authors)[0]))).toEqual(["authorId", "name", "hIndex"])
      expect(obj(body.embedding).model).toBe("specter_v2")
      expect(arr(obj(body.embedding).vector).length).toBe(768)
      expect(arr(body.citations).length).toBe(body.citationCount)
      for (const c of arr(body.citations)) expect(Object.keys(obj(c))).toEqual(["paperId", "year"])
      const bad = yield* call("GET", "/graph/v1/paper/CorpusId:1015?fields=title,unknown")
      expect(bad.status).toBe(400)
      expect(bad.text).toBe("{\"error\":\"Unrecognized or unsupported fields: [unknown]\"}\n")
      const author = yield* call("GET", `/graph/v1/author/${String(arr(body.authors).map(obj)[0]!.authorId)}`)
      expect(Object.keys(obj(author.json))).toEqual(["authorId", "name"])
      const full = obj(
        (yield* call(
          "GET",
          `/graph/v1/author/${String(obj(author.json).authorId)}?fields=paperCount,hIndex,citationCount,papers.year`
        )).json
      )
      expect(Number.isInteger(full.paperCount) && Number.isInteger(full.hIndex) && Number.isInteger(full.citationCount))
        .toBe(true)
      expect(arr(full.papers).length).toBe(full.paperCount)
      expect((yield* call("GET", "/graph/v1/author/0")).text).toBe("{\"error\":\"Author with id 0 not found\"}\n")
    }).pipe(Effect.provide(layer)))

  it.effect("batches keep length and order with null for unknown ids, and cap the id count", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const ids = ["CorpusId:1", corpus.paper(5).paperId, "nope", `CorpusId:${corpus.paper(9).corpusId}`]
      const r = yield* call("POST", "/graph/v1/paper/batch?fields=title", { body: { ids } })
      expect(r.json).toEqual([null, { paperId: corpus.paper(5).paperId, title: corpus.paper(5).title }, null, {
        paperId: corpus.paper(9).paperId,
        title: corpus.paper(9).title
      }])
      expect(
        (yield* call("POST", "/graph/v1/paper/batch", { body: { ids: Array.from({ length: 501 }, () => "x") } })).status
      ).toBe(400)
      const a = yield* call("POST", "/graph/v1/author/batch?fields=name", {
        body: { ids: ["0", corpus.author(3).authorId] }
      })
      expect(a.json).toEqual([null, { authorId: corpus.author(3).authorId, name: corpus.author(3).name }])
      expect(
        (yield* call("POST", "/graph/v1/author/batch", { body: { ids: Array.from({ length: 1001 }, () => "1") } }))
          .status
      ).toBe(400)
    }).pipe(Effect.provide(layer)))

  it.effect("citations, references, authors and author papers page with next absent at the end and a 10,000 cap", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const top = Array.from(corpus.graph.citationCount).reduce((best, c, i, all) => c > all[best]! ? i : best, 0)
      const total = corpus.citationCount(top)
      const seen: Array<string> = []
      let offset = 0
      for (;;) {
        const page = obj(
          (yield* call(
            "GET",
            `/graph/v1/paper/CorpusId:${
              corpus.paper(top).corpusId
            }/citations?fields=contexts,intents,contextsWithIntent,isInfluential,year&offset=${offset}&limit=100`
          )).json
        )
        for (const e of arr(page.data).map(obj)) {
          expect(Object.keys(e)).toEqual(["contexts", "intents", "contextsWithIntent", "isInfluential", "citingPaper"])
          seen.push(String(obj(e.citingPaper).paperId))
        }
        if (!("next" in page)) break
        offset = Number(page.next)
      }
      expect(seen.length).toBe(total)
      expect(new Set(seen).size).toBe(total)
      expect((yield* call("GET", `/graph/v1/paper/CorpusId:1015/citations?offset=9900&limit=100`)).status).toBe(400)
      expect((yield* call("GET", `/graph/v1/paper/CorpusId:1015/citations?limit=1001`)).status).toBe(400)
      const refs = obj((yield* call("GET", `/graph/v1/paper/${corpus.paper(2999).paperId}/references?limit=1000`)).json)
      expect(arr(refs.data).length).toBe(corpus.referenceCount(2999))
      expect(refs).not.toHaveProperty("next")
      const authors = obj((yield* call("GET", `/graph/v1/paper/CorpusId:1015/authors?limit=1`)).json)
      expect(Object.keys(authors)).toEqual(
        corpus.paper(0).authors.length > 1 ? ["offset", "next", "data"] : ["offset", "data"]
      )
      const prolific = corpus.author(0)
      const papers = obj(
        (yield* call(
          "GET",
          `/graph/v1/author/${prolific.authorId}/papers?fields=year&limit=1000&publicationDateOrYear=2000:2010`
        )).json
      )
      for (const p of arr(papers.data).map(obj)) expect(Number(p.year)).toBeGreaterThanOrEqual(2000)
    }).pipe(Effect.provide(layer)))

  it.effect("relevance search: ranking, total, limits, no-hit envelope, filters", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const r = obj(
        (yield* call(
          "GET",
          "/graph/v1/paper/search?query=kubernetes%20scheduling&fields=title,year,citationCount&limit=100"
        )).json
      )
      expect(Number(r.total)).toBeGreaterThan(100)
      expect(r.next).toBe(100)
      expect(String(obj(arr(r.data)[0]).title).toLowerCase()).toMatch(/kubernetes|scheduling/)
      expect((yield* call("GET", "/graph/v1/paper/search?query=x&limit=101")).status).toBe(400)
      expect((yield* call("GET", "/graph/v1/paper/search?query=x&offset=950&limit=100")).status).toBe(400)
      expect((yield* call("GET", "/graph/v1/paper/search?query=n0%20r3sult")).text).toBe("{\"total\":0,\"offset\":0}\n")
      const filtered = obj(
        (yield* call(
          "GET",
          "/graph/v1/paper/search?query=learning&year=2010-2015&fieldsOfStudy=Computer%20Science&publicationTypes=Conference,Review&minCitationCount=1&openAccessPdf&fields=year,citationCount,publicationTypes,openAccessPdf,s2FieldsOfStudy&limit=100"
        )).json
      )
      for (const p of arr(filtered.data ?? []).map(obj)) {
        expect(Number(p.year)).toBeGreaterThanOrEqual(2010)
        expect(Number(p.year)).toBeLessThanOrEqual(2015)
        expect(Number(p.citationCount)).toBeGreaterThanOrEqual(1)
        expect(p.openAccessPdf).not.toBeNull()
      }
      for (
        const [param, check] of [
          ["year=2019", (y: number) => y === 2019],
          ["year=2010-", (y: number) => y >= 2010],
          ["year=-1990", (y: number) => y <= 1990],
          ["publicationDateOrYear=2015:2016", (y: number) => y >= 2015 && y <= 2016],
          ["publicationDateOrYear=:2000-06", (y: number) => y <= 2000],
          ["publicationDateOrYear=2020-03-01:", (y: number) => y >= 2020]
        ] as const
      ) {
        const page = obj(
          (yield* call("GET", `/graph/v1/paper/search?query=learning&${param}&fields=year&limit=100`)).json
        )
        for (const p of arr(page.data ?? []).map(obj)) expect(check(Number(p.year)), param).toBe(true)
      }
      const venue = corpus.papers.find((p) => p.venue !== null)!.venue!.name
      const v = obj(
        (yield* call("GET", `/graph/v1/paper/search?query=the&venue=${encodeURIComponent(venue)}&fields=venue`)).json
      )
      for (const p of arr(v.data ?? []).map(obj)) expect(p.venue).toBe(venue)
    }).pipe(Effect.provide(layer)))

  it.effect("title match, autocomplete, author search, snippets", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const title = corpus.paper(42).title
      const m = obj(
        (yield* call("GET", `/graph/v1/paper/search/match?query=${encodeURIComponent(title)}&fields=year`)).json
      )
      const hit = obj(arr(m.data)[0])
      expect(hit.title).toBe(title)
      expect(Object.keys(hit)).toEqual(["paperId", "title", "year", "matchScore"])
      expect(Number.isInteger(hit.matchScore)).toBe(false)
      const none = yield* call("GET", "/graph/v1/paper/search/match?query=zzzz%20qqqq")
      expect(none.status).toBe(404)
      expect(none.text).toBe("{\"error\":\"Title match not found\"}\n")
      const ac = obj(
        (yield* call("GET", `/graph/v1/paper/autocomplete?query=${encodeURIComponent(title.slice(0, 12))}`)).json
      )
      for (const x of arr(ac.matches).map(obj)) expect(Object.keys(x)).toEqual(["id", "title", "authorsYear"])
      const long = yield* call("GET", `/graph/v1/paper/autocomplete?query=${"a".repeat(300)}`)
      expect(long.status).toBe(200)
      const requests = yield* (yield* Emulator).requests
      expect(requests.at(-1)!.query[0]![1].length).toBe(300)
      const authors = obj((yield* call("GET", "/graph/v1/author/search?query=turing&fields=name,hIndex&limit=5")).json)
      expect(Number(authors.total)).toBeGreaterThan(0)
      for (const a of arr(authors.data).map(obj)) expect(String(a.name)).toContain("Turing")
      const s = obj((yield* call("GET", "/graph/v1/snippet/search?query=turing%20test&limit=3")).json)
      expect(s.retrievalVersion).toBeTypeOf("string")
      expect(arr(s.data).length).toBe(3)
      const item = obj(arr(s.data)[0])
      expect(Object.keys(obj(item.snippet))).toEqual(["text", "snippetKind", "section", "snippetOffset", "annotations"])
      expect(obj(item.paper).corpusId).toBeTypeOf("string")
      const only = obj((yield* call("GET", "/graph/v1/snippet/search?query=turing&fields=snippet.text")).json)
      expect(Object.keys(obj(obj(arr(only.data)[0]).snippet))).toEqual(["text"])
      expect((yield* call("GET", "/graph/v1/snippet/search?query=turing&fields=title")).status).toBe(400)
      expect(
        (yield* call(
          "GET",
          `/graph/v1/snippet/search?query=turing&authors=${Array.from({ length: 11 }, (_, k) => `a${k}`).join(",")}`
        )).status
      ).toBe(400)
    }).pipe(Effect.provide(layer)))

  it.effect("recommendations", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const r = obj((yield* call("GET", "/recommendations/v1/papers/forpaper/CorpusId:1015")).json)
      expect(arr(r.recommendedPapers).length).toBe(100)
      expect(Object.keys(obj(arr(r.recommendedPapers)[0]))).toEqual(["paperId", "title"])
      const cs = obj(
        (yield* call("GET", "/recommendations/v1/papers/forpaper/CorpusId:1015?from=all-cs&limit=20&fields=year")).json
      )
      expect(arr(cs.recommendedPapers).length).toBe(20)
      expect((yield* call("GET", "/recommendations/v1/papers/forpaper/CorpusId:1015?limit=501")).status).toBe(400)
      const lists = obj(
        (yield* call("POST", "/recommendations/v1/papers/?limit=10", {
          body: { positivePaperIds: [corpus.paper(1).paperId], negativePaperIds: [corpus.paper(2).paperId] }
        })).json
      )
      expect(arr(lists.recommendedPapers).length).toBe(10)
      const neg = yield* call("POST", "/recommendations/v1/papers/", {
        body: { positivePaperIds: [], negativePaperIds: [corpus.paper(2).paperId] }
      })
      expect(neg.status).toBe(400)
      expect(neg.text).toBe("{\"error\":\"No positive paper examples given\"}\n")
    }).pipe(Effect.provide(layer)))

  it.effect("unknown routes answer 404", () =>
    Effect.gen(function*() {
      expect((yield* call("GET", "/graph/v1/nothing")).status).toBe(404)
      expect((yield* call("GET", "/v2/paper/x")).status).toBe(404)
      expect((yield* call("POST", "/graph/v1/paper/search")).status).toBe(404)
    }).pipe(Effect.provide(layer)))
})
