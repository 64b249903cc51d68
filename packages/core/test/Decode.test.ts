import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Option, Result, Schema } from "effect"
import { Author } from "../src/Author.js"
import { Citation, Reference } from "../src/Citation.js"
import { DatasetDiff, Release } from "../src/Dataset.js"
import type { Excess } from "../src/internal/decode.js"
import { decodeUnknownResult, fastDecoder } from "../src/internal/decode.js"
import { OffsetPage, TokenPage } from "../src/Page.js"
import { Paper, PaperAuthor } from "../src/Paper.js"
import { Snippet } from "../src/Snippet.js"

/**
 * The part of `value` that `shape` has: Schema 4 drops unknown keys (it has no "preserve"), so the
 * records the compiled decoder keeps whole are compared with Schema's on Schema's keys, and their
 * other keys with the input's.
 */
const known = (value: unknown, shape: unknown): unknown => {
  if (Array.isArray(shape) && Array.isArray(value)) return shape.map((item, i) => known(value[i], item))
  if (typeof shape !== "object" || shape === null || typeof value !== "object" || value === null) return value
  const record = value as Record<string, unknown>
  return Object.fromEntries(
    Object.entries(shape as Record<string, unknown>).map(([key, item]) => [key, known(record[key], item)])
  )
}

/**
 * With unknown keys kept, every key of every input object is in the decoded value (the wire's
 * fields, down the tree) — in a record's `raw` where the record withholds it (a name of its
 * members), and nowhere for `"__proto__"`, which a struct drops (its record's `raw` keeps it).
 */
const keepsWireKeys = (value: unknown, input: unknown): void => {
  if (typeof input !== "object" || input === null || typeof value !== "object" || value === null) return
  if (Array.isArray(input)) return input.forEach((item, i) => keepsWireKeys((value as ReadonlyArray<unknown>)[i], item))
  const wire = "raw" in value && typeof value.raw === "object" && value.raw !== null ? value.raw : value
  for (const [key, item] of Object.entries(input)) {
    if (key === "__proto__" && wire === value) continue
    expect(Object.keys(wire)).toContain(key)
    keepsWireKeys((wire as Record<string, unknown>)[key], item)
  }
}

/**
 * Both decoders on one input. The compiled decoder may decline an input that Schema accepts (an own
 * `__proto__` key, say): the transport then falls back to Schema. It must never accept what Schema
 * rejects, and when both accept they must give the same record. A `valid` input (encoded from the
 * schema's own arbitrary, then through JSON) that Schema accepts must be taken by the compiled
 * decoder itself.
 */
const agree = <A, I>(schema: Schema.Codec<A, I>, input: unknown, valid = false, excess: Excess = "preserve") => {
  const fast = fastDecoder(schema, excess)
  expect(fast).toBeDefined()
  const quick = fast!(input)
  const reference = Schema.decodeUnknownResult(schema as Schema.Codec<A, I, never, never>, {
    onExcessProperty: excess === "preserve" ? "ignore" : excess
  })(input)
  if (valid && Result.isSuccess(reference)) expect(Option.isSome(quick)).toBe(true)
  if (Result.isFailure(reference)) expect(Option.isNone(quick)).toBe(true)
  if (Option.isSome(quick) && Result.isSuccess(reference)) {
    // Same content; key order may differ (the compiled decoder keeps the wire's order).
    const expected = JSON.parse(JSON.stringify(reference.success))
    const actual = JSON.parse(JSON.stringify(quick.value))
    expect(excess === "preserve" ? known(actual, expected) : actual).toEqual(expected)
    if (excess === "preserve") keepsWireKeys(quick.value, input)
    expect(Object.getPrototypeOf(quick.value)).toBe(Object.getPrototypeOf(reference.success))
  }
  // Built in place (the transport's own JSON), the verdict and the record are the same.
  const inPlace = fast!(structuredClone(input), true)
  expect(Option.isSome(inPlace)).toBe(Option.isSome(quick))
  if (Option.isSome(inPlace) && Option.isSome(quick)) {
    expect(JSON.stringify(inPlace.value)).toBe(JSON.stringify(quick.value))
    expect(Object.getPrototypeOf(inPlace.value)).toBe(Object.getPrototypeOf(quick.value))
  }
}

