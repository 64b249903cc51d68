/**
 * Verifying a reference list: whether each reference (a .bib entry, or a line naming an id or a
 * title) is a paper Semantic Scholar knows, and where the paper disagrees with what the reference
 * says. Built on `Resolve.references` (ids in batches, titles in grouped searches, every title
 * checked with `TitleMatch`), so verifying costs the requests resolving does.
 *
 * @since 1.1.0
 */
import type { Fields, S2Error, SemanticScholar } from "@s2-effect/core"
import type * as Result from "effect/Result"
import type * as Stream from "effect/Stream"
import * as Citable from "./Citable.js"
import * as decoding from "./internal/decode.js"
import * as reading from "./internal/read.js"
import * as internal from "./internal/verify.js"
import * as write from "./internal/verifyWrite.js"
import type * as ReferenceInput from "./ReferenceInput.js"
import type { Unreadable } from "./Unreadable.js"
import type { Verification, Written } from "./Verification.js"

export { Unreadable } from "./Unreadable.js"

export { differ, Difference, Field, Status, Verification, Written } from "./Verification.js"

/**
 * A .bib entry to verify.
 *
 * @category models
 * @since 1.1.0
 * @deprecated Use `ReferenceInput.Entry`, the one name of a reference's entry in either job.
 */
export type Entry = ReferenceInput.Entry

/**
 * A line of a reference list to verify, with its key.
 *
 * @category models
 * @since 1.1.0
 * @deprecated Use `ReferenceInput.Line`.
 */
export type Line = ReferenceInput.Line

/**
 * One input of {@link references}.
 *
 * @category models
 * @since 1.1.0
 * @deprecated Use `ReferenceInput.ReferenceInput`, the one name of a reference to resolve or verify.
 */
export type Input = ReferenceInput.ReferenceInput

/**
 * Options of {@link references}.
 *
 * @category options
 * @since 1.1.0
 */
export interface ReferencesOptions {
  /**
   * More fields of each paper, asked for with those the checks and the citation writers need
   * ({@link fields}).
   */
  readonly fields?: ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined
  /** As `Resolve.ReferencesOptions.concurrency`: searches and title matches at once (default 4). */
  readonly concurrency?: number | undefined
}

/**
 * The fields every paper is asked with: `Citable.fields`, what a citation is written from (title,
 * authors, year, venue, journal, external ids… : all the checks compare).
 *
 * @category constants
 * @since 1.1.0
 */
export const fields: ReadonlyArray<Fields.PaperField> = internal.fields

/**
 * Verifies each reference: a pulled `Stream` of one {@link Verification} per input, in input order.
 * An input is a `ReferenceInput`: a line, a `Line`, an `Entry`, or a `Query` (looked up by its
 * `input`, its `title`, when given, compared as an entry's is).
 *
 * A .bib entry is looked up as `Resolve.references` resolves it: by its `doi`, else its arXiv
 * `eprint`, else its `title`. An entry found by an id whose paper has another title, or whose id is
 * unknown, is looked up by its title too: a paper with that title is the reference (its id then
 * `differs`); else the id's paper is a `mismatch` with `title` differing, or the entry is
 * `notFound`. The paper found is then compared with the entry's title, year, first author, venue,
 * DOI and arXiv id ({@link Field}). Venues are compared forgivingly: after dropping the words
 * venues are named with or without (proceedings, conference, international, annual, IEEE, ACM,
 * ordinals, years, stop words), one name's words must be, in order, prefixes of the other's
 * ("J. Mach. Learn. Res.", "Advances in Neural Information Processing Systems" for "Neural
 * Information Processing Systems"), or one must be the initials of the other ("ICML"), against any
 * name the paper's venue goes by (its alternate names included). A line is verified when it is found.
 *
 * Requests: as `Resolve.references` over the inputs in chunks of 500 (one batch POST for the ids,
 * grouped bulk searches for the titles, title match for those left open), plus one such pass for
 * the titles of the entries whose id failed. A failure other than a reference's own (rate limit
 * exhausted, server down) fails the stream with its `S2Error`.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { Verify } from "@s2-effect/jobs"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * const bib = `@article{turing50, title = {Computing Machinery and Intelligence}, author = {Turing, Alan},
 *   year = {1950}, doi = {10.1093/mind/lix.236.433}}`
 * const program = Effect.gen(function*() {
 *   const checked = yield* Stream.runCollect(Verify.references(Verify.fromBibtex(bib)))
 *   return checked.map((v) => `${v.key}: ${v.status} ${v.differs.join(", ")}`)
 * })
 * const typed: Effect.Effect<ReadonlyArray<string>, unknown, SemanticScholar> = program
 * ```
 * @category constructors
 * @since 1.1.0
 */
