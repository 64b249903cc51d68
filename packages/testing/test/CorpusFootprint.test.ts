/**
 * Issue 28, point 5: an emulator that starts at once. A 200,000-paper `s2-emulator` took 15-19 s
 * and 1.6 GB before its ready line: the corpus held ~2.3 kB per paper and the relevance index was
 * built before ready. The answers stay the same (Golden.test.ts); the footprint itself is a bench row
 * (BENCH_ONLY=startup pnpm bench), not a unit test.
 */
import { describe, expect, it } from "@effect/vitest"
import { Corpus } from "../src/index.js"

describe("corpus footprint and start-up", () => {
  it("external ids resolve without a table of every paper's ids, as the table did", () => {
    const corpus = Corpus.make({ seed: 3, size: 3000 })
    // The table the corpus used to build: landmarks last, so theirs win.
    const table = new Map<string, number>()
    const prefix: Record<string, string> = {
      DOI: "DOI",
      ArXiv: "ARXIV",
      MAG: "MAG",
      ACL: "ACL",
      PubMed: "PMID",
      PubMedCentral: "PMCID"
    }
    for (let i = 0; i < corpus.size; i++) {
      for (const [kind, value] of Object.entries(corpus.paper(i).externalIds)) {
        if (prefix[kind] !== undefined) table.set(`${prefix[kind]}:${String(value).toUpperCase()}`, i)
      }
    }
    expect(table.size).toBeGreaterThan(6000)
    for (const [id, i] of table) expect(corpus.resolvePaper(id), id).toBe(i)
    // Well-formed ids of papers that do not exist, or of virtual papers, stay unknown.
    for (
      const id of ["MAG:1000290997", "PMCID:1009999", "DOI:10.1234/x.2020.2999999", "ARXIV:2001.99999", "ACL:A20-7"]
    ) {
      const i = corpus.resolvePaper(id)
      if (i !== undefined) expect(table.get(id), id).toBe(i)
    }
  })

  it("papers with the same fields of study and publication types share one frozen array", () => {
    const corpus = Corpus.make({ seed: 1, size: 2000 })
    const byKey = new Map<string, ReadonlyArray<unknown>>()
    let shared = 0
    for (let i = 0; i < 1900; i++) {
      const p = corpus.paper(i)
      for (const list of [p.s2FieldsOfStudy, p.fieldsOfStudy, p.publicationTypes]) {
        if (list === null) continue
        expect(Object.isFrozen(list)).toBe(true)
        const key = JSON.stringify(list)
        const seen = byKey.get(key)
        if (seen === undefined) {
          byKey.set(key, list)
        } else {
          expect(list).toBe(seen)
          shared++
        }
      }
    }
    expect(shared).toBeGreaterThan(1900)
  })

  it("the search index builds in the background, yielding to other work, into the same index", async () => {
    const query = "neural network"
    const reference = Corpus.make({ seed: 1, size: 3000 }).searchIndex.search(query)
    const corpus = Corpus.make({ seed: 1, size: 3000 })
    let turns = 0
    const timer = setInterval(() => turns++, 0)
    await corpus.indexInBackground()
    clearInterval(timer)
    expect(turns).toBeGreaterThan(1)
    expect(corpus.searchIndex.search(query)).toEqual(reference)
    expect(corpus.indexInBackground()).toBe(corpus.indexInBackground())
  })

  it("a search during the background build finishes it first: same results", async () => {
    const query = "graph learning"
    const reference = Corpus.make({ seed: 1, size: 3000 }).searchIndex.search(query, { prefix: true })
    const corpus = Corpus.make({ seed: 1, size: 3000 })
    const done = corpus.indexInBackground()
    // One turn of the event loop, for the build to be under way (a slice at a time) when the search comes.
    await new Promise((resolve) => setImmediate(resolve))
    expect(corpus.searchIndex.search(query, { prefix: true })).toEqual(reference)
    await done
    expect(corpus.searchIndex.search(query, { prefix: true })).toEqual(reference)
  })
})
