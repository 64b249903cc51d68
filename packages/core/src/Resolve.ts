/**
 * Resolving a reference list: DOIs, arXiv ids, URLs, S2 ids and free-text titles, one per input,
 * into papers, in a handful of requests. Ids go through the batch endpoint (one POST per 500
 * inputs), titles through title match (one GET each), and an input given twice is asked once.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import type * as Stream from "effect/Stream"
import type * as Fields from "./Fields.js"
import * as bibtex from "./internal/bibtex.js"
import * as internal from "./internal/resolve.js"
import { Paper } from "./Paper.js"
import type { S2Error } from "./S2Error.js"
import type { SemanticScholar } from "./SemanticScholar.js"

/**
 * An input that was resolved: the paper, and how — by `id` (the batch endpoint) or by `title`
 * (title match, with the server's `score`).
 *
 * @category models
 * @since 0.1.0
 */
export class Found extends Schema.TaggedClass<Found>()("Found", {
  input: Schema.String,
  paper: Paper,
  via: Schema.Literals(["id", "title"]),
  score: Schema.optional(Schema.Number)
}) {}

/**
 * Why an input was not resolved: `unknownId` (an id the batch endpoint answered `null` for),
 * `noTitleMatch` (title match found nothing) or `malformed` (an empty line, a control character,
 * a known id prefix with nothing after it).
 *
 * @category models
 * @since 0.1.0
 */
export const Reason = Schema.Literals(["unknownId", "noTitleMatch", "malformed"])

/**
 * @category models
 * @since 0.1.0
 */
export type Reason = typeof Reason.Type

/**
 * An input that was not resolved, as given, with the {@link Reason} and a sentence for people.
 *
 * @category models
 * @since 0.1.0
 */
export class NotFound extends Schema.TaggedClass<NotFound>()("NotFound", {
  input: Schema.String,
  notFound: Reason,
  message: Schema.String
}) {}

/**
 * One result per input: match on `_tag`.
 *
 * @category models
 * @since 0.1.0
 */
export type Result = Found | NotFound

/**
 * The schema of {@link Result}, e.g. to write results as JSON lines.
 *
 * @category models
 * @since 0.1.0
 */
export const Result = Schema.Union([Found, NotFound])

/**
 * Options of {@link references}.
 *
 * @category options
 * @since 0.1.0
 */
export interface ReferencesOptions {
  /**
   * The fields of each paper. Omitted: the paper summary set the client asks for in batches and
   * title matches ({@link Fields.paperList}), `citationStyles` (BibTeX) included.
   */
  readonly fields?: ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined
  /**
   * How many title matches run at once: a whole number ≥ 1, else the stream fails with
   * `BadQueryParameters` before any request. Default 4 (the client's rate limit still paces them).
   */
  readonly concurrency?: number | undefined
}

/**
 * What {@link recognise} makes of a line: `Id` (in the API's spelling), `Title` (white space
 * collapsed) or `Malformed` (with why).
 *
 * @category models
 * @since 0.1.0
 */
export type Recognised =
  | { readonly _tag: "Id"; readonly id: string }
  | { readonly _tag: "Title"; readonly title: string }
  | { readonly _tag: "Malformed"; readonly message: string }

/**
 * What an input line is: an id in the API's spelling (`DOI:…`, `ARXIV:…`, `CorpusId:…`, a 40-hex
 * S2 id, …; bare DOIs, `doi:` and `https://doi.org/…`, `arxiv.org/abs/…` and semanticscholar.org
 * paper URLs are rewritten), a title, or malformed. Exposed so a caller can show what it will ask.
 *
 * @example
 * ```ts
 * import { Resolve } from "@s2-effect/core"
 *
 * Resolve.recognise("https://doi.org/10.1093/mind/lix.236.433") // { _tag: "Id", id: "DOI:10.1093/mind/lix.236.433" }
 * Resolve.recognise("BERT: Pre-training of Deep Bidirectional Transformers") // { _tag: "Title", … }
 * ```
 * @category utils
 * @since 0.1.0
 */
export const recognise: (input: string) => Recognised = internal.recognise

/**
 * Resolves each input to a paper: a pulled `Stream` of one {@link Result} per input, in input
 * order. Inputs are read in chunks of 500: per chunk, one batch POST for the ids not asked before
 * and one title match per title not asked before (`concurrency` at once), so 1,000 ids cost two
 * requests. Each result comes as soon as it and those before it are known (a chunk's ids after its
 * batch, each title after its match), not with its whole chunk. An unknown id and a title without
 * a match are {@link NotFound} results, not failures;
 * any other error (rate limit exhausted, server down) fails the stream with its `S2Error`.
 * Memory: one chunk of inputs plus one outcome per distinct input (so repeats are never asked again).
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { Resolve, SemanticScholar } from "@s2-effect/core"
 *
 * const program = Effect.gen(function*() {
 *   const results = yield* Stream.runCollect(Resolve.references([
 *     "10.1093/mind/lix.236.433",
 *     "arXiv:1706.03762",
 *     "Construction of the Literature Graph in Semantic Scholar"
 *   ], { fields: ["title", "year"] }))
 *   return results.map((r) => r._tag === "Found" ? `${r.via}: ${r.paper.title}` : `missing: ${r.input}`)
 * })
 * const typed: Effect.Effect<ReadonlyArray<string>, unknown, SemanticScholar> = program
 * ```
 * @category constructors
 * @since 0.1.0
 */
export const references: (
  inputs: Iterable<string> | Stream.Stream<string, S2Error, SemanticScholar>,
  options?: ReferencesOptions
) => Stream.Stream<Result, S2Error, SemanticScholar> = internal.references

/**
 * A reference read from a .bib file: the entry's key and what to resolve it by.
 *
 * @category models
 * @since 0.1.0
 */
export interface BibtexReference {
  readonly key: string
  /** The entry's `doi`, else its arXiv `eprint` (`archivePrefix = arXiv`), else its title as plain text; "" when none. */
  readonly input: string
}

/**
 * Reads the references of a .bib text, in order, for {@link references}: each entry's `doi`, else
 * its `eprint` with `archivePrefix`/`eprinttype` arXiv, else its `title` (TeX accents as Unicode,
 * braces and other TeX commands dropped). `@comment`, `@preamble` and `@string` are skipped;
 * malformed text never throws, it ends the entry it is in (an entry with none of the three gives
 * "", a `malformed` result).
 *
 * @example
 * ```ts
 * import { Resolve } from "@s2-effect/core"
 *
 * const bib = `@article{turing50, title = {Computing Machinery and Intelligence}, doi = {10.1093/mind/lix.236.433}}
 * @misc{vaswani17, title = "Attention Is All You Need", eprint = {1706.03762}, archivePrefix = {arXiv}}`
 * const inputs = Resolve.fromBibtex(bib).map((r) => r.input)
 * // ["DOI:10.1093/mind/lix.236.433", "ARXIV:1706.03762"]
 * ```
 * @category constructors
 * @since 0.1.0
 */
export const fromBibtex = (text: string): ReadonlyArray<BibtexReference> =>
  bibtex.parse(text).map((entry) => ({ key: entry.key, input: bibtex.inputOf(entry) }))
