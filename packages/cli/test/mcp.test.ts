/**
 * `s2 mcp --emulator` as an assistant meets it: the official MCP TypeScript client
 * (`@modelcontextprotocol/sdk`) talks to `s2` over its standard input and output, lists the tools,
 * calls each, and sees failures come back as tool errors (not found, bad parameter, rate limited)
 * with the server answering after each.
 *
 * `s2` runs in process (support/inProcess.ts): the client's messages are its standard input as
 * they are sent, its standard output is read by the SDK's own framing (`ReadBuffer`). One test
 * starts the bundled bin: SIGTERM while serving, a signal that reaches a real process, whose exit
 * code (143) is `main.ts`'s.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { Progress } from "@modelcontextprotocol/sdk/types.js"
import { waitFor } from "@s2-effect/test-support"
import type { EmulatorServer } from "@s2-effect/testing"
import { Corpus, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"
import { inProcessTransport } from "./support/mcpTransport.js"
const key = "some-secret-key"
const size = 2000
// The corpus `--emulator` serves (seed 1, S2_EMULATOR_SIZE papers), to choose ids that exist.
const corpus = Corpus.make({ seed: 1, size })

const toolNames = [
  "add_watch",
  "check_watches",
  "citation_graph",
  "get_author",
  "get_author_papers",
  "get_citations",
  "get_paper",
  "get_papers",
  "get_references",
  "match_title",
  "recommend_papers",
  "related_papers",
  "resolve_references",
  "search_authors",
  "search_papers",
  "search_snippets",
  "verify_references"
]

interface Server {
  readonly client: Client
  readonly stderr: () => string
  /** The exit of the `s2` process, once it has ended. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
}

/** Starts `s2 mcp --emulator …` (or, `emulator` false, `s2 mcp …`) under the SDK's client and connects. */
const connect = async (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  emulator = true
): Promise<Server> => {
  // --structured: this suite reads each answer's structuredContent (compact answers are text only).
  const { transport, stderr, exited } = inProcessTransport(
    ["mcp", "--structured", ...(emulator ? ["--emulator"] : []), ...args],
    { S2_EMULATOR_SIZE: String(size), S2_API_KEY: key, ...env }
  )
  const client = new Client({ name: "s2-mcp-test", version: "1.0.0" })
  await client.connect(transport)
  return { client, stderr, exited: exited() }
}

type Result = Awaited<ReturnType<Client["callTool"]>>

const textOf = (result: Result): string =>
  (result.content as ReadonlyArray<{ readonly type: string; readonly text?: string }>)
    .map((part) => (part.type === "text" ? part.text ?? "" : "")).join("\n")

/** Every answer checked by this suite, for the test that the key is in none of them. */
const answers: Array<string> = []

const structured = (result: Result): Record<string, unknown> => {
  answers.push(JSON.stringify(result))
  expect(result.isError ?? false, textOf(result)).toBe(false)
  expect(textOf(result).trim().length).toBeGreaterThan(0)
  expect(typeof result.structuredContent).toBe("object")
  return result.structuredContent as Record<string, unknown>
}

/** A paper summary as documented: id, title, author names and count; optional fields of their types. */
const expectPaperSummary = (paper: unknown) => {
  const p = paper as Record<string, unknown>
  expect(typeof p["paperId"]).toBe("string")
  expect(typeof p["title"]).toBe("string")
  expect(Array.isArray(p["authors"])).toBe(true)
  expect((p["authors"] as Array<unknown>).length).toBeLessThanOrEqual(5)
  expect(typeof p["authorCount"]).toBe("number")
  for (const [field, type] of [["year", "number"], ["venue", "string"], ["citationCount", "number"]] as const) {
    if (p[field] !== undefined) expect(typeof p[field], field).toBe(type)
  }
}

