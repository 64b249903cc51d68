/**
 * Records decoded from a hostile server's JSON: fields named like the record's members, `"__proto__"`
 * keys at any depth, values nested thousands deep. The JSON is text parsed as the transport parses
 * it (`JSON.parse` keeps `"__proto__"` as an own key), decoded in place (the transport's own JSON)
 * and as a copy (a cached answer). Whatever it holds, a record's API works, no prototype is set from
 * data, and what cannot be shown is a `DecodeError`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, Schema, Stream } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { ResponseCache, SemanticScholar } from "../src/index.js"
import { record } from "../src/internal/record.js"
import { decode } from "../src/internal/transport.js"
import { TokenPage } from "../src/Page.js"
import { Paper, PaperAuthor, PaperRef } from "../src/Paper.js"
import { testLayer } from "./support/Scripted.js"

const target = { method: "GET", url: "https://api.test/graph/v1/paper/x" } as const

/** Decodes JSON text as the transport does: in place (`fresh`) or as a copy of shared JSON. */
const decodeText = <A, I>(schema: Schema.Codec<A, I>, text: string, fresh: boolean) =>
  decode(schema, JSON.parse(text), target, undefined, fresh)

/** The names a record's own data may not take: every name on its prototypes, and these. */
const membersOf = (prototype: object): ReadonlyArray<string> => {
  const names = new Set(["then", "toJSON", "__proto__"])
  for (let p: object | null = prototype; p !== null; p = Object.getPrototypeOf(p) as object | null) {
    for (const name of Object.getOwnPropertyNames(p)) names.add(name)
  }
  return [...names]
}
const reserved = membersOf(Paper.prototype)

