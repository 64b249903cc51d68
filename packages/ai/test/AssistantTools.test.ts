/**
 * The assistant tools: each handler against the in-memory emulator (shape, defaults, requests
 * made), the bounds of their parameters, failures as typed tool results, and the text shown to
 * the model bounded and free of control characters whatever the server sends.
 */
import { describe, expect, it } from "@effect/vitest"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import type { S2Error } from "@s2-effect/core"
import {
  BadQueryParameters,
  DecodeError,
  Forbidden,
  InvalidOptions,
  ObjectNotFound,
  ProtocolError,
  RateLimited,
  RateLimiterUnavailable,
  SemanticScholar,
  ServerError,
  Timeout,
  TransportError,
  UnexpectedStatus
} from "@s2-effect/core"
import { CitationGraph, TitleMatch } from "@s2-effect/jobs"
import { settle } from "@s2-effect/test-support"
import { Emulator, Faults, Fixtures, SemanticScholarStub } from "@s2-effect/testing"
import { Effect, Fiber, Layer, Queue, Schema, Stream } from "effect"
import type { Toolkit } from "effect/ai"
import { McpProtocol, McpServer, McpTest, Tool } from "effect/ai"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { AssistantTools } from "../src/index.js"
import { json, testLayer } from "./support/Scripted.js"

const TURING = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"
const ATTENTION = "204e3073870fae3d05bcbc2f6a8e263d9b72e776"
const LITERATURE_GRAPH = "649def34f8be52c8b66281af98ae884c09aef38b"

type Tools = Toolkit.Tools<typeof AssistantTools.toolkit>
type Name = keyof Tools

const emulated = (
  options: Parameters<typeof Emulator.layer>[0] = {},
  client: Parameters<typeof SemanticScholar.layer>[0] = {}
) =>
  AssistantTools.handlers.pipe(
    Layer.provideMerge(SemanticScholar.layer(client)),
    Layer.provideMerge(Emulator.layer({ seed: 1, size: 1000, ...options }))
  )

const stubbed = (handlers: SemanticScholarStub.Handlers) =>
  AssistantTools.handlers.pipe(Layer.provide(SemanticScholarStub.layer(handlers)))

/** Calls a tool as an MCP server does (unknown parameters refused) and gives its last result. */
const call = <N extends Name>(name: N, params: unknown) =>
  Effect.gen(function*() {
    const toolkit = yield* AssistantTools.toolkit
    const results = yield* toolkit.handle(name, params as never, undefined, { onExcessProperty: "error" })
    const all = yield* Stream.runCollect(results)
    return all[all.length - 1]!
  })

/** A successful call: its typed answer, encoded answer and text. */
const answer = <N extends Name>(name: N, params: unknown) =>
  Effect.gen(function*() {
    const result = yield* call(name, params)
    if (result.isFailure) return yield* Effect.die(new Error(`${name} failed: ${JSON.stringify(result.encodedResult)}`))
    const parts = result.modelOutput ?? []
    expect(parts).toHaveLength(1)
    const part = parts[0]!
    const text = part.type === "text" ? part.text : ""
    checkEncoded(name, result.encodedResult)
    checkText(text)
    return { value: result.result as Tool.Success<Tools[N]>, encoded: result.encodedResult, text }
  })

/** A failed call: the ToolFailure (a handler's failure) or the parameters' error. */
const failure = <N extends Name>(name: N, params: unknown) =>
  Effect.gen(function*() {
    const result = yield* call(name, params)
    expect(result.isFailure).toBe(true)
    return { origin: result.failureOrigin, error: result.result as unknown, encoded: result.encodedResult }
  })

const validator = new AjvJsonSchemaValidator()
const outputValidators = new Map(
  Object.values(AssistantTools.toolkit.tools).map((tool) => [
    tool.name as string,
    validator.getValidator(Tool.getJsonSchemaFromSchema(tool.successSchema) as never)
  ])
)

/** No `null` and no `undefined` anywhere: optional fields are absent. */
const definedEverywhere = (value: unknown, path = "$"): void => {
  expect(value, path).not.toBeNull()
  expect(value, path).not.toBeUndefined()
  if (Array.isArray(value)) value.forEach((v, i) => definedEverywhere(v, `${path}[${i}]`))
  else if (typeof value === "object") {
    for (const [k, v] of Object.entries(value as object)) definedEverywhere(v, `${path}.${k}`)
  }
}

/** What an MCP client checks: the encoded answer valid against the tool's output schema, as JSON. */
const checkEncoded = (name: Name, encoded: unknown) => {
  definedEverywhere(encoded)
  const json = JSON.parse(JSON.stringify(encoded))
  expect(json).toEqual(encoded)
  const result = outputValidators.get(name)!(json)
  expect(result.errorMessage, name).toBeUndefined()
  expect(result.valid).toBe(true)
}

const controlCharacters = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

const checkText = (text: string) => {
  expect(text).not.toMatch(controlCharacters)
  for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(2000)
}

const requests = Effect.flatMap(Emulator, (e) => e.requests)
const paths = Effect.map(requests, (rs) => rs.map((r) => r.path))

const parameterNames: { readonly [N in Name]: ReadonlyArray<string> } = {
  search_papers: ["query", "yearFrom", "yearTo", "fieldsOfStudy", "openAccessOnly", "limit", "offset"],
  get_paper: ["id"],
  get_papers: ["ids"],
  get_citations: ["id", "limit", "offset"],
  get_references: ["id", "limit", "offset"],
  search_authors: ["query", "limit", "offset"],
  get_author: ["id"],
  get_author_papers: ["id", "limit", "offset"],
  recommend_papers: ["positive", "negative", "limit", "offset"],
  match_title: ["title"],
  search_snippets: ["query", "limit", "offset"],
  resolve_references: ["lines"],
  citation_graph: ["seeds", "direction", "depth", "perNode", "maxNodes"],
  related_papers: ["seeds", "top", "offset"],
  verify_references: ["text", "bibtex", "lines"]
}

interface JsonObject {
  readonly type?: string
  readonly properties?: Record<string, Record<string, unknown>>
  readonly required?: ReadonlyArray<string>
}

