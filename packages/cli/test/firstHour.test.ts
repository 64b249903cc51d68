/**
 * A newcomer's first hour (issue 39), `s2` against the in-process emulator: one id syntax in every
 * command, outputs that lose nothing, and the small things a first run shows (a chart of a few
 * papers, the graph's progress and its interruption).
 *
 * Runs in process (support/inProcess.ts), but for the graph stopped by Ctrl-C: SIGINT reaches a
 * real process, and its exit code (130) is `main.ts`'s, so that one starts the bundled bin.
 */
import { describe, expect, it } from "@effect/vitest"
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import { waitFor } from "@s2-effect/test-support"
import { startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"

const s2 = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => runS2(args, { env })
const T = 60_000

const attention = "204e3073870fae3d05bcbc2f6a8e263d9b72e776"
const turing = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"

const jsonLines = (text: string): Array<Record<string, unknown>> =>
  text.trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

describe("one id syntax: every command takes what s2 resolve takes", () => {
  it.each([
    ["an arXiv link", "https://arxiv.org/abs/1706.03762", attention],
    ["an arXiv PDF link with its version", "https://arxiv.org/pdf/1706.03762v5.pdf", attention],
    ["a lower-case prefix", "arxiv:1706.03762", attention],
    ["a doi.org link", "https://doi.org/10.1093/mind/lix.236.433", turing],
    ["a bare DOI", "10.1093/mind/lix.236.433", turing],
    ["doi: in lower case", "doi:10.1093/mind/lix.236.433", turing],
    ["a semanticscholar.org link", `https://www.semanticscholar.org/paper/Attention/${attention}`, attention]
  ])("s2 paper with %s", async (_, id, paperId) => {
    const ran = await s2(["paper", id, "--fields", "title", "--format", "jsonl", "--emulator"])
    expect(ran.stderr).toBe("")
    expect(ran.code).toBe(0)
    expect(jsonLines(ran.stdout)).toEqual([expect.objectContaining({ paperId })])
  }, T)

  it("papers (arguments and --ids-file), citations, references, paper-authors, recommend, graph", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-ids-"))
    const idsFile = path.join(dir, "ids.txt")
    fs.writeFileSync(idsFile, "https://doi.org/10.1093/mind/lix.236.433\n")
    const link = "https://arxiv.org/abs/1706.03762"
    const common = ["--format", "jsonl", "--emulator"]
    const [papers, citations, byLink, references, authors, recommend, positive, graph] = await Promise.all([
      s2(["papers", link, "--ids-file", idsFile, "--fields", "title", ...common]),
      s2(["citations", link, "--max", "3", "--fields", "title", ...common]),
      s2(["citations", "ARXIV:1706.03762", "--max", "3", "--fields", "title", ...common]),
      s2(["references", link, "--max", "1", "--fields", "title", ...common]),
      s2(["paper-authors", link, "--fields", "name", ...common]),
      s2(["recommend", link, "--max", "1", "--fields", "title", ...common]),
      s2(["recommend", "--positive", link, "--negative", "10.1093/mind/lix.236.433", "--max", "1", ...common]),
      s2(["graph", link, "--depth", "0", "--emulator"])
    ])
    for (const ran of [papers, citations, references, authors, recommend, positive, graph]) {
      expect(ran.stderr).toBe("")
      expect(ran.code).toBe(0)
    }
    expect(jsonLines(papers.stdout).map((p) => p["paperId"])).toEqual([attention, turing])
    expect(citations.stdout).toBe(byLink.stdout)
    expect(jsonLines(citations.stdout)).toHaveLength(3)
    expect(jsonLines(references.stdout)).toHaveLength(1)
    expect(jsonLines(authors.stdout).length).toBeGreaterThan(0)
    expect(jsonLines(recommend.stdout)).toHaveLength(1)
    expect(jsonLines(positive.stdout)).toHaveLength(1)
    expect(jsonLines(graph.stdout)).toEqual([
      expect.objectContaining({ type: "node", paper: expect.objectContaining({ paperId: attention }) })
    ])
    fs.rmSync(dir, { recursive: true, force: true })
  }, T)

  it("what is no id is still refused with what is allowed", async () => {
    const ran = await s2(["paper", "ARXIV:", "--emulator"])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toMatch(/^s2: /)
  }, T)
})

