/**
 * The correction policy (issue 45): `Verify.bibtexWriter` writes every entry, so the document
 * still compiles and every `\cite` key is kept; `Verify.correction` says what each is written from.
 */
import { describe, expect, it } from "@effect/vitest"
import { Paper, SemanticScholar } from "@s2-effect/core"
import { compileBib, runBibtex } from "@s2-effect/test-support/latex"
import { Emulator } from "@s2-effect/testing"
import { Effect, Layer, Schema, Stream } from "effect"
import { TestClock } from "effect/testing"
import { Citable, Verify } from "../src/index.js"

const emulated = SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ seed: 1, size: 1000 })))

const BIB = String.raw`
@article{turing50,
  author = {Turing, Alan M.},
  title = {Computing Machinery and Intelligence},
  journal = {Mind},
  year = {1950},
  note = {A classic},
  doi = {10.1093/mind/LIX.236.433}
}
@inproceedings{vaswani,
  author = {Vaswani, Ashish and others},
  title = {Attention Is All You Need},
  year = {2012},
  keywords = {transformers},
  eprint = {1706.03762}, archivePrefix = {arXiv}
}
@article{he16, author = {He, Kaiming}, title = {Deep residual learning for image recognition}, year = {2016}}
@article{broken, title = {Open
@misc{nothing, note = {to do}}`

const written = Effect.gen(function*() {
  yield* TestClock.setTime(Date.UTC(2026, 10, 1))
  const checked = yield* Stream.runCollect(Verify.references(Verify.fromBibtex(BIB)))
  const writer = Verify.bibtexWriter()
  return { checked, text: checked.map(writer.write).join("\n") }
}).pipe(Effect.provide(emulated))

describe("Verify.bibtexWriter", () => {
  it.effect("every entry is written, every key kept, each marked by its verdict", () =>
    Effect.gen(function*() {
      const { checked, text } = yield* written
      expect(checked.map((v) => [v.key, v.status])).toEqual([
        ["turing50", "verified"],
        ["vaswani", "mismatch"],
        ["he16", "notFound"],
        ["broken", "unchecked"],
        ["nothing", "unchecked"]
      ])
      const keys = Array.from(text.matchAll(/^@\w+\{([^,]*),/gm), (m) => m[1])
      expect(keys).toEqual(["turing50", "vaswani", "he16", "broken", "nothing"])
      // Verified: as written, its own fields and values.
      expect(text).toContain(
        "@article{turing50,\n  author = {Turing, Alan M.},\n  title = {Computing Machinery and Intelligence}"
      )
      expect(text).toContain("  note = {A classic}")
      // The mismatch: corrected from the record, the user's values in a comment, their own fields kept.
      expect(text).toMatch(/% s2 verify: vaswani: mismatch \(year: 2012 is before the paper first appeared/)
      expect(text).toContain("%   year = {2012}\n")
      expect(text).toMatch(/@\w+\{vaswani,[^]*year = \{2017\}[^]*keywords = \{transformers\}/)
      // Not found, unchecked: kept, after a % line that says so.
      expect(text).toMatch(/% s2 verify: he16: not found, likely invented; kept as written[^\n]*\n@article\{he16,/)
      expect(text).toMatch(
        /% s2 verify: nothing: not checked; kept as written[^\n]*\n@misc\{nothing,\n  note = \{to do\}/
      )
      // No comment holds an "@": BibTeX would start an entry there.
      for (const line of text.split("\n").filter((l) => l.startsWith("%"))) expect(line).not.toContain("@")
    }))

  it.effect("the written file compiles, every key cited", () =>
    Effect.gen(function*() {
      const { text } = yield* written
      const compiled = compileBib(text)
      expect(compiled.bibtexOutput).not.toMatch(/error message|Repeated entry|I was expecting/i)
      expect(compiled.latexErrors).toEqual([])
      expect([...compiled.cited].sort()).toEqual(["broken", "he16", "nothing", "turing50", "vaswani"])
    }), 120_000)

  it("a verified entry keeps the user's key as BibTeX reads it; one no .bib key can be is cleaned with a note (issue 44 point 6)", () => {
    const verified = (key: string) =>
      new Verify.Verification({
        key,
        input: "",
        notes: [],
        status: "verified",
        differs: [],
        entry: new Verify.Written({ key, fields: { title: "X" } })
      })
    const writer = Verify.bibtexWriter()
    expect(writer.write(verified("O'Brien:2011(a)"))).toBe("@misc{O'Brien:2011(a),\n  title = {X}\n}\n")
    expect(writer.write(verified("Smith 2020, {x}"))).toBe(
      `% s2: the key "Smith 2020, {x}" holds what a .bib key cannot (a space, comma, brace, at sign or control); written as Smith2020x\n` +
        "@misc{Smith2020x,\n  title = {X}\n}\n"
    )
  })

  it(
    "issue 44 point 7: a field name BibTeX reads (x/y, ti$tle, a;b) is written back, read so by bibtex; one we do not write is named in a % line",
    () => {
      // As the .bib reader gives them: names BibTeX reads, and three we do not write (an at sign, a
      // backslash, a letter outside ASCII).
      const fields = { title: "X", "x/y": "1", "ti$tle": "2", "a;b": "3", "a@b": "4", "x\\y": "5", "é": "6" }
      const verified = new Verify.Verification({
        key: "k1",
        input: "",
        notes: [],
        status: "verified",
        differs: [],
        entry: new Verify.Written({ key: "k1", fields })
      })
      const paper = Schema.decodeUnknownSync(Paper)({ paperId: "p2", title: "Y", year: 2020 })
      const text = Verify.bibtexWriter().write(verified) + Citable.bibtex([{ paper, key: "k2", extra: fields }])
      const left =
        `% s2: left out, not a field name we write (printable ASCII, no at sign or backslash): "a(at)b", "x\\\\y", "é"`
      expect(text.split("\n").filter((line) => line === left)).toHaveLength(2)
      const bst = [
        "ENTRY { x/y ti$tle a;b } {} {}",
        "FUNCTION {probe} { \"|\" cite$ * \"|\" * x/y * \"|\" * ti$tle * \"|\" * a;b * \"|\" * write$ newline$ }",
        ...["article", "misc", "default.type"].map((type) => `FUNCTION {${type}} { probe }`),
        "READ",
        "ITERATE {call.type$}",
        ""
      ].join("\n")
      const read = runBibtex(text, bst)
      expect(read.output).not.toMatch(/error message|Repeated entry|I was expecting|Warning--I'm ignoring/i)
      expect(read.written.split("\n").filter((line) => line.startsWith("|"))).toEqual(["|k1|1|2|3|", "|k2|1|2|3|"])
    },
    120_000
  )

  it("correction: a mismatch whose title and authors both differ is kept as written", () => {
    const entry = new Verify.Written({ key: "k", fields: { title: "X" } })
    const base = { key: "k", input: "", notes: [], entry }
    expect(Verify.correction(new Verify.Verification({ ...base, status: "mismatch", differs: ["title", "authors"] })))
      .toEqual({ _tag: "written", entry })
    expect(Verify.correction(new Verify.Verification({ ...base, status: "notFound", differs: [] })))
      .toEqual({ _tag: "written", entry })
  })
})