const jsonValue = Arbitrary.schema(Schema.Json)

/** The two agreement properties for one record schema. */
const properties = <A, I>(name: string, schema: Schema.Codec<A, I>, excess: Excess = "preserve") => {
  const codec = schema as Schema.Codec<A, I, never, never>
  const encoded = Arbitrary.map(Arbitrary.schema(codec), (value) => Schema.encodeSync(codec)(value))

  // A paper's authors may list their papers (and those their authors): valid values nest deeply,
  // so this property takes seconds, more on a loaded machine.
  it.prop(
    `${name}: on every valid wire value (property)`,
    [encoded],
    ([input]) => agree(schema, JSON.parse(JSON.stringify(input)), true, excess),
    { timeout: 30_000, arbitrary: { runs: 150 } }
  )

  const spoiled = Arbitrary.map(
    Arbitrary.all([encoded, Arbitrary.schema(Schema.String), jsonValue]),
    ([value, key, junk]) => {
      const copy: Record<string, unknown> = JSON.parse(JSON.stringify(value))
      const keys = Object.keys(copy)
      copy[keys.length > 0 ? keys[key.length % keys.length]! : key] = junk
      return copy
    }
  )
  const oneOf = Arbitrary.flatMap(
    Arbitrary.schema(Schema.Boolean),
    (json): Arbitrary.Arbitrary<unknown> => json ? jsonValue : spoiled
  )
  it.prop(
    `${name}: on arbitrary JSON and on valid values with one field spoiled (property)`,
    [oneOf],
    ([input]) => agree(schema, input, false, excess),
    { timeout: 30_000, arbitrary: { runs: 300 } }
  )
}

