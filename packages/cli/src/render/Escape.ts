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

const unsafe =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const unsafeButNewline =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const short: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" }

const spell = (char: string): string => short[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`

const replace = (pattern: RegExp, text: string): string => {
  // Most text has nothing to escape: one scan, no copy.
  pattern.lastIndex = 0
  if (!pattern.test(text)) return text
  pattern.lastIndex = 0
  return text.replace(pattern, spell)
}

/**
 * Escapes every control character, line breaks included: the text stays on one line (a table cell,
 * a CSV field, a one-line message).
 *
 * @since 1.0.0
 */
export const visible = (text: string): string => replace(unsafe, text)

/**
 * Escapes every control character but the line feed: for text of several lines (a stack trace
 * with `--verbose`, log output).
 *
 * @since 1.0.0
 */
export const visibleLines = (text: string): string => replace(unsafeButNewline, text)

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
export const hasControls = (text: string): boolean => {
  unsafe.lastIndex = 0
  return unsafe.test(text)
}