describe("the tools' definitions", () => {
  it("15 tools, with the issues' names and these parameters", () => {
    const tools = Object.values(AssistantTools.toolkit.tools)
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(parameterNames).sort())
    for (const tool of tools) {
      const schema = Tool.getJsonSchema(tool) as JsonObject
      expect(schema.type, tool.name).toBe("object")
      expect(Object.keys(schema.properties ?? {}), tool.name).toEqual(parameterNames[tool.name as Name])
    }
  })

  it("every parameter is described, every number bounded; answers are objects (MCP outputSchema)", () => {
    for (const tool of Object.values(AssistantTools.toolkit.tools)) {
      const schema = Tool.getJsonSchema(tool) as JsonObject
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        expect(property["description"], `${tool.name}.${name}`).toBeTypeOf("string")
        if (property["type"] === "integer") {
          expect(property["minimum"], `${tool.name}.${name}`).toBeTypeOf("number")
          if (name !== "offset") expect(property["maximum"], `${tool.name}.${name}`).toBeTypeOf("number")
        }
        if (property["type"] === "string" && property["enum"] === undefined) {
          expect(property["maxLength"], `${tool.name}.${name}`).toBeTypeOf("number")
        }
        if (property["type"] === "array") expect(property["maxItems"], `${tool.name}.${name}`).toBeTypeOf("number")
      }
      const output = Tool.getJsonSchemaFromSchema(tool.successSchema) as JsonObject
      expect(output.type, tool.name).toBe("object")
      expect(tool.failureMode).toBe("return")
      expect(Tool.getDescription(tool)?.length).toBeGreaterThan(20)
    }
  })

  it("answer schemas carry numbers as JSON numbers only (no \"Infinity\"/\"NaN\" strings a client would accept)", () => {
    for (const tool of Object.values(AssistantTools.toolkit.tools)) {
      const output = JSON.stringify(Tool.getJsonSchemaFromSchema(tool.successSchema))
      expect(output, tool.name).not.toContain("Infinity")
      expect(output, tool.name).not.toContain("NaN")
    }
  })

  it("the documented defaults and bounds", () => {
    const props = (name: Name) => (Tool.getJsonSchema(AssistantTools.toolkit.tools[name]) as JsonObject).properties!
    expect(props("search_papers")["limit"]).toMatchObject({ minimum: 1, maximum: 100, default: 10 })
    expect(props("search_papers")["offset"]).toMatchObject({ minimum: 0, default: 0 })
    expect((props("search_papers")["fieldsOfStudy"]!["items"] as { enum: Array<string> }).enum).toContain(
      "Computer Science"
    )
    expect(props("get_citations")["limit"]).toMatchObject({ maximum: 100, default: 20 })
    expect(props("get_papers")["ids"]).toMatchObject({ minItems: 1, maxItems: 100 })
    expect(props("resolve_references")["lines"]).toMatchObject({ minItems: 1, maxItems: 200 })
    expect(props("citation_graph")["seeds"]).toMatchObject({ minItems: 1, maxItems: 5 })
    expect(props("citation_graph")["depth"]).toMatchObject({ minimum: 1, maximum: 2, default: 1 })
    expect(props("citation_graph")["perNode"]).toMatchObject({ minimum: 1, maximum: 20, default: 10 })
    expect(props("citation_graph")["maxNodes"]).toMatchObject({ minimum: 1, maximum: 200, default: 50 })
    expect(props("citation_graph")["direction"]).toMatchObject({ default: "references" })
    expect(AssistantTools.limits).toEqual({
      results: 100,
      ids: 100,
      lines: 200,
      seeds: 5,
      depth: 2,
      perNode: 20,
      nodes: 200
    })
  })
})

describe("search_papers", () => {
  it.effect("a page of paper summaries by relevance, 10 by default, in one request asking only the fields shown", () =>
    Effect.gen(function*() {
      const { encoded, text, value } = yield* answer("search_papers", { query: "attention" })
      expect(value.papers.length).toBeGreaterThan(0)
      expect(value.papers.length).toBeLessThanOrEqual(10)
      expect(value.offset).toBe(0)
      expect(value.total).toBeGreaterThanOrEqual(value.papers.length)
      expect(Object.keys(encoded as object).sort()).toEqual(
        value.next === undefined ? ["offset", "papers", "total"] : ["next", "offset", "papers", "total"]
      )
      for (const paper of value.papers) {
        expect(paper.paperId).toMatch(/^[0-9a-f]{40}$/)
        expect(paper.authors.length).toBeLessThanOrEqual(5)
        expect(paper.authorCount).toBeGreaterThanOrEqual(paper.authors.length)
      }
      expect(text.split("\n")[0]).toMatch(/^\d+ of [\d,]+ papers? found/)
      expect(text.split("\n")[1]).toMatch(/^1\. .+ · paperId [0-9a-f]{40}/)
      const seen = yield* requests
      expect(seen.map((r) => r.path)).toEqual(["/graph/v1/paper/search"])
      const query = new URLSearchParams(seen[0]!.query.map(([k, v]) => [k, v]))
      expect(query.get("limit")).toBe("10")
      expect(query.get("fields")?.split(",").sort()).toEqual(
        ["authors", "citationCount", "externalIds", "openAccessPdf", "title", "url", "venue", "year"]
      )
    }).pipe(Effect.provide(emulated())))

  it.effect("filters go to the API: year range, fields of study, open access", () =>
    Effect.gen(function*() {
      yield* answer("search_papers", {
        query: "graph",
        yearFrom: 2010,
        yearTo: 2020,
        fieldsOfStudy: ["Computer Science", "Mathematics"],
        openAccessOnly: true,
        limit: 3,
        offset: 6
      })
      const [seen] = yield* requests
      const query = new Map(seen!.query)
      expect(query.get("year")).toBe("2010-2020")
      expect(query.get("fieldsOfStudy")).toBe("Computer Science,Mathematics")
      expect(query.has("openAccessPdf")).toBe(true)
      expect(query.get("limit")).toBe("3")
      expect(query.get("offset")).toBe("6")
    }).pipe(Effect.provide(emulated())))

  it.effect("bad input is refused before sending, naming what is allowed", () =>
    Effect.gen(function*() {
      const tooMany = yield* failure("search_papers", { query: "x", limit: 101 })
      expect(tooMany.origin).toBe("parameters")
      expect(String((tooMany.error as Error).message)).toContain("100")
      const unknown = yield* failure("search_papers", { query: "x", year: 2020 })
      expect(unknown.origin).toBe("parameters")
      expect(String((unknown.error as Error).message)).toContain("year")
      const empty = yield* failure("search_papers", { query: "" })
      expect(empty.origin).toBe("parameters")
      const field = yield* failure("search_papers", { query: "x", fieldsOfStudy: ["Astrology"] })
      expect(field.origin).toBe("parameters")

      const window = yield* failure("search_papers", { query: "x", offset: 995, limit: 10 })
      expect(window.origin).toBe("handler")
      expect(window.error).toBeInstanceOf(AssistantTools.ToolFailure)
      expect(window.error).toMatchObject({ kind: "badParameter" })
      expect((window.error as AssistantTools.ToolFailure).message).toMatch(
        /^bad parameter: offset 995 \+ limit 10 .*≤ 1000/
      )
      expect(window.encoded).toMatchObject({ _tag: "ToolFailure", kind: "badParameter" })

      const years = yield* failure("search_papers", { query: "x", yearFrom: 2021, yearTo: 2020 })
      expect(years.error).toMatchObject({ kind: "badParameter" })
      expect((years.error as AssistantTools.ToolFailure).message).toContain("yearFrom ≤ yearTo")
      expect(yield* requests).toEqual([])
      // offset + limit = 1000 exactly is allowed
      yield* answer("search_papers", { query: "x", offset: 990, limit: 10 })
    }).pipe(Effect.provide(emulated())))
})

