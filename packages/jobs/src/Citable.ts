/**
 * What a user cites, written from a paper record's fields: BibTeX, CSL-JSON and RIS. The server's
 * `citationStyles.bibtex` text is never passed on: its entries do not always compile (`&` in a
 * journal name, non-ASCII keys), a lowercasing style loses "ChatGPT", and a `\}` in a field can
 * close it early and define a second entry under the user's key.
 *
 * - **BibTeX**: the entry type from the publication types and venue (`@article` with `journal`,
 *   `@inproceedings` with `booktitle`, an arXiv preprint `@misc` with `eprint` and
 *   `archivePrefix`), `author` as `Family, Given and …`, `year`, `volume`, `number`, `pages`,
 *   `doi` (else `url`, the paper's Semantic Scholar page). Text is ASCII LaTeX wherever a command
 *   typesets with pdfLaTeX and T1 (`{\'e}`, `{$\alpha$}`, `\&`); characters without one (CJK,
 *   Arabic, Cyrillic, emoji) stay UTF-8. Capitals in titles are braced so lowercasing styles keep
 *   them. Every value's braces balance and every value is on one line: nothing in the record can
 *   close a field or open an entry.
 * - **CSL-JSON**: items as Zotero, pandoc and citeproc-js read them (`article-journal`,
 *   `paper-conference`, `article` for preprints with the server as `publisher` and `arXiv:…` as
 *   `number`).
 * - **RIS**: `TY`, `AU`, `TI`, `T2`/`JO`, `PY`, `DA`, `VL`, `IS`, `SP`/`EP`, `DO`, `UR`, `ER`, for
 *   EndNote, Mendeley and Zotero.
 *
 * Keys (BibTeX keys, CSL `id`s, RIS `ID`s) are the user's own when given, else made from the first
 * author's family name, the year and the title's first word (`vaswani2017attention`, ASCII), and
 * unique within one writer's run (an `a`, `b`… suffix, compared without case). A key the user wrote
 * is never changed nor given to another entry: only the second entry of a key written twice is
 * renamed (in BibTeX, a `%` line before it says so), and a made or renamed key skips every key the
 * user wrote.
 *
 * @since 1.0.0
 */
import type { Fields } from "@s2-effect/core"
import { Paper } from "@s2-effect/core"
import * as bib from "./internal/citable/bibtex.js"
import * as carried from "./internal/citable/carried.js"
import * as csl from "./internal/citable/csl.js"
import * as internalKeys from "./internal/citable/keys.js"
import * as risRecords from "./internal/citable/ris.js"

/**
 * A paper to write, with the user's own `key` (kept as written, as BibTeX reads it; only what cannot
 * be in a .bib key — whitespace, `,{}@`, controls — is dropped, with a `%` line saying so) and, for BibTeX, their `extra` fields (all of a .bib
 * entry's fields may be given): each is written, its value as written when its braces balance
 * (else as text), unless the paper's record has it. The record's values replace the user's
 * `author`, `title`, `year`, `volume`, `number`, `pages`, `doi` and `eprint` when it has them, and
 * a field saying the same under another name (`journal`, `booktitle`, `journaltitle` and
 * `howpublished` for the container, `date` for the year, `issue` for the number, `eprinttype` and
 * `archiveprefix` for the eprint; `month` when the year changes, `primaryclass` when the eprint
 * does). A field the record lacks (no authors, no year, `publisher`, `isbn`, `note`…) keeps the
 * user's value, and the user's `url` is kept over the Semantic Scholar page. A `%` line before the
 * entry names every field of the user's that is not written, and why.
 *
 * @category models
 * @since 1.0.0
 */
export interface Item {
  readonly paper: Paper
  readonly key?: string | undefined
  readonly extra?: Readonly<Record<string, string>> | undefined
  /**
   * The user's own entry type (`inproceedings`, `article`, `book`…), when they gave one: a paper the
   * record does not type is written as it says (`@inproceedings` with `booktitle`, CSL
   * `paper-conference`, RIS `CPAPER`), unless the record's venue is a journal.
   */
  readonly type?: string | undefined
}

/**
 * The fields the writers read: ask for these (`fields: Citable.fields`) when fetching papers to
 * cite; a field left out is a field the entry goes without.
 *
 * @category models
 * @since 1.0.0
 */
export const fields: ReadonlyArray<Fields.PaperSummaryField> = [
  "title",
  "authors",
  "year",
  "publicationDate",
  "venue",
  "publicationVenue",
  "journal",
  "publicationTypes",
  "externalIds",
  "url"
]

/**
 * What the writers take: a paper, or an {@link Item}.
 *
 * @category models
 * @since 1.0.0
 */
export type Input = Paper | Item

/**
 * A name in a {@link CslItem}: the particle ("von", "van der") kept with the family name in display.
 *
 * @category models
 * @since 1.0.0
 */
export interface CslName {
  readonly family?: string
  readonly given?: string
  readonly "non-dropping-particle"?: string
  readonly suffix?: string
}

/**
 * A CSL-JSON item, as {@link cslJson} writes it: only the variables that have a value. `URL` is
 * the paper's Semantic Scholar page when there is no `DOI`; a preprint has its server as
 * `publisher` and `arXiv:…` as `number`, as Zotero writes one.
 *
 * @category models
 * @since 1.0.0
 */
