import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Corpus, Emulator } from "@s2-effect/testing"
import { Effect, Layer, Schema, Stream } from "effect"
import { TestClock } from "effect/testing"
import { Watch } from "../src/index.js"
import { json, testLayer } from "./support/Scripted.js"

const DAY = 86_400_000
/** The corpus as first seen: papers dated after this arrive as the clock moves. */
const FROM = Date.UTC(2025, 3, 1)
const CHECKS = 100
const corpus = Corpus.make({ seed: 7, size: 3000 })

const emulated = SemanticScholar.layer().pipe(
  Layer.provideMerge(Emulator.layer({ corpus, arrivals: { from: FROM } }))
)

/** Papers arriving in the checks' span, and the paper, author and title word with the most of them. */
const plan = (arrival: (index: number) => number) => {
  const end = FROM + (CHECKS + 1) * DAY
  const arrives = (i: number) => arrival(i) > FROM && arrival(i) <= end
  const { citeStart, citeSources } = corpus.graph
  let paper = 0
  let best = -1
  for (let j = 0; j < corpus.size; j++) {
    let n = 0
    for (let k = citeStart[j]!; k < citeStart[j + 1]!; k++) if (arrives(citeSources[k]!)) n++
    if (n > best) [paper, best] = [j, n]
  }
  let author = 0
  best = -1
  for (let a = 0; a < corpus.authorCount; a++) {
    let n = 0
    for (let k = corpus.authorPaperStart[a]!; k < corpus.authorPaperStart[a + 1]!; k++) {
      if (arrives(corpus.authorPapers[k]!)) n++
    }
    if (n > best) [author, best] = [a, n]
  }
  const words = new Map<string, number>()
  for (let i = 0; i < corpus.size; i++) {
    if (!arrives(i)) continue
    for (const word of corpus.paper(i).title.toLowerCase().split(/[^a-z]+/)) {
      if (word.length >= 7) words.set(word, (words.get(word) ?? 0) + 1)
    }
  }
  const word = [...words].sort((a, b) => b[1] - a[1])[0]![0]
  return { paper: corpus.paper(paper).paperId, author: corpus.author(author).authorId, word }
}

const start = Effect.gen(function*() {
  const emulator = yield* Emulator
  const { author, paper, word } = plan(emulator.arrival)
  let state = Watch.empty
  state = Watch.add(state, { _tag: "Citations", name: "cites", paperId: paper })
  state = Watch.add(state, { _tag: "Author", name: "author", authorId: author })
  state = Watch.add(state, { _tag: "Query", name: "topic", query: word })
  yield* TestClock.setTime(FROM + DAY)
  return { emulator, state, paper, author, word }
})

