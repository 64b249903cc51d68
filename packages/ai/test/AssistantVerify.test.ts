/**
 * The `verify_references` assistant tool against the in-memory emulator: one answer per entry in
 * order, compact and valid against its output schema, refused parameters, and the time budget.
 */
import { describe, expect, it } from "@effect/vitest"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { Paper, SemanticScholar } from "@s2-effect/core"
import { Verify } from "@s2-effect/jobs"
import { settle } from "@s2-effect/test-support"
import { Emulator, Faults } from "@s2-effect/testing"
import { Effect, Fiber, Layer, Stream } from "effect"
import { McpProtocol, McpTest, Tool } from "effect/ai"
import { TestClock } from "effect/testing"
import { AssistantTools } from "../src/index.js"
import { reference, render } from "../src/internal/verify.js"

const TURING = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"
const ATTENTION = "204e3073870fae3d05bcbc2f6a8e263d9b72e776"

const emulated = (options: Parameters<typeof Emulator.layer>[0] = {}) =>
  AssistantTools.handlers.pipe(
    Layer.provideMerge(SemanticScholar.layer()),
    Layer.provideMerge(Emulator.layer({ seed: 1, size: 1000, ...options }))
  )

const tool = AssistantTools.toolkit.tools.verify_references
const valid = new AjvJsonSchemaValidator().getValidator(Tool.getJsonSchemaFromSchema(tool.successSchema) as never)

/** Calls the tool as an MCP server does (unknown parameters refused): its last result. */
const call = (params: unknown) =>
  Effect.gen(function*() {
    const toolkit = yield* AssistantTools.toolkit
    const results = yield* toolkit.handle("verify_references", params as never, undefined, {
      onExcessProperty: "error"
    })
    const all = yield* Stream.runCollect(results)
    return all[all.length - 1]!
  })

/** A successful call: the answer (checked against the output schema, as JSON) and its text. */
const answer = (params: unknown) =>
  Effect.gen(function*() {
    const result = yield* call(params)
    if (result.isFailure) return yield* Effect.die(new Error(`failed: ${JSON.stringify(result.encodedResult)}`))
    const json = JSON.parse(JSON.stringify(result.encodedResult))
    expect(json).toEqual(result.encodedResult)
    expect(valid(json).errorMessage).toBeUndefined()
    const part = (result.modelOutput ?? [])[0]
    const text = part?.type === "text" ? part.text : ""
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(2000)
    return { value: result.result as typeof tool.successSchema.Type, text }
  })

const BIB = String.raw`
@article{turing50, author = {Turing, Alan}, title = {Computing machinery and intelligence}, journal = {Mind},
  year = {1950}, doi = {10.1093/mind/lix.236.433}}
@inproceedings{vaswani17, author = {Vaswani, Ashish and others}, title = {Attention is all you need}, year = {2012},
  eprint = {1706.03762}, archivePrefix = {arXiv}}
@article{he16, author = {He, Kaiming}, title = {Deep residual learning for image recognition}, year = {2016}}`

