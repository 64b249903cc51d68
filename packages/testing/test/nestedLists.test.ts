import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Emulator } from "../src/index.js"
import { arr, call, obj } from "./helpers.js"

const layer = Emulator.layer({ seed: 1, size: 10_000 })

describe("nested citations and references", () => {
  it.effect("hold a paper's first 1,000 entries, as the live API's do; the list endpoint serves the rest", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      // Turing's paper: cited 1,150 times in this corpus.
      const turing = corpus.landmarks[0]!
      const cited = corpus.citationCount(turing)
      expect(cited).toBeGreaterThan(1000)
      const id = corpus.paper(turing).paperId
      const batch = yield* call("POST", "/graph/v1/paper/batch?fields=citations.paperId,citationCount", {
        body: { ids: [id] }
      })
      const nested = arr(obj(arr(batch.json)[0]).citations).map((c) => obj(c).paperId)
      expect(nested).toHaveLength(1000)
      const listed: Array<unknown> = []
      for (let offset = 0; offset < cited; offset += 1000) {
        const page = yield* call("GET", `/graph/v1/paper/${id}/citations?fields=paperId&offset=${offset}&limit=1000`)
        listed.push(...arr(obj(page.json).data).map((c) => obj(obj(c).citingPaper).paperId))
      }
      expect(listed).toHaveLength(cited)
      expect(listed.slice(0, 1000)).toEqual(nested)
    }).pipe(Effect.provide(layer)))

  it.effect("a short list is whole, unresolved references included", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      const i = corpus.papers.findIndex((_, k) => corpus.graph.unresolvedRefs[k]! > 0)
      const r = yield* call("GET", `/graph/v1/paper/${corpus.paper(i).paperId}?fields=references.paperId`)
      const refs = arr(obj(r.json).references).map((ref) => obj(ref).paperId)
      expect(refs.filter((ref) => ref === null)).toHaveLength(corpus.graph.unresolvedRefs[i]!)
      expect(refs.length).toBe(
        corpus.graph.refStart[i + 1]! - corpus.graph.refStart[i]! + corpus.graph.unresolvedRefs[i]!
      )
    }).pipe(Effect.provide(layer)))
})
