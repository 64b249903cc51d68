/**
 * `s2 graph` against the in-process emulator (`--emulator`) and an HTTP emulator,
 * whose request log checks the request budget and whose latency leaves time for a Ctrl-C. `s2` runs
 * in process (support/inProcess.ts) but for the walk stopped by SIGINT, a signal that reaches a
 * real process: that one starts the bundled bin.
 */
import { describe, expect, it } from "@effect/vitest"
import { waitFor } from "@s2-effect/test-support"
import { type EmulatorServer, Faults, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as http from "node:http"
import type * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { differences, type Settings } from "../src/commands/graph.js"
import { header, xmlText } from "../src/render/Graph.js"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"

const bin = Bin.bundleBin()
const s2 = (args: ReadonlyArray<string>) => runS2(args)
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
  // As a parser reads them: raw line ends become \n, then (in attribute values) raw tabs and line
  // ends become spaces; character references are read after that, as what they name.
  const reference = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g
  const unescape = (raw: string, attribute: boolean) => {
    expect(raw.replace(reference, "")).not.toMatch(/[&<]/)
    const lines = raw.replace(/\r\n?/g, "\n")
    return (attribute ? lines.replace(/[\t\n]/g, " ") : lines).replace(reference, (_, e: string) =>
      e.startsWith("#x")
        ? String.fromCodePoint(parseInt(e.slice(2), 16))
        : e.startsWith("#")
        ? String.fromCodePoint(Number(e.slice(1)))
        : ({ amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'" } as Record<string, string>)[e]!)
  }
  let roots = 0
  for (const token of body.match(/<[^>]*>|[^<]+/g) ?? []) {
    if (!token.startsWith("<")) {
      if (stack.length === 0) expect(token.trim()).toBe("")
      else stack[stack.length - 1]!.text += unescape(token, false)
      continue
    }
    if (token.startsWith("</")) {
      expect(stack.pop()?.name).toBe(token.slice(2, -1))
      continue
    }
    const [, name, rest] = /^<([\w:.-]+)([^>]*?)\/?>$/.exec(token)!
    const attrs: Record<string, string> = {}
    for (const [, key, value] of rest!.matchAll(/([\w:.-]+)="([^"]*)"/g)) attrs[key!] = unescape(value!, true)
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

  it(
    "no seed found is not found (exit 3, as s2 related), to stdout or to --out; one seed found is a walk",
    async () => {
      const missing = ["CorpusId:999999999", "CorpusId:999999998"]
      const out = fresh("jsonl")
      const [piped, file, some] = await Promise.all([
        s2(["graph", ...missing, "--emulator"]),
        s2(["graph", ...missing, "--emulator", "--out", out]),
        s2(["graph", missing[0]!, seed, "--depth", "0", "--emulator"])
      ])
      for (const ran of [piped, file]) {
        expect(ran.code).toBe(3)
        expect(ran.stderr.trimEnd().split("\n").at(-1)).toBe("s2: none of the seeds was found: nothing to walk")
      }
      expect(piped.stdout).toBe("")
      expect(some.code).toBe(0)
      expect(jsonl(some.stdout).map((l) => [l.type, l.depth])).toEqual([["node", 0]])
      expect(some.stderr).toContain(`seed "${missing[0]}" not found; walking from the others`)
    },
    60_000
  )

  it("an existing --out is refused with advice that speaks of the walk's file, not of a harvest", async () => {
    const out = fresh("jsonl")
    fs.writeFileSync(out, "kept\n")
    const ran = await s2([...walkAt(1), "--emulator", "--out", out])
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain("add --resume to continue from it or --overwrite to start again")
    expect(ran.stderr).not.toContain("harvest")
    expect(fs.readFileSync(out, "utf8")).toBe("kept\n")
    // --overwrite starts the file again: none of the old lines stay before the walk's.
    const again = await s2([...walkAt(1), "--emulator", "--out", out, "--overwrite"])
    expect(again.code).toBe(0)
    const text = fs.readFileSync(out, "utf8")
    expect(text).not.toContain("kept")
    expect(jsonl(text)[0]).toMatchObject({ type: "node", depth: 0 })
  }, 60_000)

  it("xmlText escapes markup and drops what XML cannot hold", () => {
    expect(xmlText(`a<b>&"c'\u0001\uD800d\u{1F600}`)).toBe("a&lt;b&gt;&amp;&quot;c&apos;d\u{1F600}")
  })

  it("xmlText: any text has no character a terminal acts on, and reads back as it was but what XML cannot hold (property)", () => {
    const unit = fc.constantFrom(
      "\u009b",
      "\u202e",
      "\u2066",
      "\u2028",
      "\u2029",
      "\x7f",
      "\x1b",
      "\t",
      "\r",
      "\n",
      "&",
      "<",
      "a"
    )
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit })), (value) => {
        const escaped = xmlText(value)
        expect(escaped).not.toMatch(
          /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
        )
        const [element] = parseXml(`<x a="${escaped}">${escaped}</x>`)
        const kept = value.replace(
          /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
          ""
        )
        expect(element).toEqual({ name: "x", attrs: { a: kept }, text: kept })
      }),
      { numRuns: 300 }
    )
  })

  it("xmlText: a tab, line feed or carriage return is read back as it was, in text and in attributes", () => {
    const value = "a\r\nb\rc\nd\te"
    const [element] = parseXml(`<x a="${xmlText(value)}">${xmlText(value)}</x>`)
    expect(element).toEqual({ name: "x", attrs: { a: value }, text: value })
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

  it(
    "SIGINT, then --resume: the same file as an uninterrupted run, byte for byte (JSON lines, GraphML, the HTML map)",
    () =>
      withServer(async (server) => {
        const args = ["graph", seed, "--direction", "both", "--depth", "2", "--per-node", "6", "--api-url", server.url]
        for (const format of ["jsonl", "graphml", "html"]) {
          const whole = fresh(format)
          expect((await s2([...args, "--format", format, "--out", whole])).code).toBe(0)
          const out = fresh(format)
          const child = Bin.start(bin, [...args, "--format", format, "--out", out])
          const done = Bin.finish(child)
          // Interrupted once a batch beyond the header is checkpointed, before the end.
          await waitFor(() => /"records": [1-9]/.test(fs.readFileSync(`${out}.checkpoint.json`, "utf8")), {
            what: "a checkpointed batch"
          })
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
      }, true),
    120_000
  )

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

const sha = (n: number) => n.toString(16).padStart(40, "0")

/**
 * A server of three papers: the seed `DOI:10.1/seed` (sha(1)) is cited by sha(2), an id with a
 * control character and sha(3); sha(2)'s title holds a carriage return, a tab and a line break.
 */
const titles: Record<string, string> = {
  [sha(1)]: "Seed",
  [sha(2)]: "Two\r\nlines\tand\ra\u0001 return",
  [sha(3)]: "Three",
  // A seed of its own (--depth 0): what JSON.stringify leaves raw, and XML 1.0 holds.
  [sha(5)]: "Hidden\u009b2J \u202Eevil\u202C \u2066iso\u2069 line\u2028para\u2029end\u007f"
}
const hostileServer = async (body: (url: string) => Promise<void>) => {
  const send = (res: http.ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { "content-type": "application/json" })
    res.end(JSON.stringify(value))
  }
  const server = http.createServer((req, res) => {
    let text = ""
    req.on("data", (chunk: Buffer) => (text += chunk.toString()))
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x")
      if (url.pathname === "/graph/v1/paper/batch") {
        const ids = (JSON.parse(text) as { ids: Array<string> }).ids
        return send(
          res,
          200,
          ids.map((id) => {
            const paperId = id === "DOI:10.1/seed" ? sha(1) : id
            return titles[paperId] === undefined
              ? null
              : { paperId, title: titles[paperId], year: 2020, citationCount: 1 }
          })
        )
      }
      if (url.pathname === `/graph/v1/paper/${sha(1)}/citations`) {
        const data = [sha(2), "a\u0001b", sha(3)].map((paperId) => ({ citingPaper: { paperId } }))
        return send(res, 200, { offset: 0, data })
      }
      send(res, 404, { error: "not found" })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    await body(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

describe("s2 graph, what the server sends", () => {
  it(
    "an id with a control character in a citation list is skipped with a Warning and counted, not exit 2",
    () =>
      hostileServer(async (url) => {
        const args = ["graph", "DOI:10.1/seed", "--depth", "1", "--api-url", url]
        const out = fresh("jsonl")
        const [file, piped, seedRefused] = await Promise.all([
          s2([...args, "--out", out]),
          s2(args),
          s2(["graph", "a\u0001b", "--api-url", url])
        ])
        for (const ran of [file, piped]) {
          expect(ran.code, ran.stderr).toBe(0)
          expect(ran.stderr).toMatch(/WARN.*skipped "a\\u0001b", which the server gave among the papers citing/)
          expect(ran.stderr).toContain("contains a control character")
        }
        expect(file.stdout).toMatch(
          /^wrote 3 papers and 2 citations into .* s; skipped 1 id the server listed that no request can carry\n$/
        )
        expect(piped.stderr).toContain("s2: graph; skipped 1 id the server listed that no request can carry")
        const lines = jsonl(fs.readFileSync(out, "utf8"))
        expect(lines.flatMap((l) => l.type === "node" ? [l.paper!.paperId] : [])).toEqual([sha(1), sha(2), sha(3)])
        // The user's own seed of that form is still the user's to fix.
        expect(seedRefused.code).toBe(2)
      }),
    60_000
  )

  it(
    "graphml: a title with \\r, \\r\\n and a tab reads back as it was; what XML 1.0 cannot hold is dropped",
    () =>
      hostileServer(async (url) => {
        const out = fresh("graphml")
        const ran = await s2([
          "graph",
          "DOI:10.1/seed",
          "--depth",
          "1",
          "--format",
          "graphml",
          "--api-url",
          url,
          "--out",
          out
        ])
        expect(ran.code, ran.stderr).toBe(0)
        const text = fs.readFileSync(out, "utf8")
        expect(text).not.toMatch(/\r|\t|\u0001/)
        const elements = parseXml(text)
        const titled = elements.filter((e) => e.name === "data" && e.attrs["key"] === "title").map((e) => e.text)
        expect(titled).toEqual(["Seed", "Two\r\nlines\tand\ra return", "Three"])
      }),
    60_000
  )
})

describe("s2 graph, characters a terminal acts on", () => {
  it(
    "graphml and jsonl on standard output: a title's C1, bidi and separator characters escaped, read back as they were",
    () =>
      hostileServer(async (url) => {
        const args = ["graph", sha(5), "--depth", "0", "--api-url", url]
        const [graphml, lines] = await Promise.all([s2([...args, "--format", "graphml"]), s2(args)])
        for (const ran of [graphml, lines]) {
          expect(ran.code, ran.stderr).toBe(0)
          expect(ran.stdout.replace(/\n/g, "")).not.toMatch(
            /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
          )
        }
        expect(graphml.stdout).toContain("Hidden&#x9B;2J &#x202E;evil&#x202C; &#x2066;iso&#x2069; line&#x2028;para")
        const titled = parseXml(graphml.stdout).filter((e) => e.name === "data" && e.attrs["key"] === "title")
        expect(titled.map((e) => e.text)).toEqual([titles[sha(5)]])
        expect(jsonl(lines.stdout).map((l) => l.paper?.title)).toEqual([titles[sha(5)]])
      }),
    60_000
  )
})

/** The node ids of a file, and its edges with their positions among the file's elements, in any format. */
const graphOf = (format: "jsonl" | "csv" | "graphml", text: string) => {
  if (format === "jsonl") {
    const lines = jsonl(text)
    return {
      nodes: lines.flatMap((l) => l.type === "node" ? [l.paper!.paperId] : []),
      edges: lines.flatMap((l, i) => l.type === "edge" ? [[l.from!, l.to!, i] as const] : [])
    }
  }
  if (format === "csv") {
    // paperId comes before the title, and edge rows have no title: splitting on commas is safe here.
    const cells = text.split("\r\n").slice(1, -1).map((r) => r.split(","))
    return {
      nodes: cells.flatMap((c) => c[0] === "node" ? [c[1]!] : []),
      edges: cells.flatMap((c, i) => c[0] === "edge" ? [[c.at(-2)!, c.at(-1)!, i] as const] : [])
    }
  }
  const elements = parseXml(text)
  const nodes = elements.flatMap((e, i) => e.name === "node" ? [[e.attrs["id"]!, i] as const] : [])
  return {
    nodes: nodes.map(([id]) => id),
    edges: elements.flatMap((e, i) => e.name === "edge" ? [[e.attrs["source"]!, e.attrs["target"]!, i] as const] : [])
  }
}

describe("s2 graph, --resume after the server's lists changed", () => {
  /** Two HTTP emulators of different corpora: the same seed paper, other citation lists. */
  const twoServers = async (body: (before: EmulatorServer, after: EmulatorServer) => Promise<void>) => {
    const scope = Effect.runSync(Scope.make())
    try {
      const [before, after] = await Promise.all(
        [2000, 3000].map((size) => Effect.runPromise(startEmulator({ seed: 1, size }).pipe(Scope.provide(scope))))
      )
      await body(before!, after!)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }

  /** Cuts a finished file back to its header and first `keep` elements, with the checkpoint a run stopped there writes. */
  const interruptedAt = (out: string, format: "jsonl" | "csv" | "graphml", keep: number) => {
    const lines = fs.readFileSync(out, "utf8").split(/(?<=\n)/)
    const head = header(format).split(/(?<=\n)/).filter((l) => l !== "").length
    const kept = lines.slice(head, head + keep)
    fs.writeFileSync(out, lines.slice(0, head).join("") + kept.join(""))
    const node = format === "jsonl" ? /^\{"type":"node"/ : format === "csv" ? /^node,/ : /^ {4}<node /
    const nodes = kept.filter((l) => node.test(l)).length
    const checkpoint = JSON.parse(fs.readFileSync(`${out}.checkpoint.json`, "utf8")) as Record<string, unknown>
    fs.writeFileSync(
      `${out}.checkpoint.json`,
      JSON.stringify({
        ...checkpoint,
        bytes: fs.statSync(out).size,
        records: keep,
        years: { nodes, edges: keep - nodes },
        done: false
      })
    )
  }

  it(
    "the file is rewritten from where it differs, with a warning: the walk as the server gives it now, byte for byte, no dangling edge",
    () =>
      twoServers(async (before, after) => {
        const args = ["graph", seed, "--direction", "both", "--depth", "2", "--per-node", "5"]
        for (const format of ["jsonl", "csv", "graphml"] as const) {
          const whole = fresh(format)
          const out = fresh(format)
          const [fresh1, old] = await Promise.all([
            s2([...args, "--format", format, "--api-url", after.url, "--out", whole]),
            s2([...args, "--format", format, "--api-url", before.url, "--out", out])
          ])
          expect([fresh1.code, old.code]).toEqual([0, 0])
          expect(fs.readFileSync(out)).not.toEqual(fs.readFileSync(whole))
          interruptedAt(out, format, 40)
          const resumed = await s2([...args, "--format", format, "--api-url", after.url, "--out", out, "--resume"])
          expect(resumed.code, resumed.stderr).toBe(0)
          const { edges, nodes } = graphOf(format, fs.readFileSync(out, "utf8"))
          checkEnds(nodes, edges)
          expect(fs.readFileSync(out, "utf8")).toBe(fs.readFileSync(whole, "utf8"))
          expect(resumed.stderr).toMatch(
            /differs from the walk after \d+ papers? and \d+ citations?: the server's answers changed since the checkpoint; rewriting it from there/
          )
          expect(resumed.stdout).toMatch(
            /, resumed at \d+ papers, rewritten after \d+ papers \(the server's answers changed since the checkpoint\)/
          )
          const checkpoint = JSON.parse(fs.readFileSync(`${out}.checkpoint.json`, "utf8")) as {
            bytes: number
            done: boolean
          }
          expect(checkpoint).toMatchObject({ bytes: fs.statSync(whole).size, done: true })
        }
      }),
    180_000
  )
})
