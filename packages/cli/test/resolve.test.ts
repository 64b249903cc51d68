/**
 * `s2 resolve`: the real bin against the in-process emulator (`--emulator`) and an HTTP emulator in
 * open-world mode (every well-formed id resolves), whose request log checks the request budget.
 */
import { describe, expect, it } from "@effect/vitest"
import { Citable } from "@s2-effect/jobs"
import { type EmulatorServer, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { parseReferences } from "../src/References.js"
import { runS2 } from "./support/inProcess.js"

const s2 = (args: ReadonlyArray<string>, input?: string) => runS2(args, input === undefined ? {} : { stdin: input })

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-resolve-"))
const write = (name: string, text: string): string => {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

const turing = "Computing Machinery and Intelligence"
const attention = "Attention Is All You Need"
const graph = "Construction of the Literature Graph in Semantic Scholar"

const lines = [
  "# landmark papers",
  "https://doi.org/10.1093/mind/lix.236.433",
  "",
  "arXiv:1706.03762",
  graph,
  "10.1093/mind/lix.236.433"
].join("\n")

const jsonl = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line))

describe("s2 resolve, one reference per line", () => {
  it("jsonl: one record per reference, in input order, with how it was found; comments and blank lines skipped", async () => {
    const ran = await s2(["resolve", write("refs.txt", lines), "--emulator", "--format", "jsonl"])
    expect(ran.stderr).toBe("")
    expect(ran.code).toBe(0)
    const records = jsonl(ran.stdout)
    expect(records.map((r) => [r.input, r.via, r.paper.title])).toEqual([
      ["https://doi.org/10.1093/mind/lix.236.433", "id", turing],
      ["arXiv:1706.03762", "id", attention],
      [graph, "title", graph],
      ["10.1093/mind/lix.236.433", "id", turing]
    ])
    // Found by bulk search and checked: no title match was needed, so no matchScore.
    expect(records[2].paper.matchScore).toBeUndefined()
    expect(records[0].paper.matchScore).toBeUndefined()
    expect(Object.keys(records[0].paper).sort()).toEqual(
      ["authors", "externalIds", "paperId", "title", "venue", "year"]
    )
  })

  it("reads standard input with -, and --fields picks the fields", async () => {
    const ran = await s2(["resolve", "-", "--emulator", "--format", "jsonl", "--fields", "title,year"], lines)
    expect(ran.code).toBe(0)
    expect(jsonl(ran.stdout).map((r) => r.paper)).toEqual([
      { paperId: expect.any(String), title: turing, year: 1950 },
      { paperId: expect.any(String), title: attention, year: 2017 },
      { paperId: expect.any(String), title: graph, year: 2018 },
      { paperId: expect.any(String), title: turing, year: 1950 }
    ])
  })

  it("json, csv and table: an array; a header and one row per reference", async () => {
    const file = write("refs.txt", lines)
    const [csv, table, json] = await Promise.all([
      s2(["resolve", file, "--emulator", "--format", "csv", "--fields", "title,year"]),
      s2(["resolve", file, "--emulator", "--format", "table", "--fields", "title,year"]),
      s2(["resolve", file, "--emulator", "--format", "json", "--fields", "title"])
    ])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout).map((r: { paper: { title: string } }) => r.paper.title)).toEqual(
      [turing, attention, graph, turing]
    )
    expect(csv.code).toBe(0)
    const rows = csv.stdout.trim().split("\r\n")
    expect(rows[0]).toBe("input,via,paper.paperId,paper.title,paper.year")
    expect(rows.slice(1).map((r) => r.split(",").slice(3, 5).join(","))).toEqual([
      `${turing},1950`,
      `${attention},2017`,
      `${graph},2018`,
      `${turing},1950`
    ])
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(/^input +via +paper\.paperId +paper\.t/)
    expect(table.stdout).toMatch(/\narXiv:1\S* +id +204e3073870fae3d05bcbc2f6a8e263d9b72e776 +Atten/)
    expect(table.stdout.trim().split("\n")).toHaveLength(6)
  })

  it("bibtex: entries written from the papers' fields, a paper named twice printed once", async () => {
    const ran = await s2(["resolve", write("refs.txt", lines), "--emulator", "--format", "bibtex"])
    expect(ran.code).toBe(0)
    const entries = [...ran.stdout.matchAll(/^@(\w+)\{([^,]+),/gm)].map((m) => `${m[1]}:${m[2]}`)
    expect(entries).toEqual([
      "article:turing1950computing",
      "inproceedings:vaswani2017attention",
      "inproceedings:ammar2018construction"
    ])
    // Capitals braced, so a style that lowercases titles keeps them.
    expect(ran.stdout).toContain("title = {Attention {Is} {All} {You} {Need}}")
    expect(ran.stdout).toContain("  eprint = {1706.03762},\n  archivePrefix = {arXiv}\n")
  })

  it("csl-json: one JSON array of CSL items; ris: one record per paper; the same keys as BibTeX", async () => {
    const file = write("refs.txt", lines)
    const [csl, ris] = await Promise.all([
      s2(["resolve", file, "--emulator", "--format", "csl-json"]),
      s2(["resolve", file, "--emulator", "--format", "ris"])
    ])
    expect([csl.code, ris.code]).toEqual([0, 0])
    const items = JSON.parse(csl.stdout)
    const ids = ["turing1950computing", "vaswani2017attention", "ammar2018construction"]
    expect(items.map((i: { id: string; type: string; title: string }) => [i.id, i.type, i.title])).toEqual([
      [ids[0], "article-journal", turing],
      [ids[1], "paper-conference", attention],
      [ids[2], "paper-conference", graph]
    ])
    expect(items[0].author).toEqual([{ family: "Turing", given: "A." }])
    expect(ris.stdout.split("\r\n\r\n").map((r) => /^TY {2}- (\w+)\r\nID {2}- (\S+)\r\n/.exec(r)?.slice(1))).toEqual([
      ["JOUR", ids[0]],
      ["CPAPER", ids[1]],
      ["CPAPER", ids[2]]
    ])
    expect(ris.stdout).toMatch(/\r\nER {2}- \r\n$/)
  })

  it("refuses --fields with a citable format, exit 2", async () => {
    for (const format of ["bibtex", "csl-json", "ris"]) {
      const ran = await s2(["resolve", "-", "--emulator", "--format", format, "--fields", "title"], lines)
      expect(ran.code).toBe(2)
      expect(ran.stdout).toBe("")
      expect(ran.stderr).toContain(`--fields does not apply to --format ${format}`)
    }
  })

  it("unresolved references: one stderr line each, the others still printed, exit 3", async () => {
    const text = ["arXiv:1706.03762", "DOI:10.9999/not-a-paper", "zzqx qqqq wwww no such title", "DOI:", graph]
      .join("\n")
    const ran = await s2(["resolve", "-", "--emulator", "--format", "jsonl", "--fields", "title"], text)
    expect(ran.code).toBe(3)
    expect(jsonl(ran.stdout).map((r) => r.input)).toEqual(["arXiv:1706.03762", graph])
    const err = ran.stderr.trim().split("\n")
    expect(err.slice(0, 3)).toEqual([
      "s2: not resolved (line 2): DOI:10.9999/not-a-paper: not known to Semantic Scholar",
      "s2: not resolved (line 3): zzqx qqqq wwww no such title: no paper matches the title",
      expect.stringMatching(/^s2: not resolved \(line 4\): DOI:: /)
    ])
    expect(err[3]).toBe("s2: 3 of 5 references not resolved (listed above)")
    expect(err).toHaveLength(4)
  })

  it("an empty list is refused, exit 2; so is an unknown field", async () => {
    const [empty, bib, field] = await Promise.all([
      s2(["resolve", "-", "--emulator"], "# nothing\n\n"),
      s2(["resolve", write("empty.bib", "% nothing yet\n"), "--emulator"]),
      s2(["resolve", "-", "--emulator", "--fields", "title,colour"], lines)
    ])
    expect([empty.code, bib.code, field.code]).toEqual([2, 2, 2])
    expect(empty.stderr).toBe("s2: no references in standard input\n")
    expect(bib.stderr).toMatch(/^s2: no BibTeX entries in .*empty\.bib\n$/)
    expect(field.stderr).toContain("colour")
    expect(field.stdout).toBe("")
  })
})