export const references: (
  inputs:
    | Iterable<ReferenceInput.ReferenceInput>
    | Stream.Stream<ReferenceInput.ReferenceInput, S2Error, SemanticScholar>,
  options?: ReferencesOptions
) => Stream.Stream<Verification, S2Error, SemanticScholar> = internal.references

/**
 * The entries of a .bib text, in order, for {@link references}: each with its key, fields and
 * line (`@string` macros expanded; `@comment`, `@preamble` and `@string` skipped). An entry whose
 * braces do not balance ends at the next line that starts an entry and has a `problem`. A field
 * written twice is read as BibTeX reads it, its first value kept; with different values the entry
 * has a `problem` (BibTeX prints the first, whatever the second says), with the same value a
 * warning in `warnings`. So is a key an entry before it has (compared without case): BibTeX prints
 * that entry and drops this one ("Repeated entry").
 *
 * @category constructors
 * @since 1.1.0
 */
export const fromBibtex: (text: string) => ReadonlyArray<ReferenceInput.Entry> = reading.fromBibtex

/**
 * The forms {@link read} tells apart: `bibtex`, `ris`, `csl-json`, `formatted` (references as a
 * paper prints them) and `lines` (an id or a title per line).
 *
 * @category models
 * @since 1.2.0
 */
export type Format = "bibtex" | "ris" | "csl-json" | "formatted" | "lines"

/**
 * What {@link read} made of a text: its format, and its inputs for {@link references}, in order.
 *
 * @category models
 * @since 1.2.0
 */
export interface ReadResult {
  readonly format: Format
  readonly inputs: ReadonlyArray<ReferenceInput.ReferenceInput>
}

/**
 * A reference list in any form people keep one, told by its content (a file's name is never
 * asked, so standard input reads as the file would), into `ReferenceInput`s:
 *
 * - `bibtex`: a line starts an entry (`@article{`), wherever it is (Mendeley's export starts with
 *   prose): the entries of {@link fromBibtex}.
 * - `csl-json`: JSON whose items (an array, or one item) each have a `type`, `title`, `DOI` or `id`.
 * - `ris`: a `TY  - ` line; a record per `TY`…`ER`.
 * - `formatted`: references as a paper prints them, in APA, Harvard, IEEE, ACM, Vancouver, Chicago
 *   or MLA style, numbered (`[1]`, `1.`) or not, wrapped over lines or separated by blank lines:
 *   told by years, author lists, quotes, pages and numbering on most of them; each is split by a
 *   heuristic into authors, title, year, venue, volume, issue and pages.
 * - `lines`: anything else, an id or a title per line (blank and `#` lines skipped).
 *
 * Every format's entries have BibTeX's field names and conventions (`author` as "Family, Given and
 * …", `others` for et al., `doi`, `eprint` with `archiveprefix`, `pages` as `1--9`); an id in a
 * reference (a DOI, an arXiv id, a link) is read by `PaperId.recognise` into `doi`, `eprint` or
 * `url`, and a line that is an id is passed in the API's spelling. A text with no reference in it
 * (empty, HTML, XML, JSON that is not CSL-JSON, BibTeX with only macros, binary data) fails with an
 * {@link Unreadable} that says what it looks like.
 *
 * @example
 * ```ts
 * import { Result } from "effect"
 * import { Verify } from "@s2-effect/jobs"
 *
 * const read = Verify.read("[1] A. Vaswani et al., “Attention is all you need,” in Proc. NeurIPS, 2017.")
 * if (Result.isSuccess(read)) console.log(read.success.format, read.success.inputs.length) // formatted 1
 * ```
 * @category constructors
 * @since 1.2.0
 */
