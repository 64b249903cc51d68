/**
 * One structure, end to end (issue 45, point 9): an id read from an entry is passed as an id, never
 * as text read again by `PaperId.recognise`; each pair of titles (the entry's, a paper's) is
 * compared once, by `TitleMatch.compare` and `TitleMatch.relation` each. Counted by wrapping both.
 */
import { describe, expect, it } from "@effect/vitest"
import type * as Core from "@s2-effect/core"
import { Effect, Stream } from "effect"
import { TestClock } from "effect/testing"
import { vi } from "vitest"
import type { Verify as VerifyModule } from "../src/index.js"
import type * as TitleMatchInternal from "../src/internal/titleMatch.js"
import { corpusServer } from "./support/CorpusServer.js"

const calls = vi.hoisted(() => ({
  recognised: [] as Array<string>,
  compared: new Map<string, number>(),
  related: new Map<string, number>()
}))

vi.mock("@s2-effect/core", async (importOriginal) => {
  const core = await importOriginal<typeof Core>()
  const recognise = (text: string) => {
    calls.recognised.push(text)
    return core.PaperId.recognise(text)
  }
  return { ...core, PaperId: { ...core.PaperId, recognise } }
})

vi.mock("../src/internal/titleMatch.js", async (importOriginal) => {
  const titleMatch = await importOriginal<typeof TitleMatchInternal>()
  const counted = <A>(map: Map<string, number>, f: (a: string, b: string) => A) => (a: string, b: string) => {
    const key = `${a}\u0000${b}`
    map.set(key, (map.get(key) ?? 0) + 1)
    return f(a, b)
  }
  return {
    ...titleMatch,
    compare: counted(calls.compared, titleMatch.compare),
    relation: counted(calls.related, titleMatch.relation)
  }
})

// Modules another file of this worker loaded before (the project runs without isolation) are read
// again, so that they see the mocks above.
vi.resetModules()
const { Verify } = await import("../src/index.js")

const A = "a".repeat(40)
const B = "b".repeat(40)
const papers = [
  {
    paperId: A,
    title: "Sparse Attention for Long Documents",
    year: 2021,
    venue: "",
    externalIds: { DOI: "10.1000/sparse" },
    authors: [{ authorId: "1", name: "Ana Ruiz" }]
  },
  {
    paperId: B,
    title: "Graph Kernels for Molecular Property Prediction",
    year: 2020,
    venue: "",
    externalIds: {},
    authors: [{ authorId: "2", name: "Wei Chen" }]
  }
]
const server = corpusServer(papers, (p) => p)

const entries: ReadonlyArray<VerifyModule.Input> = [
  {
    key: "byId",
    fields: { doi: "https://doi.org/10.1000/SPARSE", title: papers[0]!.title, author: "Ruiz, Ana", year: "2021" }
  },
  { key: "byTitle", fields: { title: papers[1]!.title, author: "Chen, Wei", year: "2020" } }
]

const run = Effect.flatMap(
  TestClock.setTime(Date.UTC(2026, 10, 1)),
  () => Stream.runCollect(Verify.references(entries))
).pipe(Effect.provide(server))

describe("one structure, end to end", () => {
  it.effect("an entry's id is read once, where its field is read, and passed on as an id", () =>
    Effect.gen(function*() {
      calls.recognised.length = 0
      const vs = yield* run
      expect(vs.map((v) => [v.key, v.status, v.input])).toEqual([
        ["byId", "verified", "DOI:10.1000/SPARSE"],
        ["byTitle", "verified", papers[1]!.title]
      ])
      // The doi field as written is read once; its API spelling and the title are never read again.
      expect(calls.recognised).toEqual(["https://doi.org/10.1000/SPARSE"])
      // A Verification keeps its entry.
      expect(vs.map((v) => v.entry?.fields["author"])).toEqual(["Ruiz, Ana", "Chen, Wei"])
    }))

  it.effect("each pair of titles is compared once", () =>
    Effect.gen(function*() {
      calls.compared.clear()
      calls.related.clear()
      yield* run
      const pairs = (map: Map<string, number>) => [...map.values()]
      expect(pairs(calls.compared).length).toBeGreaterThan(0)
      expect(pairs(calls.compared).every((n) => n === 1)).toBe(true)
      expect(pairs(calls.related).length).toBeGreaterThan(0)
      expect(pairs(calls.related).every((n) => n === 1)).toBe(true)
    }))
})
