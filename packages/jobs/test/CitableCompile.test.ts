/**
 * The BibTeX we write compiles: `pdflatex` + `bibtex` (plain style, `\usepackage[T1]{fontenc}`,
 * `\usepackage[utf8]{inputenc}`, `\nocite{*}`), from Debian's texlive-latex-base (installed by
 * scripts/ensure-texlive.mjs, as CI does). Every character the LaTeX table renders typesets; the
 * recorded papers' entries, with hostile ones among them, give no BibTeX error, no LaTeX error, and
 * one bibliography item per entry.
 */
import { describe, expect, it } from "@effect/vitest"
import { Paper } from "@s2-effect/core"
import { Schema } from "effect"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Citable } from "../src/index.js"
import { parse } from "../src/internal/bibtex.js"
import { texTable } from "../src/internal/citable/texTable.js"
import { present, recordedPapers } from "./support/RecordedPapers.js"

const T = 180_000

const decode = Schema.decodeUnknownSync(Paper)

interface Compiled {
  /** The `! …` lines of the LaTeX log (its errors). */
  readonly latexErrors: ReadonlyArray<string>
  /** What BibTeX printed, and how it exited (2 or more: errors). */
  readonly bibtexOutput: string
  readonly bibtexStatus: number
  /** The keys of the `\bibitem`s BibTeX wrote. */
  readonly cited: ReadonlyArray<string>
}

const run = (command: string, args: ReadonlyArray<string>, cwd: string) =>
  ChildProcess.spawnSync(command, args, { cwd, encoding: "latin1", timeout: 120_000 })

const document = (body: string) =>
  [
    "\\documentclass{article}",
    "\\usepackage[T1]{fontenc}",
    "\\usepackage[utf8]{inputenc}",
    "\\begin{document}",
    body,
    "\\end{document}",
    ""
  ].join("\n")

/** `body` compiled by pdflatex, with `bib` (when given) through BibTeX's plain style in between. */
const compile = (body: string, bib?: string): Compiled => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-citable-"))
  try {
    const withBib = bib === undefined ? body : `${body}\n\\nocite{*}\n\\bibliographystyle{plain}\n\\bibliography{refs}`
    Fs.writeFileSync(Path.join(dir, "doc.tex"), document(withBib))
    if (bib !== undefined) Fs.writeFileSync(Path.join(dir, "refs.bib"), bib)
    const latex = () => run("pdflatex", ["-interaction=nonstopmode", "-draftmode", "doc.tex"], dir)
    expect(latex().error).toBeUndefined()
    const bibtex = bib === undefined ? undefined : run("bibtex", ["doc"], dir)
    if (bib !== undefined) latex()
    const log = Fs.readFileSync(Path.join(dir, "doc.log"), "utf8")
    const bbl = bib === undefined ? "" : Fs.readFileSync(Path.join(dir, "doc.bbl"), "utf8")
    return {
      latexErrors: log.split("\n").filter((line) => line.startsWith("! ")),
      bibtexOutput: bibtex === undefined ? "" : `${bibtex.stdout}${bibtex.stderr}`,
      bibtexStatus: bibtex?.status ?? 0,
      cited: Array.from(bbl.matchAll(/\\bibitem\{([^}]*)\}/g), (m) => m[1]!)
    }
  } finally {
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}

const installed = run("sh", ["-c", "command -v pdflatex && command -v bibtex"], Os.tmpdir()).status === 0

describe("the BibTeX we write, compiled", () => {
  it("pdflatex and bibtex are installed (node packages/jobs/scripts/ensure-texlive.mjs)", () => {
    expect(installed).toBe(true)
  })

  it("every character the LaTeX table spells typesets with pdfLaTeX and T1", () => {
    const spelled = Object.values(texTable)
    expect(spelled.length).toBeGreaterThan(1800)
    const compiled = compile(spelled.map((latex) => `${latex}\\par`).join("\n"))
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

        const compiled = compile("", ascii.join("\n"))
        expect(compiled.bibtexOutput).not.toMatch(/error message|Repeated entry|I was expecting/i)
        expect(compiled.bibtexStatus).toBeLessThan(2)
        expect(compiled.latexErrors).toEqual([])
        const keys = parse(ascii.join("\n")).map((e) => e.key)
        expect(keys).toHaveLength(ascii.length)
        expect(keys.filter((k) => k === "turing50")).toHaveLength(1)
        expect([...compiled.cited].sort()).toEqual([...keys].sort())

        // The others: their only errors are the characters pdfLaTeX cannot set without a package.
        const rest = compile("", utf8.join("\n"))
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
