/**
 * The failure of reading a reference list ({@link Unreadable}). A leaf module, so that the readers
 * (`internal/read.ts`, `internal/decode.ts`) make it without importing `Verify.ts`, which imports
 * them back; `Verify.ts` re-exports it, and users reach it there (`Verify.Unreadable`).
 *
 * @since 1.2.0
 */
import * as Schema from "effect/Schema"

/**
 * A text `Verify.read` or bytes `Verify.decode` cannot read as references: `Encoding` (bytes that
 * are not text in an encoding we read: binary, or neither UTF-8 nor UTF-16), `Empty` (no reference
 * at all) or `Format` (text of a kind that holds no references we read: JSON that is not CSL-JSON,
 * an HTML or XML page, BibTeX or RIS without one readable entry). `looksLike` says, in a few words,
 * what the text looks like; `message` is one line with it and what we read instead.
 *
 * @category errors
 * @since 1.2.0
 */
export class Unreadable extends Schema.TaggedError<Unreadable>()("Unreadable", {
  reason: Schema.Literals(["Encoding", "Empty", "Format"]),
  looksLike: Schema.String,
  message: Schema.String
}) {}

const reads = "references are read from BibTeX, RIS, CSL-JSON, formatted references, or ids and titles one per line"

/** The refusal of a text: what it looks like, and (for a format) what is read instead. */
export const unreadable = (reason: Unreadable["reason"], looksLike: string): Unreadable =>
  new Unreadable({
    reason,
    looksLike,
    message: reason === "Encoding"
      ? `${looksLike}; save it as UTF-8 (or UTF-16 with a byte-order mark)`
      : reason === "Empty"
      ? looksLike
      : `${looksLike}: ${reads}`
  })
