/**
 * What `Verify.references` answers: a reference's {@link Status}, the {@link Field}s that differ and
 * the {@link Verification}. A leaf module (it imports nothing of this package), so that the
 * implementation that makes these records (`internal/verify.ts`) imports them without importing
 * `Verify.ts`, which imports it back; `Verify.ts` re-exports each, and users reach them there
 * (`Verify.Verification`).
 *
 * @since 1.1.0
 */
import { Paper } from "@s2-effect/core"
import * as Schema from "effect/Schema"

/**
 * What a reference turned out to be:
 * - `verified`: a paper was found and nothing it says disagrees;
 * - `mismatch`: a real paper, cited wrongly: `differs` names the fields, `differences` gives the
 *   record's values;
 * - `notFound`: no paper is this reference, likely invented (`nearest` may name the closest one);
 * - `unchecked`: it could not be checked (an entry that cannot be read or has nothing to look it
 *   up by, a title too long to send, the server failing or refusing): a failure of ours, never
 *   taken for `notFound`.
 *
 * @category models
 * @since 1.1.0
 */
export const Status = Schema.Literals(["verified", "mismatch", "notFound", "unchecked"])

/**
 * @category models
 * @since 1.1.0
 */
export type Status = typeof Status.Type

/**
 * A field of a reference that disagrees with the paper found:
 * - `title`: not the same title (`TitleMatch.compare`), for a paper found by the reference's id;
 * - `year`: more than one year apart (one year apart is a preprint and its publication, most
 *   likely: a note, not a difference);
 * - `authors`: the entry's list is not the paper's: its count (unless it ends in "others"), order,
 *   family names or initials differ (case, accents, TeX, hyphens and given names forgiven);
 * - `venue`: the `journal` / `booktitle` names none of the names the paper's venue goes by, compared
 *   forgivingly (see `Verify.references`); a preprint server (arXiv, CoRR, bioRxiv…) cited for a
 *   published paper is not a difference unless the server knows of no preprint of it and the
 *   entry's DOI is the publication's; a journal cited for a paper known only as a preprint is one
 *   (a meeting's proceedings are a note);
 * - `doi` / `eprint`: the entry's DOI or arXiv id is unknown, names another paper, or is not the
 *   paper's own.
 *
 * @category models
 * @since 1.1.0
 */
export const Field = Schema.Literals(["title", "year", "authors", "venue", "doi", "eprint"])

/**
 * @category models
 * @since 1.1.0
 */
export type Field = typeof Field.Type

/**
 * A field that differs, with the entry's value (`given`, as plain text), the record's (`record`:
 * what a corrected entry writes) and `why`, for people ("first author \"Weiwei Sun\" is \"Jennifer
 * J. Sun\" in the record").
 *
 * @category models
 * @since 1.1.0
 */
export class Difference extends Schema.Class<Difference>("Difference")({
  field: Field,
  given: Schema.String,
  record: Schema.String,
  why: Schema.String
}) {}

/**
 * A reference as the user wrote it, kept on its {@link Verification}: a .bib entry's `key`, `fields`
 * (lower-case names, TeX values), its entry `type` and `line` when known.
 *
 * @category models
 * @since 1.1.0
 */
export class Written extends Schema.Class<Written>("Written")({
  key: Schema.String,
  type: Schema.optional(Schema.String),
  fields: Schema.Record(Schema.String, Schema.String),
  line: Schema.optional(Schema.Number)
}) {}

/**
 * The verification of one reference: its `key` (the .bib key, or the line's number as a string),
 * the `input` asked (a DOI, arXiv id or title; "" when the entry had none), the {@link Status},
 * the fields that `differs`, `notes` (sentences for people: why a reference was not found, a year
 * one apart, a preprint cited for a published paper), the `paper` found (verified, mismatch), the
 * `nearest` candidate (notFound, when a search answered one with another title) and `similarity`,
 * the `TitleMatch.compare` similarity of the reference's title and the paper's (or the nearest's),
 * and `nearestNote`, the one of `notes` that names `nearest` (see {@link notesBesideNearest}).
 *
 * @category models
 * @since 1.1.0
 */
export class Verification extends Schema.Class<Verification>("Verification")({
  key: Schema.String,
  input: Schema.String,
  status: Status,
  differs: Schema.Array(Field),
  notes: Schema.Array(Schema.String),
  paper: Schema.optional(Paper),
  nearest: Schema.optional(Paper),
  similarity: Schema.optional(Schema.Number),
  /**
   * The note (one of `notes`) in which the title search names the `nearest` paper and how similar
   * it is; set only with `nearest`.
   *
   * @since 1.1.0
   */
  nearestNote: Schema.optional(Schema.String),
  /**
   * Each field of `differs`, with the entry's value and the record's.
   *
   * @since 1.1.0
   */
  differences: Schema.optional(Schema.Array(Difference)),
  /**
   * The .bib entry (or other written reference) verified, as the user wrote it; absent for a line.
   *
   * @since 1.1.0
   */
  entry: Schema.optional(Written)
}) {
  /**
   * The `notes` but {@link Verification.nearestNote}: what to print beside a `nearest` paper shown
   * with its similarity, which that note would only say again. All of `notes` when there is no
   * `nearestNote`.
   *
   * @since 1.1.0
   */
  get notesBesideNearest(): ReadonlyArray<string> {
    const nearestNote = this.nearestNote
    if (nearestNote === undefined) return this.notes
    const at = this.notes.lastIndexOf(nearestNote)
    return at < 0 ? this.notes : [...this.notes.slice(0, at), ...this.notes.slice(at + 1)]
  }
}

/**
 * What differs, as a phrase: "year differs", "title, year differ". Takes the fields (a
 * verification's `differs`) or the {@link Verification} itself.
 *
 * @example
 * ```ts
 * import { Verify } from "@s2-effect/jobs"
 *
 * Verify.differ(["year"]) // "year differs"
 * const v = new Verify.Verification({ key: "k", input: "", status: "mismatch", differs: ["title", "year"], notes: [] })
 * Verify.differ(v) // "title, year differ"
 * ```
 * @category utils
 * @since 1.1.0
 */
export const differ = (fields: ReadonlyArray<Field> | Verification): string => {
  const list = fields instanceof Verification ? fields.differs : fields
  return `${list.join(", ")} ${list.length === 1 ? "differs" : "differ"}`
}