describe("Watch.check against a corpus that grows", () => {
  it.effect(
    "reports every paper that arrives between two checks exactly once, late arrivals included",
    () =>
      Effect.gen(function*() {
        const { author, emulator, paper, word } = yield* start
        let { state } = yield* start
        const firstCheck = FROM + DAY
        const reported = new Map<string, number>()
        for (let k = 0; k < CHECKS; k++) {
          const result = yield* Watch.check(state)
          expect(result.failed).toEqual([])
          for (const { paper: found, watch } of result.found) {
            const key = `${watch} ${found.paperId}`
            expect(reported.has(key), `${key} reported twice`).toBe(false)
            reported.set(key, k)
          }
          // What is stored is what the state file holds: it survives encoding.
          state = Schema.decodeUnknownSync(Watch.State)(Schema.encodeSync(Watch.State)(result.state))
          yield* TestClock.adjust(`${DAY} millis`)
        }
        // What each watch lists now, whatever the dates: papers arrived after the first check must all be reported.
        const s2 = yield* SemanticScholar
        const index = new Map(corpus.papers.map((p) => [p.paperId, p.index]))
        const arrivedLate = (id: string) => emulator.arrival(index.get(id)!) > firstCheck
        const citing = yield* Stream.runCollect(s2.getPaperCitations(paper, { fields: ["year"], limit: 1000 }))
        const authored = yield* Stream.runCollect(s2.getAuthorPapers(author, { fields: ["year"], limit: 1000 }))
        const matching = yield* Stream.runCollect(s2.searchPaper(word, { bulk: true, fields: ["year"] }))
        const expected = [
          ...citing.flatMap((c) => (c.citingPaper.paperId === null ? [] : [`cites ${c.citingPaper.paperId}`])),
          ...authored.map((p) => `author ${p.paperId}`),
          ...matching.map((p) => `topic ${p.paperId}`)
        ].filter((key) => arrivedLate(key.split(" ")[1]!))
        expect(expected.length).toBeGreaterThan(20)
        for (const watch of ["cites", "author", "topic"]) {
          expect(expected.some((key) => key.startsWith(`${watch} `)), watch).toBe(true)
        }
        for (const key of expected) expect(reported.has(key), `${key} never reported`).toBe(true)
        // Each on the first check after it arrived (check k runs at firstCheck + k days), and after
        // the first check nothing but arrivals: no paper already there reported late.
        for (const key of expected) {
          const arrival = emulator.arrival(index.get(key.split(" ")[1]!)!)
          expect(reported.get(key), key).toBe(Math.ceil((arrival - firstCheck) / DAY))
        }
        for (const [key, k] of reported) if (k > 0) expect(arrivedLate(key.split(" ")[1]!), key).toBe(true)
        // Late arrivals (weeks after their date) are among them.
        const late = expected.filter((key) => {
          const i = index.get(key.split(" ")[1]!)!
          const p = corpus.paper(i)
          const published = p.publicationDate === null ? Date.UTC(p.year, 6, 1) : Date.parse(p.publicationDate)
          return emulator.arrival(i) - published > 14 * DAY
        })
        expect(late.length).toBeGreaterThan(0)
        // The window bounds the state: nothing remembered from before it.
        const forgetBefore = new Date(FROM + (CHECKS + 1) * DAY - 90 * DAY).toISOString().slice(0, 10)
        for (const entry of state.watches) for (const [, keep] of entry.seen) expect(keep >= forgetBefore).toBe(true)
      }).pipe(Effect.provide(emulated)),
    120_000
  )

  it.effect("costs one request per watch when nothing is new, and a batch for what is", () =>
    Effect.gen(function*() {
      const { emulator, state } = yield* start
      const first = yield* Watch.check(state)
      yield* emulator.clearRequests
      const again = yield* Watch.check(first.state)
      expect(again.found).toEqual([])
      expect(yield* emulator.requestCount).toBe(3)
      // A week on, new papers: their details come in one batch shared by the watches.
      yield* TestClock.adjust(`${7 * DAY} millis`)
      yield* emulator.clearRequests
      const week = yield* Watch.check(again.state)
      expect(week.found.length).toBeGreaterThan(0)
      const counts = yield* emulator.requestCounts
      expect(counts["/graph/v1/paper/batch"]).toBe(1)
      expect(yield* emulator.requestCount).toBe(4)
    }).pipe(Effect.provide(emulated)))

  it.effect("a watch that fails keeps its state; the others move on", () =>
    Effect.gen(function*() {
      const { state } = yield* start
      const broken = Watch.add(state, { _tag: "Citations", name: "gone", paperId: "CorpusId:999999999" })
      const result = yield* Watch.check(broken)
      expect(result.failed.map(({ error, watch }) => [watch, error._tag])).toEqual([["gone", "ObjectNotFound"]])
      const gone = result.state.watches.find((entry) => entry.watch.name === "gone")!
      expect(gone).toEqual(broken.watches.find((entry) => entry.watch.name === "gone"))
      expect(result.state.watches.filter((entry) => entry.checkedAt !== undefined)).toHaveLength(3)
      expect(result.state.recent.length).toBe(Math.min(100, result.found.length))
    }).pipe(Effect.provide(emulated)))

  it.effect("checks only the watches named", () =>
    Effect.gen(function*() {
      const { emulator, state } = yield* start
      const result = yield* Watch.check(state, { names: ["author"] })
      expect(result.found.every(({ watch }) => watch === "author")).toBe(true)
      expect(Object.keys(yield* emulator.requestCounts).some((path) => path.includes("/author/"))).toBe(true)
      expect(result.state.watches.map((entry) => entry.checkedAt !== undefined)).toEqual([false, true, false])
    }).pipe(Effect.provide(emulated)))
})