const papersOf = (answer: Record<string, unknown>): ReadonlyArray<Record<string, unknown>> => {
  const papers = answer["papers"] as ReadonlyArray<Record<string, unknown>>
  expect(Array.isArray(papers)).toBe(true)
  papers.forEach(expectPaperSummary)
  return papers
}

const expectToolError = (result: Result, start: RegExp) => {
  answers.push(JSON.stringify(result))
  expect(result.isError).toBe(true)
  expect(textOf(result)).toMatch(start)
  expect(textOf(result)).not.toContain("\n")
}

// Ids of the corpus: its most cited paper (with citations and references), an author with papers.
let best = 0
for (let i = 1; i < corpus.size; i++) {
  if ((corpus.graph.citationCount[i] ?? 0) > (corpus.graph.citationCount[best] ?? 0)) best = i
}
const paper = corpus.paper(best)
const other = corpus.paper(best === 0 ? 1 : 0)
const author = corpus.author(paper.authors[0]!)
const titleWord = paper.title.split(/\s+/).find((word) => word.length > 5) ?? paper.title.split(/\s+/)[0]!
const doi = corpus.papers.map((p) => p.externalIds["DOI"]).find((id) => typeof id === "string")

// A server of its own, before the suite's (in process, one run at a time), whose answers the key
// test below checks with the others.
describe("s2 mcp --emulator --watch-state, with the SDK's client", () => {
  it("add_watch and check_watches keep their state in --watch-state", async () => {
    const state = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "s2-mcp-watch-")), "watches.json")
    const watching = await connect(["--watch-state", state])
    try {
      const added = structured(
        await watching.client.callTool({
          name: "add_watch",
          arguments: { name: "mine", kind: "citations", target: paper.paperId }
        })
      )
      expect(added).toEqual({ name: "mine", watches: 1 })
      const checked = structured(await watching.client.callTool({ name: "check_watches", arguments: {} }))
      const watches = checked["watches"] as ReadonlyArray<Record<string, unknown>>
      expect(watches.map((watch) => watch["name"])).toEqual(["mine"])
      expect(Array.isArray(watches[0]!["new"])).toBe(true)
      const stored = JSON.parse(fs.readFileSync(state, "utf8")) as { watches: Array<{ checkedAt?: string }> }
      expect(typeof stored.watches[0]!.checkedAt).toBe("string")
    } finally {
      await watching.client.close()
    }
  })
})