export interface CslItem {
  readonly id: string
  readonly type: "article-journal" | "paper-conference" | "book" | "article"
  readonly title?: string
  readonly author?: ReadonlyArray<CslName>
  readonly issued?: { readonly "date-parts": ReadonlyArray<ReadonlyArray<number>> }
  readonly "container-title"?: string
  readonly volume?: string
  readonly issue?: string
  readonly page?: string
  readonly DOI?: string
  readonly URL?: string
  readonly publisher?: string
  readonly number?: string
  /** From the user's own fields (`isbn`, `issn`, `abstract`, `keywords`, `note`, `annote`, `address`, `edition`, `series`, `language`). */
  readonly ISBN?: string
  readonly ISSN?: string
  readonly abstract?: string
  readonly keyword?: string
  readonly note?: string
  readonly annote?: string
  readonly "publisher-place"?: string
  readonly edition?: string
  readonly "collection-title"?: string
  readonly language?: string
}

/**
 * A writer for one output: `write` gives one paper's entry (BibTeX entry, CSL item, RIS record),
 * with a key unique among those it wrote before. For streams, where the papers come one by one.
 *
 * @category models
 * @since 1.0.0
 */
export interface Writer<A> {
  readonly write: (input: Input) => A
}

/**
 * How a writer is made. `keys`: every key the user wrote, of the entries still to come too: none of
 * them is given to another entry (a made key, or the renamed second entry of a key written twice).
 * Without it, only the keys of the entries written so far are known, and a user's key that comes
 * later may already have been given to another entry. The batch functions ({@link bibtex},
 * {@link cslJson}, {@link ris}) reserve their inputs' keys themselves.
 *
 * @category models
 * @since 1.1.0
 */
export interface WriterOptions {
  readonly keys?: Iterable<string> | undefined
}

// `instanceof`, not a look at the fields: a record keeps fields it does not know, `paper` among them.
const itemOf = (input: Input): Item => input instanceof Paper ? { paper: input } : input

const writer = <A>(one: (item: Item, keys: internalKeys.Keys) => A) => (options?: WriterOptions): Writer<A> => {
  const keys = internalKeys.keys(options?.keys)
  return { write: (input) => one(itemOf(input), keys) }
}

/** The items of a batch, and a writer that keeps every key their user wrote for them. */
const batch = <A>(make: (options?: WriterOptions) => Writer<A>, inputs: Iterable<Input>) => {
  const items = Array.from(inputs, itemOf)
  const w = make({ keys: items.flatMap((item) => item.key === undefined ? [] : [item.key]) })
  return items.map(w.write)
}

/**
 * A BibTeX writer: each entry ends with a newline.
 *
 * @category writers
 * @since 1.0.0
 */
export const bibtexWriter: (options?: WriterOptions) => Writer<string> = writer(bib.entry)

/**
 * A CSL-JSON writer: one item per paper.
 *
 * @category writers
 * @since 1.0.0
 */
export const cslJsonWriter: (options?: WriterOptions) => Writer<CslItem> = writer(csl.item)

/**
 * A RIS writer: one record per paper, lines ending in CR LF.
 *
 * @category writers
 * @since 1.0.0
 */
export const risWriter: (options?: WriterOptions) => Writer<string> = writer(risRecords.record)

/**
 * What writing an item as CSL-JSON or RIS does to the user's own fields (`extra`), one line each,
 * to show them beside the output: the fields Semantic Scholar's values replaced where they differ,
 * and those the format has no place for (a .bib's `file`, `editor`, `groups`…), which are not
 * written. Empty when every field of theirs is written. CSL-JSON and RIS take the user's `isbn`,
 * `issn`, `abstract`, `keywords`, `note`, `annote`, `address` (or `location`), `edition`, `series`,
 * `language` and `url` besides what the record lacks; the BibTeX writer keeps every field and says
 * the same in `%` lines before its entry.
 *
 * @example
 * ```ts
 * import { Citable } from "@s2-effect/jobs"
 * import type { Paper } from "@s2-effect/core"
 *
 * declare const paper: Paper
 * const item = { paper, key: "turing50", extra: { publisher: "OUP", file: "turing.pdf" } }
 * // ["left out, RIS has no place for: file"] (the publisher is written as PB)
 * const said = Citable.notes(item, "ris")
 * ```
 *
 * @category writers
 * @since 1.3.0
 */
export const notes = (input: Input, format: "csl-json" | "ris"): ReadonlyArray<string> =>
  carried.notes(itemOf(input), format)

/**
 * The BibTeX of papers, entries separated by a blank line.
 *
 * @example
 * ```ts
 * import { Citable } from "@s2-effect/jobs"
 * import { SemanticScholar } from "@s2-effect/core"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const s2 = yield* SemanticScholar
 *   const paper = yield* s2.getPaper("arXiv:1706.03762", { fields: Citable.fields })
 *   // The user's key and note kept; everything else from the paper.
 *   return Citable.bibtex([{ paper, key: "vaswani2017", extra: { note: "Cited twice" } }])
 * })
 * ```
 *
 * @category writers
 * @since 1.0.0
 */
export const bibtex = (inputs: Iterable<Input>): string => batch(bibtexWriter, inputs).join("\n")

/**
 * The CSL-JSON items of papers (an array: `JSON.stringify` it for a `.json` file).
 *
 * @category writers
 * @since 1.0.0
 */
export const cslJson = (inputs: Iterable<Input>): ReadonlyArray<CslItem> => batch(cslJsonWriter, inputs)

/**
 * The RIS records of papers, separated by a blank line.
 *
 * @category writers
 * @since 1.0.0
 */
export const ris = (inputs: Iterable<Input>): string => batch(risWriter, inputs).join("\r\n")
