/**
 * `s2 verify`: the real bin against the in-process emulator (`--emulator`): a .bib mixing real,
 * wrong-year and invented entries told apart, the exit codes, the JSON lines, the summary line, and
 * the corrected entries.
 */
import { describe, expect, it } from "@effect/vitest"
import { compileBib, texInstalled } from "@s2-effect/test-support/latex"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { runS2 } from "./support/inProcess.js"

const s2 = (args: ReadonlyArray<string>, input?: string) => runS2(args, input === undefined ? {} : { stdin: input })

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-verify-"))
const write = (name: string, text: string): string => {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

const T = 60_000

const REAL = String.raw`@article{turing50,
  author = {Turing, Alan M.},
  title = {Computing Machinery and Intelligence},
  journal = {Mind},
  year = {1950},
  doi = {10.1093/mind/LIX.236.433},
  note = {The imitation game}
}
@inproceedings{ammar18,
  author = {Ammar, Waleed and Groeneveld, Dirk and others},
  title = {Construction of the Literature Graph in {S}emantic {S}cholar},
  booktitle = {Proceedings of NAACL-HLT},
  year = {2018}
}
`

const WRONG_YEAR = String.raw`@inproceedings{vaswani17,
  author = {Vaswani, Ashish and Shazeer, Noam and others},
  title = {Attention is All you Need},
  booktitle = {Advances in Neural Information Processing Systems},
  year = {2014},
  eprint = {1706.03762}, archivePrefix = {arXiv},
  keywords = {transformers},
  publisher = {Curran Associates}
}
`

const INVENTED = String.raw`@article{doe21,
  author = {Doe, Jane},
  title = {Deep Reinforcement Learning of Knowledge Graphs with Transformers},
  journal = {Nature Machine Intelligence},
  year = {2021}
}
`

const jsonl = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line))

