/**
 * Record builders for tests: a partial plain object in, a valid record out, decoded through the
 * client's own schema (unknown fields kept), so `raw` and `keys()` behave as on records from the
 * API. Required ids are filled in when absent, derived from the other fields: the same input gives
 * the same record; give the id yourself when two records must differ only by it.
 *
 * A value the schema refuses (a `year` that is a string, say) throws with the schema's message: a
 * fixture that could never come from the API is a bug in the test.
 *
 * @example
 * ```ts
 * import { Fixtures } from "@s2-effect/testing"
 *
 * const paper = Fixtures.paper({ title: "Attention Is All You Need", year: 2017, venueRank: 1 })
 * paper.keys() // ["paperId", "title", "year", "venueRank"]
 * const citation = Fixtures.citation({ citingPaper: { title: "BERT" }, isInfluential: true })
 * ```
 * @since 0.1.0
 */
import {
  Author,
  Autocomplete,
  Citation,
  Dataset,
  DatasetDiff,
  Paper,
  PaperAuthor,
  PaperRef,
  Reference,
  Release,
  Snippet
} from "@s2-effect/core"
import type { Schema as S } from "effect"
import * as Schema from "effect/Schema"

/**
 * Fields the client does not know yet: kept, and shown by `raw` and `keys()`.
 *
 * @category models
 * @since 0.1.0
 */
export interface Extra {
  readonly [field: string]: unknown
}

/**
 * A partial record on the wire: known fields typed, any other allowed.
 *
 * @category models
 * @since 0.1.0
 */
export type Input<A> = Partial<A> & Extra

/**
 * @category models
 * @since 0.1.0
 */
export type PaperInput = Input<S.Schema.Encoded<typeof Paper>>
/**
 * @category models
 * @since 0.1.0
 */
export type PaperRefInput = Input<S.Schema.Encoded<typeof PaperRef>>
/**
 * @category models
 * @since 0.1.0
 */
export type CitationInput = Input<Omit<S.Schema.Encoded<typeof Citation>, "citingPaper">> & {
  readonly citingPaper?: PaperRefInput
}
/**
 * @category models
 * @since 0.1.0
 */
export type ReferenceInput = Input<Omit<S.Schema.Encoded<typeof Reference>, "citedPaper">> & {
  readonly citedPaper?: PaperRefInput
}

/**
 * The decoded value with its keys in the order of the input, as the client's decoder leaves
 * records from the wire (Schema's own decoder puts unknown keys first).
 */
const inInputOrder = (input: unknown, decoded: unknown): unknown => {
  if (Array.isArray(input) && Array.isArray(decoded)) return decoded.map((item, i) => inInputOrder(input[i], item))
  if (typeof input !== "object" || input === null || typeof decoded !== "object" || decoded === null) return decoded
  const source = decoded as Record<string, unknown>
  const out = Object.create(Object.getPrototypeOf(decoded)) as Record<string, unknown>
  for (const key of Object.keys(input)) {
    if (key in source) out[key] = inInputOrder((input as Record<string, unknown>)[key], source[key])
  }
  for (const key of Object.keys(source)) if (!(key in out)) out[key] = source[key]
  return out
}

const decoder = <A, I>(schema: S.Schema<A, I>) => {
  const decode = Schema.decodeUnknownSync(schema, { onExcessProperty: "preserve" })
  return (input: unknown): A => inInputOrder(input, decode(input)) as A
}

/** A stable id from the other fields (FNV-1a, five rounds for 40 hex digits). */
const digest = (input: unknown): string => {
  const text = JSON.stringify(input) ?? ""
  let out = ""
  for (let round = 0; round < 5; round++) {
    let h = 0x811c9dc5 ^ round
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
    out += (h >>> 0).toString(16).padStart(8, "0")
  }
  return out
}

/** The record with `key` first, filled from the digest of the rest when absent. */
const withId = (key: string, fields: Extra, make: (hex: string) => unknown): Extra => ({
  [key]: key in fields ? fields[key] : make(digest(fields)),
  ...fields
})

