/**
 * One name for a reference as a user gives it: `Resolve.references` and `Verify.references` take
 * every form of `ReferenceInput` (a line, a `Line`, an `Entry`, a `Query`) and read each alike.
 */
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Emulator } from "@s2-effect/testing"
import { Effect, Layer, Stream } from "effect"
import { ReferenceInput, Resolve, Verify } from "../src/index.js"

const emulated = () => SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ seed: 1, size: 200 })))

const TURING = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"
const ATTENTION = "204e3073870fae3d05bcbc2f6a8e263d9b72e776"

const every: ReadonlyArray<ReferenceInput.ReferenceInput> = [
  "10.1093/mind/lix.236.433",
  { key: "vaswani17", text: "arXiv:1706.03762" },
  { key: "turing50", fields: { title: "Computing Machinery and Intelligence", doi: "10.1093/mind/lix.236.433" } },
  { key: "attention", fields: { title: "Attention Is All You Need" } },
  { input: "ARXIV:1706.03762", title: "Attention Is All You Need", key: "q" },
  { key: "broken", fields: {}, problem: "its braces do not balance: lines 3 to 6 skipped" },
  { input: "", key: "brokenQuery", problem: "its braces do not balance: lines 9 to 9 skipped" }
]

describe("ReferenceInput", () => {
  it("tells its forms apart by their fields, and keys each by its own key, else its position", () => {
    expect(every.map((i) => [ReferenceInput.isLine(i), ReferenceInput.isEntry(i), ReferenceInput.isQuery(i)])).toEqual([
      [false, false, false],
      [true, false, false],
      [false, true, false],
      [false, true, false],
      [false, false, true],
      [false, true, false],
      [false, false, true]
    ])
    expect(every.map(ReferenceInput.keyOf)).toEqual([
      "1",
      "vaswani17",
      "turing50",
      "attention",
      "q",
      "broken",
      "brokenQuery"
    ])
    expect(ReferenceInput.keyOf({ input: "x" }, 4)).toBe("5")
  })

  it.effect("Resolve.references takes every form: an entry by its DOI, else its title; a problem is malformed", () =>
    Effect.gen(function*() {
      const results = yield* Stream.runCollect(Resolve.references(every))
      expect(results.map((r) => r._tag === "Found" ? r.paper.paperId : r._tag)).toEqual([
        TURING,
        ATTENTION,
        TURING,
        ATTENTION,
        ATTENTION,
        "NotFound",
        "NotFound"
      ])
      expect(results.map((r) => r.input)).toEqual([
        "10.1093/mind/lix.236.433",
        "arXiv:1706.03762",
        "DOI:10.1093/mind/lix.236.433",
        "Attention Is All You Need",
        "ARXIV:1706.03762",
        "",
        ""
      ])
      const broken = results.slice(5).map((r) => r._tag === "NotFound" ? [r.notFound, r.message] : [])
      expect(broken).toEqual([
        ["malformed", "its braces do not balance: lines 3 to 6 skipped"],
        ["malformed", "its braces do not balance: lines 9 to 9 skipped"]
      ])
    }).pipe(Effect.provide(emulated())))

  it.effect("a Query's title is checked by both jobs: another title is a mismatch, or found by the title", () =>
    Effect.gen(function*() {
      const query: ReferenceInput.Query = { input: "ARXIV:1706.03762", title: "Computing Machinery and Intelligence" }
      const [resolved] = yield* Stream.runCollect(Resolve.references([query]))
      expect(resolved?._tag).toBe("Mismatch")
      const [verified] = yield* Stream.runCollect(Verify.references([query]))
      // As for an entry whose id names another title: the paper with the title is the reference.
      expect(verified?.paper?.paperId).toBe(TURING)
      expect(verified?.notes[0]).toContain("another title; found by the title")
    }).pipe(Effect.provide(emulated())))

  it.effect("Verify.references takes every form: each keyed, a problem unchecked with it", () =>
    Effect.gen(function*() {
      const checked = yield* Stream.runCollect(Verify.references(every))
      expect(checked.map((v) => v.key)).toEqual([
        "1",
        "vaswani17",
        "turing50",
        "attention",
        "q",
        "broken",
        "brokenQuery"
      ])
      expect(checked.map((v) => v.status).slice(0, 5).every((s) => s !== "notFound" && s !== "unchecked")).toBe(true)
      expect(checked.slice(5).map((v) => [v.status, v.notes])).toEqual([
        ["unchecked", ["its braces do not balance: lines 3 to 6 skipped"]],
        ["unchecked", ["its braces do not balance: lines 9 to 9 skipped"]]
      ])
    }).pipe(Effect.provide(emulated())))
})
