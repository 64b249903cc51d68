/**
 * The BibTeX we write compiles: `pdflatex` + `bibtex` (plain style, `\usepackage[T1]{fontenc}`,
 * `\usepackage[utf8]{inputenc}`, `\nocite{*}`), from Debian's texlive-latex-base (installed by
 * scripts/ensure-texlive.mjs, as CI does). Every character the LaTeX table renders typesets; the
 * recorded papers' entries, with hostile ones among them, give no BibTeX error, no LaTeX error, and
 * one bibliography item per entry.
 */
import { describe, expect, it } from "@effect/vitest"
import { Paper } from "@s2-effect/core"
import { compileLatex, runBibtex, texInstalled } from "@s2-effect/test-support/latex"
import { Schema } from "effect"
import * as fc from "fast-check"
import { Citable } from "../src/index.js"
import { parse } from "../src/internal/bibtex.js"
import * as bib from "../src/internal/citable/bibtex.js"
import { keys } from "../src/internal/citable/keys.js"
import { texTable } from "../src/internal/citable/texTable.js"
import { markedText } from "./support/MarkedText.js"
import { present, recordedPapers } from "./support/RecordedPapers.js"

const T = 180_000

const decode = Schema.decodeUnknownSync(Paper)

const installed = texInstalled()

describe("the BibTeX we write, compiled", () => {
  it("pdflatex and bibtex are installed (node packages/jobs/scripts/ensure-texlive.mjs)", () => {
    expect(installed).toBe(true)
  })

  it("every character the LaTeX table spells typesets with pdfLaTeX and T1", () => {
    const spelled = Object.values(texTable)
    expect(spelled.length).toBeGreaterThan(1800)
    const compiled = compileLatex(spelled.map((latex) => `${latex}\\par`).join("\n"))
    expect(compiled.latexErrors).toEqual([])
  }, T)

  it(
    "issue 44 point 2: text with braces, specials and combining marks anywhere: each key read by BibTeX with its own fields",
    () => {
      // One .bib of generated entries, read by BibTeX with a style that writes each entry's key and
      // fields between bars (the writer spells `|`, so a value holds none): a value that closed early
      // or opened an entry would change what BibTeX reads under some key, or repeat a key.
      const papers = fc.sample(
        fc.record({
          title: markedText,
          journal: fc.record({ name: markedText, volume: markedText, pages: markedText }),
          authors: fc.array(fc.record({ authorId: fc.constant("1"), name: markedText }), { maxLength: 2 })
        }),
        { numRuns: 300, seed: 44 }
      )
      const inputs = papers.map((fields, i) => ({
        paper: decode({ paperId: `p${i}`, year: 1000 + i, ...fields }),
        key: `k${i}`,
        extra: { note: fields.title }
      }))
      const run = keys()
      const wanted = inputs.map((input) => {
        const f = new Map(bib.parts(input, run).fields)
        return [input.key, ...["year", "journal", "title", "author", "note"].map((name) => f.get(name) ?? "")]
      })
      const bst = [
        "ENTRY { year journal title author note } {} {}",
        // A missing field as "".
        "FUNCTION {v} { duplicate$ empty$ { pop$ \"\" } 'skip$ if$ }",
        `FUNCTION {probe} { "|" cite$ * ${
          ["year", "journal", "title", "author", "note"].map((f) => `"|" * ${f} v *`).join(" ")
        } "|" * write$ newline$ }`,
        ...["article", "inproceedings", "book", "misc", "default.type"].map((type) => `FUNCTION {${type}} { probe }`),
        "READ",
        "ITERATE {call.type$}",
        ""
      ].join("\n")
      const read = runBibtex(Citable.bibtex(inputs), bst)
      expect(read.output).not.toMatch(/error message|Repeated entry|I was expecting|Warning--I'm ignoring/i)
      expect(read.status).toBeLessThan(2)
      // BibTeX breaks long output lines at spaces: compared without whitespace.
      const squeeze = (s: string) => s.replace(/\s+/g, "")
      const bars = squeeze(read.written).split("|").slice(1)
      const records = Array.from({ length: bars.length / 7 }, (_, i) => bars.slice(i * 7, i * 7 + 6))
      expect(records).toEqual(wanted.map((r) => r.map(squeeze)))
    },
    T
  )

  it(
    "issue 44 point 6: the user's keys as BibTeX reads them (', (, :, \", #, %, ~, =, \\, any script) come back as written",
    () => {
      const theirs = ["O'Brien:2011(a)", "a\"b#c~d=e", "p%q\\r", "Müller2020", "k🙂"]
      const bib = Citable.bibtex(theirs.map((key) => ({ paper: decode({ paperId: "p", title: "X" }), key })))
      const read = runBibtex(
        bib,
        "ENTRY {} {} {}\nFUNCTION {misc} { \"|\" cite$ * write$ newline$ }\nREAD\nITERATE {call.type$}\n"
      )
      expect(read.status).toBeLessThan(2)
      expect(read.written.split("\n").filter((line) => line.startsWith("|")).map((line) => line.slice(1))).toEqual(
        theirs
      )
    },
    T
  )

  if (present) {
    it(
      "the recorded papers, with hostile entries among them: no BibTeX error, no LaTeX error, every entry cited",
      () => {
        const papers = recordedPapers()
        const sneaky = "a\\}}, note={ @misc{turing50, title={not yours}} }"
        const hostile = [
          { paper: decode({ paperId: "h1", title: sneaky, venue: sneaky }), key: "turing50" },
          {
            paper: decode({
              paperId: "h2",
              title: "% & $ # _ ~ ^ \\ { } @",
              authors: [{ authorId: null, name: sneaky }]
            })
          }
        ]
        const entries = Citable.bibtex([...hostile, ...papers]).split("\n\n")
        // Characters without a pdfLaTeX command stay UTF-8 (CJK, Arabic…): those entries are compiled apart.
        const ascii = entries.filter((e) => /^[\x00-\x7f]*$/.test(e))
        const utf8 = entries.filter((e) => !/^[\x00-\x7f]*$/.test(e))
        expect(utf8.length).toBeLessThan(entries.length / 100)

        const compiled = compileLatex("", ascii.join("\n"))
        expect(compiled.bibtexOutput).not.toMatch(/error message|Repeated entry|I was expecting/i)
        expect(compiled.bibtexStatus).toBeLessThan(2)
        expect(compiled.latexErrors).toEqual([])
        const keys = parse(ascii.join("\n")).map((e) => e.key)
        expect(keys).toHaveLength(ascii.length)
        expect(keys.filter((k) => k === "turing50")).toHaveLength(1)
        expect([...compiled.cited].sort()).toEqual([...keys].sort())

        // The others: their only errors are the characters pdfLaTeX cannot set without a package.
        const rest = compileLatex("", utf8.join("\n"))
        expect(rest.bibtexStatus).toBeLessThan(2)
        expect(rest.cited).toHaveLength(utf8.length)
        const unset = new Set(Array.from(utf8.join("").matchAll(/[^\x00-\x7f]/gu), (m) => m[0]))
        for (const error of rest.latexErrors) {
          const char = /^! LaTeX Error: Unicode character (.+) \(U\+[0-9A-F]+\)$/u.exec(error)?.[1]
          expect(char !== undefined && unset.has(char), error).toBe(true)
        }
      },
      T
    )
  }
})