describe("outputs that lose nothing", () => {
  it("--format csv has a column for every field of every record, not only the first record's", async () => {
    // No title: a cell with a comma would be quoted, and this test splits rows on commas.
    const args = ["search", "attention", "--fields", "year,externalIds", "--max", "20", "--emulator"]
    const [csv, jsonl] = await Promise.all([s2([...args, "--format", "csv"]), s2([...args, "--format", "jsonl"])])
    expect(csv.stderr).toBe("")
    expect(csv.code).toBe(0)
    const records = jsonLines(jsonl.stdout)
    const fieldsOf = (r: Record<string, unknown>) => [
      ...Object.keys(r).filter((k) => k !== "externalIds"),
      ...Object.keys((r["externalIds"] ?? {}) as object).map((k) => `externalIds.${k}`)
    ]
    const every = new Set(records.flatMap(fieldsOf))
    const first = new Set(fieldsOf(records[0]!))
    // The defect's case: a later record has an id kind (ArXiv, ACL, …) the first one lacks.
    expect([...every].filter((f) => !first.has(f)).length).toBeGreaterThan(0)
    const [header, ...rows] = csv.stdout.split("\r\n").filter((l) => l !== "")
    expect(new Set(header!.split(","))).toEqual(every)
    expect(rows).toHaveLength(records.length)
    // Each record's values are in its row, under their column.
    const columns = header!.split(",")
    records.forEach((record, k) => {
      const cells = rows[k]!.split(",")
      const ids = (record["externalIds"] ?? {}) as Record<string, unknown>
      for (const [kind, value] of Object.entries(ids)) {
        expect(cells[columns.indexOf(`externalIds.${kind}`)]).toBe(String(value))
      }
    })
  }, T)

  it("s2 graph --format csv|graphml with --fields is refused, naming the columns it has", async () => {
    for (const format of ["csv", "graphml"]) {
      const ran = await s2(["graph", "arXiv:1706.03762", "--format", format, "--fields", "title,authors", "--emulator"])
      expect(ran.code).toBe(2)
      expect(ran.stdout).toBe("")
      expect(ran.stderr).toBe(
        `s2: --fields applies to --format jsonl only: a ${format} file has the fields title, year, citationCount` +
          " of each paper (with its paperId and depth); leave --fields out, or use --format jsonl\n"
      )
    }
    const jsonl = await s2(["graph", "arXiv:1706.03762", "--depth", "0", "--fields", "title,authors", "--emulator"])
    expect(jsonl.code).toBe(0)
    expect(Object.keys((jsonLines(jsonl.stdout)[0]!["paper"]) as object).sort()).toEqual([
      "authors",
      "paperId",
      "title"
    ])
  }, T)
})