describe("ids", () => {
  it.effect("an id with a \".\" or \"..\" path segment is refused before sending: it would leave its endpoint", () =>
    Effect.gen(function*() {
      // Unrefused, "../../author/123" asked GET /graph/author/123 and get_author's "../paper/x" a paper.
      const cases: ReadonlyArray<readonly [Name, Record<string, unknown>]> = [
        ["get_paper", { id: "../../author/123" }],
        ["get_paper", { id: "DOI:10.1/../../x" }],
        ["get_paper", { id: "a/./b" }],
        ["get_author", { id: "../paper/abc" }],
        ["get_author_papers", { id: ".." }],
        ["get_citations", { id: "x/../../author/1" }],
        ["recommend_papers", { positive: ["../../../graph/v1/paper/search"] }],
        ["citation_graph", { seeds: ["a/.."] }]
      ]
      // Refused by the client's own check of ids (Validate), as a bad parameter.
      for (const [name, params] of cases) {
        const refused = yield* failure(name, params)
        expect(refused.error, `${name} ${JSON.stringify(params)}`).toMatchObject({ kind: "badParameter" })
        expect(String((refused.error as Error).message)).toContain("path segment")
      }
      expect(yield* requests).toEqual([])
      // Dots inside a segment are an id's own (a DOI may hold them).
      const dotted = yield* failure("get_paper", { id: "10.1000/xyz..abc" })
      expect(dotted.error).toMatchObject({ kind: "notFound" })
    }).pipe(Effect.provide(emulated())))
  it.effect("an id holding String.replace's patterns ($') is sent under its own endpoint, never another API's path", () =>
    Effect.gen(function*() {
      // Issue 44 point 1: spliced with String.replace, this id asked GET /datasets/v1/release/latest with the key.
      const id = "..$'/..$'/..$'/datasets/v1/release/latest"
      for (const name of ["get_paper", "get_citations", "get_author"] as const) {
        expect((yield* failure(name, { id })).error, name).toMatchObject({ kind: "notFound" })
      }
      expect(yield* paths).toEqual([
        `/graph/v1/paper/${id}`,
        `/graph/v1/paper/${id}/citations`,
        `/graph/v1/author/${encodeURIComponent(id)}`
      ])
    }).pipe(Effect.provide(emulated())))
})

describe("papers", () => {
  it.effect("get_paper: any id form, the detail with a bounded abstract, one request", () =>
    Effect.gen(function*() {
      const { text, value } = yield* answer("get_paper", { id: "https://arxiv.org/abs/1706.03762" })
      expect(value.paperId).toBe(ATTENTION)
      expect(value.arxiv).toBe("1706.03762")
      expect(value.title.length).toBeGreaterThan(0)
      expect((value.abstract ?? "").length).toBeLessThanOrEqual(1500)
      expect(text.split("\n")[0]).toContain(`paperId ${ATTENTION}`)
      expect(yield* paths).toEqual(["/graph/v1/paper/ARXIV:1706.03762"])
      const byDoi = yield* answer("get_paper", { id: "10.1093/mind/lix.236.433" })
      expect(byDoi.value.paperId).toBe(TURING)
      expect(byDoi.value.year).toBe(1950)
    }).pipe(Effect.provide(emulated())))

  it.effect("get_paper: an unknown id is a notFound tool failure, and the tools go on answering", () =>
    Effect.gen(function*() {
      const { error, origin } = yield* failure("get_paper", { id: "CorpusId:999999999" })
      expect(origin).toBe("handler")
      expect(error).toMatchObject({ _tag: "ToolFailure", kind: "notFound" })
      expect((error as AssistantTools.ToolFailure).message).toMatch(/^not found: /)
      // The URL it names is cut before its query: the field list is no news to the model.
      expect((error as AssistantTools.ToolFailure).message).toContain("/paper/CorpusId:999999999")
      expect((error as AssistantTools.ToolFailure).message).not.toContain("?")
      expect((error as AssistantTools.ToolFailure).message).not.toContain("fields=")
      const after = yield* answer("get_paper", { id: TURING })
      expect(after.value.paperId).toBe(TURING)
    }).pipe(Effect.provide(emulated())))

  it.effect("get_papers: one batch request, the unknown ids listed as given", () =>
    Effect.gen(function*() {
      const { text, value } = yield* answer("get_papers", {
        ids: [TURING, "https://doi.org/10.9999/nothing", "arXiv:1706.03762"]
      })
      expect(value.papers.map((p) => p.paperId)).toEqual([TURING, ATTENTION])
      expect(value.notFound).toEqual(["https://doi.org/10.9999/nothing"])
      expect(text.split("\n")[0]).toBe("2 papers (1 not found: https://doi.org/10.9999/nothing):")
      expect(yield* paths).toEqual(["/graph/v1/paper/batch"])
      const none = yield* failure("get_papers", { ids: [] })
      expect(none.origin).toBe("parameters")
      const tooMany = yield* failure("get_papers", { ids: Array.from({ length: 101 }, (_, i) => `CorpusId:${i}`) })
      expect(tooMany.origin).toBe("parameters")
    }).pipe(Effect.provide(emulated())))

  it.effect("get_citations and get_references: one page, the id as given, next offset", () =>
    Effect.gen(function*() {
      const citing = yield* answer("get_citations", { id: "arXiv:1706.03762", limit: 5 })
      expect(citing.value.paperId).toBe("arXiv:1706.03762")
      expect(citing.value.papers.length).toBe(5)
      expect(citing.value.next).toBe(5)
      expect(citing.text.split("\n")[0]).toBe("5 papers citing arXiv:1706.03762 (next offset 5):")
      const cited = yield* answer("get_references", { id: ATTENTION, offset: 2 })
      expect(cited.value.offset).toBe(2)
      expect(cited.value.papers.length).toBeLessThanOrEqual(20)
      const seen = yield* requests
      expect(seen.map((r) => r.path)).toEqual([
        "/graph/v1/paper/ARXIV:1706.03762/citations",
        `/graph/v1/paper/${ATTENTION}/references`
      ])
      expect(new Map(seen[1]!.query).get("limit")).toBe("20")
      expect(new Map(seen[0]!.query).get("fields")).toContain("isInfluential")
    }).pipe(Effect.provide(emulated())))

  it.effect("recommend_papers: one positive is the for-paper endpoint, more are the lists endpoint", () =>
    Effect.gen(function*() {
      const one = yield* answer("recommend_papers", { positive: [ATTENTION], limit: 3 })
      expect(one.value.papers.length).toBeLessThanOrEqual(3)
      const two = yield* answer("recommend_papers", { positive: [ATTENTION], negative: [TURING], limit: 4 })
      expect(two.value.papers.length).toBeLessThanOrEqual(4)
      expect(yield* paths).toEqual([
        `/recommendations/v1/papers/forpaper/${ATTENTION}`,
        "/recommendations/v1/papers/"
      ])
    }).pipe(Effect.provide(emulated())))

  it.effect("match_title: the best match with its score; no match is notFound", () =>
    Effect.gen(function*() {
      const { text, value } = yield* answer("match_title", {
        title: "Construction of the Literature Graph in Semantic Scholar"
      })
      expect(value.paperId).toBe(LITERATURE_GRAPH)
      expect(value.matchScore).toBeTypeOf("number")
      expect(text).toMatch(/^Best title match \(score [\d.,]+\):\n/)
      const none = yield* failure("match_title", { title: "zzqx wvvq no such words at all" })
      expect(none.error).toMatchObject({ kind: "notFound" })
    }).pipe(Effect.provide(emulated())))

  it.effect("match_title: the paper only when it has the title; one content word changed is not found, naming the nearest", () =>
    Effect.gen(function*() {
      // Case, punctuation and a trailing period aside, it is the title.
      const { value } = yield* answer("match_title", { title: "computing machinery and intelligence." })
      expect(value.paperId).toBe(TURING)
      // The emulator, as lenient as the live API, answers another paper for a changed word.
      const changed = yield* failure("match_title", { title: "Deep residual learning for image recognition" })
      expect(changed.origin).toBe("handler")
      expect(changed.error).toMatchObject({ kind: "notFound" })
      expect((changed.error as AssistantTools.ToolFailure).message).toMatch(
        /^not found: no paper has this title; the nearest, "Deep variational inference for speech recognition and image classification", is 0\.\d\d similar \(0\.90 and the same words needed\); its paperId [0-9a-f]{40}$/
      )
    }).pipe(Effect.provide(emulated())))

  it.effect(
    "property: match_title never answers a paper for a title with one content word changed, unless that is its title",
    () =>
      Effect.gen(function*() {
        const emulator = yield* Emulator
        const titles = emulator.corpus.papers.slice(0, 200).map((p) => p.title)
        const layer = emulated()
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.constantFrom(...titles),
              fc.nat(),
              fc.constantFrom("banana", "volcano", "sonnet", "gravity", "protein", "speech", "image", "kernel"),
              async (title, k, word) => {
                const words = TitleMatch.normalise(title).split(" ")
                // Longer than "with" and "from": a content word, not a stop word.
                const content = words.flatMap((w, i) => w.length > 4 ? [i] : [])
                fc.pre(content.length > 0)
                const at = content[k % content.length]!
                fc.pre(words[at] !== word)
                words[at] = word
                const changed = words.join(" ")
                const result = await Effect.runPromise(
                  call("match_title", { title: changed }).pipe(Effect.provide(layer))
                )
                if (result.isFailure) {
                  expect(result.result).toMatchObject({ kind: "notFound" })
                } else {
                  const found = (result.result as AssistantTools.TitleMatch).title
                  expect(found).not.toBe(title)
                  expect(TitleMatch.compare(changed, found).same).toBe(true)
                }
              }
            ),
            { numRuns: 60 }
          )
        )
      }).pipe(Effect.provide(emulated())),
    120_000
  )

  it.effect("search_snippets: passages with their paper as a CorpusId", () =>
    Effect.gen(function*() {
      const { value } = yield* answer("search_snippets", { query: "attention", limit: 3 })
      expect(value.snippets.length).toBeLessThanOrEqual(3)
      for (const snippet of value.snippets) {
        expect(snippet.paper.paperId).toMatch(/^CorpusId:\d+$/)
        expect(snippet.text.length).toBeLessThanOrEqual(1000)
      }
      expect(yield* paths).toEqual(["/graph/v1/snippet/search"])
    }).pipe(Effect.provide(emulated())))
})