const paperRefWire = (fields: PaperRefInput = {}) => withId("paperId", fields, (hex) => hex)

const decodePaper = decoder(Paper)
/**
 * A paper; `paperId` is filled in when absent.
 *
 * @category constructors
 * @since 0.1.0
 */
export const paper = (fields: PaperInput = {}): Paper => decodePaper(withId("paperId", fields, (hex) => hex))

const decodePaperRef = decoder(PaperRef)
/**
 * A paper inside another record (citing, cited, an author's paper).
 *
 * @category constructors
 * @since 0.1.0
 */
export const paperRef = (fields: PaperRefInput = {}): PaperRef => decodePaperRef(paperRefWire(fields))

const numericId = (hex: string) => String(parseInt(hex.slice(0, 8), 16))

const decodeAuthor = decoder(Author)
/**
 * An author; `authorId` is filled in when absent.
 *
 * @category constructors
 * @since 0.1.0
 */
export const author = (fields: Input<S.Schema.Encoded<typeof Author>> = {}): Author =>
  decodeAuthor(withId("authorId", fields, numericId))

const decodePaperAuthor = decoder(PaperAuthor)
/**
 * An author as listed on a paper (`getPaperAuthors`).
 *
 * @category constructors
 * @since 0.1.0
 */
export const paperAuthor = (fields: Input<S.Schema.Encoded<typeof PaperAuthor>> = {}): PaperAuthor =>
  decodePaperAuthor(withId("authorId", fields, numericId))

const decodeCitation = decoder(Citation)
/**
 * A citation: `citingPaper` is a partial paper too.
 *
 * @category constructors
 * @since 0.1.0
 */
export const citation = ({ citingPaper, ...fields }: CitationInput = {}): Citation =>
  decodeCitation({ ...fields, citingPaper: paperRefWire(citingPaper) })

const decodeReference = decoder(Reference)
/**
 * A reference: `citedPaper` is a partial paper too.
 *
 * @category constructors
 * @since 0.1.0
 */
export const reference = ({ citedPaper, ...fields }: ReferenceInput = {}): Reference =>
  decodeReference({ ...fields, citedPaper: paperRefWire(citedPaper) })

const decodeSnippet = decoder(Snippet)
/**
 * A snippet search result; `score` defaults to 1 and `paper` to `{}`.
 *
 * @category constructors
 * @since 0.1.0
 */
export const snippet = (fields: Input<S.Schema.Encoded<typeof Snippet>> = {}): Snippet =>
  decodeSnippet({ score: 1, paper: {}, ...fields })

const decodeAutocomplete = decoder(Autocomplete)
/**
 * A title completion; `id` is filled in when absent.
 *
 * @category constructors
 * @since 0.1.0
 */
export const autocomplete = (fields: Input<S.Schema.Encoded<typeof Autocomplete>> = {}): Autocomplete =>
  decodeAutocomplete(withId("id", fields, (hex) => hex))

const decodeRelease = decoder(Release)
/**
 * A dataset release; defaults `release_id` "2025-01-07", no datasets.
 *
 * @category constructors
 * @since 0.1.0
 */
export const release = (fields: Input<S.Schema.Encoded<typeof Release>> = {}): Release =>
  decodeRelease({ release_id: "2025-01-07", datasets: [], ...fields })

const decodeDataset = decoder(Dataset)
/**
 * A dataset's download links; defaults `name` "papers", no files.
 *
 * @category constructors
 * @since 0.1.0
 */
export const dataset = (fields: Input<S.Schema.Encoded<typeof Dataset>> = {}): Dataset =>
  decodeDataset({ name: "papers", files: [], ...fields })

const decodeDatasetDiff = decoder(DatasetDiff)
/**
 * The diffs between two releases; defaults dataset "papers", no diffs.
 *
 * @category constructors
 * @since 0.1.0
 */
export const datasetDiff = (fields: Input<S.Schema.Encoded<typeof DatasetDiff>> = {}): DatasetDiff =>
  decodeDatasetDiff({ dataset: "papers", start_release: "2025-01-07", end_release: "2025-01-14", diffs: [], ...fields })
