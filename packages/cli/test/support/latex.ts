/**
 * A .bib compiled as a user compiles it: `pdflatex` + `bibtex` (plain style, T1, utf8, `\nocite{*}`),
 * Debian's texlive-latex-base (installed as CI installs it: packages/jobs/scripts/ensure-texlive.mjs).
 * The same run as packages/jobs/test/CitableCompile.test.ts's, for the CLI's output.
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

export interface Compiled {
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

/** Whether pdflatex and bibtex are on the PATH. */
export const texInstalled = (): boolean =>
  run("sh", ["-c", "command -v pdflatex && command -v bibtex"], Os.tmpdir()).status === 0

/** A document citing every entry of `bib`, compiled: pdflatex, bibtex, pdflatex. */
export const compileBib = (bib: string): Compiled => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-bib-"))
  try {
    const document = [
      "\\documentclass{article}",
      "\\usepackage[T1]{fontenc}",
      "\\usepackage[utf8]{inputenc}",
      "\\begin{document}",
      "\\nocite{*}",
      "\\bibliographystyle{plain}",
      "\\bibliography{refs}",
      "\\end{document}",
      ""
    ].join("\n")
    Fs.writeFileSync(Path.join(dir, "doc.tex"), document)
    Fs.writeFileSync(Path.join(dir, "refs.bib"), bib)
    const latex = () => run("pdflatex", ["-interaction=nonstopmode", "-draftmode", "doc.tex"], dir)
    const first = latex()
    if (first.error !== undefined) throw first.error
    const bibtex = run("bibtex", ["doc"], dir)
    latex()
    const log = Fs.readFileSync(Path.join(dir, "doc.log"), "utf8")
    const bbl = Fs.readFileSync(Path.join(dir, "doc.bbl"), "utf8")
    return {
      latexErrors: log.split("\n").filter((line) => line.startsWith("! ")),
      bibtexOutput: `${bibtex.stdout}${bibtex.stderr}`,
      bibtexStatus: bibtex.status ?? 0,
      cited: Array.from(bbl.matchAll(/\\bibitem\{([^}]*)\}/g), (m) => m[1]!)
    }
  } finally {
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}