/** Everything a record promises whatever its wire data: its class, `raw`, `keys()`, `String`, not a thenable. */
const hasItsApi = (record: Paper | PaperAuthor, prototype: object, wire: string) => {
  expect(Object.getPrototypeOf(record)).toBe(prototype)
  expect(JSON.stringify(record.raw)).toBe(wire)
  expect(JSON.stringify(record)).toBe(wire)
  expect(record.keys()).toEqual(Object.keys(JSON.parse(wire)))
  expect(String(record)).toMatch(/^(Paper|PaperAuthor)\(/)
  expect(`${record}`).toBe(String(record))
  expect(typeof (record as unknown as { pipe: unknown }).pipe).toBe("function")
  expect((record as unknown as { then?: unknown }).then).toBeUndefined()
  // No data of the server's is an own property named like a member (toJSON, when there, is ours).
  for (const name of membersOf(prototype)) {
    const own = Object.getOwnPropertyDescriptor(record, name)
    if (name === "toJSON" && own !== undefined) expect(own.enumerable).toBe(false)
    else expect(own).toBeUndefined()
  }
}

const spoofed = JSON.stringify({
  paperId: "p1",
  title: "Real",
  raw: { paperId: "SPOOFED" },
  keys: 1,
  toString: 2,
  toJSON: 3,
  constructor: 4,
  valueOf: 5,
  hasOwnProperty: 6,
  then: 7,
  pipe: 8,
  authors: [{ authorId: "a1", name: "A", raw: "x", keys: ["y"], toString: null }, { authorId: "a2", name: "B" }]
}).replace("\"pipe\"", "\"__proto__\":{\"title\":\"evil\"},\"pipe\"")

describe("fields named like a record's members (defect 4)", () => {
  for (const fresh of [true, false]) {
    it.effect(`raw, keys, toString, toJSON, then, __proto__… stay data in raw, never shadow the record (${fresh ? "in place" : "a copy"})`, () =>
      Effect.gen(function*() {
        const paper = yield* decodeText(Paper, spoofed, fresh)
        hasItsApi(paper, Paper.prototype, spoofed)
        expect(paper.raw["raw"]).toEqual({ paperId: "SPOOFED" })
        expect(paper.raw["then"]).toBe(7)
        expect(paper.title).toBe("Real")
        const [first, second] = paper.authors!
        hasItsApi(first!, PaperAuthor.prototype, JSON.stringify(JSON.parse(spoofed).authors[0]))
        hasItsApi(second!, PaperAuthor.prototype, JSON.stringify(JSON.parse(spoofed).authors[1]))
        // A record without such names is still the wire object itself, no copy.
        if (fresh) expect(second!.raw).toBe(second)
      }))
  }

  it("where code cannot be generated (a CSP without 'unsafe-eval'), the general walk withholds them too", () => {
    // Fresh classes: decoders are compiled once per AST.
    class CspAuthor extends record<CspAuthor>("PaperAuthor")(PaperAuthor.fields) {}
    class CspPaper extends record<CspPaper>("Paper")({
      ...Paper.fields,
      authors: Schema.optional(Schema.NullOr(Schema.Array(CspAuthor)))
    }) {}
    const original = globalThis.Function
    globalThis.Function = new Proxy(original, {
      construct() {
        throw new EvalError("Refused to evaluate a string as JavaScript (CSP)")
      }
    })
    try {
      for (const fresh of [true, false]) {
        const paper = Effect.runSync(decodeText(CspPaper, spoofed, fresh))
        hasItsApi(paper as unknown as Paper, CspPaper.prototype, spoofed)
        hasItsApi(
          paper.authors![0]! as unknown as PaperAuthor,
          CspAuthor.prototype,
          JSON.stringify(JSON.parse(spoofed).authors[0])
        )
        for (let i = 0; i < positions; i++) {
          unpolluted(Effect.runSync(decodeText(TokenPage(CspPaper), withProtoAt(i), fresh)), [
            CspPaper.prototype,
            CspAuthor.prototype
          ])
        }
      }
    } finally {
      globalThis.Function = original
    }
  })

  it.effect("through the client: getPaper and a bulk page give records whose API works", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const paper = yield* s2.getPaper("CorpusId:1")
      hasItsApi(paper, Paper.prototype, spoofed)
      const [listed] = yield* Stream.runCollect(s2.searchPaper("x", { bulk: true }))
      hasItsApi(listed!, Paper.prototype, spoofed)
    }).pipe(Effect.provide(testLayer((request) =>
      Effect.succeed({
        status: 200,
        text: request.url.pathname.endsWith("/bulk") ? `{"total":1,"token":null,"data":[${spoofed}]}` : spoofed
      })
    ))))

  // Names drawn from the members (fast-check's strings add `__proto__`, `valueOf`… of their own).
  const name = Arbitrary.schema(Schema.Union([Schema.Literals(reserved as [string, ...Array<string>]), Schema.String]))
  const fields = Arbitrary.array(Arbitrary.all([name, Arbitrary.schema(Schema.Json)]), { maxLength: 6 })
  const wire = Arbitrary.map(Arbitrary.all([fields, fields]), ([own, author]) =>
    JSON.stringify({
      ...Object.fromEntries(own.filter(([key]) => key !== "paperId" && key !== "authors")),
      paperId: "p",
      authors: [{ ...Object.fromEntries(author.filter(([key]) => !(key in PaperAuthor.fields))), authorId: "a" }]
    }))

  it.prop(
    "whatever the names of unknown fields, a record's methods are its own and raw round-trips (property)",
    [wire],
    ([text]) => {
      for (const fresh of [true, false]) {
        const paper = Effect.runSync(decodeText(Paper, text, fresh))
        hasItsApi(paper, Paper.prototype, text)
        hasItsApi(paper.authors![0]!, PaperAuthor.prototype, JSON.stringify(JSON.parse(text).authors[0]))
        const page = Effect.runSync(decodeText(TokenPage(Paper), `{"total":1,"token":null,"data":[${text}]}`, fresh))
        hasItsApi(page.data[0]!, Paper.prototype, text)
      }
    },
    { arbitrary: { runs: 200 } }
  )
})

