/**
 * LaTeX documents compiled as a user compiles them: `pdflatex` + `bibtex` (plain style,
 * `\usepackage[T1]{fontenc}`, `\usepackage[utf8]{inputenc}`), from Debian's texlive-latex-base
 * (installed as CI installs it: packages/jobs/scripts/ensure-texlive.mjs). For the tests of the
 * BibTeX we write, in the jobs package and the CLI. Imported as `@s2-effect/test-support/latex`.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

export interface Compiled {
  /** The `! …` lines of the LaTeX log (its errors). */
  readonly latexErrors: ReadonlyArray<string>
  /** What BibTeX printed, and how it exited (2 or more: errors); empty and 0 without a .bib. */
  readonly bibtexOutput: string
  readonly bibtexStatus: number
  /** The keys of the `\bibitem`s BibTeX wrote. */
  readonly cited: ReadonlyArray<string>
}

const run = (command: string, args: ReadonlyArray<string>, cwd: string) =>
  ChildProcess.spawnSync(command, args, { cwd, encoding: "latin1", timeout: 120_000 })

/** Whether pdflatex and bibtex are on the PATH. */
export const texInstalled = (): boolean =>
  run("sh", ["-c", "command -v pdflatex && command -v bibtex"], Os.tmpdir()).status === 0

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

/**
 * `body` compiled by pdflatex; with `bib`, every entry of it cited (`\nocite{*}`) and BibTeX's plain
 * style run between two passes. Throws when pdflatex cannot be started.
 */
export const compileLatex = (body: string, bib?: string): Compiled => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-latex-"))
  try {
    const withBib = bib === undefined ? body : `${body}\n\\nocite{*}\n\\bibliographystyle{plain}\n\\bibliography{refs}`
    Fs.writeFileSync(Path.join(dir, "doc.tex"), document(withBib))
    if (bib !== undefined) Fs.writeFileSync(Path.join(dir, "refs.bib"), bib)
    const latex = () => run("pdflatex", ["-interaction=nonstopmode", "-draftmode", "doc.tex"], dir)
    const first = latex()
    if (first.error !== undefined) throw first.error
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

/** A document citing every entry of `bib`, compiled: pdflatex, bibtex, pdflatex. */
export const compileBib = (bib: string): Compiled => compileLatex("", bib)

export interface BibtexRun {
  /** What BibTeX printed, and how it exited (2 or more: errors). */
  readonly output: string
  readonly status: number
  /** What the style wrote (the .bbl), as UTF-8. */
  readonly written: string
}

/**
 * `bib` read by BibTeX alone with the style `bst` (a .bst's text) and every entry cited: what a
 * style of one's own reads of each entry (`cite$`, its fields), as BibTeX itself parses the file.
 */
export const runBibtex = (bib: string, bst: string): BibtexRun => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-bibtex-"))
  try {
    Fs.writeFileSync(Path.join(dir, "doc.aux"), "\\citation{*}\n\\bibstyle{probe}\n\\bibdata{refs}\n")
    Fs.writeFileSync(Path.join(dir, "probe.bst"), bst)
    Fs.writeFileSync(Path.join(dir, "refs.bib"), bib)
    const bibtex = run("bibtex", ["doc"], dir)
    if (bibtex.error !== undefined) throw bibtex.error
    const bbl = Path.join(dir, "doc.bbl")
    return {
      output: `${bibtex.stdout}${bibtex.stderr}`,
      status: bibtex.status ?? 0,
      written: Fs.existsSync(bbl) ? Fs.readFileSync(bbl, "utf8") : ""
    }
  } finally {
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}
