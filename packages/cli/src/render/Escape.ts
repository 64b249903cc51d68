/**
 * Text from a server made safe for a terminal. A title, a name or an error body may carry escape
 * sequences (an OSC window title, `ESC[2J`, a C1 `CSI`), a bell, or a right-to-left override that
 * makes a line read differently than it is: printed as they are, the terminal acts on them. Text
 * output (tables, CSV, messages, logs) shows them instead, in JSON's spelling:
 *
 * - `\n`, `\r`, `\t` for line feed, carriage return and tab;
 * - `\u001b`-style (four hex digits) for the other C0 controls (U+0000–U+001F), DEL (U+007F), the C1
 *   controls (U+0080–U+009F), the bidirectional marks and overrides (U+061C, U+200E, U+200F,
 *   U+202A–U+202E, U+2066–U+2069), the line and paragraph separators (U+2028, U+2029) and lone
 *   surrogates.
 *
 * Backslashes are printed as they are (titles hold LaTeX), so `\u001b` in a table may also be text
 * the server sent literally; `--format json` is exact. Everything else, including joiners used by
 * Persian and Indic scripts and emoji, is left alone.
 *
 * @since 1.0.0
 */
import { replaceUnsafe } from "@s2-effect/core"

// The characters are core's `replaceUnsafe`'s (the list the jobs' citations and the assistant's
// text replace too), spelled here as JSON spells them.
const short: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" }

/**
 * One UTF-16 unit as JSON's escape spells it: `\u` and four hex digits (`\u009b`).
 *
 * @since 1.1.0
 */
export const unicodeEscape = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`

const spell = (char: string): string => short[char] ?? unicodeEscape(char)

const spellButNewline = (char: string): string => char === "\n" ? char : spell(char)

/**
 * Escapes every control character, line breaks included: the text stays on one line (a table cell,
 * a CSV field, a one-line message).
 *
 * @since 1.0.0
 */
export const visible = (text: string): string => replaceUnsafe(text, spell)

/**
 * Escapes every control character but the line feed: for text of several lines (a stack trace
 * with `--verbose`, log output).
 *
 * @since 1.0.0
 */
export const visibleLines = (text: string): string => replaceUnsafe(text, spellButNewline)

/**
 * A message for stderr: control characters escaped as by {@link visibleLines}, and each line after
 * the first indented by two spaces. A message may have lines of its own (a cassette miss lists the
 * differences), but what it quotes from a server cannot start a line that passes for another
 * message (`s2: …`).
 *
 * @since 1.0.0
 */
export const visibleMessage = (text: string): string => visibleLines(text).replace(/\n/g, "\n  ")

/**
 * One character (code point) as {@link visible} shows it; cheap for the common ones.
 *
 * @since 1.0.0
 */
export const visibleChar = (char: string): string => {
  const code = char.charCodeAt(0)
  const suspect = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x061c ||
    (code >= 0x200e && code <= 0x2069) || (char.length === 1 && code >= 0xd800 && code <= 0xdfff)
  return suspect ? visible(char) : char
}

/**
 * Whether `text` holds a character {@link visible} escapes.
 *
 * @since 1.0.0
 */
export const hasControls = (text: string): boolean => visible(text) !== text