describe("s2 mcp --emulator, with the SDK's client", () => {
  let server: Server

  beforeAll(async () => {
    server = await connect([])
  })
  afterAll(async () => {
    await server.client.close()
  })

  it("lists the 17 tools, each with an object input schema and a description", async () => {
    const { tools } = await server.client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(toolNames)
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object")
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(0)
    }
    const search = tools.find((tool) => tool.name === "search_papers")!
    expect(Object.keys(search.inputSchema.properties ?? {})).toContain("query")
  })

  it("search_papers, get_paper, get_papers: pages of summaries and a detailed paper", async () => {
    const { client } = server
    const search = structured(
      await client.callTool({ name: "search_papers", arguments: { query: titleWord, limit: 5 } })
    )
    expect(typeof search["total"]).toBe("number")
    expect(search["offset"]).toBe(0)
    expect(papersOf(search).length).toBeGreaterThan(0)
    expect(papersOf(search).length).toBeLessThanOrEqual(5)

    const detail = structured(
      await client.callTool({ name: "get_paper", arguments: { id: `CorpusId:${paper.corpusId}` } })
    )
    expectPaperSummary(detail)
    expect(detail["paperId"]).toBe(paper.paperId)
    expect(detail["title"]).toBe(paper.title)

    const batch = structured(
      await client.callTool({ name: "get_papers", arguments: { ids: [paper.paperId, "CorpusId:999999999"] } })
    )
    expect(papersOf(batch).map((p) => p["paperId"])).toEqual([paper.paperId])
    expect(batch["notFound"]).toEqual(["CorpusId:999999999"])
  })

  it("get_citations, get_references, citation_graph: the graph around a paper", async () => {
    const { client } = server
    for (const name of ["get_citations", "get_references"]) {
      const answer = structured(await client.callTool({ name, arguments: { id: paper.paperId, limit: 3 } }))
      expect(answer["paperId"], name).toBe(paper.paperId)
      expect(answer["offset"]).toBe(0)
      expect(papersOf(answer).length, name).toBeGreaterThan(0)
      expect(papersOf(answer).length).toBeLessThanOrEqual(3)
    }
    const graph = structured(
      await client.callTool({
        name: "citation_graph",
        arguments: { seeds: [paper.paperId], direction: "both", depth: 1, perNode: 3, maxNodes: 5 }
      })
    )
    const nodes = graph["nodes"] as ReadonlyArray<Record<string, unknown>>
    expect(nodes.length).toBeGreaterThan(1)
    expect(nodes.length).toBeLessThanOrEqual(5)
    for (const node of nodes) {
      expect(typeof node["paperId"]).toBe("string")
      expect(typeof node["title"]).toBe("string")
      expect(typeof node["depth"]).toBe("number")
    }
    expect((graph["edges"] as ReadonlyArray<Record<string, unknown>>).every((e) => typeof e["from"] === "string"))
      .toBe(true)
    expect(graph["notFound"]).toEqual([])
    expect(typeof graph["truncated"]).toBe("boolean")
  })

  it("search_authors, get_author, get_author_papers", async () => {
    const { client } = server
    const lastName = author.name.split(/\s+/).at(-1)!
    const found = structured(
      await client.callTool({ name: "search_authors", arguments: { query: lastName, limit: 5 } })
    )
    const authors = found["authors"] as ReadonlyArray<Record<string, unknown>>
    expect(authors.length).toBeGreaterThan(0)
    expect(typeof found["total"]).toBe("number")
    for (const a of authors) {
      expect(typeof a["authorId"]).toBe("string")
      expect(typeof a["name"]).toBe("string")
      expect(Array.isArray(a["affiliations"])).toBe(true)
    }
    const one = structured(await client.callTool({ name: "get_author", arguments: { id: author.authorId } }))
    expect(one["authorId"]).toBe(author.authorId)
    expect(one["name"]).toBe(author.name)
    const papers = structured(
      await client.callTool({ name: "get_author_papers", arguments: { id: author.authorId, limit: 2 } })
    )
    expect(papers["authorId"]).toBe(author.authorId)
    expect(papersOf(papers).length).toBeGreaterThan(0)
    expect(papersOf(papers).length).toBeLessThanOrEqual(2)
  })

  it("recommend_papers, match_title, search_snippets, resolve_references", async () => {
    const { client } = server
    const single = structured(
      await client.callTool({ name: "recommend_papers", arguments: { positive: [paper.paperId], limit: 3 } })
    )
    expect(papersOf(single).length).toBeLessThanOrEqual(3)
    const lists = structured(
      await client.callTool({
        name: "recommend_papers",
        arguments: { positive: [paper.paperId], negative: [other.paperId], limit: 3 }
      })
    )
    expect(papersOf(lists).length).toBeLessThanOrEqual(3)

    const match = structured(await client.callTool({ name: "match_title", arguments: { title: paper.title } }))
    expectPaperSummary(match)
    expect(match["paperId"]).toBe(paper.paperId)

    const snippets = structured(
      await client.callTool({ name: "search_snippets", arguments: { query: titleWord, limit: 3 } })
    )
    const list = snippets["snippets"] as ReadonlyArray<Record<string, unknown>>
    expect(list.length).toBeLessThanOrEqual(3)
    for (const snippet of list) {
      expect(typeof snippet["text"]).toBe("string")
      expect(typeof (snippet["paper"] as Record<string, unknown>)["paperId"]).toBe("string")
    }

    const lines = [paper.title, `https://www.semanticscholar.org/paper/${other.paperId}`, "CorpusId:999999999"]
    if (doi !== undefined) lines.push(`${doi}`)
    const resolved = structured(await client.callTool({ name: "resolve_references", arguments: { lines } }))
    const references = resolved["references"] as ReadonlyArray<Record<string, unknown>>
    expect(references.map((r) => r["line"])).toEqual(lines)
    expect(references[0]).toMatchObject({ via: "title", paper: { paperId: paper.paperId } })
    expect(references[1]).toMatchObject({ via: "id", paper: { paperId: other.paperId } })
    expect(references[2]).toMatchObject({ reason: "unknownId" })
    expect(references[2]!["paper"]).toBeUndefined()
    expect(resolved["found"]).toBe(lines.length - 1)
    expect(resolved["notFound"]).toBe(1)
  })

  it("a paper that does not exist: a tool error saying not found, then the server answers", async () => {
    const { client } = server
    expectToolError(
      await client.callTool({ name: "get_paper", arguments: { id: "CorpusId:999999999" } }),
      /^not found: /
    )
    expectToolError(
      await client.callTool({ name: "get_author", arguments: { id: "999999999" } }),
      /^not found: /
    )
    structured(await client.callTool({ name: "get_paper", arguments: { id: paper.paperId } }))
  })

  it("bad parameters are tool errors naming what is allowed (not protocol errors), then it answers", async () => {
    const { client } = server
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, RegExp]> = [
      ["search_papers", { query: titleWord, limit: 1000 }, /limit/],
      ["search_papers", { query: titleWord, color: "blue" }, /color/],
      ["get_citations", { id: paper.paperId, limit: "ten" }, /limit/],
      ["get_paper", {}, /id/],
      ["search_papers", { query: titleWord, yearFrom: 2020, yearTo: 2010 }, /year/],
      ["get_papers", { ids: [] }, /ids/]
    ]
    for (const [name, args, names] of cases) {
      const result = await client.callTool({ name, arguments: args })
      expectToolError(result, /^bad parameter: /)
      expect(textOf(result), `${name} ${JSON.stringify(args)}`).toMatch(names)
      structured(await client.callTool({ name: "get_paper", arguments: { id: paper.paperId } }))
    }
  })

  it("a tool that does not exist: an error the client sees, then the server answers", async () => {
    const outcome = await server.client.callTool({ name: "no_such_tool", arguments: {} }).then(
      (result) => ({ isError: result.isError === true }),
      (error: unknown) => ({ isError: error instanceof Error })
    )
    expect(outcome.isError).toBe(true)
    structured(await server.client.callTool({ name: "get_paper", arguments: { id: paper.paperId } }))
  })

  it("the API key is in no answer and not on stderr; closing the client ends the process with 0", async () => {
    const { client } = server
    expect(answers.length).toBeGreaterThan(20)
    for (const answer of answers) expect(answer).not.toContain(key)
    await client.close()
    const exit = await server.exited
    // Ended by its closed stdin: after the SDK's 2 s grace it would send SIGTERM (143 or a signal).
    expect(exit).toEqual({ code: 0, signal: null })
    expect(server.stderr()).not.toContain(key)
  })
})