describe("authors", () => {
  it.effect("search_authors, get_author and get_author_papers", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator
      const someone = emulator.corpus.authors[3]!
      const found = yield* answer("search_authors", { query: someone.name, limit: 5 })
      expect(found.value.authors.length).toBeGreaterThan(0)
      expect(found.value.authors.length).toBeLessThanOrEqual(5)
      const author = yield* answer("get_author", { id: someone.authorId })
      expect(author.value.authorId).toBe(someone.authorId)
      expect(author.value.name).toBe(someone.name)
      expect(author.value.affiliations.length).toBeLessThanOrEqual(3)
      expect(author.text).toContain(`authorId ${someone.authorId}`)
      const papers = yield* answer("get_author_papers", { id: someone.authorId, limit: 2 })
      expect(papers.value.authorId).toBe(someone.authorId)
      expect(papers.value.papers.length).toBeLessThanOrEqual(2)
      expect(yield* paths).toEqual([
        "/graph/v1/author/search",
        `/graph/v1/author/${someone.authorId}`,
        `/graph/v1/author/${someone.authorId}/papers`
      ])
      const missing = yield* failure("get_author", { id: "999999999999" })
      expect(missing.error).toMatchObject({ kind: "notFound" })
    }).pipe(Effect.provide(emulated())))
})

