import { describe, expect, it } from "@effect/vitest"
import { Corpus, Emulator } from "@s2-effect/testing"
import { Effect } from "effect"
import { HttpClient } from "effect/http"
import { TestClock } from "effect/testing"

const DAY = 86_400_000
const FROM = Date.UTC(2025, 3, 1)
const corpus = Corpus.make({ seed: 3, size: 2000 })
const API = "https://api.semanticscholar.org/graph/v1"

interface Answer {
  readonly total?: number
  readonly data?: ReadonlyArray<{ readonly citingPaper: { readonly paperId: string } }>
}

const getJson = (url: string) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.get(url)
    return { status: response.status, body: (yield* response.json) as Answer }
  }).pipe(Effect.orDie)

describe("Emulator arrivals", () => {
  it.effect("a paper is hidden until the clock passes its arrival, then there with its citations", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator
      // A paper arriving in the first month that cites an older one.
      const i = corpus.papers.findIndex((_, k) =>
        emulator.arrival(k) > FROM + DAY && emulator.arrival(k) < FROM + 30 * DAY &&
        corpus.graph.refStart[k + 1]! > corpus.graph.refStart[k]!
      )
      expect(i).toBeGreaterThanOrEqual(0)
      const paper = corpus.paper(i)
      const cited = corpus.paper(corpus.graph.refTargets[corpus.graph.refStart[i]!]!)
      const citing = `${API}/paper/${cited.paperId}/citations?fields=title&limit=1000`
      yield* TestClock.setTime(FROM)
      expect((yield* getJson(`${API}/paper/${paper.paperId}`)).status).toBe(404)
      const before = (yield* getJson(citing)).body.data!.map((c) => c.citingPaper.paperId)
      expect(before).not.toContain(paper.paperId)
      const bulk = `${API}/paper/search/bulk?query=&publicationDateOrYear=2025-01-01:&fields=title`
      const bulkBefore = (yield* getJson(bulk)).body.total!

      yield* TestClock.setTime(emulator.arrival(i))
      expect((yield* getJson(`${API}/paper/${paper.paperId}`)).status).toBe(200)
      const after = (yield* getJson(citing)).body.data!.map((c) => c.citingPaper.paperId)
      expect(after).toContain(paper.paperId)
      expect((yield* getJson(bulk)).body.total).toBeGreaterThan(bulkBefore)
    }).pipe(Effect.provide(Emulator.layer({ corpus, arrivals: { from: FROM } }))))

  it.effect("arrivals are seeded, some weeks after the paper's date, and none without the option", () =>
    Effect.gen(function*() {
      const a = (yield* Emulator.make({ corpus, arrivals: { from: FROM } })).service
      const b = (yield* Emulator.make({ corpus, arrivals: { from: FROM } })).service
      const none = (yield* Emulator.make({ corpus })).service
      const all = corpus.papers.map((_, k) => a.arrival(k))
      expect(corpus.papers.map((_, k) => b.arrival(k))).toEqual(all)
      expect(none.arrival(0)).toBe(0)
      const late = corpus.papers.filter((p, k) =>
        p.publicationDate !== null && all[k]! - Date.parse(p.publicationDate) > 14 * DAY
      )
      expect(late.length / corpus.size).toBeGreaterThan(0.03)
      expect(late.length / corpus.size).toBeLessThan(0.2)
    }))
})
