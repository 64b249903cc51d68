/**
 * The BibTeX we write compiles: `pdflatex` + `bibtex` (plain style, `\usepackage[T1]{fontenc}`,
 * `\usepackage[utf8]{inputenc}`, `\nocite{*}`), from Debian's texlive-latex-base (installed by
 * scripts/ensure-texlive.mjs, as CI does). Every character the LaTeX table renders typesets; the
 * recorded papers' entries, with hostile ones among them, give no BibTeX error, no LaTeX error, and
 * one bibliography item per entry.
 */
import { describe, expect, it } from "@effect/vitest"
import { Paper } from "@s2-effect/core"
import { compileLatex, texInstalled } from "@s2-effect/test-support/latex"
import { Schema } from "effect"
import { Citable } from "../src/index.js"
import { parse } from "../src/internal/bibtex.js"
import { texTable } from "../src/internal/citable/texTable.js"
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
