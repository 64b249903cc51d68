/**
 * `s2 graph`: the real bin against the in-process emulator (`--emulator`) and an HTTP emulator,
 * whose request log checks the request budget and whose latency leaves time for a Ctrl-C.
 */
import { describe, expect, it } from "@effect/vitest"
import { type EmulatorServer, Faults, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { differences, type Settings } from "../src/commands/graph.js"
import { xmlText } from "../src/render/Graph.js"
import * as Bin from "./support/bin.js"

const bin = Bin.bundleBin()
const s2 = (args: ReadonlyArray<string>) => Bin.finish(Bin.start(bin, args))
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-graph-"))
let n = 0
const fresh = (ext: string) => path.join(dir, `graph-${n++}.${ext}`)

const seed = "arXiv:1706.03762"
const walkAt = (depth: number) => ["graph", seed, "--direction", "both", "--depth", String(depth), "--per-node", "4"]
const walk = walkAt(2)

interface Line {
  readonly type: string
  readonly depth?: number
  readonly paper?: { readonly paperId: string; readonly title?: string }
  readonly from?: string
  readonly to?: string
}
const jsonl = (text: string): Array<Line> => text.trim().split("\n").map((line) => JSON.parse(line) as Line)

/** Every edge's two ends are nodes listed before it; no node twice. */
const checkEnds = (nodes: ReadonlyArray<string>, edges: ReadonlyArray<readonly [string, string, number]>) => {
  expect(new Set(nodes).size).toBe(nodes.length)
  for (const [from, to, at] of edges) {
    expect(nodes.indexOf(from)).toBeGreaterThanOrEqual(0)
    expect(nodes.indexOf(to)).toBeGreaterThanOrEqual(0)
    expect(Math.max(nodes.indexOf(from), nodes.indexOf(to))).toBeLessThan(at)
  }
}

/** A small XML reader: every tag balanced, only the five entities, one root; the elements in order. */
const parseXml = (text: string): Array<{ name: string; attrs: Record<string, string>; text: string }> => {
  const body = text.replace(/^<\?xml[^?]*\?>\s*/, "")
  const stack: Array<{ name: string; attrs: Record<string, string>; text: string }> = []
  const all: Array<{ name: string; attrs: Record<string, string>; text: string }> = []
  const unescape = (s: string) => {
    expect(s.replace(/&(amp|lt|gt|quot|apos);/g, "")).not.toMatch(/[&<]/)
    return s.replace(
      /&(amp|lt|gt|quot|apos);/g,
      (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'" })[e]!
    )
  }
  let roots = 0
  for (const token of body.match(/<[^>]*>|[^<]+/g) ?? []) {
    if (!token.startsWith("<")) {
      if (stack.length === 0) expect(token.trim()).toBe("")
      else stack[stack.length - 1]!.text += unescape(token)
      continue
    }
    if (token.startsWith("</")) {
      expect(stack.pop()?.name).toBe(token.slice(2, -1))
      continue
    }
    const [, name, rest] = /^<([\w:.-]+)([^>]*?)\/?>$/.exec(token)!
    const attrs: Record<string, string> = {}
    for (const [, key, value] of rest!.matchAll(/([\w:.-]+)="([^"]*)"/g)) attrs[key!] = unescape(value!)
    const element = { name: name!, attrs, text: "" }
    all.push(element)
    if (stack.length === 0) roots++
    if (!token.endsWith("/>")) stack.push(element)
  }
  expect(stack).toEqual([])
  expect(roots).toBe(1)
  return all
}

describe("s2 graph, formats", () => {
  it("jsonl: node and edge lines, every edge's ends are nodes of the file, a summary", async () => {
    const out = fresh("jsonl")
    const ran = await s2([...walk, "--emulator", "--out", out])
    expect(ran.stderr).toBe("")
    expect(ran.code).toBe(0)
    const lines = jsonl(fs.readFileSync(out, "utf8"))
    const nodes = lines.flatMap((l) => l.type === "node" ? [l.paper!.paperId] : [])
    const edges = lines.flatMap((l, i) => l.type === "edge" ? [[l.from!, l.to!, i] as const] : [])
    expect(lines[0]).toMatchObject({ type: "node", depth: 0, paper: { title: "Attention Is All You Need" } })
    expect(Object.keys(lines[0]!.paper!).sort()).toEqual(["citationCount", "paperId", "title", "year"])
    expect(new Set(lines.flatMap((l) => l.type === "node" ? [l.depth] : []))).toEqual(new Set([0, 1, 2]))
    expect(edges.length).toBeGreaterThan(4)
    checkEnds(nodes, edges)
    expect(ran.stdout).toMatch(new RegExp(`^wrote ${nodes.length} papers and ${edges.length} citations into `))
    expect(fs.existsSync(`${out}.checkpoint.json`)).toBe(true)
  }, 60_000)

  it("without --out: the same lines on standard output", async () => {
    const out = fresh("jsonl")
    const [file, piped] = await Promise.all([s2([...walk, "--emulator", "--out", out]), s2([...walk, "--emulator"])])
    expect(file.code).toBe(0)
    expect(piped.code).toBe(0)
    expect(piped.stdout).toBe(fs.readFileSync(out, "utf8"))
  }, 60_000)

  it("csv: one table with a type column; edge rows name node rows", async () => {
    const ran = await s2([...walk, "--emulator", "--format", "csv"])
    expect(ran.code).toBe(0)
    const rows = ran.stdout.split("\r\n")
    expect(rows[0]).toBe("type,paperId,depth,title,year,citationCount,from,to")
    expect(rows.at(-1)).toBe("")
    expect(rows[1]).toMatch(/^node,[0-9a-f]{40},0,Attention Is All You Need,2017,\d+,,$/)
    const cells = rows.slice(1, -1).map((r) => r.split(","))
    const nodes = cells.flatMap((c) => c[0] === "node" ? [c[1]!] : [])
    const edges = cells.flatMap((c, i) => c[0] === "edge" ? [[c.at(-2)!, c.at(-1)!, i] as const] : [])
    expect(edges.length).toBeGreaterThan(4)
    checkEnds(nodes, edges)
  }, 60_000)

  it(
    "graphml: valid XML, one <node> per paper with title/year/citationCount data, one <edge> per citation",
    async () => {
      const out = fresh("graphml")
      const [xml, lines] = await Promise.all([
        s2([...walk, "--emulator", "--format", "graphml", "--out", out]),
        s2([...walk, "--emulator"])
      ])
      expect(xml.code).toBe(0)
      const elements = parseXml(fs.readFileSync(out, "utf8"))
      expect(elements[0]!.name).toBe("graphml")
      expect(elements.filter((e) => e.name === "key").map((e) => e.attrs["id"])).toEqual(
        ["title", "year", "citationCount", "depth"]
      )
      const nodes = elements.flatMap((e, i) => e.name === "node" ? [[e.attrs["id"]!, i] as const] : [])
      const edges = elements.flatMap((e, i) =>
        e.name === "edge" ? [[e.attrs["source"]!, e.attrs["target"]!, i] as const] : []
      )
      const expected = jsonl(lines.stdout)
      expect(nodes.map(([id]) => id)).toEqual(expected.flatMap((l) => l.type === "node" ? [l.paper!.paperId] : []))
      expect(edges.map(([from, to]) => `${from}>${to}`)).toEqual(
        expected.flatMap((l) => l.type === "edge" ? [`${l.from}>${l.to}`] : [])
      )
      // Element positions: a node's <data> children come after it, so "before" still holds.
      checkEnds(nodes.map(([id]) => id), edges)
      const first = elements.findIndex((e) => e.name === "node")
      expect(elements.slice(first + 1, first + 5).map((e) => [e.attrs["key"], e.text])).toEqual([
        ["title", "Attention Is All You Need"],
        ["year", "2017"],
        ["citationCount", expect.stringMatching(/^\d+$/)],
        ["depth", "0"]
      ])
    },
    60_000
  )

  it(
    "--min-year and --min-citations keep only the papers that pass (the seed always), with the fields they read",
    async () => {
      const found = async (filter: ReadonlyArray<string>) => {
        const ran = await s2([...walk, "--emulator", "--fields", "title", ...filter])
        expect(ran.code).toBe(0)
        return jsonl(ran.stdout).filter((l) => l.type === "node" && l.depth! > 0).map((l) =>
          l.paper as unknown as { year: number; citationCount: number }
        )
      }
      const [all, recent, cited] = await Promise.all([
        found([]),
        found(["--min-year", "2019"]),
        found(["--min-citations", "3"])
      ])
      expect(recent.length).toBeGreaterThan(0)
      expect(cited.length).toBeGreaterThan(0)
      expect(cited.length).toBeLessThan(all.length)
      for (const paper of recent) expect(paper.year).toBeGreaterThanOrEqual(2019)
      for (const paper of cited) expect(paper.citationCount).toBeGreaterThanOrEqual(3)
    },
    60_000
  )

  it("a bad --depth or --per-node is refused before --out is created", async () => {
    const out = fresh("jsonl")
    const [depth, perNode] = await Promise.all([
      s2([...walkAt(-1), "--emulator", "--out", out]),
      s2(["graph", seed, "--per-node", "0", "--emulator", "--out", out])
    ])
    expect([depth.code, perNode.code]).toEqual([2, 2])
    expect(depth.stderr).toContain("--depth -1 is invalid")
    expect(perNode.stderr).toContain("--per-node 0 is invalid")
    expect(fs.existsSync(out)).toBe(false)
  }, 60_000)

  it("xmlText escapes markup and drops what XML cannot hold", () => {
    expect(xmlText(`a<b>&"c'\u0001\uD800d\u{1F600}`)).toBe("a&lt;b&gt;&amp;&quot;c&apos;d\u{1F600}")
  })
})

describe("s2 graph, resume", () => {
  it("a differing setting on --resume is named", async () => {
    const out = fresh("jsonl")
    expect((await s2([...walk, "--emulator", "--out", out])).code).toBe(0)
    const again = await s2([...walkAt(3), "--emulator", "--out", out, "--resume"])
    expect(again.code).not.toBe(0)
    expect(again.stderr).toContain("the checkpoint is for --depth 2; this run has --depth 3")
    const done = await s2([...walk, "--emulator", "--out", out, "--resume"])
    expect(done.code).toBe(0)
    expect(done.stdout).toMatch(/is complete: .*nothing to do/)
    const refused = await s2([...walk, "--emulator", "--out", out])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain("--resume")
  }, 60_000)

  it("differences names each differing setting as typed", () => {
    const a: Settings = {
      seeds: ["A"],
      direction: "both",
      depth: 2,
      perNode: 5,
      order: "listed",
      minYear: null,
      minCitations: null,
      fields: ["title"],
      format: "jsonl"
    }
    expect(differences(a, { ...a, perNode: 9, minYear: 2015 })).toBe(
      "the checkpoint is for --per-node 5 and no --min-year; this run has --per-node 9 and --min-year 2015"
    )
  })

  const withServer = async (body: (server: EmulatorServer) => Promise<void>, latency = false) => {
    const scope = Effect.runSync(Scope.make())
    try {
      const server = await Effect.runPromise(
        startEmulator({
          seed: 1,
          size: 2000,
          ...(latency ? { faults: { script: [{ requests: { from: 1 }, fault: Faults.latency("100 millis") }] } } : {})
        }).pipe(Scope.provide(scope))
      )
      await body(server)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }

  it("SIGINT, then --resume: the same file as an uninterrupted run, byte for byte", () =>
    withServer(async (server) => {
      const args = ["graph", seed, "--direction", "both", "--depth", "2", "--per-node", "6", "--api-url", server.url]
      for (const format of ["jsonl", "graphml"]) {
        const whole = fresh(format)
        expect((await s2([...args, "--format", format, "--out", whole])).code).toBe(0)
        const out = fresh(format)
        const child = Bin.start(bin, [...args, "--format", format, "--out", out])
        const done = Bin.finish(child)
        // Interrupted once a batch beyond the header is checkpointed, before the end.
        for (let i = 0; i < 400; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25))
          const text = fs.existsSync(`${out}.checkpoint.json`) ? fs.readFileSync(`${out}.checkpoint.json`, "utf8") : ""
          if (/"records": [1-9]/.test(text)) break
        }
        child.kill("SIGINT")
        const stopped = await done
        expect(stopped.stderr).toContain("run the same command with --resume")
        const partial = fs.readFileSync(out, "utf8")
        expect(partial.length).toBeLessThan(fs.readFileSync(whole, "utf8").length)
        const resumed = await s2([...args, "--format", format, "--out", out, "--resume"])
        // Progress lines only (stderr is not a terminal): no error, no warning.
        expect(resumed.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("graph: "))).toEqual([])
        expect(resumed.code).toBe(0)
        expect(resumed.stdout).toContain("resumed at")
        expect(fs.readFileSync(out)).toEqual(fs.readFileSync(whole))
      }
    }, true), 120_000)

  it(
    "request budget: one list page per expanded paper and list, one batch per 500 new papers of a level",
    () =>
      withServer(async (server) => {
        const ran = await s2([
          "graph",
          seed,
          "--direction",
          "citations",
          "--depth",
          "2",
          "--per-node",
          "30",
          "--api-url",
          server.url
        ])
        expect(ran.code).toBe(0)
        const lines = jsonl(ran.stdout)
        const depths = [0, 1, 2].map((d) => lines.filter((l) => l.type === "node" && l.depth === d).length)
        const counts = Effect.runSync(server.requestCounts)
        const lists = Object.entries(counts).filter(([p]) => p.endsWith("/citations")).reduce((s, [, c]) => s + c, 0)
        expect(lists).toBe(depths[0]! + depths[1]!)
        expect(counts["/graph/v1/paper/batch"]).toBe(1 + depths.slice(1).reduce((s, d) => s + Math.ceil(d / 500), 0))
        expect(Object.keys(counts).every((p) => p === "/graph/v1/paper/batch" || p.endsWith("/citations"))).toBe(true)
      }),
    60_000
  )
})
