import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Emulator } from "../src/index.js"
import { encodeToken } from "../src/internal/bulk.js"
import { arr, call, obj } from "./helpers.js"

const drain = (first: string) =>
  Effect.gen(function*() {
    const tokens: Array<string> = []
    const items: Array<Record<string, unknown>> = []
    let url = first
    for (;;) {
      const page = obj((yield* call("GET", url)).json)
      items.push(...arr(page.data).map(obj))
      if (page.token === null) return { items, tokens, total: Number(page.total) }
      expect(page.token).toBeTypeOf("string")
      tokens.push(String(page.token))
      url = `${first}&token=${String(page.token)}`
    }
  })

describe("bulk search", () => {
  it.effect("pages of 1000, tokens change each page, token null at the end, offset/limit ignored", () =>
    Effect.gen(function*() {
      const { items, tokens, total } = yield* drain(
        "/graph/v1/paper/search/bulk?query=learning&fields=title&offset=5&limit=10"
      )
      expect(items.length).toBe(total)
      expect(total).toBeGreaterThan(2000)
      expect(new Set(tokens).size).toBe(tokens.length)
      const ids = items.map((p) => String(p.paperId))
      expect([...ids].sort()).toEqual(ids)
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 10_000 }))))

  it.effect("sorts by citationCount and publicationDate both ways", () =>
    Effect.gen(function*() {
      for (
        const [sort, key] of [["citationCount:desc", "citationCount"], ["citationCount", "citationCount"], [
          "publicationDate:asc",
          "publicationDate"
        ], ["publicationDate:desc", "publicationDate"]] as const
      ) {
        const { items } = yield* drain(
          `/graph/v1/paper/search/bulk?query=model*&sort=${sort}&fields=citationCount,publicationDate`
        )
        const values = items.map((p) => p[key]).filter((v): v is string | number => v !== null)
        const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        expect(values).toEqual(sort.endsWith("desc") ? sorted.reverse() : sorted)
      }
      expect((yield* call("GET", "/graph/v1/paper/search/bulk?sort=title")).status).toBe(400)
    }).pipe(Effect.provide(Emulator.layer({ seed: 2, size: 4000 }))))

  it.effect("boolean query syntax", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const text = (p: Record<string, unknown>) => `${String(p.title)} ${String(p.abstract)}`.toLowerCase()
      const both =
        (yield* drain("/graph/v1/paper/search/bulk?query=kubernetes%20%2B%20scheduling&fields=title,abstract")).items
      for (const p of both) expect(text(p).includes("kubernetes") && text(p).includes("scheduling")).toBe(true)
      const either =
        (yield* drain("/graph/v1/paper/search/bulk?query=kubernetes%20%7C%20sepsis&fields=title,abstract")).items
      for (const p of either) expect(text(p).includes("kubernetes") || text(p).includes("sepsis")).toBe(true)
      const not =
        (yield* drain("/graph/v1/paper/search/bulk?query=kubernetes%20-scheduling&fields=title,abstract")).items
      for (const p of not) expect(!text(p).includes("scheduling")).toBe(true)
      const phrase = (yield* drain(
        `/graph/v1/paper/search/bulk?query=${encodeURIComponent("\"turing machines\"")}&fields=title,abstract`
      )).items
      expect(phrase.length).toBeGreaterThan(0)
      for (const p of phrase) expect(text(p)).toContain("turing machines")
      const prefix = (yield* drain("/graph/v1/paper/search/bulk?query=kubern*&fields=title,abstract")).items
      expect(prefix.length).toBe(both.length + not.length)
      const fuzzy = (yield* drain("/graph/v1/paper/search/bulk?query=kubernetis~1&fields=title")).items
      expect(fuzzy.length).toBe(prefix.length)
      const grouped = (yield* drain(
        `/graph/v1/paper/search/bulk?query=${
          encodeURIComponent("(sepsis | kubernetes) + -scheduling")
        }&fields=title,abstract`
      )).items
      for (const p of grouped) {
        expect((text(p).includes("kubernetes") || text(p).includes("sepsis")) && !text(p).includes("scheduling")).toBe(
          true
        )
      }
      const all = obj((yield* call("GET", "/graph/v1/paper/search/bulk")).json)
      expect(all.total).toBe(corpus.size)
      const filtered = (yield* drain("/graph/v1/paper/search/bulk?query=&year=2020-&fields=year")).items
      for (const p of filtered) expect(Number(p.year)).toBeGreaterThanOrEqual(2020)
    }).pipe(Effect.provide(Emulator.layer({ seed: 3, size: 5000 }))))

  it.effect("10,000,000 results page lazily: a deep page is consistent, and the heap stays small", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const first = obj((yield* call("GET", "/graph/v1/paper/search/bulk?fields=year")).json)
      expect(first.total).toBe(10_000_000)
      expect(arr(first.data).length).toBe(1000)
      const key =
        "\u0000year=&publicationDateOrYear=&publicationTypes=&fieldsOfStudy=&venue=&minCitationCount=\u0000paperId:asc"
      const deep = obj(
        (yield* call(
          "GET",
          `/graph/v1/paper/search/bulk?fields=year&token=${
            encodeToken(corpus.seed, key, { a: 1000, b: 9_000_000 - 1000 })
          }`
        )).json
      )
      const data = arr(deep.data).map(obj)
      expect(data.length).toBe(1000)
      expect(data[0]!.paperId).toBe(corpus.paper(9_000_000).paperId)
      expect(data[999]!.paperId).toBe(corpus.paper(9_000_999).paperId)
      const last = obj(
        (yield* call(
          "GET",
          `/graph/v1/paper/search/bulk?fields=year&token=${
            encodeToken(corpus.seed, key, { a: 1000, b: 10_000_000 - 2000 })
          }`
        )).json
      )
      expect(last.token).toBeNull()
      expect(obj(arr(last.data)[999]).paperId).toBe(corpus.paper(9_999_999).paperId)
      // The virtual tail keeps citation order lazily too.
      const byCites = obj(
        (yield* call("GET", "/graph/v1/paper/search/bulk?sort=citationCount:desc&fields=citationCount")).json
      )
      const counts = arr(byCites.data).map((p) => Number(obj(p).citationCount))
      expect([...counts].sort((a, b) => b - a)).toEqual(counts)
      expect(process.memoryUsage().heapUsed).toBeLessThan(1_500_000_000)
    }).pipe(Effect.provide(Emulator.layer({ seed: 4, size: 1000, bulkSize: 10_000_000 }))))
})