describe("Watch.keepShown", () => {
  it.effect("papers found but not shown are found again by the next check", () =>
    Effect.gen(function*() {
      const { state } = yield* start
      const first = yield* Watch.check(state)
      expect(first.found.length).toBeGreaterThan(3)
      const shown = first.found.slice(0, 2)
      const again = yield* Watch.check(Watch.keepShown(first, shown))
      expect(again.found.map(({ paper, watch }) => `${watch} ${paper.paperId}`)).toEqual(
        first.found.slice(2).map(({ paper, watch }) => `${watch} ${paper.paperId}`)
      )
    }).pipe(Effect.provide(emulated)))
})

describe("Watch.check, a server that lists papers outside the date filter", () => {
  // It lists a 2020 citation whatever `publicationDateOrYear` says: shown once, then remembered for
  // the window (it was forgotten at once, older than the window, and shown as new on every check).
  const old = { paperId: "e".repeat(40), title: "An old paper", year: 2020, publicationDate: "2020-01-01" }
  const layer = testLayer((request) =>
    Effect.succeed(
      request.method === "POST"
        ? json([old])
        : json({
          offset: 0,
          data: [{ citingPaper: { paperId: old.paperId, publicationDate: old.publicationDate, year: old.year } }]
        })
    )
  )
  it.effect("shows such a paper once, not at every check", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(FROM)
      const state = Watch.add(Watch.empty, { _tag: "Citations", name: "cites", paperId: "f".repeat(40) })
      const first = yield* Watch.check(state)
      expect(first.found.map(({ paper }) => paper.paperId)).toEqual([old.paperId])
      yield* TestClock.adjust(`${DAY} millis`)
      const again = yield* Watch.check(first.state)
      expect(again.found).toEqual([])
    }).pipe(Effect.provide(layer)))
})

describe("Watch.check, a watch's since", () => {
  // A corpus that does not grow: what a check lists depends only on the dates asked.
  const still = SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ corpus })))
  const NOW = Date.UTC(2025, 11, 31)
  const SINCE = "2025-11-15"
  /** The paper with the most citing papers dated in the window before NOW but before SINCE. */
  const cited = (() => {
    const { citeSources, citeStart } = corpus.graph
    let best = 0
    let most = -1
    for (let j = 0; j < corpus.size; j++) {
      let before = 0
      for (let k = citeStart[j]!; k < citeStart[j + 1]!; k++) {
        const date = corpus.paper(citeSources[k]!).publicationDate
        if (date !== null && date >= "2025-10-15" && date < SINCE) before++
      }
      if (before > most) [best, most] = [j, before]
    }
    return corpus.paper(best).paperId
  })()

  it.effect("stays the first day listed after the first check: papers dated before it are never new", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const state = Watch.add(Watch.empty, { _tag: "Citations", name: "cites", paperId: cited, since: SINCE })
      const first = yield* Watch.check(state)
      const dated = first.found.flatMap(({ paper }) => paper.publicationDate ?? [])
      expect(dated.every((date) => date >= SINCE)).toBe(true)
      // A day later, the window (90 days before the last check) reaches back before `since`: the
      // papers dated in between were never asked for, and are not new either.
      yield* TestClock.adjust(`${DAY} millis`)
      const second = yield* Watch.check(first.state)
      expect(second.found.map(({ paper }) => paper.publicationDate)).toEqual([])
    }).pipe(Effect.provide(still)))
})
