/**
 * Resolving a reference list: DOIs, arXiv ids, URLs, S2 ids and free-text titles, one per input,
 * into papers, in a handful of requests. Titles go to bulk search in groups (one GET settles dozens),
 * those left open to title match (one GET each); ids and the papers found go through the batch
 * endpoint (one POST per 500 inputs); an input given twice is asked once. A paper is taken for a
 * title only when its title is the same title (`TitleMatch.compare`).
 *
 * @since 1.0.0
 */
import type { Fields, S2Error, SemanticScholar } from "@s2-effect/core"
import { PaperId } from "@s2-effect/core"
import type * as Stream from "effect/Stream"
import * as internal from "./internal/resolve.js"
import type * as ReferenceInput from "./ReferenceInput.js"
import type { Result } from "./ResolveResult.js"

export { Found, Mismatch, NotFound, Reason, Result } from "./ResolveResult.js"

/**
 * One input of {@link references}: a `ReferenceInput`.
 *
 * @category models
 * @since 1.0.0
 * @deprecated Use `ReferenceInput.ReferenceInput`, the one name of a reference to resolve or verify.
 */
export type Input = ReferenceInput.ReferenceInput

/**
 * Options of {@link references}.
 *
 * @category options
 * @since 1.0.0
 */
export interface ReferencesOptions {
  /**
   * The fields of each paper. Omitted: the paper summary set the client asks for in batches and
   * title matches ({@link Fields.paperList}), `citationStyles` (BibTeX) included. `title` is
   * always asked for: every match is checked by it.
   */
  readonly fields?: ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined
  /**
   * How many bulk searches or title matches run at once: a whole number ≥ 1, else the stream fails
   * with `BadQueryParameters` before any request. Default 4 (the client's rate limit still paces them).
   */
  readonly concurrency?: number | undefined
}

/**
 * What {@link recognise} makes of a line: `Id` (in the API's spelling), `Title` (white space
 * collapsed) or `Malformed` (with why). The same as core's `PaperId.Recognised`.
 *
 * @category models
 * @since 1.0.0
 */
export type Recognised = PaperId.Recognised

/**
 * What an input line is: an id in the API's spelling (`DOI:…`, `ARXIV:…`, `CorpusId:…`, a 40-hex
 * S2 id, …; bare DOIs, `doi:` and `https://doi.org/…`, `arxiv.org/abs/…` and semanticscholar.org
 * paper URLs are rewritten), a title, or malformed. Core's `PaperId.recognise`, here because it is
 * what {@link references} reads each input with.
 *
 * @example
 * ```ts
 * import { Resolve } from "@s2-effect/jobs"
 *
 * Resolve.recognise("https://doi.org/10.1093/mind/lix.236.433") // { _tag: "Id", id: "DOI:10.1093/mind/lix.236.433" }
 * Resolve.recognise("BERT: Pre-training of Deep Bidirectional Transformers") // { _tag: "Title", … }
 * ```
 * @category utils
 * @since 1.0.0
 */
export const recognise: (input: string) => Recognised = PaperId.recognise

/**
 * Resolves each input to a paper: a pulled `Stream` of one {@link Result} per input, in input
 * order. An input is a `ReferenceInput`: a line (an id or a title), a `Line` (its text), an `Entry`
 * (by its `doi`, else its arXiv `eprint`, else its `title`; the title checked when it is found by an
 * id; an entry with a `problem` is `malformed`) or a `Query`. Inputs are read in chunks of 500. Per chunk, the titles not asked before go to bulk search
 * in groups (their quoted titles ORed, at most 4,000 URL-encoded bytes a query; titles of fewer than
 * three content words skip it); then one batch POST fetches the ids not asked before and the papers
 * the searches found; then each title still open goes to title match (`concurrency` at once). So
 * 1,000 ids cost two requests, and a few hundred titles a dozen. Every paper found for a title is
 * checked with `TitleMatch.compare`: another title is {@link NotFound} naming the `nearest`.
 * Each result comes as soon as it and those before it are known, not with its whole chunk.
 * An unknown id, a title without a match, a title too long to send or one the server refuses
 * (400, 414) are {@link NotFound} results about that input alone, not failures; any other error
 * (rate limit exhausted, server down) fails the stream with its `S2Error`. A group the server
 * refuses is asked title by title.
 * Memory: one chunk of inputs plus one outcome per distinct input (so repeats are never asked again).
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { Resolve } from "@s2-effect/jobs"
 * import { SemanticScholar } from "@s2-effect/core"
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
 * @since 1.0.0
 */
export const references: (
  inputs:
    | Iterable<ReferenceInput.ReferenceInput>
    | Stream.Stream<ReferenceInput.ReferenceInput, S2Error, SemanticScholar>,
  options?: ReferencesOptions
) => Stream.Stream<Result, S2Error, SemanticScholar> = internal.references

/**
 * A reference read from a .bib file: a `ReferenceInput.Query` with its key and line.
 *
 * @category models
 * @since 1.0.0
 * @deprecated Use `ReferenceInput.Query`, which {@link fromBibtex} gives with `key` and `line`.
 */
export type BibtexReference = ReferenceInput.Query & { readonly key: string; readonly line: number }

/**
 * Reads the references of a .bib text, in order, for {@link references}: each entry's `doi`, else
 * its `eprint` when it is an arXiv id (`archivePrefix`/`eprinttype` arXiv, or `arXiv:` before the
 * id), else its `title` (TeX accents, special and Greek letters as Unicode, braces and other TeX
 * commands dropped); `@string` macros are expanded. `@comment`, `@preamble` and `@string` are
 * skipped. Malformed text never throws: an entry whose braces do not balance ends at the next line
 * that starts an entry (it has a `problem`, the entries after it are read as usual), so does an
 * entry whose macros would make a value more than 10,000 characters longer than it is written (or
 * add more than 1,000,000 to the file's values in all), and an entry with none of the three gives
 * "", a `malformed` result.
 *
 * @example
 * ```ts
 * import { Resolve } from "@s2-effect/jobs"
 *
 * const bib = `@article{turing50, title = {Computing Machinery and Intelligence}, doi = {10.1093/mind/lix.236.433}}
 * @misc{vaswani17, title = "Attention Is All You Need", eprint = {arXiv:1706.03762}}`
 * const inputs = Resolve.fromBibtex(bib).map((r) => r.input)
 * // ["DOI:10.1093/mind/lix.236.433", "ARXIV:1706.03762"]
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const fromBibtex: (
  text: string
) => ReadonlyArray<ReferenceInput.Query & { readonly key: string; readonly line: number }> = internal.fromBibtex
