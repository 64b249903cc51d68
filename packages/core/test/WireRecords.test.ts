import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Option, Schema, Stream } from "effect"
import { fastDecoder } from "../src/internal/decode.js"
import { TokenPage } from "../src/Page.js"
import { Paper, PaperAuthor } from "../src/Paper.js"
import { SemanticScholar } from "../src/SemanticScholar.js"
import { type Handler, json, testLayer } from "./support/Scripted.js"

/** Every object in `value`, arrays' elements and fields included, is a plain object or an array. */
const plainThroughout = (value: unknown): boolean => {
  if (typeof value !== "object" || value === null) return true
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== Array.prototype) return false
  return Object.values(value).every(plainThroughout)
}

/**
 * Wire records and class records on one input: the same verdict (the walk is the class's), and for
 * an accepted input the same JSON, with no class anywhere in the wire one.
 */
const agree = (input: unknown) => {
  const page = TokenPage(Paper)
  const classes = fastDecoder(page)!(structuredClone(input), true)
  const fresh = structuredClone(input)
  const wire = fastDecoder(page, "preserve", "wire")!(fresh, true)
  expect(Option.isSome(wire)).toBe(Option.isSome(classes))
  if (Option.isSome(wire) && Option.isSome(classes)) {
    expect(JSON.stringify(wire.value)).toBe(JSON.stringify(classes.value))
    expect(plainThroughout(wire.value.data)).toBe(true)
  }
}

const codec = TokenPage(Paper) as unknown as Schema.Codec<unknown, unknown, never, never>
const encoded = Arbitrary.map(
  Arbitrary.schema(codec),
  (value) => JSON.parse(JSON.stringify(Schema.encodeSync(codec)(value)))
)
const spoiled = Arbitrary.map(
  Arbitrary.all([encoded, Arbitrary.schema(Schema.Json), Schema.Int.pipe(Arbitrary.schema)]),
  ([value, junk, at]): unknown => {
    const copy = value as { data?: Array<Record<string, unknown>> }
    const records = copy.data ?? []
    const record = records[Math.abs(at) % Math.max(1, records.length)]
    if (record !== undefined) {
      const keys = Object.keys(record)
      record[keys[Math.abs(at) % Math.max(1, keys.length)] ?? "paperId"] = junk
    }
    return copy
  }
)

describe("wire records: checked as a Paper is, handed over as the parsed objects", () => {
  it.prop(
    "the same verdict and JSON as class records, on valid pages (property)",
    [encoded],
    ([input]) => agree(input),
    {
      timeout: 30_000,
      arbitrary: { runs: 60 }
    }
  )

  it.prop(
    "the same verdict as class records, on pages with one field spoiled (property)",
    [spoiled],
    ([input]) => agree(input),
    { timeout: 30_000, arbitrary: { runs: 100 } }
  )

  it("the record is the object JSON.parse made, its authors too; nothing is given a prototype", () => {
    const text =
      "{\"token\":null,\"data\":[{\"paperId\":\"p\",\"year\":2001,\"x\":[1],\"authors\":[{\"authorId\":\"a\",\"name\":\"n\"}]}]}"
    const input = JSON.parse(text)
    const page = Option.getOrThrow(fastDecoder(TokenPage(Paper), "preserve", "wire")!(input, true))
    expect(page.data[0]).toBe(input.data[0])
    expect(page.data[0]!.authors).toBe(input.data[0].authors)
    expect(page.data[0]).not.toBeInstanceOf(Paper)
    expect(page.data[0]!.authors![0]).not.toBeInstanceOf(PaperAuthor)
    expect(JSON.stringify(page.data)).toBe(JSON.stringify(JSON.parse(text).data))
  })

  it("a field named like a class member is data; a \"__proto__\" key is withheld, and written back as it came", () => {
    const text = "{\"paperId\":\"p\",\"raw\":1,\"keys\":\"k\",\"__proto__\":{\"title\":\"evil\"}}"
    const page = Option.getOrThrow(
      fastDecoder(TokenPage(Paper), "preserve", "wire")!(JSON.parse(`{"token":null,"data":[${text}]}`), true)
    )
    const record = page.data[0] as unknown as Record<string, unknown>
    expect(record["raw"]).toBe(1)
    expect(record["keys"]).toBe("k")
    expect(record["title"]).toBeUndefined()
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype)
    expect(JSON.stringify(record)).toBe(text)
  })

  it("refuses what a Paper refuses: a float year, a string year, a missing id", () => {
    for (const record of [{ paperId: "p", year: 1.5 }, { paperId: "p", year: "1950" }, { title: "no id" }]) {
      const decode = fastDecoder(TokenPage(Paper), "preserve", "wire")!
      expect(Option.isNone(decode({ token: null, data: [record] }, true))).toBe(true)
    }
  })

  it.effect("searchPaper with wire: true gives the records a Paper stream gives, as plain objects", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const options = { bulk: true, fields: ["title", "year", "authors"] } as const
      const wire = yield* Stream.runCollect(s2.searchPaper("graph", { ...options, wire: true }))
      const classes = yield* Stream.runCollect(s2.searchPaper("graph", options))
      expect(wire).toHaveLength(4)
      expect(JSON.stringify(wire)).toBe(JSON.stringify(classes))
      expect(wire.every(plainThroughout)).toBe(true)
      expect(classes.every((paper) => paper instanceof Paper)).toBe(true)
    }).pipe(Effect.provide(testLayer(twoPages([])))))

  it.effect("a record that is not a Paper fails the wire stream with the error a Paper stream fails with", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const wire = yield* Effect.flip(Stream.runCollect(s2.searchPaper("graph", { bulk: true, wire: true })))
      const classes = yield* Effect.flip(Stream.runCollect(s2.searchPaper("graph", { bulk: true })))
      expect(wire._tag).toBe("DecodeError")
      expect(wire.message).toBe(classes.message)
    }).pipe(Effect.provide(testLayer(twoPages([{ paperId: "bad", year: 1.5 }])))))
})

/** Two pages of a bulk search, the second with `extra` records after its own. */
const twoPages = (extra: ReadonlyArray<unknown>): Handler => (request) => {
  const paper = (n: number) => ({
    paperId: `p${n}`,
    title: `t${n}`,
    year: 2000 + n,
    authors: [{ authorId: `a${n}`, name: "n" }]
  })
  const second = request.url.searchParams.get("token") === "t2"
  return Effect.succeed(json(
    second
      ? { total: 4, token: null, data: [paper(3), paper(4), ...extra] }
      : { total: 4, token: "t2", data: [paper(1), paper(2)] }
  ))
}