describe("s2 mcp --emulator under a 429 storm (S2_EMULATOR_FAULTS)", () => {
  let server: Server

  beforeAll(async () => {
    const faults = {
      script: [
        // A 429, then answers: a call that succeeds after the client's first wait for a 429 (5 s),
        // with progress while it waits.
        {
          route: "/graph/v1/paper/search",
          requests: 1,
          fault: { _tag: "Status", status: 429, retryAfter: 1 }
        },
        // Every request: a wait of 10 s, past the deadline of 8 s.
        { route: "/graph/v1/author/search", fault: { _tag: "Status", status: 429, retryAfter: 10 } }
      ]
    }
    server = await connect(["--deadline", "8s"], { S2_EMULATOR_FAULTS: JSON.stringify(faults) })
  })
  afterAll(async () => {
    await server.client.close()
  })

  it("a call that succeeds after a 429, with a progress notification while it waits", async () => {
    const progress: Array<Progress> = []
    const result = await server.client.callTool(
      { name: "search_papers", arguments: { query: titleWord, limit: 2 } },
      undefined,
      { onprogress: (p) => progress.push(p) }
    )
    papersOf(structured(result))
    expect(progress.length).toBeGreaterThanOrEqual(1)
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1))
    expect(progress[0]!.message).toMatch(/rate limited.*\d+ s/)
  }, 20_000)

  it("a storm past the deadline: a tool error saying rate limited, then the server answers", async () => {
    const result = await server.client.callTool({ name: "search_authors", arguments: { query: "smith" } })
    expectToolError(result, /^rate limited/)
    expect(textOf(result)).toMatch(/10 s/)
    // The wait would pass the deadline: the call ends at once, not begun (an attempt the deadline
    // interrupts is "timed out").
    expect(textOf(result)).toContain("the wait would pass the deadline")
    structured(await server.client.callTool({ name: "get_paper", arguments: { id: paper.paperId } }))
    expect(server.stderr()).not.toContain(key)
  })
})

