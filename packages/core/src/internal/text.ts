/**
 * Values as messages quote them. Whatever a user or a server gave (an id of 120,000 characters, a
 * server's 8 KB explanation), a message built from it stays short.
 */
import type { MessageParts } from "../S2Error.js"

/**
 * At most `max` UTF-16 units, ending in "…" when cut (never splitting a surrogate pair). Only the
 * part kept is read, so a huge string costs no more than a short one.
 */
export const cut = (value: string, max: number): string => {
  if (value.length <= max) return value
  let end = max - 1
  const last = value.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return `${value.slice(0, end)}…`
}

/** The start of a text a message quotes: {@link cut} to 300 characters unless told otherwise. */
export const excerpt = (text: string, max = 300): string => cut(text, max)

// C0 and C1 controls, the line and paragraph separators, the bidirectional marks, embeddings,
// overrides and isolates, and lone surrogates (a pair is one code point here, and not matched).
const unsafe = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}\p{Cs}]/u
const everyUnsafe = new RegExp(unsafe.source, "gu")

/** See `replaceUnsafe` in S2Error.ts. Most text has none: one scan, and no copy. */
export const replaceUnsafe = (text: string, by: (char: string) => string): string =>
  unsafe.test(text) ? text.replace(everyUnsafe, (char) => by(char)) : text

const present = (part: string | undefined): part is string => part !== undefined && part !== ""

/** See `composeMessage` in S2Error.ts. */
export const compose = ({ advice, problem, request, subject }: MessageParts): string => {
  // A subject that is the exchange itself leads, with the problem after a comma, and is not repeated.
  const lead = present(subject) && subject === request
  const head = lead
    ? present(problem) ? `${subject}, ${problem}` : subject
    : [subject, problem].filter(present).join(" ")
  const named = lead || !present(request) ? head : head === "" ? request : `${head} (${request})`
  if (!present(advice)) return named
  if (named === "") return advice
  return `${named}${present(subject) || present(request) ? ": " : "; "}${advice}`
}
