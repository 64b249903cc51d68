/**
 * Text of any Unicode, with what a BibTeX value must never let through made common: TeX's special
 * characters and combining marks (accents, U+20D2-style overlays, a mark alone), so that a mark
 * lands after a brace, a backslash or a `$` in most runs (issue 44 point 2: `}` with U+0301 was
 * written as a bare `}`).
 */
import * as fc from "fast-check"

/** Combining marks: acute, grave, diaeresis, cedilla, ring, a double mark, a Cyrillic titlo, an overlay, a variation selector. */
export const marks = ["\u0301", "\u0300", "\u0308", "\u0327", "\u030a", "\u035c", "\u0483", "\u20d2", "\ufe0f"]

const specials = ["{", "}", "\\", "$", "%", "&", "#", "_", "^", "~", "@", ",", "=", "\"", " ", "\n"]

/** One piece: any code points, a TeX special, or marks. */
const piece = fc.oneof(
  fc.string({ unit: "binary", maxLength: 3 }),
  fc.constantFrom(...specials),
  fc.constantFrom(...specials).chain((s) => fc.constantFrom(...marks).map((m) => s + m)),
  fc.array(fc.constantFrom(...marks), { minLength: 1, maxLength: 3 }).map((ms) => ms.join(""))
)

/** Full-Unicode text with TeX specials and combining marks injected. */
export const markedText: fc.Arbitrary<string> = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(""))