describe("the compiled decoder agrees with Schema's decoder", () => {
  properties("Paper", Paper)
  properties("PaperAuthor", PaperAuthor)
  properties("Author", Author)
  properties("Citation", Citation)
  properties("Reference", Reference)
  properties("Snippet", Snippet)
  properties("Release", Release)
  properties("DatasetDiff", DatasetDiff)

  // Literals and refinements are checked inline in the generated walk, Int and others alike.
  properties(
    "a struct of literals and refinements",
    Schema.Struct({
      kind: Schema.Union([Schema.Literals(["a", 1, true]), Schema.Null]),
      other: Schema.optional(Schema.Literals([2, "b"])),
      size: Schema.optional(Schema.NullOr(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 10 })))),
      count: Schema.optional(Schema.Int)
    })
  )

  // A page under a Content-Security-Policy without 'unsafe-eval': `new Function` throws, and the
  // structs are walked without generated code. Fresh classes, since decoders are compiled once per AST.
  describe("where code cannot be generated", () => {
    class CspAuthor extends Schema.Class<CspAuthor>("CspAuthor")(PaperAuthor.fields) {}
    class CspPaper extends Schema.Class<CspPaper>("CspPaper")({
      ...Paper.fields,
      authors: Schema.optional(Schema.NullOr(Schema.Array(CspAuthor)))
    }) {}
    const page = TokenPage(CspPaper)
    it("compiles without `new Function`", () => {
      const original = globalThis.Function
      let refused = 0
      globalThis.Function = new Proxy(original, {
        construct() {
          refused++
          throw new EvalError("Refused to evaluate a string as JavaScript (CSP)")
        }
      })
      try {
        expect(fastDecoder(page)).toBeDefined()
      } finally {
        globalThis.Function = original
      }
      expect(refused).toBeGreaterThan(0)
    })
    properties("a page of papers, without generated code", page)
  })

  it("keeps unknown fields and builds class instances down the tree", () => {
    const input = {
      total: 1,
      token: null,
      data: [{ paperId: "p", title: "t", newField: [1], authors: [{ authorId: null, name: "n", x: 1 }] }]
    }
    const page = Option.getOrThrow(fastDecoder(TokenPage(Paper))!(input))
    const [paper] = page.data
    expect(paper).toBeInstanceOf(Paper)
    expect(paper?.authors?.[0]).toBeInstanceOf(PaperAuthor)
    expect(paper?.raw).toEqual(input.data[0])
    expect(paper?.keys()).toContain("newField")
    agree(TokenPage(Paper), input)
  })

  it("fills the defaults of an empty search page (no data key)", () => {
    const page = Option.getOrThrow(fastDecoder(OffsetPage(Paper))!({ total: 0, offset: 0 }))
    expect(page).toEqual({ total: 0, offset: 0, data: [] })
    agree(OffsetPage(Paper), { total: 0 })
  })

  it("a \"__proto__\" key from JSON.parse cannot change what a record is", () => {
    const text = "{\"paperId\":\"p\",\"__proto__\":{\"title\":\"evil\"},\"x\":1}"
    // Withheld from the record (its raw keeps it, as data), not a prototype; the other fields stay.
    const paper = Option.getOrThrow(fastDecoder(Paper)!(JSON.parse(text), true))
    expect(paper).toBeInstanceOf(Paper)
    expect(paper.title).toBeUndefined()
    expect(paper.keys()).toEqual(["paperId", "__proto__", "x"])
    expect(JSON.stringify(paper.raw)).toBe(text)
    agree(Paper, JSON.parse(text))
  })

  it("the transport's own JSON becomes the records in place; a rejected page is left exactly as it came", () => {
    const wire = "{\"token\":null,\"data\":[{\"paperId\":\"p\",\"authors\":[{\"authorId\":\"a\",\"name\":\"n\"}]}]}"
    const input = JSON.parse(wire)
    const page = Option.getOrThrow(fastDecoder(TokenPage(Paper))!(input, true))
    // No copy: the object JSON.parse made is the record, now with the class's prototype.
    expect(page.data[0]).toBe(input.data[0])
    expect(page.data[0]).toBeInstanceOf(Paper)
    expect(page.data[0]?.authors?.[0]).toBeInstanceOf(PaperAuthor)
    expect(JSON.stringify(page.data)).toBe(JSON.stringify(JSON.parse(wire).data))

    // The first record is sound, the second is not: the page goes to Schema's decoder untouched.
    const spoiled = JSON.parse(
      "{\"token\":null,\"data\":[{\"paperId\":\"p\",\"authors\":[{\"authorId\":\"a\",\"name\":\"n\"}]},{\"title\":\"no id\"}]}"
    )
    expect(Option.isNone(fastDecoder(TokenPage(Paper))!(spoiled, true))).toBe(true)
    expect(Object.getPrototypeOf(spoiled.data[0])).toBe(Object.prototype)
    expect(Object.getPrototypeOf(spoiled.data[0].authors[0])).toBe(Object.prototype)
  })

  it("in place, a nested record is a copy on its class's prototype in the parsed array's place; the parsed object stays plain", () => {
    const wire =
      "{\"token\":null,\"data\":[{\"paperId\":\"p\",\"authors\":[{\"authorId\":\"a\",\"name\":\"n\",\"x\":[1]}]}]}"
    const input = JSON.parse(wire)
    const authors = input.data[0].authors
    const parsed = authors[0]
    const page = Option.getOrThrow(fastDecoder(TokenPage(Paper))!(input, true))
    const author = page.data[0]!.authors![0]!
    // The array is the parsed one (no copy of the page); its element is the record, not the parsed
    // object given a prototype (setting one costs more than the copy, and slows JSON.stringify).
    expect(page.data[0]!.authors).toBe(authors)
    expect(author).not.toBe(parsed)
    expect(Object.getPrototypeOf(author)).toBe(PaperAuthor.prototype)
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
    expect(Object.keys(author)).toEqual(["authorId", "name", "x"])
    expect(author.raw).toBe(author)
    expect((author as unknown as { readonly x: unknown }).x).toBe(parsed.x)
    expect(JSON.stringify(page.data)).toBe(JSON.stringify(JSON.parse(wire).data))
  })

  it("JSON that may be shared (a cached answer) is copied, never changed", () => {
    const input = JSON.parse("{\"paperId\":\"p\",\"authors\":[{\"authorId\":\"a\",\"name\":\"n\"}]}")
    const paper = Option.getOrThrow(fastDecoder(Paper)!(input))
    expect(paper).toBeInstanceOf(Paper)
    expect(paper).not.toBe(input)
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype)
    expect(Object.getPrototypeOf(input.authors[0])).toBe(Object.prototype)
  })

  it("a frozen input (a stub's fixture) is copied onto the prototype, not changed", () => {
    const input = Object.freeze({ paperId: "p", title: "t" })
    const paper = Option.getOrThrow(fastDecoder(Paper)!(input, true))
    expect(paper).toBeInstanceOf(Paper)
    expect(paper).not.toBe(input)
    expect(paper.raw).toEqual({ paperId: "p", title: "t" })
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype)
  })

  it("rejects what Schema rejects: a float where an integer belongs, a string year, a missing id", () => {
    for (const input of [{ paperId: "p", year: 1.5 }, { paperId: "p", year: "1950" }, { title: "no id" }]) {
      expect(Option.isNone(fastDecoder(Paper)!(input))).toBe(true)
      agree(Paper, input)
    }
  })
})