describe("s2 mcp --api-url with a key and --cache: the HTTP emulator at 1 request/s per key", () => {
  const scope = Effect.runSync(Scope.make())
  let emulator: EmulatorServer
  let server: Server

  beforeAll(async () => {
    emulator = await Effect.runPromise(Scope.provide(startEmulator({ seed: 1, size, rateLimit: 1 }), scope))
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), "s2-mcp-cache-"))
    server = await connect(["--api-url", emulator.url, "--cache", cache], {}, false)
  })
  afterAll(async () => {
    await server.client.close()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  it(
    "concurrent calls are paced to the key's rate (not two of three refused), the key is sent, a repeat comes from the cache",
    async () => {
      const ids = [paper.paperId, other.paperId, corpus.paper(2).paperId]
      const results = await Promise.all(
        ids.map((id) => server.client.callTool({ name: "get_paper", arguments: { id } }))
      )
      expect(results.map((result) => structured(result)["paperId"])).toEqual(ids)
      const sent = await Effect.runPromise(emulator.requests)
      // Paced by departure, 1,020 ms apart; the emulator counts arrivals. Unpaced, the three arrive
      // together and two are refused. On a loaded machine one arrival can come late and the next on
      // time, so one refusal (retried) is jitter, not a missing pace.
      const outcomes = sent.map((request) => request.outcome)
      expect(outcomes.filter((outcome) => outcome === 200)).toHaveLength(3)
      expect(outcomes.filter((outcome) => outcome === 429).length, String(outcomes)).toBeLessThanOrEqual(1)
      expect(sent.every((request) => request.keyPresent)).toBe(true)
      // The same call again: answered from --cache, nothing sent.
      expect(structured(await server.client.callTool({ name: "get_paper", arguments: { id: ids[0] } }))["paperId"])
        .toBe(ids[0])
      expect(await Effect.runPromise(emulator.requestCount)).toBe(sent.length)
      expect(server.stderr()).not.toContain(key)
    },
    60_000
  )
})

