/**
 * The emulator keeps its own field and filter vocabularies (src/internal/fields.ts, filters.ts)
 * beside core's (packages/core/src/Fields.ts, Filters.ts), so that it answers as the server does
 * rather than as the client expects. These tests keep the two from drifting apart: whatever the
 * client can send, the emulator understands in the same place, and what the emulator serves the
 * client can ask for and filter by.
 */
import { describe, expect, it } from "@effect/vitest"
import { Fields, Filters } from "@s2-effect/core"
import { Effect, Exit } from "effect"
import * as fc from "fast-check"
import { Corpus } from "../src/index.js"
import { AUTHOR_FIELDS, EDGE_FIELDS, type FieldContext, PAPER_FIELDS, parseFields } from "../src/internal/fields.js"
import { parseDateRange, parseFilters, parseYear } from "../src/internal/filters.js"
import { Query } from "../src/internal/wire.js"

const sorted = (names: Iterable<string>) => [...new Set(names)].sort()

/** Each of core's field sets, with the emulator's context for the endpoints that take it. */
const fieldSets: ReadonlyArray<readonly [string, Fields.FieldSet, FieldContext]> = [
  ["paperLookup", Fields.paperLookup, "paper"],
  ["paperList", Fields.paperList, "paper"],
  ["authorLookup", Fields.authorLookup, "author"],
  ["paperAuthors", Fields.paperAuthors, "author"],
  ["citationList", Fields.citationList, "edge"]
]

/** Every name the emulator could be asked for in `context`: its top-level names and each pair of them. */
const candidates = (context: FieldContext): ReadonlyArray<string> => {
  const names = sorted([...PAPER_FIELDS, ...AUTHOR_FIELDS, ...EDGE_FIELDS, ...Fields.embeddingModels])
  const tops = context === "author"
    ? AUTHOR_FIELDS
    : context === "edge"
    ? [...EDGE_FIELDS, ...PAPER_FIELDS]
    : PAPER_FIELDS
  return [...tops, ...tops.flatMap((parent) => names.map((child) => `${parent}.${child}`))]
}

/**
 * What the emulator accepts and core never asks for: the paper-only fields in lists of papers and
 * on citation edges. Core follows the API's documented schemas there (a list's papers carry the
 * summary fields); the emulator is more lenient. Named here so that any other difference fails.
 */
const emulatorOnly: Readonly<Record<FieldContext, ReadonlyArray<string>>> = {
  paper: ["citations.textAvailability", "citations.tldr", "references.textAvailability", "references.tldr"],
  author: ["papers.textAvailability", "papers.tldr"],
  edge: ["embedding", "embedding.specter_v1", "embedding.specter_v2", "textAvailability", "tldr"]
}

describe("fields: the emulator's vocabulary and core's", () => {
  it("the same top-level names for papers, authors and citation edges, and the same embedding models", () => {
    expect(sorted(PAPER_FIELDS)).toEqual(sorted([...Fields.paperSummaryFields, ...Fields.paperOnlyFields]))
    expect(sorted(AUTHOR_FIELDS)).toEqual(sorted([...Fields.authorSummaryFields, "papers"]))
    expect(sorted(EDGE_FIELDS)).toEqual(sorted(Fields.citationEdgeFields))
    for (const model of Fields.embeddingModels) expect(parseFields(`embedding.${model}`, "paper")._tag).toBe("Ok")
    expect(parseFields("embedding.specter_v9", "paper")._tag).toBe("Unknown")
  })

  for (const [name, set, context] of fieldSets) {
    it(`every name of core's ${name} is one the emulator accepts (${context})`, () => {
      const refused = [...set.known].filter((field) => parseFields(field, context)._tag !== "Ok")
      expect(refused).toEqual([])
      // Its defaults too, asked for all at once as the client sends them.
      expect(parseFields(set.defaults.join(","), context)._tag).toBe("Ok")
    })
  }

  it("what the emulator accepts beyond core's names is only the listed paper-only fields", () => {
    const known: Record<FieldContext, ReadonlySet<string>> = {
      paper: Fields.paperLookup.known,
      author: Fields.authorLookup.known,
      edge: Fields.citationList.known
    }
    for (const context of ["paper", "author", "edge"] as const) {
      const extra = candidates(context).filter((field) =>
        parseFields(field, context)._tag === "Ok" && !known[context].has(field)
      )
      expect(sorted(extra)).toEqual(sorted(emulatorOnly[context]))
    }
  })
})