describe("s2 verify", () => {
  it("every entry verified: the table and its summary line, exit 0", async () => {
    const ran = await s2(["verify", write("real.bib", REAL), "--emulator"])
    expect(ran.stderr).toBe("")
    expect(ran.code).toBe(0)
    const lines = ran.stdout.trimEnd().split("\n")
    // No note on any row: no note column.
    expect(lines[0]).toMatch(/^key\s+status\s+paper$/)
    expect(lines[2]).toMatch(/^turing50\s+verified\s+Computing Machinery and Intelligence \(1950\)/)
    // 80 columns: a title too long for its row is cut before its year, which stays (issue 48).
    expect(lines[3]).toMatch(/^ammar18\s+verified\s+Construction of the Literature Graph in Semantic Sch… \(2018\)$/)
    expect(lines.at(-1)).toBe("2 verified, 0 mismatch, 0 not found")
  }, T)

  it("a .bib mixing real, wrong-year and invented entries: which is which, exit 3", async () => {
    const ran = await s2(["verify", write("mixed.bib", REAL + WRONG_YEAR + INVENTED), "--emulator"])
    expect(ran.code).toBe(3)
    const rows = ran.stdout.trimEnd().split("\n")
    expect(rows.slice(2, -1).map((r) => r.split(/\s{2,}/).slice(0, 3))).toEqual([
      ["turing50", "verified", "Computing Machinery and Intelligence (1950)"],
      [
        "ammar18",
        "verified",
        expect.stringMatching(/^Construction of the Literature Graph in Semantic Sch… \(2018\)$/)
      ],
      ["vaswani17", "mismatch: year", "Attention Is All You Need (2017)"],
      ["doe21", "not found", expect.stringMatching(/^nearest \(0\.\d\d\): On the reinforcement learning/)]
    ])
    expect(rows.at(-1)).toBe("2 verified, 1 mismatch, 1 not found")
    expect(ran.stderr).toBe("s2: 2 of 4 references not verified\n")
  }, T)

  it("--format jsonl: exactly one object per entry, in order, with key, status, differs and paper", async () => {
    const ran = await s2([
      "verify",
      write("mixed2.bib", REAL + WRONG_YEAR + INVENTED),
      "--emulator",
      "--format",
      "jsonl"
    ])
    expect(ran.code).toBe(3)
    const records = jsonl(ran.stdout)
    expect(records.map((r) => [r.key, r.status, r.differs, r.paper?.title ?? null])).toEqual([
      ["turing50", "verified", [], "Computing Machinery and Intelligence"],
      ["ammar18", "verified", [], "Construction of the Literature Graph in Semantic Scholar"],
      ["vaswani17", "mismatch", ["year"], "Attention Is All You Need"],
      ["doe21", "notFound", [], null]
    ])
    for (const r of records) expect(Object.keys(r).slice(0, 4)).toEqual(["key", "status", "differs", "paper"])
    expect(records[3].nearest.title).toMatch(/^On the reinforcement learning/)
    expect(records[3].similarity).toBeLessThan(0.9)
    // The summary goes to stderr: stdout is the objects alone.
    expect(ran.stderr).toBe("s2: 2 verified, 1 mismatch, 1 not found\ns2: 2 of 4 references not verified\n")
  }, T)

  it("plain lines are keyed by their line number; standard input with -", async () => {
    const ran = await s2(
      ["verify", "-", "--emulator", "--format", "jsonl"],
      "# references\narXiv:1706.03762\n\nDOI:10.9999/none\n"
    )
    expect(ran.code).toBe(3)
    expect(jsonl(ran.stdout).map((r) => [r.key, r.status])).toEqual([["2", "verified"], ["4", "notFound"]])
  }, T)

  it("no entries is bad input (exit 2); a file that cannot be read is exit 10", async () => {
    const empty = await s2(["verify", write("empty.bib", "% nothing\n"), "--emulator"])
    expect(empty.code).toBe(2)
    expect(empty.stderr).toBe(`s2: no BibTeX entries in ${path.join(dir, "empty.bib")}\n`)
    const missing = await s2(["verify", path.join(dir, "missing.bib"), "--emulator"])
    expect(missing.code).toBe(10)
    expect(missing.stderr).toMatch(/^s2: cannot read .*missing\.bib: no such file or directory \(ENOENT\)\n$/)
  }, T)

  // Changed with issue 45: the bibtex output left out the entries it doubted (doe21 here), so a
  // document's \cite{doe21} no longer compiled. Every entry is written now.
  it(
    "--format bibtex --out: every entry, verified as written, mismatches corrected, the rest marked; it compiles",
    async () => {
      const out = path.join(dir, "fixed.bib")
      const ran = await s2([
        "verify",
        write("fix.bib", REAL + WRONG_YEAR + INVENTED),
        "--emulator",
        "--format",
        "bibtex",
        "--out",
        out
      ])
      expect(ran.code).toBe(3)
      expect(ran.stdout).toBe("")
      const bib = fs.readFileSync(out, "utf8")
      expect([...bib.matchAll(/^@(\w+)\{([^,]+),/gm)].map((m) => [m[1], m[2]])).toEqual([
        ["article", "turing50"],
        ["inproceedings", "ammar18"],
        ["inproceedings", "vaswani17"],
        ["article", "doe21"]
      ])
      const vaswani = bib.slice(bib.indexOf("@inproceedings{vaswani17,"), bib.indexOf("@article{doe21"))
      // The year and the rest as Semantic Scholar has them; the user's own field kept, theirs in a comment.
      expect(vaswani).toContain("  year = {2017},\n")
      expect(vaswani).not.toContain("2014")
      expect(vaswani).toContain("  keywords = {transformers}")
      // A field the record does not have is the user's (issue 44 point 7), and what was replaced is said.
      expect(vaswani).toContain("  publisher = {Curran Associates}")
      expect(bib).toMatch(
        /^% s2: Semantic Scholar's values written in place of yours, which differ: [a-z, ]*booktitle[a-z, ]*\n@inproceedings\{vaswani17,/m
      )
      expect(vaswani).not.toContain("Advances in")
      expect(bib).toContain("%   year = {2014}\n")
      expect(bib).toContain("%   archiveprefix = {arXiv}\n")
      expect(bib).toContain("  note = {The imitation game}")
      expect(bib).toMatch(
        /% s2 verify: doe21: not found, likely invented; kept as written[^\n]*\n@article\{doe21,\n  author = \{Doe, Jane\}/
      )
      expect(ran.stderr.split("\n")).toEqual([
        "s2: @vaswani17: year differs; written as Semantic Scholar has it",
        expect.stringMatching(
          /^s2: @doe21: not found, kept as written, marked: no paper has this title; the nearest, "On the .*needed\)$/
        ),
        "s2: 2 verified, 1 mismatch, 1 not found",
        "s2: 2 of 4 references not verified",
        ""
      ])
      // As a user compiles it: no BibTeX or LaTeX error, every entry cited under the user's key.
      expect(texInstalled()).toBe(true)
      const compiled = compileBib(bib)
      expect(compiled.bibtexOutput).not.toMatch(/error message|Repeated entry|I was expecting/i)
      expect(compiled.bibtexStatus).toBeLessThan(2)
      expect(compiled.latexErrors).toEqual([])
      expect([...compiled.cited].sort()).toEqual(["ammar18", "doe21", "turing50", "vaswani17"])
    },
    T
  )

  it(
    "--format bibtex|csl-json|ris: a mismatch whose title and authors differ is never another work under the key",
    async () => {
      // A typo'd DOI naming Turing's paper, and an arXiv id with another first author.
      const file = write(
        "other.bib",
        String.raw`@article{he16,
  author = {He, Kaiming},
  title = {Deep Residual Learning for Image Recognition},
  doi = {10.1093/mind/lix.236.433}
}
@inproceedings{smith17,
  author = {Smith, John},
  title = {Attention is All you Need},
  eprint = {1706.03762}, archivePrefix = {arXiv}
}
` + WRONG_YEAR
      )
      const bib = await s2(["verify", file, "--emulator", "--format", "bibtex"])
      expect(bib.code).toBe(3)
      expect([...bib.stdout.matchAll(/^@(\w+)\{([^,]+),/gm)].map((m) => m[2])).toEqual(["he16", "smith17", "vaswani17"])
      // he16 as the user wrote it, marked: never Turing's paper under their key.
      expect(bib.stdout).toContain("@article{he16,\n  author = {He, Kaiming},\n  title = {Deep Residual Learning")
      expect(bib.stdout).not.toMatch(/@\w+\{he16,[^@]*Computing Machinery/)
      expect(bib.stderr.split("\n")).toEqual([
        "s2: @he16: title, authors differ: the paper found, \"Computing Machinery and Intelligence\" (1950), " +
        "may be another work; check the entry, kept as written, marked",
        "s2: @smith17: authors differs; written as Semantic Scholar has it",
        "s2: @vaswani17: year differs; written as Semantic Scholar has it",
        "s2: 0 verified, 3 mismatch, 0 not found",
        "s2: 3 of 3 references not verified",
        ""
      ])
      const csl = await s2(["verify", file, "--emulator", "--format", "csl-json"])
      expect((JSON.parse(csl.stdout) as Array<{ id: string }>).map((i) => i.id)).toEqual(["smith17", "vaswani17"])
      const ris = await s2(["verify", file, "--emulator", "--format", "ris"])
      expect([...ris.stdout.matchAll(/^ID {2}- (.*)\r$/gm)].map((m) => m[1])).toEqual(["smith17", "vaswani17"])
    },
    T
  )

  it("issue 44 points 3 and 7: a key written twice is flagged; a field name BibTeX reads is written back", async () => {
    const file = write(
      "twice.bib",
      REAL.replace("note = {The imitation game}", "note = {The imitation game}, x/y = {one}, a@b = {two}") +
        String
          .raw`@article{Turing50, author = {Turing, Alan M.}, title = {A Theory of Everything Machines}, year = {1951}}
`
    )
    const table = await s2(["verify", file, "--emulator"])
    expect(table.code).toBe(3)
    const rows = table.stdout.trimEnd().split("\n").slice(2, -1).map((r) => r.split(/\s{2,}/))
    expect(rows.map((r) => r.slice(0, 2))).toEqual([["turing50", "verified"], ["ammar18", "verified"], [
      "Turing50",
      "unchecked"
    ]])
    // The note, cut to the table's 80 columns.
    expect(rows[2]![2]).toMatch(/^key written twice \(first on line 1, a/)
    const bib = await s2(["verify", file, "--emulator", "--format", "bibtex"])
    expect(bib.stdout).toContain(
      `% s2: left out, not a field name we write (printable ASCII, no at sign or backslash): "a(at)b"\n@article{turing50,`
    )
    expect(bib.stdout).toContain("  note = {The imitation game},\n  x/y = {one}\n}")
  }, T)

  it("--format csl-json and ris: the same entries, under the user's keys", async () => {
    const file = write("fix2.bib", REAL + WRONG_YEAR + INVENTED)
    const csl = await s2(["verify", file, "--emulator", "--format", "csl-json"])
    expect(csl.code).toBe(3)
    const items = JSON.parse(csl.stdout) as Array<{ id: string; issued: { "date-parts": Array<Array<number>> } }>
    expect(items.map((i) => [i.id, i.issued["date-parts"][0]![0]])).toEqual([
      ["turing50", 1950],
      ["ammar18", 2018],
      ["vaswani17", 2017]
    ])
    const ris = await s2(["verify", file, "--emulator", "--format", "ris"])
    expect(ris.code).toBe(3)
    expect([...ris.stdout.matchAll(/^ID {2}- (.*)\r$/gm)].map((m) => m[1])).toEqual([
      "turing50",
      "ammar18",
      "vaswani17"
    ])
  }, T)
})