describe("s2 mcp's process: the default deadline, a bad S2_EMULATOR_FAULTS, SIGTERM", () => {
  it("a Retry-After of 60 s (past the default 50 s): rate limited at once, and the server answers after", async () => {
    const faults = {
      script: [{ route: "/graph/v1/author/search", fault: { _tag: "Status", status: 429, retryAfter: 60 } }]
    }
    const server = await connect([], { S2_EMULATOR_FAULTS: JSON.stringify(faults) })
    try {
      const result = await server.client.callTool({ name: "search_authors", arguments: { query: "smith" } })
      expectToolError(result, /^rate limited/)
      // Not begun, rather than slept towards the deadline (that would be "timed out").
      expect(textOf(result)).toContain("the wait would pass the deadline")
      structured(await server.client.callTool({ name: "get_paper", arguments: { id: paper.paperId } }))
    } finally {
      await server.client.close()
    }
  })

  it("a bad S2_EMULATOR_FAULTS: exit 2 with a line naming the variable and what is wrong", async () => {
    const ran = await runS2(["mcp", "--emulator"], {
      env: {
        S2_EMULATOR_SIZE: String(size),
        S2_EMULATOR_FAULTS: "{\"script\":[{\"fault\":{\"_tag\":\"Status\",\"status\":429,\"retry_after\":1}}]}"
      }
    })
    expect(ran.code).toBe(2)
    expect(ran.stdout).toBe("")
    expect(ran.stderr).toMatch(/^s2: S2_EMULATOR_FAULTS .*retry_after/)
  })

  it("SIGTERM while serving: it stops at once (143, as every s2 command), stdout only the protocol", async () => {
    const child = Bin.start(Bin.bundleBin(), ["mcp", "--emulator"], { S2_EMULATOR_SIZE: String(size) })
    // Not Bin.finish, which ends stdin: the server must stop because of the signal.
    let stdout = ""
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()))
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)))
    child.stdin?.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }
      }) + "\n"
    )
    await waitFor(() => stdout.includes("\n"), { what: "the answer to initialize" })
    expect(JSON.parse(stdout.split("\n")[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: "s2" } } })
    child.kill("SIGTERM")
    // 143: the signal ended it (an end of its own, as at a closed stdin, would be 0).
    expect(await exited).toBe(143)
    expect(stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { id: number })).toMatchObject([{ id: 1 }])
  })

  it("a line that is not JSON: a parse error for it, and every message beside it in the same read answered", async () => {
    const message = (id: number, method: string, params: unknown) =>
      JSON.stringify({ jsonrpc: "2.0", id, method, params })
    // One write, so one read: effect's stdio transport failed the whole read, initialize with it.
    const input = [
      message(1, "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "1" }
      }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      "not json {",
      message(2, "tools/call", { name: "get_paper", arguments: { id: paper.paperId } })
    ].join("\n") + "\n"
    const ran = await runS2(["mcp", "--emulator", "--structured"], {
      env: { S2_EMULATOR_SIZE: String(size) },
      stdin: input
    })
    expect(ran.code).toBe(0)
    const lines = ran.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines).toContainEqual(
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) })
    )
    expect(lines).toContainEqual(expect.objectContaining({ id: 1, result: expect.anything() }))
    expect(lines).toContainEqual(
      expect.objectContaining({ id: 2, result: expect.objectContaining({ structuredContent: expect.anything() }) })
    )
    expect(ran.stderr).toContain("a line of standard input is not JSON")
  })
})