/** Every object reachable from `value` through own enumerable properties. */
const objectsIn = (value: unknown, out: Array<object> = []): Array<object> => {
  if (typeof value !== "object" || value === null) return out
  out.push(value)
  for (const child of Object.values(value)) objectsIn(child, out)
  return out
}

const plainPrototypes: ReadonlyArray<object | null> = [
  Object.prototype,
  Array.prototype,
  Paper.prototype,
  PaperRef.prototype,
  PaperAuthor.prototype
]

/** No object of a decoded value has a prototype from data, nor inherits a field from one. */
const unpolluted = (value: unknown, classes: ReadonlyArray<object> = []) => {
  for (const object of objectsIn(value)) {
    expect([...plainPrototypes, ...classes]).toContain(Object.getPrototypeOf(object))
    for (const name of ["polluted", "DOI", "title", "paperId"]) {
      if (name in object) expect(Object.hasOwn(object, name)).toBe(true)
    }
  }
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
}

/** A page as the API serves it: nested records, nested structs, an unknown field. */
const page = {
  total: 2,
  token: null,
  data: [
    {
      paperId: "p1",
      externalIds: { DOI: "10.1/x", CorpusId: 1 },
      publicationVenue: { id: "v", alternate_names: ["V"] },
      authors: [{ authorId: "a1", name: "A", externalIds: { ORCID: "o" } }],
      citations: [{ paperId: "c1", authors: [{ authorId: "a2", name: "B" }] }],
      extra: { nested: [{ deeper: { x: 1 } }] }
    },
    { paperId: "p2", journal: { name: "J" } }
  ]
}

const positions = objectsIn(page).filter((o) => !Array.isArray(o)).length

/** The page's text with `"__proto__": {…}` added to the object at `position` (in `objectsIn` order). */
const withProtoAt = (position: number): string => {
  const copy = structuredClone(page)
  const into = objectsIn(copy).filter((o) => !Array.isArray(o))[position]!
  const marker = "\"__marker__\":0"
  Object.assign(into, { __marker__: 0 })
  return JSON.stringify(copy).replace(marker, "\"__proto__\":{\"polluted\":1,\"DOI\":\"evil\",\"title\":\"evil\"}")
}

