/**
 * A reference as a user gives it, to resolve (`Resolve.references`) or verify (`Verify.references`):
 * one name for what the two jobs, their readers (`Resolve.fromBibtex`, `Verify.read`) and the `s2`
 * command pass around. Four forms, told apart by their fields:
 *
 * - a `string`: a line naming an id or a title (its key is its position, from 1);
 * - a {@link Line}: such a line with a key of its own;
 * - an {@link Entry}: a .bib, RIS, CSL-JSON or formatted entry with its fields as written;
 * - a {@link Query}: what the paper is looked up by (an id or a title), already read, with the title
 *   the paper should have when it is an id.
 *
 * Named `ReferenceInput`, not `Reference`: `@s2-effect/core`'s `Reference` is a paper's reference
 * as the API answers it (the citing edge), another thing.
 *
 * @example
 * ```ts
 * import { ReferenceInput, Resolve, Verify } from "@s2-effect/jobs"
 *
 * const list: ReadonlyArray<ReferenceInput.ReferenceInput> = [
 *   "10.1093/mind/lix.236.433",
 *   { key: "vaswani17", text: "Attention Is All You Need" },
 *   { key: "turing50", fields: { title: "Computing Machinery and Intelligence", year: "1950" } },
 *   { input: "ARXIV:1706.03762", title: "Attention Is All You Need" }
 * ]
 * // Either job takes any of them.
 * const resolved = Resolve.references(list)
 * const verified = Verify.references(list)
 * ```
 * @since 1.3.0
 */

/**
 * A line of a reference list (an id or a title, as `Resolve.recognise` reads it), with its key (its
 * line number, say).
 *
 * @category models
 * @since 1.3.0
 */
export interface Line {
  readonly key: string
  readonly text: string
}

/**
 * An entry of a reference file: its key, its fields as written (BibTeX's names, in lower case, and
 * conventions, values as TeX; a field written twice has its first value, as BibTeX reads it), the
 * line of its start and, for an entry that cannot be read as written, the `problem` (verifying it
 * gives `unchecked`, resolving it `malformed`): its braces do not balance, its macros expand too far,
 * or a field is written twice with different values. What BibTeX warns of but reads (a field written
 * twice with the same value) is in `warnings`. It is looked up by its `doi`, else its arXiv
 * `eprint`, else its `title`.
 *
 * @category models
 * @since 1.3.0
 */
export interface Entry {
  readonly key: string
  /** The entry type as written (`article`, `inproceedings`…), for writing it again; optional. */
  readonly type?: string | undefined
  readonly fields: Readonly<Record<string, string>>
  readonly line?: number | undefined
  readonly problem?: string | undefined
  readonly warnings?: ReadonlyArray<string> | undefined
  /**
   * The form `Verify.read` read the entry from (absent for an entry made otherwise, as a .bib
   * entry). An author list read from a formatted reference or a line may name the first author
   * alone, as people cite a paper ("Vaswani 2017"); a .bib, RIS or CSL-JSON list is the whole list.
   *
   * @since 1.3.0
   */
  readonly format?: "bibtex" | "ris" | "csl-json" | "formatted" | "lines" | undefined
}

/**
 * What a paper is looked up by: `input`, an id or a title as `Resolve.recognise` reads it, and, when
 * it is an id, the `title` the paper should have (checked: another title is a mismatch). `key` and
 * `line` say where it came from (`Resolve.fromBibtex` gives both); `problem`, why it cannot be
 * looked up as written (`input` is then "").
 *
 * @category models
 * @since 1.3.0
 */
export interface Query {
  readonly input: string
  readonly title?: string | undefined
  readonly key?: string | undefined
  /** The line it starts at, from 1. */
  readonly line?: number | undefined
  readonly problem?: string | undefined
}

/**
 * A reference as a user gives it: a line as a string, a {@link Line}, an {@link Entry} or a
 * {@link Query}.
 *
 * @category models
 * @since 1.3.0
 */
export type ReferenceInput = string | Line | Entry | Query

/**
 * Whether a reference is an {@link Entry} (it has `fields`).
 *
 * @category guards
 * @since 1.3.0
 */
export const isEntry = (input: ReferenceInput): input is Entry => typeof input === "object" && "fields" in input

/**
 * Whether a reference is a {@link Line} (it has `text`).
 *
 * @category guards
 * @since 1.3.0
 */
export const isLine = (input: ReferenceInput): input is Line =>
  typeof input === "object" && "text" in input && !("fields" in input)

/**
 * Whether a reference is a {@link Query} (it has `input`).
 *
 * @category guards
 * @since 1.3.0
 */
export const isQuery = (input: ReferenceInput): input is Query =>
  typeof input === "object" && "input" in input && !("fields" in input) && !("text" in input)

/**
 * The key of a reference: its own, else its position (from 1), as the jobs' results name it.
 *
 * @category getters
 * @since 1.3.0
 */
export const keyOf = (input: ReferenceInput, position: number): string =>
  typeof input === "object" && input.key !== undefined ? input.key : String(position + 1)
