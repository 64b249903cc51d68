/**
 * What an assistant's context holds: tool profiles (only the tools asked for, listed and callable)
 * and the answer budget (a list over it cut between records, saying how to continue, so that the
 * pages together hold every record once). In process, over the in-memory emulator.
 */
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Corpus, Emulator } from "@s2-effect/testing"
import { Effect, Layer, Result, Stream } from "effect"
import type { Toolkit } from "effect/ai"
import { McpProtocol, McpTest } from "effect/ai"
import { TestClock } from "effect/testing"
import { AssistantTools, WatchTools } from "../src/index.js"

const corpus = Corpus.make({ seed: 1, size: 2000 })
const ATTENTION = "ARXIV:1706.03762"

const client = SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ corpus })))
const emulated = AssistantTools.handlers.pipe(Layer.provideMerge(client))

type Tools = Toolkit.Tools<typeof AssistantTools.toolkit>
type Name = keyof Tools

/** A call as an MCP server makes it, within `chars` (undefined: the default budget): its answer and text. */
const call = <N extends Name>(name: N, params: unknown, chars?: number) =>
  Effect.gen(function*() {
    const toolkit = yield* AssistantTools.toolkit
    const results = yield* toolkit.handle(name, params as never, undefined, { onExcessProperty: "error" })
    const last = (yield* Stream.runCollect(results)).at(-1)!
    if (last.isFailure) return yield* Effect.die(new Error(`${name}: ${JSON.stringify(last.encodedResult)}`))
    const part = last.modelOutput?.[0]
    return { value: last.result as Record<string, unknown>, text: part?.type === "text" ? part.text : "" }
  }).pipe(chars === undefined ? (effect) => effect : Effect.provideService(AssistantTools.MaxAnswerChars, chars))

const linesOf = (text: string) => text.split("\n").slice(1)

/** A record's line without its number ("12. "), which depends on where the page starts. */
const unnumbered = (line: string) => line.replace(/^[\d,]+\. /, "")

const selected = (names: ReadonlyArray<string>) => Result.getOrThrow(AssistantTools.selectTools("--tools", names))

describe("tool profiles", () => {
  it("profiles and tool names select tools; anything else, or nothing, is refused saying what is allowed", () => {
    expect([...selected(["search", "verify"])].sort()).toEqual([
      "get_paper",
      "match_title",
      "recommend_papers",
      "resolve_references",
      "search_authors",
      "search_papers",
      "search_snippets",
      "verify_references"
    ])
    expect([...selected(["get_author", "watch"])].sort()).toEqual(["add_watch", "check_watches", "get_author"])
    expect(selected(["all"]).size).toBe(17)
    expect(new Set(Object.values(AssistantTools.profiles).flat())).toEqual(new Set(AssistantTools.toolNames))
    const refused = AssistantTools.selectTools("--tools", ["search", "serch", "papers "])
    expect(Result.isFailure(refused)).toBe(true)
    const message = Result.isFailure(refused) ? refused.failure.message : ""
    expect(message).toMatch(/^--tools "serch", "papers " are not profiles or tools: give profiles \(search, papers,/)
    expect(message).toContain("verify_references")
    const empty = AssistantTools.selectTools("--tools", [])
    expect(Result.isFailure(empty) && empty.failure.message).toMatch(/^--tools is empty: give profiles/)
  })

  it.effect("a server lists and runs only the tools of its profiles: tools/list shrinks with them", () =>
    Effect.gen(function*() {
      const listed = (enabled: ReadonlySet<string> | undefined) =>
        Effect.gen(function*() {
          const registrations = Layer.merge(AssistantTools.mcp, WatchTools.mcp).pipe(
            Layer.provide(WatchTools.memory()),
            Layer.provide(Layer.succeed(AssistantTools.StructuredAnswers, false)),
            Layer.provide(Layer.succeed(AssistantTools.EnabledTools, enabled))
          )
          const c = yield* McpTest.makeClient(registrations, { protocols: [McpProtocol.v2025_11_25] })
          const { tools } = yield* c.listTools()
          return { c, tools, bytes: Buffer.byteLength(JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools } })) }
        })
      const all = yield* listed(undefined)
      expect(all.tools).toHaveLength(17)
      // The test of `s2 mcp` checks the whole JSON-RPC line within 10 KiB; this is the same message.
      expect(all.bytes).toBeLessThanOrEqual(10 * 1024)
      const some = yield* listed(selected(["search", "verify"]))
      expect(some.tools.map((tool) => tool.name).sort()).toEqual([...selected(["search", "verify"])].sort())
      expect(some.bytes).toBeLessThan(all.bytes * 0.6)
      const served = yield* some.c.callTool({ name: "search_papers", arguments: { query: "attention", limit: 1 } })
      expect(served.isError ?? false).toBe(false)
      // A tool left out is not callable either.
      const left = yield* Effect.exit(some.c.callTool({ name: "get_author", arguments: { id: "1741101" } }))
      expect(left._tag === "Failure" || (left._tag === "Success" && left.value.isError === true)).toBe(true)
    }).pipe(Effect.scoped, Effect.provide(client)))
})

