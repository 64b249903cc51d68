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
 * @since 1.0.0
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
import type * as Schema from "effect/Schema"
import * as internal from "./internal/fixtures.js"

/**
 * Fields the client does not know yet: kept, and shown by `raw` and `keys()`.
 *
 * @category models
 * @since 1.0.0
 */
export interface Extra {
  readonly [field: string]: unknown
}

/**
 * A partial record on the wire: known fields typed, any other allowed.
 *
 * @category models
 * @since 1.0.0
 */
export type Input<A> = Partial<A> & Extra

/**
 * @category models
 * @since 1.0.0
 */
export type PaperInput = Input<Schema.Codec.Encoded<typeof Paper>>
/**
 * @category models
 * @since 1.0.0
 */
export type PaperRefInput = Input<Schema.Codec.Encoded<typeof PaperRef>>
/**
 * @category models
 * @since 1.0.0
 */
export type CitationInput = Input<Omit<Schema.Codec.Encoded<typeof Citation>, "citingPaper">> & {
  readonly citingPaper?: PaperRefInput
}
/**
 * @category models
 * @since 1.0.0
 */
export type ReferenceInput = Input<Omit<Schema.Codec.Encoded<typeof Reference>, "citedPaper">> & {
  readonly citedPaper?: PaperRefInput
}

const decodePaper = internal.decoder(Paper)
/**
 * A paper; `paperId` is filled in when absent.
 *
 * @category constructors
 * @since 1.0.0
 */
export const paper = (fields: PaperInput = {}): Paper => decodePaper(internal.withId("paperId", fields, (hex) => hex))

const decodePaperRef = internal.decoder(PaperRef)
/**
 * A paper inside another record (citing, cited, an author's paper).
 *
 * @category constructors
 * @since 1.0.0
 */
export const paperRef = (fields: PaperRefInput = {}): PaperRef => decodePaperRef(internal.paperRefWire(fields))

const decodeAuthor = internal.decoder(Author)
/**
 * An author; `authorId` is filled in when absent.
 *
 * @category constructors
 * @since 1.0.0
 */
export const author = (fields: Input<Schema.Codec.Encoded<typeof Author>> = {}): Author =>
  decodeAuthor(internal.withId("authorId", fields, internal.numericId))

const decodePaperAuthor = internal.decoder(PaperAuthor)
/**
 * An author as listed on a paper (`getPaperAuthors`).
 *
 * @category constructors
 * @since 1.0.0
 */
export const paperAuthor = (fields: Input<Schema.Codec.Encoded<typeof PaperAuthor>> = {}): PaperAuthor =>
  decodePaperAuthor(internal.withId("authorId", fields, internal.numericId))

const decodeCitation = internal.decoder(Citation)
/**
 * A citation: `citingPaper` is a partial paper too.
 *
 * @category constructors
 * @since 1.0.0
 */
export const citation = ({ citingPaper, ...fields }: CitationInput = {}): Citation =>
  decodeCitation({ ...fields, citingPaper: internal.paperRefWire(citingPaper) })

const decodeReference = internal.decoder(Reference)
/**
 * A reference: `citedPaper` is a partial paper too.
 *
 * @category constructors
 * @since 1.0.0
 */
export const reference = ({ citedPaper, ...fields }: ReferenceInput = {}): Reference =>
  decodeReference({ ...fields, citedPaper: internal.paperRefWire(citedPaper) })

const decodeSnippet = internal.decoder(Snippet)
/**
 * A snippet search result; `score` defaults to 1 and `paper` to `{}`.
 *
 * @category constructors
 * @since 1.0.0
 */
export const snippet = (fields: Input<Schema.Codec.Encoded<typeof Snippet>> = {}): Snippet =>
  decodeSnippet({ score: 1, paper: {}, ...fields })

const decodeAutocomplete = internal.decoder(Autocomplete)
/**
 * A title completion; `id` is filled in when absent.
 *
 * @category constructors
 * @since 1.0.0
 */
export const autocomplete = (fields: Input<Schema.Codec.Encoded<typeof Autocomplete>> = {}): Autocomplete =>
  decodeAutocomplete(internal.withId("id", fields, (hex) => hex))

const decodeRelease = internal.decoder(Release)
/**
 * A dataset release; defaults `release_id` "2025-01-07", no datasets.
 *
 * @category constructors
 * @since 1.0.0
 */
export const release = (fields: Input<Schema.Codec.Encoded<typeof Release>> = {}): Release =>
  decodeRelease({ release_id: "2025-01-07", datasets: [], ...fields })

const decodeDataset = internal.decoder(Dataset)
/**
 * A dataset's download links; defaults `name` "papers", no files.
 *
 * @category constructors
 * @since 1.0.0
 */
export const dataset = (fields: Input<Schema.Codec.Encoded<typeof Dataset>> = {}): Dataset =>
  decodeDataset({ name: "papers", files: [], ...fields })

const decodeDatasetDiff = internal.decoder(DatasetDiff)
/**
 * The diffs between two releases; defaults dataset "papers", no diffs.
 *
 * @category constructors
 * @since 1.0.0
 */
export const datasetDiff = (fields: Input<Schema.Codec.Encoded<typeof DatasetDiff>> = {}): DatasetDiff =>
  decodeDatasetDiff({ dataset: "papers", start_release: "2025-01-07", end_release: "2025-01-14", diffs: [], ...fields })
