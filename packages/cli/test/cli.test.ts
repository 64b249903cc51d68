/**
 * `s2` against the emulator's HTTP server, run in process (support/inProcess.ts). Two tests start
 * the bundled bin: ids from a pipe that fills late (the process must block reading its standard
 * input, which only a process does) and a harvest killed (SIGKILL) or interrupted (SIGINT), signals
 * that reach a real process, whose exit code (130) is `main.ts`'s.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { waitFor } from "@s2-effect/test-support"
import type { EmulatorServer } from "@s2-effect/testing"
import { Faults, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"

// Bundled on first use: only the pipe and the signals start a process.
let bin: string | undefined
const key = "sekrit-key-0123456789"

const start = (args: ReadonlyArray<string>, env: Record<string, string> = {}): ChildProcess =>
  Bin.start(bin ??= Bin.bundleBin(), args, env)
const finish = Bin.finish

const s2 = (args: ReadonlyArray<string>, env: Record<string, string> = {}, input?: string) =>
  runS2(args, input === undefined ? { env } : { env, stdin: input })

const lines = (text: string) => text.trimEnd().split("\n").map((line) => JSON.parse(line))

let scope: Scope.Closeable
let server: EmulatorServer
let faulty: EmulatorServer
let paperId: string
let authorId: string

beforeAll(async () => {
  scope = Effect.runSync(Scope.make())
  const started = await Effect.runPromise(
    Effect.all([
      startEmulator({ seed: 1, size: 3000, bulkSize: 12_000 }),
      startEmulator({
        seed: 1,
        size: 200,
        faults: {
          script: [
            { route: "/graph/v1/author/*", fault: Faults.tooManyRequests() },
            { route: "/graph/v1/paper/search", fault: Faults.status(503) },
            { route: "/graph/v1/paper/autocomplete", fault: Faults.hang }
          ]
        }
      })
    ]).pipe(Scope.provide(scope))
  )
  ;[server, faulty] = started
  const corpus = server.corpus
  let best = 0
  for (let i = 1; i < corpus.size; i++) {
    if ((corpus.graph.citationCount[i] ?? 0) > (corpus.graph.citationCount[best] ?? 0)) best = i
  }
  paperId = `CorpusId:${corpus.papers[best]?.corpusId}`
  authorId = corpus.authors[0]?.authorId ?? "0"
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const api = () => ["--api-url", server.url]
const T = 150_000

describe.concurrent("s2 commands against the HTTP emulator (each format once)", () => {
  it("paper (JSON lines when piped), citations (json), references (csv), paper-authors (table)", async () => {
    const piped = await s2(["paper", paperId, ...api(), "--fields", "title,year,citationCount"])
    expect(piped.code).toBe(0)
    expect(piped.stdout.trimEnd().split("\n")).toHaveLength(1)
    expect(lines(piped.stdout)[0]).toMatchObject({ title: expect.any(String), year: expect.any(Number) })

    const citations = await s2(["citations", paperId, ...api(), "--max", "7", "--format", "json"])
    expect(citations.code).toBe(0)
    expect(citations.stdout).toMatch(/^\[\n  \{\n    "/)
    const cites = JSON.parse(citations.stdout)
    expect(cites).toHaveLength(7)
    const citing = cites[0].citingPaper.paperId as string

    const refs = await s2(["references", citing, ...api(), "--format", "csv", "--fields", "title,year"])
    expect(refs.code).toBe(0)
    expect(refs.stdout.split("\r\n")[0]).toBe("citedPaper.paperId,citedPaper.title,citedPaper.year")

    const authors = await s2(["paper-authors", paperId, ...api(), "--format", "table"])
    expect(authors.code).toBe(0)
    expect(authors.stdout.split("\n")[0]).toMatch(/^authorId\s+name/)
  }, T)

  it("papers: ids as arguments and from a file, batched, unknown ids reported", async () => {
    const corpus = server.corpus
    const ids = Array.from({ length: 620 }, (_, i) => `CorpusId:${corpus.papers[i]?.corpusId}`)
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "s2-ids-")), "ids.txt")
    fs.writeFileSync(file, `# ids\n${ids.slice(1).join("\n")}\n\n`)
    const ran = await s2(["papers", ids[0]!, "CorpusId:1", "--ids-file", file, ...api(), "--fields", "title"])
    expect(ran.code).toBe(0)
    const records = lines(ran.stdout)
    expect(records).toHaveLength(620)
    expect(records[0].paperId).toBe(corpus.papers[0]?.paperId)
    expect(ran.stderr).toContain("1 of 621 ids not found: CorpusId:1")
  }, T)

  it("papers: a batch of only unknown ids among found ones is reported, not fatal; none found is exit 3", async () => {
    const known = Array.from({ length: 500 }, (_, i) => `CorpusId:${server.corpus.papers[i]?.corpusId}`)
    const unknown = ["CorpusId:1", "CorpusId:2"]
    const ran = await s2(["papers", ...known, ...unknown, ...api(), "--fields", "title", "--format", "jsonl"])
    expect(ran.code).toBe(0)
    expect(lines(ran.stdout)).toHaveLength(500)
    expect(ran.stderr).toContain("2 of 502 ids not found: CorpusId:1, CorpusId:2")
    const none = await s2(["papers", ...unknown, ...api()])
    expect(none.code).toBe(3)
    expect(none.stdout).toBe("")
    expect(none.stderr).toContain("none of the 2 ids was found: CorpusId:1, CorpusId:2")
  }, T)

  it("papers --ids-file -: the ids from a pipe that fills late", async () => {
    const child = start(["papers", "--ids-file", "-", ...api(), "--fields", "title"])
    let stdout = ""
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()))
    const code = new Promise<number | null>((resolve) => child.on("close", resolve))
    // Written only once s2 is waiting on the empty pipe, so it must wait for it rather than end there.
    await waitFor(() => Bin.readingStdin(child.pid!), { what: "s2 reading its standard input" })
    child.stdin?.end(`${paperId}\n`)
    expect(await code).toBe(0)
    expect(lines(stdout)).toHaveLength(1)
  }, T)

  it("author (table), authors, author-papers, search-author", async () => {
    const author = await s2(["author", authorId, ...api(), "--fields", "name,hIndex", "--format", "table"])
    expect(author.code).toBe(0)
    expect(author.stdout).toMatch(new RegExp(`^authorId\\s+${authorId}\nname\\s+.+\nhIndex\\s+\\d+\n$`))
    const name = /name\s+(.+)\n/.exec(author.stdout)?.[1] ?? ""
    const authors = await s2(["authors", authorId, server.corpus.authors[1]!.authorId, ...api()])
    expect(lines(authors.stdout)).toHaveLength(2)
    const papers = await s2(["author-papers", authorId, ...api(), "--max", "2"])
    expect(papers.code).toBe(0)
    expect(lines(papers.stdout).length).toBeGreaterThan(0)
    const found = await s2(["search-author", name, ...api(), "--max", "3"])
    expect(found.code).toBe(0)
    expect(lines(found.stdout).length).toBeGreaterThan(0)
  }, T)

  it("search (relevance with a filter; --bulk with filters and --sort), match", async () => {
    const relevance = await s2(["search", "graph", ...api(), "--max", "5", "--year", "2000-"])
    expect(relevance.code).toBe(0)
    const hits = lines(relevance.stdout)
    expect(hits.length).toBeGreaterThan(0)
    for (const hit of hits) expect(hit.year).toBeGreaterThanOrEqual(2000)
    const bulk = await s2([
      "search",
      "",
      "--bulk",
      "--sort",
      "citationCount:desc",
      "--fields-of-study",
      "Computer Science",
      "--max",
      "20",
      "--fields",
      "title,citationCount",
      ...api()
    ])
    expect(bulk.code).toBe(0)
    const counts = lines(bulk.stdout).map((p) => p.citationCount as number)
    expect(counts).toHaveLength(20)
    expect([...counts].sort((a, b) => b - a)).toEqual(counts)
    const title = hits[0].title as string
    const match = await s2(["match", title, ...api()])
    expect(match.code).toBe(0)
    expect(lines(match.stdout)[0].title).toBe(title)
  }, T)

  it("autocomplete (csv), snippets, recommend (one paper, lists), datasets releases and release", async () => {
    const complete = await s2(["autocomplete", "graph", ...api(), "--format", "csv"])
    expect(complete.code).toBe(0)
    expect(complete.stdout.split("\r\n")[0]).toBe("id,title,authorsYear")
    const snippets = await s2(["snippets", "graph", ...api(), "--max", "3"])
    expect(snippets.code).toBe(0)
    expect(lines(snippets.stdout).length).toBeLessThanOrEqual(3)
    const one = await s2(["recommend", paperId, ...api(), "--max", "4"])
    expect(one.code).toBe(0)
    expect(lines(one.stdout)).toHaveLength(4)
    const lists = await s2(["recommend", "--positive", paperId, "--negative", "CorpusId:1015", ...api(), "--max", "3"])
    expect(lists.code).toBe(0)
    expect(lines(lists.stdout)).toHaveLength(3)
    const releases = await s2(["datasets", "releases", ...api()])
    expect(releases.code).toBe(0)
    expect(lines(releases.stdout)[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const release = await s2(["datasets", "release", "latest", ...api()])
    expect(release.code).toBe(0)
    expect(lines(release.stdout)[0].datasets.length).toBeGreaterThan(0)
  }, T)
})

describe.concurrent("exit codes, error lines, the key", () => {
  it("datasets download: every file to disk, the key never printed; a second run skips them all", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-cli-download-"))
    const args = ["datasets", "download", "abstracts", "latest", "--dir", dir, ...api()]
    const first = await s2(args, { S2_API_KEY: key })
    expect(first.code, first.stderr).toBe(0)
    const listed: Array<{ file: string; path: string; bytes: number }> = lines(first.stdout)
    expect(listed.length).toBeGreaterThan(0)
    for (const entry of listed) expect(fs.statSync(entry.path).size).toBe(entry.bytes)
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".part"))).toEqual([])
    const again = await s2(args, { S2_API_KEY: key })
    expect(again.code).toBe(0)
    expect(again.stderr.match(/already complete/g)).toHaveLength(listed.length)
    expect(first.stdout + first.stderr + again.stdout + again.stderr).not.toContain(key)
    const keyless = await s2(args)
    expect(keyless.code).toBe(4)
  }, T)

  it("bad input is 2, not found is 3 (one line, no stack), forbidden is 4", async () => {
    const bad = await s2(["paper", paperId, ...api(), "--fields", "nope"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^s2: paper .* failed: unknown paper field "nope".*; fix the argument/)
    const missing = await s2(["paper", "CorpusId:1", ...api()])
    expect(missing.code).toBe(3)
    expect(missing.stderr.trimEnd().split("\n")).toHaveLength(1)
    expect(missing.stderr).not.toContain("    at ")
    const forbidden = await s2(["datasets", "links", "papers", ...api()])
    expect(forbidden.code).toBe(4)
    expect(forbidden.stderr).toContain("set S2_API_KEY")
  }, T)

  it("rate limited is 5, server error 6, timeout 7, transport 8 (with --no-retry: no waiting)", async () => {
    const limited = await s2(["author", "1000000", "--api-url", faulty.url, "--no-retry"])
    expect(limited.code).toBe(5)
    expect(limited.stderr).toMatch(/rate limited with retries off.*set S2_API_KEY for a higher limit/)
    const server = await s2(["search", "graph", "--api-url", faulty.url, "--no-retry"])
    expect(server.code).toBe(6)
    const slow = await s2(["autocomplete", "gra", "--api-url", faulty.url, "--no-retry", "--timeout", "300ms"])
    expect(slow.code).toBe(7)
    expect(slow.stderr).toContain("raise --timeout")
    const down = await s2(["paper", paperId, "--api-url", "http://127.0.0.1:9", "--no-retry"])
    expect(down.code).toBe(8)
    expect(down.stderr).toContain("--api-url")
  }, T)

  it(
    "against a closed port with default settings: two Warning lines, then exit 8 naming the host",
    async () => {
      const closed = await new Promise<number>((resolve) => {
        const probe = net.createServer().listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as net.AddressInfo
          probe.close(() => resolve(port))
        })
      })
      const down = await s2(["paper", paperId, "--api-url", `http://127.0.0.1:${closed}`], { S2_API_KEY: key })
      expect(down.code).toBe(8)
      expect(down.stderr).toContain(`connection refused by 127.0.0.1:${closed}`)
      expect(down.stderr).toContain("after 2 retries")
      const warnings = down.stderr.split("\n").filter((line) => line.includes("retrying in"))
      expect(warnings).toHaveLength(2)
      expect(warnings[0]).toContain("connection refused (nobody there), attempt 1 of 3 failed; retrying in 2 s")
      expect(down.stdout + down.stderr).not.toContain(key)
    },
    T
  )

  it("the API key is sent but never printed, not even with --verbose", async () => {
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "s2-key-")), "key")
    fs.writeFileSync(keyFile, `${key}\n`)
    const ok = await s2(["paper", paperId, ...api(), "--verbose"], { S2_API_KEY: key })
    const failed = await s2(["paper", "CorpusId:1", ...api(), "--verbose", "--api-key-file", keyFile])
    expect(ok.code).toBe(0)
    expect(failed.code).toBe(3)
    expect(failed.stderr).toMatch(/ObjectNotFound/) // the full cause with --verbose
    for (const ran of [ok, failed]) {
      expect(ran.stdout + ran.stderr).not.toContain(key)
      expect(ran.stderr).toContain("x-api-key")
    }
    const seen = (await Effect.runPromise(server.requests)).filter((r) => r.keyPresent)
    expect(seen.length).toBeGreaterThanOrEqual(2)
  }, T)
})

describe("harvest", () => {
  const spec = ["harvest", "", "--fields", "title,year"]
  const checkpointOf = (file: string, pages: number) =>
    waitFor(() => JSON.parse(fs.readFileSync(file, "utf8")).pages >= pages, { what: `a checkpoint of ${pages} pages` })

  it("killed (SIGKILL) or interrupted (SIGINT) mid-way, --resume gives the uninterrupted file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-harvest-cli-"))
    const whole = path.join(dir, "whole.jsonl")
    const full = await s2([...spec, "--out", whole, ...api()])
    expect(full.code).toBe(0)
    expect(full.stdout).toMatch(/harvested [\d,]+ papers \(\d+ pages/)
    expect(full.stdout).toContain("papers per year:")
    // Progress lines appear only after a second (harvestMessages.test.ts); this harvest may be quicker.
    const total = JSON.parse(fs.readFileSync(`${whole}.checkpoint.json`, "utf8"))
    expect(total.pages).toBeGreaterThan(4)

    // Slow pages down so that the kill lands mid-harvest.
    await Effect.runPromise(
      server.setFaults({ script: [{ route: "/graph/v1/paper/search/bulk", fault: Faults.latency("150 millis") }] })
    )
    try {
      const killed = path.join(dir, "killed.jsonl")
      const child = start([...spec, "--out", killed, ...api()])
      const done = finish(child)
      await checkpointOf(`${killed}.checkpoint.json`, 2)
      child.kill("SIGKILL")
      expect((await done).signal).toBe("SIGKILL")

      const interrupted = path.join(dir, "interrupted.jsonl")
      const child2 = start([...spec, "--out", interrupted, ...api()])
      const done2 = finish(child2)
      await checkpointOf(`${interrupted}.checkpoint.json`, 2)
      child2.kill("SIGINT")
      const ran2 = await done2
      expect(ran2.code).toBe(130)
      expect(ran2.stderr).toContain("--resume")

      await Effect.runPromise(server.setFaults({}))
      for (const out of [killed, interrupted]) {
        const resumed = await s2([...spec, "--out", out, "--resume", ...api()])
        expect(resumed.code).toBe(0)
        expect(resumed.stdout).toContain("resumed at")
        expect(fs.readFileSync(out).equals(fs.readFileSync(whole))).toBe(true)
      }
    } finally {
      await Effect.runPromise(server.setFaults({}))
    }
  }, 150_000)
})

describe("watch", () => {
  it(
    "a check killed (SIGKILL) mid-way leaves the state as it was; the next takes over its lock, shows the same",
    async () => {
      const state = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "s2-watch-cli-")), "watches.json")
      const added = await s2(["watch", "add", "citations", paperId, "--since", "1900-01-01", "--state", state])
      expect(added.code).toBe(0)
      const before = fs.readFileSync(state, "utf8")
      const batches = async () => (await Effect.runPromise(server.requestCounts))["/graph/v1/paper/batch"] ?? 0
      const asked = await batches()
      // The details lookup never answers: the check is killed between listing and storing.
      await Effect.runPromise(server.setFaults({ script: [{ route: "/graph/v1/paper/batch", fault: Faults.hang }] }))
      try {
        const child = start(["watch", "check", "--state", state, "--format", "jsonl", ...api()])
        const done = finish(child)
        await waitFor(async () => (await batches()) > asked && fs.existsSync(`${state}.lock`), {
          what: "the details lookup"
        })
        child.kill("SIGKILL")
        expect((await done).signal).toBe("SIGKILL")
      } finally {
        await Effect.runPromise(server.setFaults({}))
      }
      expect(fs.readFileSync(state, "utf8")).toBe(before)
      const again = await s2(["watch", "check", "--state", state, "--format", "jsonl", ...api()])
      expect(again.code).toBe(20)
      expect(lines(again.stdout).length).toBeGreaterThan(0)
      expect(fs.readdirSync(path.dirname(state))).toEqual(["watches.json"])
    },
    T
  )
})

// One test at a time: each starts several processes, and other suites measure memory meanwhile.
describe("what a new user sees: help, parse errors, messages", () => {
  const small = { S2_EMULATOR_SIZE: "400" }
  const version = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")).version

  it("--verbose logs on stderr only: stdout stays JSON lines", async () => {
    const ran = await s2(["search", "graph", "--max", "3", "--verbose", "--format", "jsonl", ...api()])
    expect(ran.code).toBe(0)
    expect(lines(ran.stdout)).toHaveLength(3) // every line parses
    expect(ran.stdout).not.toContain("DEBUG")
    expect(ran.stderr).toContain("DEBUG")
  }, T)

  it("help: plain text into a pipe, no filler, s2 usage lines, short command list", async () => {
    const root = await s2(["--help"])
    const search = await s2(["search", "--help"])
    const recommend = await s2(["recommend", "--help"])
    const links = await s2(["datasets", "links", "-h"])
    for (const ran of [root, search, recommend, links]) {
      expect(ran.code).toBe(0)
      expect(ran.stdout).not.toContain("\x1b")
      expect(ran.stdout).not.toMatch(/A user-defined piece of text|This setting is optional|A true or false value/)
      expect(ran.stdout).not.toMatch(/^\s*\$ /m)
      for (const line of ran.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(100)
    }
    expect(root.stdout).toMatch(/^ {2}search +Search papers/m)
    expect(root.stdout).toMatch(/^ {2}datasets links +Download links/m)
    // The commands come before the 35 lines of options every command takes.
    expect(root.stdout.indexOf("\nCOMMANDS\n")).toBeGreaterThan(0)
    expect(root.stdout.indexOf("\nCOMMANDS\n")).toBeLessThan(root.stdout.indexOf("\nOPTIONS OF EVERY COMMAND\n"))
    expect(search.stdout).toContain("  s2 search [options] <query>\n")
    expect(links.stdout).toContain("  s2 datasets links [options] <dataset> [<release>]\n")
    // --positive and --negative may be left out: not shown as required.
    expect(recommend.stdout).toContain("  s2 recommend [options] [<paper-id>]\n")
    expect((await s2(["harvest", "--help"])).stdout).toContain("  s2 harvest --out file [options] <query>\n")
    // A command's own flags come first, and only flags that act there: `paper` prints one record.
    const paper = (await s2(["paper", "--help"])).stdout
    expect(paper.indexOf("\nOPTIONS\n  --fields list\n")).toBeGreaterThan(0)
    expect(paper.indexOf("\nOPTIONS\n")).toBeLessThan(paper.indexOf("\nOPTIONS OF EVERY COMMAND\n"))
    expect(paper).toContain("  --format json|jsonl|table|csv\n")
    expect(paper).not.toContain("--max")
    expect(paper).not.toContain("--bulk")
    // Every argument and option has a description: an indented line under its name.
    const entries = search.stdout.slice(search.stdout.indexOf("ARGUMENTS")).split(/\n(?= {2}[-<])/).slice(1)
    expect(entries.length).toBeGreaterThan(15)
    for (const entry of entries) expect(entry).toMatch(/\n {6}\S/)
  }, T)

  it("--version prints the package version; a bare s2 prints a short usage and exits 2", async () => {
    const shown = await s2(["--version"])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toBe(`${version}\n`)
    const bare = await s2([])
    expect(bare.code).toBe(2)
    expect(bare.stdout).toBe("")
    expect(bare.stderr).toMatch(/^usage: s2 <command>/)
    expect(bare.stderr.split("\n").length).toBeLessThan(6)
    const datasets = await s2(["datasets"])
    expect(datasets.code).toBe(2)
    expect(datasets.stderr).toMatch(/^usage: s2 datasets <command>/)
  }, T)

  it("parse errors start with s2: and name the option", async () => {
    const cases: Array<[ReadonlyArray<string>, RegExp]> = [
      [["search", "x", "--bulk", "--sort", "title:desc"], /^s2: --sort "title:desc" is invalid: give one of paperId, /],
      [["search", "x", "--format", "xml"], /^s2: --format "xml" is invalid: give one of json, jsonl, table, csv\n$/],
      [["recommend", "x", "--pool", "foo"], /^s2: --pool "foo" is invalid: give one of recent, all-cs\n$/],
      [["search", "x", "--max", "many"], /^s2: --max "many" is invalid: give an integer\n$/],
      [["harvest", "x"], /^s2: --out is required/],
      [["search", "x", "--nope"], /^s2: unknown option --nope/],
      [["search", "x", "--max"], /^s2: --max needs a value \(see s2 search --help\)\n$/],
      [["paper"], /^s2: missing argument <paper-id> \(see s2 paper --help\)\n$/],
      [["serch", "x"], /^s2: unknown command "serch": did you mean `search`\?\n$/],
      [["zzzzzzzz"], /^s2: unknown command "zzzzzzzz": use one of paper, /]
    ]
    for (const [args, expected] of cases) {
      const ran = await s2([args[0]!, ...api(), ...args.slice(1)])
      expect(ran.code, args.join(" ")).toBe(2)
      expect(ran.stdout).toBe("")
      expect(ran.stderr, args.join(" ")).toMatch(expected)
    }
    // Options before the subcommand are the subcommand's: `datasets` is not called invalid.
    const early = await s2(["datasets", "--api-key-file", "/nonexistent/key", "links", "papers", ...api()])
    expect(early.stderr).not.toMatch(/invalid|subcommand/i)
    expect(early.stderr).toMatch(/^s2: cannot read --api-key-file \/nonexistent\/key/)
    expect(early.code).toBe(10)
  }, T)

  it("messages say CLI things: --fields all, no api.semanticscholar.org under --emulator, 1 page", async () => {
    const unknown = await s2(["paper", "CorpusId:1", "--emulator", "--fields", "title,newField"], small)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("--fields all returns every field")
    expect(unknown.stderr).not.toContain("Fields.unchecked")
    const missing = await s2(["paper", "CorpusId:999999999", "--emulator"], small)
    expect(missing.code).toBe(3)
    expect(missing.stderr).not.toContain("api.semanticscholar.org")
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "s2-one-page-")), "five.jsonl")
    const harvested = await s2(["harvest", "", "--max", "5", "--out", out, ...api()])
    expect(harvested.code).toBe(0)
    expect(harvested.stdout).toMatch(/^harvested 5 papers \(1 page, /)
    const releases = await s2(["datasets", "releases", "--format", "table", ...api()])
    expect(releases.stdout.split("\n")[0]).toBe("release")
  }, T)

  it("tables keep ids whole and cut titles to 100 columns when piped", async () => {
    const args = ["search", "graph", "--max", "10", ...api()]
    const records = lines((await s2([...args, "--fields", "title,authors", "--format", "jsonl"])).stdout)
    const table = await s2([...args, "--fields", "title,authors", "--format", "table"])
    expect(table.code).toBe(0)
    const rows = table.stdout.trimEnd().split("\n")
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(100)
    expect(table.stdout).toContain("…") // some titles are longer than their column
    records.forEach((record, i) => expect(rows[i + 2]).toMatch(new RegExp(`^${record.paperId}  `)))
    // An id is whole, or its column is named on stderr as left out so that the titles stay readable
    // (issue 48: ids go before titles are cut to 8 characters).
    const urls = await s2([...args, "--fields", "title,url,externalIds", "--format", "table"])
    const leftOut = /the table leaves out (.*) \(--format/.exec(urls.stderr)?.[1]?.split(", ") ?? []
    expect(leftOut.length).toBeGreaterThan(0)
    for (const record of lines((await s2([...args, "--fields", "url,externalIds"])).stdout)) {
      if (!leftOut.includes("url")) expect(urls.stdout).toContain(record.url)
      if (record.externalIds.DOI !== undefined && !leftOut.includes("externalIds.DOI")) {
        expect(urls.stdout).toContain(record.externalIds.DOI)
      }
    }
  }, T)
})
