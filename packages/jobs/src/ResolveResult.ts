/**
 * What `Resolve.references` answers for each input: {@link Found}, {@link Mismatch} or
 * {@link NotFound}, one {@link Result}. A leaf module (it imports nothing of this package), so that
 * the implementation that makes these records (`internal/resolve.ts`) imports them without
 * importing `Resolve.ts`, which imports it back; `Resolve.ts` re-exports each, and users reach them
 * there (`Resolve.Found`).
 *
 * @since 1.0.0
 */
import { Paper } from "@s2-effect/core"
import * as Schema from "effect/Schema"

/**
 * An input that was resolved: the paper, and how — by `id` (the batch endpoint) or by `title`
 * (bulk search or title match; `score` is title match's own). `similarity` is the
 * `TitleMatch.compare` of the title given and the paper's: present for a title, and for an id
 * given with a title.
 *
 * @category models
 * @since 1.0.0
 */
export class Found extends Schema.TaggedClass<Found>()("Found", {
  input: Schema.String,
  paper: Paper,
  via: Schema.Literals(["id", "title"]),
  score: Schema.optional(Schema.Number),
  similarity: Schema.optional(Schema.Number)
}) {}

/**
 * An id given with a title (a .bib entry's `doi` or `eprint`, and its `title`) whose paper has
 * another title, or none (`similarity` 0: the title given cannot be checked): the paper, the
 * `title` given, their `similarity`, and a sentence for people. Not taken for the reference: one of
 * the two is wrong, and only the user knows which.
 *
 * @category models
 * @since 1.0.0
 */
export class Mismatch extends Schema.TaggedClass<Mismatch>()("Mismatch", {
  input: Schema.String,
  paper: Paper,
  title: Schema.String,
  similarity: Schema.Number,
  message: Schema.String
}) {}

/**
 * Why an input was not resolved: `unknownId` (an id the batch endpoint answered `null` for),
 * `noTitleMatch` (no paper has the title: title match found none, or only one with another title,
 * given as `nearest`), `malformed` (an empty line, a control character, a known id prefix with
 * nothing after it), `tooLong` (a title longer than a request can carry: not sent) or `refused`
 * (the server refused the request for this title alone, e.g. 414).
 *
 * @category models
 * @since 1.0.0
 */
export const Reason = Schema.Literals(["unknownId", "noTitleMatch", "malformed", "tooLong", "refused"])

/**
 * @category models
 * @since 1.0.0
 */
export type Reason = typeof Reason.Type

/**
 * An input that was not resolved, as given, with the {@link Reason} and a sentence for people. For a
 * title whose match had another title, `nearest` is that paper and `similarity` how close it was.
 *
 * @category models
 * @since 1.0.0
 */
export class NotFound extends Schema.TaggedClass<NotFound>()("NotFound", {
  input: Schema.String,
  notFound: Reason,
  message: Schema.String,
  nearest: Schema.optional(Paper),
  similarity: Schema.optional(Schema.Number)
}) {}

/**
 * One result per input: match on `_tag`.
 *
 * @category models
 * @since 1.0.0
 */
export type Result = Found | Mismatch | NotFound

/**
 * The schema of {@link Result}, e.g. to write results as JSON lines.
 *
 * @category models
 * @since 1.0.0
 */
export const Result = Schema.Union([Found, Mismatch, NotFound])