/** A caller's own schema, as `NodeDatasets.readDatasetFile` takes: nested, optional, with defaults. */
const Row = Schema.Struct({
  corpusid: Schema.Int,
  abstract: Schema.NullOr(Schema.String),
  tags: Schema.Array(Schema.String).pipe(Schema.withDecodingDefaultType(Effect.sync((): ReadonlyArray<string> => []))),
  source: Schema.optional(Schema.Struct({ pdf: Schema.String }))
})

describe("the compiled decoder agrees with Schema's decoder when unknown keys are dropped", () => {
  properties("a caller's struct", Row, "ignore")
  properties("Release", Release, "ignore")
  properties("DatasetDiff", DatasetDiff, "ignore")
  properties("Author", Author, "ignore")

  it("drops unknown keys, down the tree, and keeps the known ones", () => {
    const input = { corpusid: 1, abstract: null, extra: 2, source: { pdf: "p", more: 3 } }
    const row = Option.getOrThrow(fastDecoder(Row, "ignore")!(input))
    expect(row).toEqual({ corpusid: 1, abstract: null, tags: [], source: { pdf: "p" } })
    agree(Row, input, true, "ignore")
  })

  it("decodeUnknownResult: the fast path's record, or Schema's error", () => {
    const decode = decodeUnknownResult(Row)
    expect(decode({ corpusid: 1, abstract: "a", x: 1 })).toEqual(
      Result.succeed({ corpusid: 1, abstract: "a", tags: [] })
    )
    const failure = decode({ corpusid: 1.5, abstract: "a" })
    expect(Result.isFailure(failure) && failure.failure._tag).toBe("SchemaError")
  })
})

describe("the compiled decoder agrees with Schema's decoder when unknown keys are refused", () => {
  properties("a caller's struct", Row, "error")
  properties("Release", Release, "error")

  it("decodeUnknownResult honours onExcessProperty: \"error\", which Schema's result has", () => {
    const decode = decodeUnknownResult(Row, { onExcessProperty: "error" })
    const failure = decode({ corpusid: 1, abstract: "a", x: 1 })
    expect(Result.isFailure(failure) && failure.failure._tag).toBe("SchemaError")
    expect(decode({ corpusid: 1, abstract: "a" })).toEqual(Result.succeed({ corpusid: 1, abstract: "a", tags: [] }))
  })
})
