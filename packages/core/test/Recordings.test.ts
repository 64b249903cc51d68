/**
 * Decodes every real recorded exchange in ../shared/s2-recordings (when that folder is present) with
 * the client's own schemas, and replays every error answer through the client to check its typed
 * error. The recordings are read where they lie; nothing of them is copied into the project.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Author } from "../src/Author.js"
import { Citation, Reference } from "../src/Citation.js"
import { Dataset, DatasetDiff, Release } from "../src/Dataset.js"
import { Decoder, SemanticScholar } from "../src/index.js"
import { AutocompleteAnswer, MatchAnswer, RecommendationAnswer, SnippetAnswer } from "../src/internal/envelopes.js"
import { OffsetPage, TokenPage } from "../src/Page.js"
import { Paper, PaperAuthor } from "../src/Paper.js"
import { testLayer } from "./support/Scripted.js"

const folder = Path.resolve(import.meta.dirname, "../../../../shared/s2-recordings")
const present = Fs.existsSync(folder)

interface Exchange {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly response: unknown
}

type Decode = (u: unknown) => Result.Result<unknown, Schema.SchemaError>
/**
 * Schema's verdict, and for what it accepts the record as the client decodes it: with every field
 * the server sent (Schema 4 has no `onExcessProperty: "preserve"`; the client's decoder keeps them).
 */
const decoder = <A, I>(schema: Schema.Codec<A, I>): Decode => {
  const reference = Schema.decodeUnknownResult(schema as Schema.Codec<A, I, never, never>)
  const client = Decoder.decodeUnknownResult(schema, { onExcessProperty: "preserve" })
  return (u) => {
    const verdict = reference(u)
    return Result.isSuccess(verdict) ? client(u) : verdict
  }
}

const routes: ReadonlyArray<readonly [RegExp, Decode]> = [
  [/^\/graph\/v1\/paper\/batch$/, decoder(Schema.Array(Schema.NullOr(Paper)))],
  [/^\/graph\/v1\/author\/batch$/, decoder(Schema.Array(Schema.NullOr(Author)))],
  [/^\/graph\/v1\/paper\/search\/bulk$/, decoder(TokenPage(Paper))],
  [/^\/graph\/v1\/paper\/search\/match$/, decoder(MatchAnswer)],
  [/^\/graph\/v1\/paper\/search$/, decoder(OffsetPage(Paper))],
  [/^\/graph\/v1\/paper\/autocomplete$/, decoder(AutocompleteAnswer)],
  [/^\/graph\/v1\/snippet\/search$/, decoder(SnippetAnswer)],
  [/^\/graph\/v1\/author\/search$/, decoder(OffsetPage(Author))],
  [/^\/graph\/v1\/paper\/.+\/authors$/, decoder(OffsetPage(PaperAuthor))],
  [/^\/graph\/v1\/paper\/.+\/citations$/, decoder(OffsetPage(Citation))],
  [/^\/graph\/v1\/paper\/.+\/references$/, decoder(OffsetPage(Reference))],
  [/^\/graph\/v1\/author\/.+\/papers$/, decoder(OffsetPage(Paper))],
  [/^\/graph\/v1\/author\/[^/]+$/, decoder(Author)],
  [/^\/graph\/v1\/paper\/.+$/, decoder(Paper)],
  [/^\/recommendations\/v1\//, decoder(RecommendationAnswer)],
  [/^\/datasets\/v1\/release\/$/, decoder(Schema.Array(Schema.String))],
  [/^\/datasets\/v1\/release\/[^/]+$/, decoder(Release)],
  [/^\/datasets\/v1\/release\/[^/]+\/dataset\/[^/]+$/, decoder(Dataset)],
  [/^\/datasets\/v1\/diffs\//, decoder(DatasetDiff)]
]
const decoderFor = (path: string) => routes.find(([pattern]) => pattern.test(path))?.[1]

const scenarios = present
  ? Fs.readdirSync(folder).filter((f) => f.startsWith("test_") && f.endsWith(".json")).sort()
  : []

if (!present) {
  console.log(`recordings not found at ${folder}: the recorded-shape checks have nothing to read`)
  describe("real recorded exchanges", () => {
    it("are absent beside this checkout, so nothing is compared (see the note above)", () => {
      expect(Fs.existsSync(folder)).toBe(false)
    })
  })
}

if (present) {
  describe("real recorded exchanges decode with the client's schemas", () => {
    it("are there: one file per scenario", () => {
      expect(scenarios.length).toBeGreaterThan(40)
    })

    for (const file of scenarios) {
      const exchanges: ReadonlyArray<Exchange> = JSON.parse(Fs.readFileSync(Path.join(folder, file), "utf8"))
      exchanges.forEach((exchange, i) => {
        const decode = decoderFor(exchange.path)
        if (exchange.status !== 200 || decode === undefined) return
        it(`${file}#${i} ${exchange.method} ${exchange.path}`, () => {
          const result = decode(exchange.response)
          expect(result._tag, result._tag === "Failure" ? String(result.failure) : "").toBe("Success")
        })
      })
    }

    const fixtures: ReadonlyArray<readonly [string, Decode]> = [
      ["fixture_Paper.json", decoder(Paper)],
      ["fixture_PaperWithNullValues.json", decoder(Paper)],
      ["fixture_Author.json", decoder(Author)],
      ["fixture_Citation.json", decoder(Citation)],
      ["fixture_Reference.json", decoder(Reference)],
      ["fixture_Release.json", decoder(Release)],
      ["fixture_Dataset.json", decoder(Dataset)],
      ["fixture_DatasetDiff.json", decoder(DatasetDiff)]
    ]
    for (const [file, decode] of fixtures) {
      it(`${file} decodes, and raw gives back the wire JSON`, () => {
        const json: unknown = JSON.parse(Fs.readFileSync(Path.join(folder, file), "utf8"))
        const decoded = Result.getOrThrow(decode(json))
        expect(typeof decoded === "object" && decoded !== null && "raw" in decoded && decoded.raw).toEqual(json)
      })
    }
  })

  describe("real recorded error answers become typed errors", () => {
    const expected: Record<number, string> = { 400: "BadQueryParameters", 403: "Forbidden", 404: "ObjectNotFound" }
    for (const file of scenarios) {
      const exchanges: ReadonlyArray<Exchange> = JSON.parse(Fs.readFileSync(Path.join(folder, file), "utf8"))
      for (const exchange of exchanges.filter((e) => e.status !== 200)) {
        it.effect(`${file} HTTP ${exchange.status}`, () =>
          Effect.gen(function*() {
            const s2 = yield* SemanticScholar
            const error = yield* Effect.flip(s2.getPaper("CorpusId:1"))
            expect(error._tag).toBe(expected[exchange.status])
            expect(error.status).toBe(exchange.status)
            const text = exchange.response as { error?: string; message?: string }
            expect(error.message).toContain(text.error ?? text.message)
          }).pipe(Effect.provide(testLayer(
            () => Effect.succeed({ status: exchange.status, text: JSON.stringify(exchange.response) + "\n" }),
            { retry: false }
          ))))
      }
    }
  })
}