describe("s2 mcp's stdin as a careless or hostile client writes it", () => {
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }
  })
  const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
  const ping = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })

  /** Runs `s2 mcp --emulator` (structured, unless `compact`) on `lines` written at once (one read). */
  const serve = async (
    lines: ReadonlyArray<string>,
    env: Record<string, string> = {},
    compact = false,
    args: ReadonlyArray<string> = []
  ) => {
    const ran = await runS2(["mcp", "--emulator", ...(compact ? [] : ["--structured"]), ...args], {
      env: { S2_EMULATOR_SIZE: String(size), ...env },
      stdin: [initialize, initialized, ...lines].join("\n") + "\n"
    })
    expect(ran.code).toBe(0)
    // No stack trace: every line was answered, none failed the transport.
    expect(ran.stderr).not.toMatch(/\n\s+at /)
    return {
      ...ran,
      answers: ran.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>)
    }
  }
  const error = (id: unknown, code: number) => expect.objectContaining({ id, error: expect.objectContaining({ code }) })

  it(
    "a request 100,000 deep and one of 17 MiB, with the small ones read with them: each answered with its id",
    async () => {
      const call = (id: unknown, value: string) =>
        `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_paper","arguments":{"id":${value}}},"id":${
          JSON.stringify(id)
        }}`
      const ran = await serve([
        call(20, "[".repeat(100_000) + "]".repeat(100_000)),
        call("late", JSON.stringify("x".repeat(17 * 1024 * 1024))),
        ping(21)
      ])
      expect(ran.answers).toContainEqual(error(20, -32600))
      expect(ran.answers).toContainEqual(error("late", -32600))
      expect(ran.answers).toContainEqual({ jsonrpc: "2.0", id: 21, result: {} })
      expect(ran.answers).toContainEqual(expect.objectContaining({ id: 1, result: expect.anything() }))
      expect(ran.stderr).toContain("nested more than 64 deep")
      expect(ran.stderr).toMatch(/a message of \d+ bytes, over the limit of 4194304 bytes/)
    },
    60_000
  )

  it("malformed ids, messages that are not objects, effect's own members: JSON-RPC 2.0's answers", async () => {
    const ran = await serve([
      "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
      "5",
      "\"a string\"",
      "{\"jsonrpc\":\"2.0\",\"id\":\"h\",\"method\":\"ping\",\"headers\":5}",
      ping("kept"),
      ping(-3)
    ])
    // Six Invalid Requests with id null: the four bad ids and the two messages that are not objects.
    expect(ran.answers.filter((answer) => answer["id"] === null)).toEqual(
      Array.from({ length: 6 }, () => error(null, -32600))
    )
    expect(ran.answers.map((answer) => answer["id"])).not.toContain(-32603)
    expect(ran.answers.map((answer) => answer["id"])).not.toContain("")
    for (const id of ["h", "kept", -3]) expect(ran.answers).toContainEqual({ jsonrpc: "2.0", id, result: {} })
  }, 60_000)

  it(
    "lone surrogates in an id or in params, batches with an invalid member, []: one answer each, none rewritten",
    async () => {
      const call = (id: number, value: string) =>
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_paper","arguments":{"id":"${value}"}}}`
      const ran = await serve([
        "{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"ping\"}",
        call(3, "x\\ud800y"),
        "[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"},{\"id\":6}]",
        "[]",
        ping("after")
      ])
      // Answered with id null, not with "\ufffd", an id the client never sent.
      expect(ran.answers).toContainEqual(
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("not well-formed") } }
      )
      expect(ran.stdout).not.toContain("\ufffd")
      expect(ran.answers).toContainEqual(error(3, -32602))
      // One array for the batch, holding both its ids; the empty batch one error object.
      const arrays = (ran.answers as ReadonlyArray<unknown>).filter(
        (answer): answer is ReadonlyArray<Record<string, unknown>> => Array.isArray(answer)
      )
      expect(arrays.map((batch) => batch.map((answer) => answer["id"]))).toEqual([[5, 6]])
      expect(ran.answers).toContainEqual(
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: an empty batch" } }
      )
      expect(ran.answers).toContainEqual({ jsonrpc: "2.0", id: "after", result: {} })
      // Five answers besides initialize's: none twice.
      expect(ran.answers).toHaveLength(6)
    },
    60_000
  )

  it("a lone surrogate in a server's title: U+FFFD in the answer, which strict JSON parsers take", async () => {
    const body = "{\"total\":1,\"offset\":0,\"data\":[{\"paperId\":\"" + paper.paperId +
      "\",\"title\":\"Attention \\ud800 is all\"}]}"
    const faults = { script: [{ route: "/graph/v1/paper/search", fault: { _tag: "Status", status: 200, body } }] }
    const ran = await serve(
      [JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "search_papers", arguments: { query: "attention" } }
      })],
      { S2_EMULATOR_FAULTS: JSON.stringify(faults) }
    )
    // JSON.stringify writes a lone surrogate as the escape \ud800, which pydantic-core, orjson and
    // serde_json refuse: none may be left, escaped or raw.
    expect(ran.stdout).not.toMatch(/\\u[dD][89a-fA-F][0-9a-fA-F]{2}|[\ud800-\udfff]/)
    const answer = ran.answers.find((a) => a["id"] === 2) as {
      readonly result: { readonly structuredContent: { readonly papers: ReadonlyArray<{ readonly title: string }> } }
    }
    expect(answer.result.structuredContent.papers[0]!.title).toBe("Attention \ufffd is all")
  }, 60_000)
  it("compact by default: tools/list within 10 KiB, no output schemas, each answer once as text", async () => {
    const ran = await serve(
      [
        JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
        JSON.stringify({
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name: "search_papers", arguments: { query: "attention", limit: 10 } }
        })
      ],
      {},
      true
    )
    const line = ran.stdout.split("\n").find((l) => l.startsWith("{") && (JSON.parse(l) as { id?: unknown }).id === 2)!
    // 35,162 bytes before (output schemas, 110 bounds of ±(2^53 − 1)); 10,172 when this was written.
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(10 * 1024)
    expect(line).not.toContain("9007199254740991")
    const { tools } = (JSON.parse(line) as { result: { tools: ReadonlyArray<Record<string, unknown>> } }).result
    expect(tools.map((tool) => tool.name).sort()).toEqual(toolNames)
    for (const tool of tools) expect(tool["outputSchema"], String(tool.name)).toBeUndefined()
    const answer = ran.answers.find((a) => a["id"] === 3) as {
      readonly result: {
        readonly content: ReadonlyArray<{ readonly text: string }>
        readonly structuredContent?: unknown
      }
    }
    expect(answer.result.structuredContent).toBeUndefined()
    // --emulator: every answer says, last, that its data are made up.
    expect(answer.result.content[0]!.text).toMatch(/^10 of [\d,]+ papers found/)
    expect(answer.result.content.at(-1)!.text).toMatch(/^\[s2 emulator: made-up data/)
  }, 60_000)
  it(
    "--tools serves only the tools named and --max-answer-chars cuts answers; an unknown name stops s2 first",
    async () => {
      const refused = await runS2(["mcp", "--emulator", "--tools", "search,verfy"], {
        env: { S2_EMULATOR_SIZE: String(size) },
        stdin: ""
      })
      expect(refused.code).toBe(2)
      expect(refused.stdout).toBe("")
      expect(refused.stderr).toMatch(
        /^s2: --tools "verfy" is not a profile or a tool: give profiles \(search, papers, authors, graph, verify, watch, all\) or tool names \(search_papers, /
      )
      const ran = await serve(
        [
          JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
          JSON.stringify({
            jsonrpc: "2.0",
            id: 3,
            method: "tools/call",
            params: { name: "search_papers", arguments: { query: "learning", limit: 50 } }
          })
        ],
        {},
        true,
        ["--tools", "search,verify", "--max-answer-chars", "2000"]
      )
      const listed = ran.answers.find((a) => a["id"] === 2) as { result: { tools: ReadonlyArray<{ name: string }> } }
      expect(listed.result.tools.map((tool) => tool.name).sort()).toEqual([
        "get_paper",
        "match_title",
        "recommend_papers",
        "resolve_references",
        "search_authors",
        "search_papers",
        "search_snippets",
        "verify_references"
      ])
      const answer = ran.answers.find((a) => a["id"] === 3) as { result: { content: ReadonlyArray<{ text: string }> } }
      const text = answer.result.content[0]!.text
      expect(text.length).toBeLessThanOrEqual(2000)
      expect(text).toMatch(/^\d+ of [\d,]+ papers found \(cut at the 2,000-character answer budget; next offset \d+\):/)
    },
    60_000
  )
})
