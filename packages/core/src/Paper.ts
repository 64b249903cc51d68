/**
 * Paper records, as the Graph API serves them. Every field but the id is optional (absent when not
 * asked for) and may be `null`; unknown fields are kept. Each record exposes `raw` (the wire JSON)
 * and `keys()` (the fields that came back).
 *
 * @since 1.0.0
 */
import * as Schema from "effect/Schema"
import { authorSummary, field, record } from "./internal/record.js"

/**
 * What every record has besides its fields: `raw` and `keys()`, written once for the ten record
 * classes.
 *
 * @category models
 * @since 1.0.0
 */
export interface WireRecord {
  /** The record as it came over the wire. */
  readonly raw: Readonly<Record<string, unknown>>
  /** The fields that came back. */
  keys(): ReadonlyArray<string>
}

/**
 * @category models
 * @since 1.0.0
 */
export const PublicationVenue = Schema.Struct({
  id: field(Schema.String),
  name: field(Schema.String),
  type: field(Schema.String),
  alternate_names: field(Schema.Array(Schema.String)),
  issn: field(Schema.String),
  alternate_issns: field(Schema.Array(Schema.String)),
  url: field(Schema.String),
  alternate_urls: field(Schema.Array(Schema.String))
})
/**
 * @category models
 * @since 1.0.0
 */
export type PublicationVenue = typeof PublicationVenue.Type

/**
 * @category models
 * @since 1.0.0
 */
export const Journal = Schema.Struct({
  name: field(Schema.String),
  volume: field(Schema.String),
  pages: field(Schema.String)
})
/**
 * @category models
 * @since 1.0.0
 */
export type Journal = typeof Journal.Type

/**
 * @category models
 * @since 1.0.0
 */
export const OpenAccessPdf = Schema.Struct({
  url: field(Schema.String),
  status: field(Schema.String),
  license: field(Schema.String),
  disclaimer: field(Schema.String)
})
/**
 * @category models
 * @since 1.0.0
 */
export type OpenAccessPdf = typeof OpenAccessPdf.Type

/**
 * @category models
 * @since 1.0.0
 */
export const Tldr = Schema.Struct({ model: field(Schema.String), text: field(Schema.String) })
/**
 * @category models
 * @since 1.0.0
 */
export type Tldr = typeof Tldr.Type

/**
 * An embedding; `vector` is an array of numbers on the wire.
 *
 * @category models
 * @since 1.0.0
 */
export const Embedding = Schema.Struct({ model: field(Schema.String), vector: field(Schema.Array(Schema.Number)) })
/**
 * @category models
 * @since 1.0.0
 */
export type Embedding = typeof Embedding.Type

/**
 * @category models
 * @since 1.0.0
 */
export const S2FieldOfStudy = Schema.Struct({ category: field(Schema.String), source: field(Schema.String) })
/**
 * @category models
 * @since 1.0.0
 */
export type S2FieldOfStudy = typeof S2FieldOfStudy.Type

/**
 * @category models
 * @since 1.0.0
 */
export const ExternalIds = Schema.Struct({
  ArXiv: field(Schema.String),
  MAG: field(Schema.String),
  ACL: field(Schema.String),
  PubMed: field(Schema.String),
  Medline: field(Schema.String),
  PubMedCentral: field(Schema.String),
  DBLP: field(Schema.String),
  DOI: field(Schema.String),
  CorpusId: field(Schema.Int)
})
/**
 * @category models
 * @since 1.0.0
 */
export type ExternalIds = typeof ExternalIds.Type

/**
 * An author as listed on a paper; `authorId` is `null` for authors the graph could not resolve.
 * `papers` comes back when asked for (`getPaperAuthors(id, { fields: ["papers.title"] })`).
 *
 * @category models
 * @since 1.0.0
 */
export class PaperAuthor extends record<PaperAuthor>("PaperAuthor")({
  authorId: Schema.NullOr(Schema.String),
  ...authorSummary,
  // Suspended: a paper lists its authors, who list their papers.
  papers: field(Schema.Array(Schema.suspend((): Schema.Codec<PaperRef, PaperRefEncoded> => PaperRef)))
}) {}

/**
 * The wire form of a {@link PaperRef}, written out because a paper's authors and an author's papers
 * refer to each other.
 *
 * @category models
 * @since 1.0.0
 */
export interface PaperRefEncoded extends Schema.Struct.Encoded<typeof summaryNoAuthors> {
  readonly paperId: string | null
  readonly authors?: ReadonlyArray<typeof PaperAuthor.Encoded> | null | undefined
}

const summaryNoAuthors = {
  corpusId: field(Schema.Int),
  externalIds: field(ExternalIds),
  url: field(Schema.String),
  title: field(Schema.String),
  abstract: field(Schema.String),
  venue: field(Schema.String),
  publicationVenue: field(PublicationVenue),
  year: field(Schema.Int),
  referenceCount: field(Schema.Int),
  citationCount: field(Schema.Int),
  influentialCitationCount: field(Schema.Int),
  isOpenAccess: field(Schema.Boolean),
  openAccessPdf: field(OpenAccessPdf),
  fieldsOfStudy: field(Schema.Array(Schema.String)),
  s2FieldsOfStudy: field(Schema.Array(S2FieldOfStudy)),
  publicationTypes: field(Schema.Array(Schema.String)),
  publicationDate: field(Schema.String),
  journal: field(Journal),
  citationStyles: field(Schema.Struct({ bibtex: field(Schema.String) }))
}

const summary = { ...summaryNoAuthors, authors: field(Schema.Array(PaperAuthor)) }

/**
 * A paper inside another record: a citing or cited paper, an author's paper, an entry of a paper's
 * `citations`. `paperId` is `null` for a paper the graph could not resolve (it may still have a
 * `title`).
 *
 * @category models
 * @since 1.0.0
 */
export class PaperRef extends record<PaperRef>("PaperRef")({
  paperId: Schema.NullOr(Schema.String),
  ...summary
}) {}

/**
 * A paper.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * const program = Effect.gen(function*() {
 *   const s2 = yield* SemanticScholar
 *   const paper = yield* s2.getPaper("DOI:10.1093/mind/lix.236.433", { fields: ["title", "year"] })
 *   return `${paper.title} (${paper.year})`
 * })
 * ```
 * @category models
 * @since 1.0.0
 */
export class Paper extends record<Paper>("Paper")({
  paperId: Schema.String,
  ...summary,
  citations: field(Schema.Array(PaperRef)),
  references: field(Schema.Array(PaperRef)),
  embedding: field(Embedding),
  tldr: field(Tldr),
  textAvailability: field(Schema.String),
  /** Present on title-match results: how well the title matched. */
  matchScore: Schema.optional(Schema.Number)
}) {}

/**
 * A paper as it came over the wire: what a bulk search with `wire: true` hands over. Checked
 * against {@link Paper}'s schema as a `Paper` is, but a plain object: its fields, its nested
 * records likewise, and any field this client does not know, with no `raw` or `keys()`.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { SemanticScholar, type PaperWire } from "@s2-effect/core"
 *
 * const lines = Stream.unwrap(Effect.map(SemanticScholar, (s2) =>
 *   s2.searchPaper("graph", { bulk: true, wire: true, fields: ["title", "year"] }))).pipe(
 *     Stream.map((paper: PaperWire) => JSON.stringify(paper))
 *   )
 * ```
 * @category models
 * @since 1.3.0
 */
export type PaperWire = typeof Paper.Encoded