describe("resolve_references and citation_graph", () => {
  it.effect("resolve_references: one entry per line, in order, with how or why not", () =>
    Effect.gen(function*() {
      const lines = [
        "Construction of the Literature Graph in Semantic Scholar",
        "https://doi.org/10.1093/mind/lix.236.433",
        "DOI:10.9999/none",
        "   "
      ]
      const { text, value } = yield* answer("resolve_references", { lines })
      expect(value.references.map((r) => r.line)).toEqual(lines)
      expect(value.references.map((r) => r.paper?.paperId)).toEqual([LITERATURE_GRAPH, TURING, undefined, undefined])
      expect(value.references.map((r) => r.via ?? r.reason)).toEqual(["title", "id", "unknownId", "malformed"])
      expect(value.found).toBe(2)
      expect(value.notFound).toBe(2)
      expect(text.split("\n")[0]).toBe("Resolved 2 of 4 lines (2 not found):")
    }).pipe(Effect.provide(emulated())))

  it.effect("citation_graph: stops at maxNodes (truncated), edges only between its nodes, few requests", () =>
    Effect.gen(function*() {
      const { text, value } = yield* answer("citation_graph", { seeds: [ATTENTION, "CorpusId:999999999"], maxNodes: 4 })
      expect(value.nodes.length).toBe(4)
      expect(value.truncated).toBe(true)
      expect(value.notFound).toEqual(["CorpusId:999999999"])
      expect(value.nodes[0]).toMatchObject({ paperId: ATTENTION, depth: 0 })
      const ids = new Set(value.nodes.map((n) => n.paperId))
      for (const edge of value.edges) {
        expect(ids.has(edge.from) && ids.has(edge.to)).toBe(true)
      }
      expect(text.split("\n")[0]).toContain("(cut at the paper limit)")
      // the seeds' batch, the seed's references page, the next level's batch: nothing more
      expect((yield* paths).length).toBeLessThanOrEqual(3)
      const whole = yield* answer("citation_graph", { seeds: [TURING], direction: "citations", perNode: 3 })
      expect(whole.value.truncated).toBe(false)
      expect(whole.value.nodes.length).toBeLessThanOrEqual(4)
      yield* Effect.flatMap(Emulator, (e) => e.clearRequests)
      const cut = yield* answer("citation_graph", { seeds: [ATTENTION], perNode: 3, depth: 2, maxNodes: 8 })
      expect(cut.value.nodes.length).toBe(8)
      expect(cut.value.truncated).toBe(true)
      const depthOf = new Map(cut.value.nodes.map((n) => [n.paperId, n.depth]))
      // the papers kept from the level that was cut still come with the citations that found them
      for (const node of cut.value.nodes.filter((n) => n.depth === 2)) {
        expect(cut.value.edges.some((e) => e.to === node.paperId && depthOf.get(e.from) === 1), node.paperId).toBe(true)
      }
      // seeds' batch, the seed's references, their batch, the three papers' references, their batch: no more
      expect((yield* paths).length).toBe(7)
      const deep = yield* failure("citation_graph", { seeds: [TURING], depth: 3 })
      expect(deep.origin).toBe("parameters")
      const seeds = yield* failure("citation_graph", { seeds: ["a", "b", "c", "d", "e", "f"] })
      expect(seeds.origin).toBe("parameters")
    }).pipe(Effect.provide(emulated())))

  it.effect("citation_graph answers with the papers and a skipped count, not a bad-parameter failure", () => {
    const sha = (n: number) => n.toString(16).padStart(40, "0")
    // The seed DOI:10.1/seed is sha(1); its list names sha(2) and an id with a control character,
    // which no request can carry.
    const server = testLayer((request) => {
      if (request.url.pathname.endsWith("/paper/batch")) {
        const ids = (request.body as { ids: Array<string> }).ids
        return Effect.succeed(json(ids.map((id) => ({ paperId: id === "DOI:10.1/seed" ? sha(1) : id }))))
      }
      const of = decodeURIComponent(request.url.pathname.split("/").at(-2)!)
      const listed = of === sha(1) ? [sha(2), "a\u0001b"] : []
      return Effect.succeed(
        json({ offset: 0, data: listed.map((paperId) => ({ citingPaper: { paperId }, citedPaper: { paperId } })) })
      )
    })
    return Effect.gen(function*() {
      const toolkit = yield* AssistantTools.toolkit
      const results = yield* toolkit.handle("citation_graph", { seeds: ["DOI:10.1/seed"], direction: "citations" })
      const last = (yield* Stream.runCollect(results)).at(-1)!
      expect(last.isFailure).toBe(false)
      const answer = last.result as AssistantTools.GraphAnswer
      expect(answer.nodes.map((n) => n.paperId)).toEqual([sha(1), sha(2)])
      expect(answer.skipped).toBe(1)
      const text = last.modelOutput?.[0]
      expect(text?.type === "text" ? text.text : "").toMatch(/skipped 1 id the server listed that no request can carry/)
    }).pipe(Effect.provide(AssistantTools.handlers.pipe(Layer.provideMerge(server))))
  })
})

describe("related_papers", () => {
  it.effect("the papers of CitationGraph.related, compact: summaries with the score, counts and flags", () =>
    Effect.gen(function*() {
      const { text, value } = yield* answer("related_papers", { seeds: [TURING, "CorpusId:999999999"], top: 5 })
      const direct = yield* CitationGraph.related([TURING], { top: 5 })
      expect(value.papers.map((p) => [p.paperId, p.score, p.coCitation, p.coupling, p.citesSeed, p.citedBySeed]))
        .toEqual(
          direct.papers.map((r) => [r.paper.paperId, r.score, r.coCitation, r.coupling, r.citesSeed, r.citedBySeed])
        )
      expect(value.papers[0]).toMatchObject({ title: direct.papers[0]!.paper.title, authors: expect.any(Array) })
      expect(value.seeds).toEqual([{ paperId: TURING, title: "Computing Machinery and Intelligence", year: 1950 }])
      expect(value.notFound).toEqual(["CorpusId:999999999"])
      expect(value).toMatchObject({ candidates: direct.candidates, citing: direct.citing, cited: direct.cited })
      expect(value.timeBudgetSeconds).toBeUndefined()
      // Compact: the map's data (similar links, foundations, derivatives) is not in the answer.
      expect(direct.similar.length).toBeGreaterThan(0)
      expect(Object.keys(value).filter((k) => ["similar", "foundations", "derivatives", "links"].includes(k))).toEqual(
        []
      )
      expect(text.split("\n")[0]).toMatch(
        /^5 papers related to "Computing Machinery and Intelligence", best first, of [\d,]+ ranked from [\d,]+ papers citing a seed and \d+ cited by one; not found: CorpusId:999999999:$/
      )
      expect(text.split("\n")[1]).toMatch(/^1\. .* · score [\d.]+ · co-cited \d+, coupled \d+/)
      const many = yield* failure("related_papers", { seeds: ["a", "b", "c", "d", "e", "f"] })
      expect(many.origin).toBe("parameters")
      const top = yield* failure("related_papers", { seeds: [TURING], top: 101 })
      expect(top.origin).toBe("parameters")
    }).pipe(Effect.provide(emulated())))
})