describe("small things a first run shows", () => {
  it("a 5-paper harvest's chart has a row only for the years with papers", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-chart-"))
    const out = path.join(dir, "five.jsonl")
    const ran = await s2(["harvest", "graph", "--max", "5", "--out", out, "--emulator"])
    expect(ran.code).toBe(0)
    const years = new Map<string, number>()
    for (const paper of jsonLines(fs.readFileSync(out, "utf8"))) {
      const year = String(paper["year"] ?? "no year")
      years.set(year, (years.get(year) ?? 0) + 1)
    }
    const rows = ran.stdout.slice(ran.stdout.indexOf("papers per year:\n") + 17).trim().split("\n")
    expect(rows.map((row) => row.replace(/ │.*$/, "").trim()).sort()).toEqual([...years.keys()].sort())
    expect(rows.every((row) => !/│ 0$/.test(row))).toBe(true)
    expect(ran.stdout).toMatch(/\(\d+ papers?\/s\)/)
    fs.rmSync(dir, { recursive: true, force: true })
  }, T)

  it("the graph's progress has no 'ETA ?', and Ctrl-C says how much was saved and how to go on", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-graph-int-"))
    const out = path.join(dir, "walk.jsonl")
    const faults = JSON.stringify({ script: [{ requests: { from: 1 }, fault: { _tag: "Latency", millis: 300 } }] })
    const child = Bin.start(
      Bin.bundleBin(),
      [
        "graph",
        "arXiv:1706.03762",
        "--direction",
        "both",
        "--depth",
        "2",
        "--per-node",
        "6",
        "--emulator",
        "--out",
        out
      ],
      { S2_EMULATOR_FAULTS: faults }
    )
    let stderr = ""
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()))
    const done = Bin.finish(child)
    const checkpoint = `${out}.checkpoint.json`
    // A progress line shown and a batch of nodes saved, then Ctrl-C before the walk's end.
    await waitFor(
      () =>
        stderr.includes("graph: ") && fs.existsSync(checkpoint) &&
        /"records": [1-9]/.test(fs.readFileSync(checkpoint, "utf8")),
      { what: "a progress line and a saved batch" }
    )
    child.kill("SIGINT")
    const stopped = await done
    expect(stopped.code).toBe(130)
    const progress = stopped.stderr.split("\n").filter((l) => l.startsWith("graph: "))
    expect(progress.length).toBeGreaterThan(0)
    for (const line of progress) {
      expect(line).not.toContain("ETA")
      expect(line).not.toMatch(/\b1 papers\b|\b1 pages\b/)
      expect(line).toMatch(/^graph: [\d,]+ papers? · [\d,]+ pages? · [\d,]+ papers?\/s$/)
    }
    const lines = jsonLines(fs.readFileSync(out, "utf8"))
    const nodes = lines.filter((l) => l["type"] === "node").length
    const edges = lines.filter((l) => l["type"] === "edge").length
    expect(nodes).toBeGreaterThan(0)
    const noun = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`
    expect(stopped.stderr).toContain(
      `\ns2: graph interrupted: ${noun(nodes, "paper")}, ${noun(edges, "citation")} saved to ${out};` +
        " run the same command with --resume to go on\n"
    )
    fs.rmSync(dir, { recursive: true, force: true })
  }, T)
  it("a paper the server does not know names its id once: the command's words, then the exchange", async () => {
    const ran = await s2(["paper", "DOI:10.1234/no-such-paper", "--emulator"])
    expect(ran.code).toBe(3)
    expect(ran.stderr).toMatch(
      /^s2: paper DOI:10\.1234\/no-such-paper failed: not found \(HTTP 404 from GET https:\/\//
    )
    // The id appears in the command's words and in the request's URL, not a third time from the server's text.
    expect(ran.stderr.split("no-such-paper").length - 1).toBe(2)
    expect(ran.stderr.trimEnd().endsWith("check the id or the query")).toBe(true)
  }, T)
})

describe("s2 --help", () => {
  it("a command's wrapped description goes on under its description, not in the command column", async () => {
    const ran = await s2(["--help"])
    expect(ran.code).toBe(0)
    const rows = ran.stdout.slice(
      ran.stdout.indexOf("COMMANDS\n") + 9,
      ran.stdout.indexOf("\n\n", ran.stdout.indexOf("COMMANDS\n"))
    )
      .split("\n")
    // The description column: where the first row's description starts.
    const column = /^ {2}\S+ +/.exec(rows[0]!)![0].length
    expect(column).toBeGreaterThan(10)
    const continued = rows.filter((row) => !/^ {2}\S/.test(row))
    expect(continued.length).toBeGreaterThan(0)
    for (const row of continued) expect(row).toMatch(new RegExp(`^ {${column}}\\S`))
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(100)
  }, T)
})

describe("a first version", () => {
  /** The version the changelog's newest entry names (changesets writes it with the package's version). */
  const released = /^## (\d+\.\d+\.\d+)$/m.exec(
    fs.readFileSync(new URL("../CHANGELOG.md", import.meta.url), "utf8")
  )?.[1]

  it("s2 --version, the MCP serverInfo and the User-Agent name the released version, not 0.0.0", async () => {
    expect(released).toBeDefined()
    expect(released).not.toBe("0.0.0")
    expect(packageJson.version).toBe(released)
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }
    }
    const [version, mcp] = await Promise.all([
      s2(["--version"]),
      runS2(["mcp", "--emulator"], { stdin: JSON.stringify(initialize) + "\n" })
    ])
    expect(version.stdout).toBe(`${released}\n`)
    expect(JSON.parse(mcp.stdout.split("\n")[0]!)).toMatchObject({
      id: 1,
      result: { serverInfo: { name: "s2", version: released } }
    })
    const scope = Effect.runSync(Scope.make())
    try {
      const server = await Effect.runPromise(startEmulator({ seed: 1, size: 200 }).pipe(Scope.provide(scope)))
      const corpusId = server.corpus.paper(0).corpusId
      const ran = await s2(["paper", `CorpusId:${corpusId}`, "--fields", "title", "--api-url", server.url])
      expect(ran.code).toBe(0)
      const requests = await Effect.runPromise(server.requests)
      expect(requests.length).toBeGreaterThan(0)
      for (const request of requests) expect(request.headers["user-agent"]).toBe(`s2/${released} (@s2-effect/cli)`)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, T)
})
