/**
 * A newcomer's first hour (issue 39), as processes of the bundled `s2` against the in-process
 * emulator: one id syntax in every command, outputs that lose nothing, and the small things a first
 * run shows (a chart of a few papers, the graph's progress and its interruption).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Bin from "./support/bin.js"

const bin = Bin.bundleBin()
const s2 = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => Bin.finish(Bin.start(bin, args, env))
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