describe("failures", () => {
  it.effect("a 429 the retries cannot ride out is rateLimited, with the server's wait", () =>
    Effect.gen(function*() {
      const { error } = yield* failure("get_paper", { id: TURING })
      expect(error).toMatchObject({ kind: "rateLimited", retryAfterSeconds: 7 })
      expect((error as AssistantTools.ToolFailure).message).toMatch(/^rate limited: .*retry after 7 s$/)
    }).pipe(Effect.provide(emulated(
      { faults: { script: [{ requests: { from: 1, to: 5 }, fault: Faults.tooManyRequests({ retryAfter: 7 }) }] } },
      { retry: false }
    ))))

  it.effect("a 429 wait past the deadline ends the call at once as rateLimited (TestClock)", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(failure("search_papers", { query: "attention" }))
      yield* TestClock.adjust("1 minute")
      const { error } = yield* Fiber.join(fiber)
      expect(error).toMatchObject({ kind: "rateLimited", retryAfterSeconds: 30 })
      expect((error as AssistantTools.ToolFailure).message).toContain("deadline")
      expect((yield* requests).length).toBe(1)
    }).pipe(Effect.provide(emulated(
      { faults: { script: [{ requests: { from: 1, to: 50 }, fault: Faults.tooManyRequests({ retryAfter: 30 }) }] } },
      { deadline: "10 seconds" }
    ))))

  it.effect("a short 429 storm is ridden out by the client's retries (TestClock)", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(answer("get_paper", { id: TURING }))
      yield* TestClock.adjust("1 minute")
      const { value } = yield* Fiber.join(fiber)
      expect(value.paperId).toBe(TURING)
      expect((yield* requests).map((r) => r.outcome)).toEqual([429, 429, 200])
    }).pipe(Effect.provide(emulated({
      faults: { script: [{ requests: { from: 1, to: 2 }, fault: Faults.tooManyRequests({ retryAfter: 1 }) }] }
    }))))

  it("toolFailure: every S2Error is one line, ≤ 300 characters, starting with its kind", () => {
    const long = `${"x".repeat(400)}\nsecond line\u0007`
    const cases: ReadonlyArray<readonly [S2Error, AssistantTools.FailureKind, string]> = [
      [new ObjectNotFound({ message: long }), "notFound", "not found: "],
      [new BadQueryParameters({ message: long }), "badParameter", "bad parameter: "],
      [new InvalidOptions({ message: long, option: "timeout" }), "badParameter", "bad parameter: "],
      [new RateLimited({ message: long, retryAfterMillis: 1500 }), "rateLimited", "rate limited: "],
      [new Timeout({ message: long, timeoutMillis: 10 }), "timeout", "timed out: "],
      [new Forbidden({ message: long }), "forbidden", "forbidden: "],
      [new ServerError({ message: long }), "serverError", "server error: "],
      [new UnexpectedStatus({ message: long, status: 302 }), "badAnswer", "bad answer from the server: "],
      [new TransportError({ message: long }), "unreachable", "unreachable: "],
      [new RateLimiterUnavailable({ message: long, store: "redis" }), "unreachable", "unreachable: "],
      [new DecodeError({ message: long, excerpt: "" }), "badAnswer", "bad answer from the server: "],
      [new ProtocolError({ message: long }), "badAnswer", "bad answer from the server: "]
    ]
    for (const [error, kind, start] of cases) {
      const failure = AssistantTools.toolFailure(error)
      expect(failure.kind).toBe(kind)
      expect(failure.message.startsWith(start)).toBe(true)
      expect(failure.message.length).toBeLessThanOrEqual(300)
      expect(failure.message).not.toMatch(/[\n\r\u0007]/)
    }
    expect(AssistantTools.toolFailure(new RateLimited({ message: "429", retryAfterMillis: 1500 }))).toMatchObject({
      retryAfterSeconds: 2,
      message: "rate limited: the API answered 429 (too many requests) to every retry; retry after 2 s"
    })
    expect(AssistantTools.toolFailure(new RateLimited({ message: "429" })).retryAfterSeconds).toBe(60)
    const stopped = new Timeout({
      message: "gave up",
      timeoutMillis: 1000,
      reason: "deadline",
      cause: new RateLimited({ message: "429", retryAfterMillis: 12_000 })
    })
    expect(AssistantTools.toolFailure(stopped)).toMatchObject({ kind: "rateLimited", retryAfterSeconds: 12 })
  })
})

describe("hostile records", () => {
  // Strings a server could send: huge, control characters, bidi overrides, prototype names, lone surrogates.
  const hostile = fc.oneof(
    fc.string({ maxLength: 50, unit: "binary" }),
    fc.constantFrom("__proto__", "constructor", "toString", "\u001b[31mred\u001b[0m", "\u202eevil", "\ud800"),
    fc.string({ maxLength: 5, unit: "binary" }).map((s) => s.repeat(20_000)),
    fc.constant("t\n".repeat(50_000))
  )

  it(
    "any strings in the records: answers valid against their schemas, text bounded, no control characters",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({ title: hostile, venue: hostile, name: hostile, doi: hostile, url: hostile, abstract: hostile }),
          fc.integer({ min: 0, max: 30 }),
          async (s, n) => {
            const paper = (i: number) =>
              Fixtures.paper({
                paperId: i === 0 ? "__proto__" : s.doi.slice(0, 5_000) || `p${i}`,
                title: s.title,
                venue: s.venue,
                abstract: s.abstract,
                url: s.url,
                year: 2020,
                citationCount: 1_234_567,
                externalIds: { DOI: s.doi, ArXiv: s.name },
                openAccessPdf: { url: s.url },
                authors: Array.from({ length: 7 }, () => ({ authorId: s.name, name: s.name })),
                tldr: { text: s.abstract },
                journal: { name: s.venue },
                fieldsOfStudy: Array.from({ length: 30 }, () => s.name)
              })
            const papers = Array.from({ length: n }, (_, i) => paper(i))
            const layer = stubbed({
              searchPaper: papers,
              getPaper: () => paper(0),
              getAuthor: () =>
                Fixtures.author({
                  authorId: s.name || "1",
                  name: s.name,
                  affiliations: [s.venue, s.venue, s.venue, s.venue]
                })
            })
            await Effect.runPromise(
              Effect.gen(function*() {
                // Every record's line, however long: the answer budget (tested in AssistantBudget.test.ts) set aside.
                const search = yield* answer("search_papers", { query: s.title.slice(0, 1000) || "q", limit: 100 })
                  .pipe(
                    Effect.provideService(AssistantTools.MaxAnswerChars, Number.MAX_SAFE_INTEGER)
                  )
                expect(search.text.split("\n").length).toBe(n === 0 ? 1 : n + 1)
                expect(search.text.length).toBeLessThanOrEqual((n + 1) * 2001)
                const detail = yield* answer("get_paper", { id: "CorpusId:1" })
                expect(detail.value.fieldsOfStudy?.length ?? 0).toBeLessThanOrEqual(10)
                expect(detail.text.length).toBeLessThanOrEqual(10 * 2001)
                yield* answer("get_author", { id: "1" })
              }).pipe(Effect.provide(layer))
            )
          }
        ),
        { numRuns: 40 }
      )
    },
    60_000
  )

  it.effect("a record with no title or names still answers (empty strings, never null)", () =>
    Effect.gen(function*() {
      const { encoded, text } = yield* answer("get_paper", { id: "CorpusId:1" })
      expect(encoded).toMatchObject({ title: "", authors: [], authorCount: 0 })
      expect(text).toContain("(untitled)")
    }).pipe(Effect.provide(stubbed({ getPaper: () => Fixtures.paper({ title: null, authors: null, year: null }) }))))

  it("the answer schemas decode what the handlers encode, refusing unknown keys", () => {
    const decode = Schema.decodeUnknownSync(AssistantTools.PaperSummary)
    expect(() =>
      decode({ paperId: "a", title: "t", authors: [], authorCount: 0, extra: 1 }, { onExcessProperty: "error" })
    )
      .toThrow()
    expect(() => decode({ paperId: "a", title: "t".repeat(301), authors: [], authorCount: 0 })).toThrow()
  })
})