const corpus = Corpus.make({ seed: 1, size: 2000 })
const filterOf = (params: ReadonlyArray<readonly [string, string]>) =>
  parseFilters(corpus, new Query(new URLSearchParams(params.map(([name, value]) => [name, value]))))
const accepts = <E>(effect: Effect.Effect<string, E>): string | undefined => {
  const exit = Effect.runSyncExit(effect)
  return Exit.isSuccess(exit) ? exit.value : undefined
}

describe("filters: the emulator's vocabulary and core's", () => {
  it("the emulator reads every parameter core renders, each on its own", () => {
    const params = Effect.runSync(Filters.render({
      year: "2015-2020",
      publicationTypes: ["JournalArticle"],
      openAccessPdf: true,
      venue: ["Nature"],
      fieldsOfStudy: ["Computer Science"],
      publicationDateOrYear: "2016-03:2020",
      minCitationCount: 5
    }))
    expect(params.map(([name]) => name)).toHaveLength(7)
    for (const param of params) {
      const result = filterOf([param])
      expect(result._tag, param[0]).toBe("Ok")
      expect(result._tag === "Ok" && result.filter !== undefined, `${param[0]} is read`).toBe(true)
    }
    // The control: a parameter the emulator does not know is no filter.
    const other = filterOf([["colour", "red"]])
    expect(other._tag === "Ok" && other.filter === undefined).toBe(true)
  })

  it("every publication type and field of study the emulator's papers carry is one core lets a client filter by", () => {
    const types = new Set<string>()
    const studies = new Set<string>()
    for (const paper of corpus.papers) {
      for (const type of paper.publicationTypes ?? []) types.add(type)
      for (const field of paper.fieldsOfStudy ?? []) studies.add(field)
      for (const { category } of paper.s2FieldsOfStudy) studies.add(category)
    }
    expect(types.size).toBeGreaterThan(0)
    expect(studies.size).toBeGreaterThan(0)
    expect([...types].filter((type) => !(Filters.publicationTypes as ReadonlyArray<string>).includes(type))).toEqual([])
    expect([...studies].filter((field) => !(Filters.fieldsOfStudy as ReadonlyArray<string>).includes(field))).toEqual(
      []
    )
  })

  const year = fc.integer({ min: 1000, max: 2100 })
  const yearText = fc.oneof(
    year.map(String),
    year.map((y) => `${y}-`),
    year.map((y) => `-${y}`),
    fc.tuple(year, year).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
    fc.string({ maxLength: 12 })
  )
  const pad = (n: number) => String(n).padStart(2, "0")
  const date = fc.oneof(
    year.map(String),
    fc.tuple(year, fc.integer({ min: 1, max: 12 })).map(([y, m]) => `${y}-${pad(m)}`),
    fc.tuple(year, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 })).map(([y, m, d]) =>
      `${y}-${pad(m)}-${pad(d)}`
    )
  )
  const dateText = fc.oneof(
    date,
    fc.tuple(date, date).map(([a, b]) => `${a}:${b}`),
    date.map((d) => `${d}:`),
    date.map((d) => `:${d}`),
    fc.string({ maxLength: 24 })
  )

  it("a year or range that core sends, the emulator reads, as the same years", () =>
    fc.assert(fc.property(yearText, (text) => {
      const sent = accepts(Filters.validateYear(text))
      if (sent === undefined) return
      const range = parseYear(sent)
      expect(range, sent).toBeDefined()
      const [from, to] = sent.split("-")
      if (from !== undefined && from !== "") expect(range?.from).toBe(Number(from))
      if (to !== undefined && to !== "") expect(range?.to).toBe(Number(to))
    })))

  it("a publicationDateOrYear that core sends, the emulator reads", () =>
    fc.assert(fc.property(dateText, (text) => {
      const sent = accepts(Filters.validatePublicationDateOrYear(text))
      if (sent !== undefined) expect(parseDateRange(sent), sent).toBeDefined()
    })))

  it("a minimum citation count that core sends, the emulator reads", () =>
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), (n) => {
      const sent = accepts(Filters.validateMinCitationCount(n))
      expect(sent).toBeDefined()
      const result = filterOf([["minCitationCount", sent ?? ""]])
      expect(result._tag).toBe("Ok")
    })))
})