describe("verify_references", () => {
  it.effect("a .bib: one answer per entry, in order, with its status, what differs and the paper", () =>
    Effect.gen(function*() {
      const { text, value } = yield* answer({ bibtex: BIB })
      expect(value.references.map((r) => [r.key, r.status, r.differs])).toEqual([
        ["turing50", "verified", []],
        ["vaswani17", "mismatch", ["year"]],
        ["he16", "notFound", []]
      ])
      expect(value.references.map((r) => r.paper?.paperId)).toEqual([TURING, ATTENTION, undefined])
      expect(value.references[2]!.nearest?.title).toMatch(/^Deep variational inference/)
      expect(value.references[2]!.similarity).toBeLessThan(0.9)
      expect(value).toMatchObject({ verified: 1, mismatch: 1, notFound: 1 })
      expect(value.notTried).toBeUndefined()
      // The mismatch's record values and its corrected entry, as s2 verify --format bibtex writes it.
      expect(value.references[1]!.differences).toEqual([
        { field: "year", given: "2012", record: "2017", why: "2012 is before the paper first appeared, in 2017" }
      ])
      // After the % line naming the user's fields it replaced (issue 44 point 7: never lost without a note).
      expect(value.references[1]!.correction).toMatch(/^(?:%[^\n]*\n)*@\w+\{vaswani17,\n[^]*  year = \{2017\},\n/)
      expect(value.references[0]!.correction).toBeUndefined()
      const lines = text.split("\n")
      expect(lines[0]).toBe("Verified 1 of 3 references (1 mismatch, 1 not found):")
      expect(lines[1]).toMatch(/^1\. turing50: verified → Computing Machinery and Intelligence \(1950\)/)
      expect(lines[2]).toMatch(/^2\. vaswani17: mismatch \(year differs\) → Attention Is All You Need \(2017\)/)
      expect(lines[3]).toMatch(/^3\. he16: not found; nearest: Deep variational inference .* \(similarity 0\.\d+\)$/)
    }).pipe(Effect.provide(emulated())))

  it("more than 3 notes and a nearest paper: the first 3 notes and the nearest's line, not the nearest's note", () => {
    const near = "no paper has this title; the nearest, \"Deep variational inference\", is 0.61 similar"
    const v = new Verify.Verification({
      key: "he16",
      input: "DOI:10.9999/x",
      status: "notFound",
      differs: [],
      notes: ["first", "second", "third", "fourth", near],
      nearest: new Paper({ paperId: "a".repeat(40), title: "Deep variational inference", year: 2019 }),
      similarity: 0.61,
      nearestNote: near
    })
    const answered = reference(v)
    expect(answered.notes).toEqual(["first", "second", "third"])
    const text = render({ verified: 0, mismatch: 0, notFound: 1, references: [answered] })
    expect(text.split("\n")[1]).toMatch(
      /^1\. he16: not found; nearest: Deep variational inference \(2019\).* \(similarity 0\.61\) — first; second; third$/
    )
  })

  it.effect("an entry that cannot be read is unchecked, counted apart, never notFound", () =>
    Effect.gen(function*() {
      const { text, value } = yield* answer({ bibtex: "@misc{nothing, note = {to do}}" })
      expect(value.references.map((r) => [r.key, r.status])).toEqual([["nothing", "unchecked"]])
      expect(value).toMatchObject({ verified: 0, mismatch: 0, notFound: 0, unchecked: 1 })
      expect(text.split("\n")).toEqual([
        "Verified 0 of 1 references (0 mismatch, 0 not found, 1 unchecked):",
        "1. nothing: could not be checked (not evidence against it) — the entry has no doi, eprint or title to check it by"
      ])
    }).pipe(Effect.provide(emulated())))

  it.effect("lines: keyed by their position", () =>
    Effect.gen(function*() {
      const { value } = yield* answer({ lines: ["arXiv:1706.03762", "DOI:10.9999/none"] })
      expect(value.references.map((r) => [r.key, r.status])).toEqual([["1", "verified"], ["2", "notFound"]])
    }).pipe(Effect.provide(emulated())))

  it.effect("text: a list in any form, read as s2 verify reads a file (RIS, formatted references)", () =>
    Effect.gen(function*() {
      const ris = "TY  - JOUR\nTI  - Computing Machinery and Intelligence\nAU  - Turing, Alan M.\nPY  - 1950\n" +
        "DO  - 10.1093/mind/lix.236.433\nER  - \n"
      const fromRis = yield* answer({ text: ris })
      expect(fromRis.value.references.map((r) => r.status)).toEqual(["verified"])
      const apa = "Turing, A. M. (1950). Computing machinery and intelligence. Mind, 59(236), 433–460.\n" +
        "Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, L., & Polosukhin, I. (2017). Attention is all you need. arXiv."
      const fromApa = yield* answer({ text: apa })
      expect(fromApa.value.references.map((r) => [r.key, r.paper?.title])).toEqual([
        ["1", "Computing Machinery and Intelligence"],
        ["2", "Attention Is All You Need"]
      ])
      const refused = yield* call({ text: "[{\"broken\": " })
      expect((refused.result as { message: string }).message).toMatch(/the text cannot be read: /)
    }).pipe(Effect.provide(emulated())))

  it.effect("neither or both of bibtex and lines, no entries or too many: a badParameter failure, no request", () =>
    Effect.gen(function*() {
      const tooMany = Array.from({ length: 201 }, (_, i) => `@misc{k${i}, title = {T ${i}}}`).join("\n")
      for (
        const [params, message] of [
          [{}, "give bibtex (a .bib file's text) or lines"],
          [{ bibtex: BIB, lines: ["x"] }, "give bibtex (a .bib file's text) or lines"],
          [{ text: BIB, bibtex: BIB }, "give bibtex (a .bib file's text) or lines"],
          [{ bibtex: "no entries here" }, "the bibtex text has no entries"],
          [{ bibtex: tooMany }, "the bibtex text has 201 entries: give at most 200 a call"]
        ] as const
      ) {
        const result = yield* call(params)
        expect(result.isFailure).toBe(true)
        expect(result.result).toMatchObject({ _tag: "ToolFailure", kind: "badParameter" })
        expect((result.result as { message: string }).message).toContain(message)
      }
      expect(yield* Effect.flatMap(Emulator, (e) => e.requests)).toEqual([])
    }).pipe(Effect.provide(emulated())))

  it.effect("answers at the 40 s budget: the entries verified, in order, the rest notTried", () =>
    Effect.gen(function*() {
      const titles = Array.from({ length: 12 }, (_, i) => `@misc{t${i}, title = {No such paper number ${i}}}`)
      const bibtex = [`@misc{first, doi = {10.1093/mind/lix.236.433}}`, ...titles].join("\n")
      const fiber = yield* Effect.forkChild(answer({ bibtex }))
      for (let second = 0; second < 40; second++) yield* TestClock.adjust("1 second")
      const { text, value } = yield* Fiber.join(fiber)
      expect(value.references[0]).toMatchObject({ key: "first", status: "verified", paper: { paperId: TURING } })
      const tried = value.references.filter((r) => r.status !== "notTried")
      expect(tried.length).toBeLessThan(value.references.length)
      expect(value.references.slice(tried.length).every((r) => r.status === "notTried")).toBe(true)
      expect(value).toMatchObject({ notTried: value.references.length - tried.length, timeBudgetSeconds: 40 })
      expect(text.split("\n")[0]).toContain("stopped at the 40 s time budget")
    }).pipe(Effect.provide(emulated({ faults: { script: [{ fault: Faults.latency("10 seconds") }] } }))))

  it.effect("over MCP: listed with its parameters, answered with structured content", () =>
    Effect.gen(function*() {
      const c = yield* McpTest.makeClient(AssistantTools.mcp, { protocols: [McpProtocol.v2025_11_25] })
      const { tools } = yield* c.listTools()
      const listed = tools.find((t) => t.name === "verify_references")!
      expect(Object.keys(listed.inputSchema.properties ?? {})).toEqual(["text", "bibtex", "lines"])
      expect(listed.annotations?.readOnlyHint).toBe(true)
      const calling = yield* Effect.forkChild(c.callTool({ name: "verify_references", arguments: { bibtex: BIB } }))
      const called = yield* settle(calling, "1 second")
      expect(called.isError ?? false).toBe(false)
      expect(called.structuredContent).toMatchObject({ verified: 1, mismatch: 1, notFound: 1 })
    }).pipe(
      Effect.scoped,
      Effect.provide(SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ seed: 1, size: 1000 }))))
    ))
})