describe("AssistantTools.mcp", () => {
  it.effect("an MCP client lists the 14 tools and calls them: text content, structured content valid, errors isError", () =>
    Effect.gen(function*() {
      const c = yield* McpTest.makeClient(AssistantTools.mcp, { protocols: [McpProtocol.v2025_11_25] })
      const { tools } = yield* c.listTools()
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(parameterNames).sort())
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe("object")
        expect(tool.annotations?.readOnlyHint).toBe(true)
        expect(tool.annotations?.openWorldHint).toBe(true)
        expect(tool.title?.length).toBeGreaterThan(0)
      }
      const search = tools.find((t) => t.name === "search_papers")!
      const ok = yield* c.callTool({ name: "search_papers", arguments: { query: "attention", limit: 2 } })
      expect(ok.isError ?? false).toBe(false)
      expect(ok.content[0]).toMatchObject({ type: "text" })
      expect((ok.content[0] as { text: string }).text).toMatch(/^2 of [\d,]+ papers found/)
      const valid = validator.getValidator(search.outputSchema as never)(ok.structuredContent)
      expect(valid.errorMessage).toBeUndefined()
      const missing = yield* c.callTool({ name: "get_paper", arguments: { id: "CorpusId:999999999" } })
      expect(missing.isError).toBe(true)
      expect((missing.content[0] as { text: string }).text).toMatch(/^not found: /)
      const bad = yield* c.callTool({ name: "search_papers", arguments: { query: "x", limit: 101 } })
      expect(bad.isError).toBe(true)
      expect((bad.content[0] as { text: string }).text).toMatch(/^bad parameter: .*limit/)
      const extra = yield* c.callTool({ name: "get_paper", arguments: { id: TURING, fields: ["title"] } })
      expect(extra.isError).toBe(true)
      expect((extra.content[0] as { text: string }).text).toMatch(/^bad parameter: .*fields/)
      const prototypes = yield* c.callTool({
        name: "get_papers",
        arguments: { ids: ["__proto__", "constructor", TURING] }
      })
      expect(prototypes.structuredContent).toMatchObject({ notFound: ["__proto__", "constructor"] })
      expect(({} as Record<string, unknown>)["paperId"]).toBeUndefined()
      const after = yield* c.callTool({ name: "get_paper", arguments: { id: TURING } })
      expect(after.structuredContent).toMatchObject({ paperId: TURING, year: 1950 })
    }).pipe(
      Effect.scoped,
      Effect.provide(SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ seed: 1, size: 1000 }))))
    ))
})

describe("paging", () => {
  it.effect("next is given only where the list can still serve it (search: its first 1,000)", () =>
    Effect.gen(function*() {
      const first = yield* answer("search_papers", { query: "q", limit: 100 })
      // the stub sends no total: the answer's total is then what is known to exist
      expect(first.value).toMatchObject({ offset: 0, next: 100, total: 100 })
      expect(first.text.split("\n")[0]).toBe("100 of 100 papers found (next offset 100):")
      expect(first.text.split("\n")[100]).toMatch(/^100\. /)
      const last = yield* answer("search_papers", { query: "q", offset: 900, limit: 100 })
      expect(last.value.next).toBeUndefined()
      expect(last.value.offset).toBe(900)
      expect(last.text.split("\n")[1]).toMatch(/^901\. /)
    }).pipe(Effect.provide(stubbed({
      searchPaper: Array.from({ length: 1005 }, (_, i) => Fixtures.paper({ title: `Paper ${i}`, year: 2000 }))
    }))))
})

describe("the module's examples", () => {
  it.effect("toolkit: handle a call with the handlers over a client", () => {
    // as in the TSDoc of AssistantTools.toolkit
    const program = Effect.gen(function*() {
      const tools = yield* AssistantTools.toolkit
      const results = yield* tools.handle("search_papers", { query: "graph neural networks", limit: 5 })
      const last = yield* Stream.runLast(results)
      return last
    }).pipe(Effect.provide(AssistantTools.handlers))
    const typed: Effect.Effect<unknown, unknown, SemanticScholar> = program
    return Effect.gen(function*() {
      const last = yield* program
      expect(last).toMatchObject({ _tag: "Some", value: { isFailure: false } })
      expect(typed).toBe(program)
    }).pipe(Effect.provide(SemanticScholar.layer().pipe(Layer.provide(Emulator.layer({ seed: 1, size: 100 })))))
  })

  it("mcp: registrations of a stdio server", () => {
    // as in the TSDoc of AssistantTools.mcp (built, not run: it needs a platform's Stdio)
    const server = McpServer.layerStdio({
      name: "s2",
      version: "0.1.0",
      protocols: [McpProtocol.v2025_11_25],
      registrations: AssistantTools.mcp.pipe(Layer.provide(SemanticScholar.layer()))
    })
    expect(Layer.isLayer(server)).toBe(true)
  })
})

describe("a server's odd pages", () => {
  it.effect("a page written with a negative offset and total still answers from the offset asked, valid", () =>
    Effect.gen(function*() {
      const { value } = yield* answer("search_authors", { query: "knuth", limit: 2 })
      expect(value.offset).toBe(0)
      expect(value.total).toBe(1)
      expect(value.next).toBe(1)
      expect(value.authors).toEqual([{ authorId: "1", name: "D. Knuth", affiliations: [] }])
    }).pipe(
      Effect.provide(AssistantTools.handlers.pipe(Layer.provideMerge(testLayer(() =>
        Effect.succeed(
          json({ total: -3, offset: -7, next: 1, data: [{ authorId: "1", name: "D. Knuth", affiliations: null }] })
        )
      ))))
    ))
})