describe("the answer budget", () => {
  it.effect("a page over the budget is cut between records, says its next offset, and the pages hold every record once", () =>
    Effect.gen(function*() {
      const whole = yield* call("search_papers", { query: "learning", limit: 60 })
      expect(whole.value["answerBudgetChars"]).toBeUndefined()
      const all = linesOf(whole.text)
      expect(all).toHaveLength(60)
      const budget = 3000
      const seen: Array<string> = []
      let offset = 0
      let pages = 0
      while (offset < 60) {
        const page = yield* call("search_papers", { query: "learning", limit: 60 - offset, offset }, budget)
        pages++
        expect(page.text.length).toBeLessThanOrEqual(budget)
        const lines = linesOf(page.text)
        expect(lines.length).toBeGreaterThan(0)
        seen.push(...lines)
        offset += lines.length
        if (offset < 60) {
          expect(page.value).toMatchObject({ next: offset, answerBudgetChars: budget })
          expect(page.text.split("\n")[0]).toContain(
            `(cut at the 3,000-character answer budget; next offset ${offset})`
          )
        }
      }
      // Cut at record boundaries only: the pages' lines are the whole answer's, each once, in order.
      expect(seen).toEqual(all)
      expect(pages).toBeGreaterThan(3)
    }).pipe(Effect.provide(emulated)))

  it.effect("recommendations, passages and related papers page with offset too", () =>
    Effect.gen(function*() {
      const checks = [
        ["recommend_papers", { positive: [ATTENTION], limit: 40 }],
        ["search_snippets", { query: "attention", limit: 40 }],
        ["related_papers", { seeds: [ATTENTION], top: 40 }]
      ] as const
      for (const [name, params] of checks) {
        const whole = yield* call(name, params)
        const all = linesOf(whole.text).map(unnumbered)
        expect(all.length, name).toBeGreaterThan(10)
        const first = yield* call(name, params, 2500)
        expect(first.text.length, name).toBeLessThanOrEqual(2500)
        const next = first.value["next"] as number
        expect(next, name).toBe(linesOf(first.text).length)
        const rest = yield* call(name, {
          ...params,
          offset: next,
          ...("top" in params ? { top: 40 - next } : { limit: 40 - next })
        })
        expect([...linesOf(first.text), ...linesOf(rest.text)].map(unnumbered), name).toEqual(
          all.slice(0, next + linesOf(rest.text).length)
        )
        expect(linesOf(rest.text)[0], name).toMatch(new RegExp(`^${next + 1}\\. `))
      }
    }).pipe(Effect.provide(emulated)))

  it.effect("a list of inputs is cut after an entry and says from which input to call again", () =>
    Effect.gen(function*() {
      const ids = corpus.papers.slice(0, 30).map((paper) => paper.paperId)
      const asked = [...ids.slice(0, 5), "CorpusId:0", ...ids.slice(5)]
      const papers = yield* call("get_papers", { ids: asked }, 2000)
      const next = papers.value["next"] as number
      expect(papers.text.length).toBeLessThanOrEqual(2000)
      expect(next).toBe(linesOf(papers.text).length + 1)
      expect(papers.value["notFound"]).toEqual(["CorpusId:0"])
      expect(papers.text.split("\n")[0]).toContain(`call again with the ids from no. ${next + 1} on`)
      const rest = yield* call("get_papers", { ids: asked.slice(next) })
      const shown = [
        ...(papers.value["papers"] as Array<{ paperId: string }>),
        ...(rest.value["papers"] as Array<{ paperId: string }>)
      ]
      expect(shown.map((p) => p.paperId)).toEqual(ids)

      const lines = ids.slice(0, 20)
      const resolved = yield* call("resolve_references", { lines }, 2000)
      const from = resolved.value["next"] as number
      expect(resolved.text.length).toBeLessThanOrEqual(2000)
      expect((resolved.value["references"] as Array<unknown>).length).toBe(from)
      expect(resolved.value["found"]).toBe(from)
      expect(resolved.text.split("\n")[0]).toContain(`call again with the lines from no. ${from + 1} on`)

      const verified = yield* call("verify_references", { lines }, 2000)
      const at = verified.value["next"] as number
      expect(verified.value).toMatchObject({ verified: at, nextKey: String(at + 1), answerBudgetChars: 2000 })
      expect(verified.text.split("\n")[0]).toContain(`call again with the references from no. ${at + 1} (${at + 1}) on`)
    }).pipe(Effect.provide(emulated)))

  it.effect("a citation graph keeps the papers nearest the seeds and counts the others; one paper is never cut", () =>
    Effect.gen(function*() {
      const whole = yield* call("citation_graph", {
        seeds: [ATTENTION],
        direction: "citations",
        depth: 2,
        maxNodes: 60
      })
      const nodes = (whole.value["nodes"] as Array<{ depth: number }>).length
      const cut = yield* call(
        "citation_graph",
        { seeds: [ATTENTION], direction: "citations", depth: 2, maxNodes: 60 },
        2000
      )
      const kept = cut.value["nodes"] as Array<{ paperId: string; depth: number }>
      expect(cut.text.length).toBeLessThanOrEqual(2000)
      expect(cut.value).toMatchObject({ truncated: true, notShown: nodes - kept.length, answerBudgetChars: 2000 })
      expect(kept.map((node) => node.depth)).toEqual([...kept.map((node) => node.depth)].sort())
      const ids = new Set(kept.map((node) => node.paperId))
      for (const edge of cut.value["edges"] as Array<{ from: string; to: string }>) {
        expect(ids.has(edge.from) && ids.has(edge.to)).toBe(true)
      }
      expect(cut.text.split("\n")[0]).toContain(`${nodes - kept.length} more papers (the farthest from the seeds)`)
      // A paper's details are one record: answered whole under any budget.
      const paper = yield* call("get_paper", { id: ATTENTION }, 1000)
      expect(paper.text).toBe((yield* call("get_paper", { id: ATTENTION })).text)
    }).pipe(Effect.provide(emulated)))

  it.effect("check_watches keeps the papers it could not show new, for the next call", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2025, 11, 31))
      const toolkit = yield* WatchTools.toolkit
      const run = (name: "check_watches" | "add_watch", params: unknown) =>
        Effect.flatMap(toolkit.handle(name, params as never), (results) => Stream.runCollect(results)).pipe(
          Effect.map((all) => all.at(-1)!.result as typeof WatchTools.CheckAnswer.Type)
        )
      yield* run("add_watch", { name: "mine", kind: "citations", target: "CorpusId:33175" })
      const first = yield* run("check_watches", { limit: 100 }).pipe(
        Effect.provideService(AssistantTools.MaxAnswerChars, 1000)
      )
      const shown = first.watches[0]!.new.length
      const more = first.watches[0]!.more ?? 0
      expect(first.answerBudgetChars).toBe(1000)
      expect(more).toBeGreaterThan(0)
      const second = yield* run("check_watches", { limit: 100 })
      expect(second.watches[0]!.new).toHaveLength(more)
      const ids = [...first.watches[0]!.new, ...second.watches[0]!.new].map((paper) => paper.paperId)
      expect(new Set(ids).size).toBe(shown + more)
    }).pipe(
      Effect.provide(WatchTools.handlers.pipe(Layer.provideMerge(WatchTools.memory()), Layer.provideMerge(client)))
    ))

  it.effect("over MCP: the registrations' budget holds for the text and structuredContent together", () =>
    Effect.gen(function*() {
      const registrations = AssistantTools.mcp.pipe(Layer.provide(Layer.succeed(AssistantTools.MaxAnswerChars, 2000)))
      const c = yield* McpTest.makeClient(registrations, { protocols: [McpProtocol.v2025_11_25] })
      const result = yield* c.callTool({ name: "get_citations", arguments: { id: ATTENTION, limit: 100 } })
      const text = (result.content[0] as { text: string }).text
      // Both forms are sent (StructuredAnswers' default): the budget holds for the two together.
      expect(text.length + JSON.stringify(result.structuredContent).length).toBeLessThanOrEqual(2000)
      const structured = result.structuredContent as { papers: Array<unknown>; next: number; answerBudgetChars: number }
      expect(structured).toMatchObject({ next: structured.papers.length, answerBudgetChars: 2000 })
      expect(linesOf(text)).toHaveLength(structured.papers.length)
    }).pipe(Effect.scoped, Effect.provide(client)))
})