export const read: (text: string) => Result.Result<ReadResult, Unreadable> = reading.read

/**
 * The text of a reference file's bytes: UTF-8 (its byte-order mark dropped), UTF-16 with a
 * byte-order mark (as Windows editors and some exporters save a .bib), or UTF-16 without one when
 * its start reads so; bytes that are neither (binary data, Latin-1) fail with an {@link Unreadable}
 * of reason `Encoding` that names what they look like and where UTF-8 failed.
 *
 * @example
 * ```ts
 * import { Result } from "effect"
 * import { Verify } from "@s2-effect/jobs"
 *
 * const bytes = new Uint8Array([0xff, 0xfe, 0x40, 0x00]) // "@" in UTF-16 with its byte-order mark
 * const text = Verify.decode(bytes) // Result.succeed("@")
 * ```
 * @category constructors
 * @since 1.2.0
 */
export const decode: (bytes: Uint8Array) => Result.Result<string, Unreadable> = decoding.decode

/**
 * What a verification is written as, the correction policy shared by `s2 verify` and the
 * assistant's `verify_references`:
 * - `record`: the `Citable.Item` to write from Semantic Scholar's record, under the user's key
 *   with their own fields (note, keywords, abstract…) kept: a verified reference, and a mismatch
 *   unless both its title and its authors differ ({@link bibtexWriter} writes a verified .bib entry
 *   as the user wrote it instead);
 * - `written`: the entry as the user wrote it: a mismatch whose title and authors both differ (the
 *   record, found by an id, may be another work); an entry not found or unchecked;
 * - `none`: a line (no entry) not found, unchecked, or such a mismatch: nothing to write.
 *
 * @category models
 * @since 1.1.0
 */
export type Correction =
  | { readonly _tag: "record"; readonly item: Citable.Item }
  | { readonly _tag: "written"; readonly entry: Written }
  | { readonly _tag: "none" }

/**
 * The {@link Correction} of a verification.
 *
 * @category utils
 * @since 1.1.0
 */
export const correction: (verification: Verification) => Correction = write.correction

/**
 * A BibTeX writer of verifications that writes every entry, so that the document still compiles
 * and no `\cite` key disappears: a verified entry as the user wrote it (type, key and fields); a
 * mismatch corrected from the record (`Citable.bibtexWriter`, the user's key and own fields kept)
 * after `%` comment lines with what differs and the user's values it replaced; an entry not
 * found, unchecked, or whose title and authors both differ, as written after a `%` line saying so.
 * A line without an entry is written from the record when verified or corrected, else as a `%`
 * line. Comments never hold an `@` (BibTeX would read an entry there). `options.keys`: every key of
 * the file (`Citable.WriterOptions`), so that a renamed duplicate never takes a key the user wrote.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { Verify } from "@s2-effect/jobs"
 *
 * const bib = "@article{k, title = {Computing Machinery and Intelligence}, author = {Turing, A. M.}, year = {1950}}"
 * const program = Effect.gen(function*() {
 *   const writer = Verify.bibtexWriter()
 *   const checked = yield* Stream.runCollect(Verify.references(Verify.fromBibtex(bib)))
 *   return checked.map(writer.write).join("\n")
 * })
 * ```
 * @category writers
 * @since 1.1.0
 */
export const bibtexWriter = (
  options?: Citable.WriterOptions
): { readonly write: (verification: Verification) => string } => write.bibtexWriter(Citable.bibtexWriter(options))