describe("the time budget of the tools that make many requests", () => {
  // Every request takes 10 s: past the 40 s budget long before the work is done.
  const slow = emulated({ faults: { script: [{ fault: Faults.latency("10 seconds") }] } })

  it.effect("citation_graph answers at the budget with the papers so far, truncated, nothing left running", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(
        answer("citation_graph", { seeds: [ATTENTION], depth: 2, perNode: 3, maxNodes: 200 })
      )
      yield* TestClock.adjust("39 seconds")
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("1 second")
      const { text, value } = yield* Fiber.join(fiber)
      expect(value.truncated).toBe(true)
      expect(value.timeBudgetSeconds).toBe(40)
      // the seed and the level it found (seeds' batch, the seed's references, their batch), no more
      expect(value.nodes.map((n) => n.depth)).toEqual([0, 1, 1, 1])
      expect(value.edges).toHaveLength(3)
      expect(text.split("\n")[0]).toMatch(/stopped at the 40 s time budget: .*smaller depth or perNode/)
      const seen = (yield* requests).length
      yield* TestClock.adjust("5 minutes")
      expect((yield* requests).length).toBe(seen)
    }).pipe(Effect.provide(slow)))

  it.effect("related_papers reads no list after half the budget and ranks what it read, within the budget", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(answer("related_papers", { seeds: [TURING] }))
      // 10 s each: the seed (10 s), the references of its citing papers (20 s), then no list: the
      // citations of its references would start at 20 s, half the budget; the details (30 s).
      yield* TestClock.adjust("29 seconds")
      expect(fiber.pollUnsafe()).toBeUndefined()
      yield* TestClock.adjust("1 second")
      const { text, value } = yield* Fiber.join(fiber)
      expect(value.timeBudgetSeconds).toBe(40)
      expect(value.cited).toBe(0)
      expect(value.citing).toBeGreaterThan(0)
      expect(value.papers.length).toBe(20)
      expect(text.split("\n")[0]).toContain("stopped at the 40 s time budget: ranked from the lists read so far")
      expect((yield* paths).length).toBe(3)
    }).pipe(Effect.provide(slow)))

  it.effect("resolve_references answers at the budget: the lines resolved, in order, the rest notTried", () =>
    Effect.gen(function*() {
      const titles = Array.from({ length: 20 }, (_, i) => `No such paper number ${i}`)
      const lines = [TURING, ...titles]
      const fiber = yield* Effect.forkChild(answer("resolve_references", { lines }))
      // A second at a time: each answer lets the stream start the next match before time moves on.
      for (let second = 0; second < 40; second++) yield* TestClock.adjust("1 second")
      const { text, value } = yield* Fiber.join(fiber)
      expect(value.references.map((r) => r.line)).toEqual(lines)
      expect(value.references[0]).toMatchObject({ via: "id", paper: { paperId: TURING } })
      const tried = value.references.filter((r) => r.reason !== "notTried")
      expect(tried.length).toBeGreaterThan(1)
      expect(tried.length).toBeLessThan(lines.length)
      // in input order: the tried lines come first, as titles are asked in order
      expect(value.references.slice(tried.length).every((r) => r.reason === "notTried")).toBe(true)
      expect(value).toMatchObject({
        found: 1,
        notFound: tried.length - 1,
        notTried: lines.length - tried.length,
        timeBudgetSeconds: 40
      })
      expect(text.split("\n")[0]).toContain(
        `stopped at the 40 s time budget: ${lines.length - tried.length} lines not tried; call again with them`
      )
      expect(text).toContain(`not tried: "${titles[titles.length - 1]}"`)
      const seen = (yield* requests).length
      yield* TestClock.adjust("5 minutes")
      expect((yield* requests).length).toBe(seen)
    }).pipe(Effect.provide(slow)))

  it.effect("a budget of one's own: handlersWith({ budget })", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(answer("resolve_references", { lines: ["A title", "Another title"] }))
      yield* TestClock.adjust("5 seconds")
      const { value } = yield* Fiber.join(fiber)
      expect(value).toMatchObject({ found: 0, notFound: 0, notTried: 2, timeBudgetSeconds: 5 })
    }).pipe(Effect.provide(
      AssistantTools.handlersWith({ budget: "5 seconds" }).pipe(
        Layer.provideMerge(SemanticScholar.layer()),
        Layer.provideMerge(
          Emulator.layer({ seed: 1, size: 100, faults: { script: [{ fault: Faults.latency("10 seconds") }] } })
        )
      )
    )))

  it.effect("over MCP, both report increasing progress as they go", () =>
    Effect.gen(function*() {
      const c = yield* McpTest.makeClient(AssistantTools.mcp, { protocols: [McpProtocol.v2025_11_25] })
      const progressOf = Effect.map(
        Queue.clear(c.notifications),
        (all) =>
          all.flatMap((n) =>
            n.method === "notifications/progress" ? [n.payload as { progress: number; message: string }] : []
          )
      )
      const lines = Array.from({ length: 6 }, (_, i) => `No such paper number ${i}`)
      const resolving = yield* Effect.forkChild(
        c.callTool({ name: "resolve_references", arguments: { lines }, _meta: { progressToken: "r" } })
      )
      // the in-memory MCP client runs the call on other fibers: the clock moves a second at a time
      const resolved = yield* settle(resolving, "1 second")
      expect(resolved.isError ?? false).toBe(false)
      const lineProgress = (yield* progressOf).filter((p) => / of 6 lines$/.test(p.message))
      expect(lineProgress.length).toBeGreaterThan(1)
      const counts = lineProgress.map((p) => Number.parseInt(p.message, 10))
      expect(counts).toEqual([...counts].sort((a, b) => a - b))
      expect(new Set(counts).size).toBe(counts.length)
      const graphing = yield* Effect.forkChild(
        c.callTool({
          name: "citation_graph",
          arguments: { seeds: [ATTENTION], depth: 2, perNode: 3 },
          _meta: { progressToken: "g" }
        })
      )
      // the in-memory MCP client runs the call on other fibers: the clock moves a second at a time
      const graph = yield* settle(graphing, "1 second")
      expect(graph.structuredContent).toMatchObject({ truncated: true, timeBudgetSeconds: 40 })
      const graphProgress = yield* progressOf
      expect(graphProgress.map((p) => p.message)).toEqual(["1 papers, 0 citations", "4 papers, 3 citations"])
      const numbers = graphProgress.map((p) => p.progress)
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
      expect(numbers[0]).toBeGreaterThanOrEqual(1)
    }).pipe(
      Effect.scoped,
      Effect.provide(
        SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({
          seed: 1,
          size: 1000,
          faults: { script: [{ fault: Faults.latency("10 seconds") }] }
        })))
      )
    ))
})

describe("resolve_references checks titles and keeps a line the API cannot take to itself (issues 36, 37)", () => {
  it.effect("a 2,000-character CJK line is that line's tooLong; a title match with another title names the nearest", () =>
    Effect.gen(function*() {
      const lines = ["文献".repeat(1000), "Deep residual learning for image recognition", TURING]
      const { text, value } = yield* answer("resolve_references", { lines })
      expect(value.references.map((r) => r.via ?? r.reason)).toEqual(["tooLong", "noTitleMatch", "id"])
      expect(value.references[1]).toMatchObject({
        nearest: { title: "Deep variational inference for speech recognition and image classification" }
      })
      expect(value.references[1]!.similarity).toBeLessThan(0.9)
      expect(value).toMatchObject({ found: 1, notFound: 2 })
      expect(text).toMatch(/not found \(noTitleMatch\): "Deep residual .*"; nearest: .*\(similarity 0\.\d+\)/)
      for (const r of yield* requests) expect(r.url.length).toBeLessThan(8192)
    }).pipe(Effect.provide(emulated())))
})