describe("\"__proto__\" at any depth (defect 5)", () => {
  for (const fresh of [true, false]) {
    it(`at each of the ${positions} objects of a page, no prototype is set and no field lost (${fresh ? "in place" : "a copy"})`, () => {
      for (let i = 0; i < positions; i++) {
        const text = withProtoAt(i)
        const decoded = Effect.runSync(decodeText(TokenPage(Paper), text, fresh))
        unpolluted(decoded)
        // Each record keeps the whole wire object, "__proto__" included as data, and its unknown fields.
        const wire = JSON.parse(text) as { data: ReadonlyArray<unknown> }
        decoded.data.forEach((paper, k) => {
          expect(JSON.stringify(paper.raw)).toBe(JSON.stringify(wire.data[k]))
          expect(paper.keys()).toEqual(Object.keys(wire.data[k] as object))
        })
        expect(decoded.data[0]!.keys()).toContain("extra")
      }
    })
  }

  it.effect("externalIds: {\"__proto__\": {\"DOI\": \"evil\"}}: no inherited DOI, the paper's other fields kept", () =>
    Effect.gen(function*() {
      const text = "{\"paperId\":\"p\",\"externalIds\":{\"__proto__\":{\"DOI\":\"evil\"}},\"extra\":1}"
      for (const fresh of [true, false]) {
        const paper = yield* decodeText(Paper, text, fresh)
        expect(paper.externalIds?.DOI).toBeUndefined()
        expect(Object.getPrototypeOf(paper.externalIds)).toBe(Object.prototype)
        expect(paper.keys()).toEqual(["paperId", "externalIds", "extra"])
        expect(JSON.stringify(paper.raw)).toBe(text)
      }
    }))

  it.effect("through the client, a bulk page and a cached answer (memory and a JSON key-value store)", () =>
    Effect.gen(function*() {
      const text = withProtoAt(1)
      const entries = new Map<string, string>()
      const kv = KeyValueStore.makeStringOnly({
        get: (key) => Effect.sync(() => entries.get(key)),
        set: (key, value) => Effect.sync(() => void entries.set(key, value)),
        remove: (key) => Effect.sync(() => void entries.delete(key)),
        clear: Effect.sync(() => entries.clear()),
        size: Effect.sync(() => entries.size),
        keys: Effect.sync(() => [...entries.keys()])
      })
      const json = ResponseCache.keyValueStore.pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore)(kv)))
      for (const store of [ResponseCache.memory, json]) {
        const pages = Effect.flatMap(
          SemanticScholar,
          (s2) => Stream.runCollect(s2.searchPaperPages("x", { bulk: true }))
        )
        const layer = testLayer(() => Effect.succeed({ status: 200, text }), { cache: { store } })
        const [fetched, cached] = yield* Effect.all([pages, pages]).pipe(Effect.provide(layer))
        for (const got of [fetched, cached]) {
          unpolluted(got)
          expect(JSON.stringify(got[0]!.data[0]!.raw)).toBe(JSON.stringify(JSON.parse(text).data[0]))
        }
      }
    }))

  it.effect("a body that does not decode: the DecodeError's key-hiding copy keeps \"__proto__\" as data", () =>
    Effect.gen(function*() {
      const text =
        "{\"paperId\":\"p\",\"year\":\"x\",\"externalIds\":{\"__proto__\":{\"polluted\":1}},\"__proto__\":{\"a\":1}}"
      const error = yield* Effect.flip(decodeText(Paper, text, true))
      expect(error._tag).toBe("DecodeError")
      expect(error.excerpt).toContain("\"__proto__\":{\"polluted\":1}")
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
    }))
})

const nested = (depth: number, open: string, close: string, inner = "1") =>
  open.repeat(depth) + inner + close.repeat(depth)

describe("values nested deeper than any record (defect 6)", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["an unknown field of 5,000 arrays", `{"paperId":"p","x":${nested(5000, "[", "]")}}`],
    ["an unknown field of 5,000 objects", `{"paperId":"p","x":${nested(5000, "{\"a\":", "}")}}`],
    [
      "authors' papers' authors 3,000 deep",
      `{"paperId":"p","authors":[${
        nested(3000, "{\"authorId\":\"a\",\"papers\":[{\"paperId\":\"p\",\"authors\":[", "]}]}", "")
      }]}`
    ]
  ]
  for (const [name, text] of cases) {
    it.effect(`${name}: DecodeError with reason "depth", in place and from a copy`, () =>
      Effect.gen(function*() {
        for (const fresh of [true, false]) {
          const error = yield* Effect.flip(decodeText(Paper, text, fresh))
          expect(error._tag).toBe("DecodeError")
          expect(error.reason).toBe("depth")
          expect(error.message).toContain("nests more than 100 levels deep")
          expect(error.excerpt.length).toBeLessThan(100)
        }
      }))
  }

  it.effect("in one record of a bulk page: the stream fails with the DecodeError, typed", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(Stream.runCollect(s2.searchPaper("x", { bulk: true })))
      expect(error._tag === "DecodeError" && error.reason).toBe("depth")
    }).pipe(Effect.provide(testLayer(
      () =>
        Effect.succeed({
          status: 200,
          text: `{"total":2,"token":null,"data":[{"paperId":"p1"},{"paperId":"p2","x":${nested(5000, "[", "]", "")}}]}`
        }),
      { retry: false }
    ))))

  it.effect("a field nested 90 deep is kept, and the record prints", () =>
    Effect.gen(function*() {
      const text = `{"paperId":"p","x":${nested(90, "[", "]")}}`
      for (const fresh of [true, false]) {
        const paper = yield* decodeText(Paper, text, fresh)
        expect(JSON.stringify(paper)).toBe(text)
      }
    }))
})