const bib = String.raw`% my thesis
@article{turing50,
  title = {Computing Machinery and Intelligence},
  author = {Turing, A. M.},
  doi = {10.1093/mind/lix.236.433}
}
@misc{vaswani2017,
  title = "Attention Is All You Need",
  eprint = {1706.03762},
  archivePrefix = {arXiv}
}
@inproceedings{ammar,
  title = {Construction of the {Literature Graph} in {S}emantic {S}cholar}
}
@misc{vaswani2017, title = {Attention is all you need}, eprint = {1706.03762}, archivePrefix = {arXiv}}
@misc{empty, note = {nothing to go by}}
`

describe("s2 resolve, a .bib file", () => {
  it("resolves each entry by doi, eprint, else title, and keeps the user's keys (made unique)", async () => {
    const ran = await s2(["resolve", write("thesis.bib", bib), "--emulator", "--format", "bibtex"])
    expect(ran.code).toBe(3)
    const entries = [...ran.stdout.matchAll(/^@(\w+)\{([^,]+),[\s\S]*?title = \{(.*)\},$/gm)]
    expect(entries.map((m) => [m[1], m[2], m[3]!.replace(/[{}]/g, "")])).toEqual([
      ["article", "turing50", turing],
      ["inproceedings", "vaswani2017", attention],
      ["inproceedings", "ammar", graph],
      ["inproceedings", "vaswani2017a", attention]
    ])
    expect(ran.stderr).toBe(
      "s2: not resolved (@empty, line 16): (empty): the entry has no doi, eprint or title to resolve it by\n" +
        "s2: 1 of 5 references not resolved (listed above)\n"
    )
  })

  it("a .bib to bibtex, ris or csl-json: the user's fields the record lacks are kept (publisher, note, isbn), those a format cannot hold named", async () => {
    const mine = String.raw`@book{turing50,
  title = {Computing Machinery and Intelligence},
  author = {Turing, A. M.},
  doi = {10.1093/mind/lix.236.433},
  publisher = {Oxford University Press},
  isbn = {978-0-19-000000-0},
  note = {Read in the 1950 issue},
  file = {turing.pdf}
}
`
    const file = write("mine.bib", mine)
    const ran = await s2(["resolve", file, "--emulator", "--format", "bibtex"])
    expect(ran.code).toBe(0)
    expect(ran.stdout).toMatch(/^@\w+\{turing50,$/m)
    expect(ran.stdout).toContain("publisher = {Oxford University Press}")
    expect(ran.stdout).toContain("isbn = {978-0-19-000000-0}")
    expect(ran.stdout).toContain("note = {Read in the 1950 issue}")
    const ris = await s2(["resolve", file, "--emulator", "--format", "ris"])
    expect(ris.stdout).toContain("PB  - Oxford University Press")
    // CSL-JSON and RIS carry what they have a place for, and say what they have none for (issue 44 point 7).
    expect(ris.stdout).toContain("SN  - 978-0-19-000000-0\r\nN1  - Read in the 1950 issue\r\n")
    expect(ris.stderr).toContain("s2: @turing50: left out, RIS has no place for: file\n")
    const csl = await s2(["resolve", file, "--emulator", "--format", "csl-json"])
    expect(csl.code).toBe(0)
    expect(JSON.parse(csl.stdout)).toMatchObject([{
      id: "turing50",
      publisher: "Oxford University Press",
      ISBN: "978-0-19-000000-0",
      note: "Read in the 1950 issue"
    }])
    expect(csl.stderr).toContain("s2: @turing50: left out, CSL-JSON has no place for: file\n")
  })

  it("is recognised by its content on standard input, and jsonl records carry the entry's key", async () => {
    const ran = await s2(["resolve", "-", "--emulator", "--format", "jsonl", "--fields", "title"], bib)
    expect(jsonl(ran.stdout).map((r) => [r.key, r.input, r.via])).toEqual([
      ["turing50", "DOI:10.1093/mind/lix.236.433", "id"],
      ["vaswani2017", "ARXIV:1706.03762", "id"],
      ["ammar", graph, "title"],
      ["vaswani2017", "ARXIV:1706.03762", "id"]
    ])
  })
})

describe("s2 resolve, what goes wrong", () => {
  it("a file that cannot be read is exit 10, naming it", async () => {
    const ran = await s2(["resolve", path.join(dir, "missing.txt"), "--emulator"])
    expect(ran.code).toBe(10)
    expect(ran.stderr).toMatch(/^s2: cannot read .*missing\.txt/)
    expect(ran.stdout).toBe("")
  })

  it("an input's control characters are shown escaped in its stderr line", async () => {
    const ran = await s2(
      ["resolve", "-", "--emulator", "--format", "jsonl"],
      "arXiv:1706.03762\nDOI:10.1/\u001b[31mred\n"
    )
    expect(ran.code).toBe(3)
    expect(ran.stderr).not.toContain("\u001b")
    expect(ran.stderr).toMatch(/^s2: not resolved \(line 2\): DOI:10\.1\/\S*\[31mred: /)
  })

  it("a .bib entry without a key is named as such, and BibTeX makes a key for it", async () => {
    const ran = await s2(
      ["resolve", "-", "--emulator", "--format", "bibtex"],
      "@misc{, title = {Attention Is All You Need}}\n@misc{, note = {x}}"
    )
    expect(ran.code).toBe(3)
    expect(ran.stdout).toMatch(/^@inproceedings\{vaswani2017attention,/)
    expect(ran.stderr).toContain("s2: not resolved (an entry without a key, line 2): (empty): the entry has no doi")
  })
})

/** As BibTeX reads a file: an `@` outside an entry starts one; inside, every brace counts (a backslash escapes none). */
const asBibtexReads = (text: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  let i = 0
  while ((i = text.indexOf("@", i)) !== -1) {
    const head = /^@(\w+)\{([^,]*),/.exec(text.slice(i))
    if (head === null) return [...found, `unreadable at ${i}`]
    let depth = 0
    let j = i + head[1]!.length + 1
    for (; j < text.length; j++) {
      if (text[j] === "{") depth++
      else if (text[j] === "}" && --depth === 0) break
    }
    found.push(head[2]!)
    i = j + 1
  }
  return found
}

describe("s2 resolve, a server whose records hold BibTeX (issue 36, point 3)", () => {
  // `\}` is no escape for BibTeX: in the server's own entry this closes the title, and the note
  // holds an entry of the user's key.
  const sneaky = "a\\}}, note={ @misc{turing50, title={not yours}} }"
  const served = {
    paperId: "p1",
    title: `Computing ${sneaky}`,
    venue: sneaky,
    journal: { name: sneaky, pages: sneaky },
    authors: [{ authorId: "1", name: sneaky }],
    citationStyles: { bibtex: `@Article{Turing1950CM,\n title = {${sneaky}},\n year = {1950}\n}\n` }
  }

  it("nothing the server sends opens an entry or closes a field: one entry per reference, each key once", async () => {
    const asked: Array<string> = []
    const server = http.createServer((req, res) => {
      asked.push(req.url ?? "")
      req.resume()
      req.on("end", () => {
        res.setHeader("content-type", "application/json")
        res.end(JSON.stringify(req.url?.startsWith("/graph/v1/paper/batch") ? [served, served] : { error: "no" }))
      })
    })
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const refs = write(
        "hostile.bib",
        "@article{turing50, doi = {10.1093/mind/lix.236.433}}\n@article{other, doi = {10.1/other}}\n"
      )
      const ran = await s2(["resolve", refs, "--api-url", url, "--format", "bibtex"])
      expect(asBibtexReads(ran.stdout)).toEqual(["turing50", "other"])
      expect(ran.stdout).not.toContain("Turing1950CM")
      // The writers' fields were asked for.
      const fields = new URL(asked.find((u) => u.startsWith("/graph/v1/paper/batch"))!, url).searchParams.get("fields")
      expect(fields?.split(",").sort()).toEqual([...Citable.fields].sort())
    } finally {
      await new Promise((done) => server.close(done))
    }
  }, 60_000)
})

describe("the request budget", () => {
  const withServer = async (body: (server: EmulatorServer) => Promise<void>) => {
    const scope = Effect.runSync(Scope.make())
    try {
      const server = await Effect.runPromise(
        startEmulator({ seed: 1, size: 500, openWorld: true }).pipe(Scope.provide(scope))
      )
      await body(server)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }

  it(
    "N ids cost ceil(N/500) batch requests and nothing else, a repeat included",
    () =>
      withServer(async (server) => {
        const ids = Array.from({ length: 1001 }, (_, i) => `CorpusId:${900_000 + i}`)
        const ran = await s2(
          ["resolve", "-", "--api-url", server.url, "--format", "jsonl", "--fields", "title"],
          [...ids, ids[0]].join("\n")
        )
        expect(ran.stderr).toBe("")
        expect(ran.code).toBe(0)
        expect(jsonl(ran.stdout).map((r) => r.input)).toEqual([...ids, ids[0]])
        expect(Effect.runSync(server.requestCounts)).toEqual({ "/graph/v1/paper/batch": 3 })
      }),
    60_000
  )
})

describe("reading references", () => {
  it("tells a .bib text from a list of lines by content when the name does not say", () => {
    expect(parseReferences("% c\n\n@article{k, doi = {10.1/x}}", "-")).toEqual([
      { input: "DOI:10.1/x", key: "k", line: 3, fields: { doi: "10.1/x" }, type: "article" }
    ])
    expect(parseReferences("10.1/x\n#c\nF# for fun and profit # 2\n", "-")).toEqual([
      { input: "10.1/x", line: 1 },
      { input: "F# for fun and profit # 2", line: 3 }
    ])
  })
})
