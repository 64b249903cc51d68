/**
 * `raw` is the wire JSON without a copy: the record's own keys and values are the wire object's, in
 * its order, so `raw` is the record itself, deep-equals the JSON that came over the wire, and
 * serialises back to the same text (which `s2 harvest` writes). Fields named like the record's
 * members (fast-check's strings include `toString`, `__proto__`, `valueOf`…) are withheld from the
 * record: `raw` is then the wire object beside it, and the record's API still works.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Result, Schema } from "effect"
import { Author } from "../src/Author.js"
import { Citation, Reference } from "../src/Citation.js"
import { Release } from "../src/Dataset.js"
import { decode } from "../src/internal/transport.js"
import { Paper, PaperAuthor } from "../src/Paper.js"
import { Snippet } from "../src/Snippet.js"

interface HasRaw {
  readonly raw: Readonly<Record<string, unknown>>
}

/**
 * Whether every name in a JSON value is written without escapes. Node 24's `JSON.parse` reads an
 * escaped name wrong once it has read the name `"\\"` (V8's key cache, nodejs/node#63785): the
 * value the client is given is then not the text, whatever the client does with it.
 */
const plainNames = (value: unknown): boolean =>
  typeof value !== "object" || value === null ||
  Object.entries(value).every(([name, child]) =>
    (Array.isArray(value) || JSON.stringify(name) === `"${name}"`) && plainNames(child)
  )

/** Fields the client does not know (the server adds fields over time): any name but its own fields'. */
const unknownFields = (known: ReadonlyArray<string>) =>
  Arbitrary.map(
    Arbitrary.array(Arbitrary.all([Arbitrary.schema(Schema.String), Arbitrary.schema(Schema.Json)]), { maxLength: 3 }),
    (entries) => Object.fromEntries(entries.filter(([key]) => !known.includes(key)))
  ).pipe(Arbitrary.filter(plainNames))

/** Names a record's fields may not take: its members, Object.prototype's, `then`, `toJSON`. */
const members = (record: object): ReadonlySet<string> => {
  const names = new Set(["then", "toJSON", "__proto__"])
  for (let p = Object.getPrototypeOf(record); p !== null; p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p)) names.add(name)
  }
  return names
}

/** Whether any name in a JSON value is one of `names`. */
const usesAny = (value: unknown, names: ReadonlySet<string>): boolean =>
  typeof value === "object" && value !== null &&
  Object.entries(value).some(([name, child]) => (!Array.isArray(value) && names.has(name)) || usesAny(child, names))

const rawProperty = <A extends HasRaw, I>(
  name: string,
  schema: Schema.Codec<A, I> & { readonly fields: Schema.Struct.Fields }
) => {
  const codec = schema as Schema.Codec<A, I, never, never>
  const wire = Arbitrary.all([Arbitrary.schema(codec), unknownFields(Object.keys(schema.fields))]).pipe(
    Arbitrary.map(([value, extra]) => JSON.stringify({ ...extra, ...(Schema.encodeSync(codec)(value) as object) })),
    Arbitrary.filter((text) =>
      // NaN and infinities, which the arbitrary may give, are `null` in JSON: not a valid record.
      Result.isSuccess(Schema.decodeUnknownResult(codec)(JSON.parse(text)))
    )
  )
  it.prop(
    `${name}: raw is the record, deep-equal to the wire JSON, and serialises to the wire text (property)`,
    [wire],
    ([text]) => {
      // Decoded in place (the transport's own JSON) and as a copy (a cached answer).
      for (const fresh of [true, false]) {
        const json: unknown = JSON.parse(text)
        const record = Effect.runSync(
          decode(schema, json, { method: "GET", url: "https://api.test/x" }, undefined, fresh)
        )
        const names = members(record)
        // Without such names, no copy: the record is the wire object.
        if (!usesAny(json, names)) expect(record.raw).toBe(record)
        expect(record.raw).toEqual(JSON.parse(text))
        expect(JSON.stringify(record.raw)).toBe(text)
        expect(JSON.stringify(record)).toBe(text)
        // Whatever the names, no own key of the record shadows its API.
        expect(Object.keys(record).filter((name) => names.has(name))).toEqual([])
        expect((record as unknown as { keys: () => ReadonlyArray<string> }).keys()).toEqual(Object.keys(json as object))
      }
    },
    { arbitrary: { runs: 150 } }
  )
}

describe("raw", () => {
  rawProperty("Paper", Paper)
  rawProperty("PaperAuthor", PaperAuthor)
  rawProperty("Author", Author)
  rawProperty("Citation", Citation)
  rawProperty("Reference", Reference)
  rawProperty("Snippet", Snippet)
  rawProperty("Release", Release)
})
