#!/usr/bin/env node
// The BibTeX compile test runs pdflatex and bibtex: Debian's texlive-latex-base (never a downloaded
// TeX). `pnpm test` runs this first, as it does for Chromium and Redis: as root with apt, it
// installs the package when pdflatex or bibtex is missing; otherwise it says what to do.
import { spawnSync } from "node:child_process"

const found = (command) => spawnSync("sh", ["-c", `command -v "${command}"`], { encoding: "utf8" }).status === 0
if (found("pdflatex") && found("bibtex")) process.exit(0)

const root = typeof process.getuid === "function" && process.getuid() === 0
if (!root || !found("apt-get")) {
  console.error(
    "pdflatex and bibtex are needed for the BibTeX compile test and were not found.\n" +
      "Install Debian's texlive-latex-base package (sudo apt-get install texlive-latex-base)."
  )
  process.exit(1)
}

console.error("pdflatex or bibtex not found: installing Debian's texlive-latex-base package for the BibTeX compile test…")
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
for (const args of [["update"], ["install", "-y", "texlive-latex-base"]]) {
  const run = spawnSync("apt-get", args, { stdio: "inherit", env })
  if (run.status !== 0) process.exit(run.status ?? 1)
}
