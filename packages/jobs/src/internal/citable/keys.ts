/**
 * Citation keys: made from the first author's family name, the year and the title's first word
 * (`vaswani2017attention`), ASCII only; a user's own key kept; each unique within one run of a
 * writer, compared without case as BibTeX and biber compare them.
 */
import type { Paper } from "@s2-effect/core"
import type { Item } from "../../Citable.js"
import { foldLetters, stopWords } from "../text.js"
import { commentText, type Facts } from "./facts.js"

/** Lowercase ASCII letters and digits only: accents dropped, special letters spelled out. */
export const ascii = (text: string): string =>
  foldLetters(text.toLowerCase()).normalize("NFKD").replace(/[^a-z0-9]/g, "")

// A key's word is the first that says what the paper is about: besides the words that seldom tell
// two titles apart, the words that open a question ("How", "What", "Is") are passed over. The
// title match's set must not have them: "What is X?" and "X" are two titles.
const keyStopWords = new Set([...stopWords, "is", "are", "how", "what", "why", "do", "does"])

/**
 * The key a paper gets when the user gave none: family name, year, first word of the title that is
 * not a stop word; `anon` without an author; `s2` and the paper id when nothing else is usable.
 */
export const madeKey = (paper: Paper, facts: Facts): string => {
  const family = ascii(facts.authors[0]?.family ?? "").slice(0, 20)
  const word = facts.title.split(" ").map(ascii).find((w) => w.length > 1 && !keyStopWords.has(w)) ?? ""
  const key = `${family.length > 0 ? family : "anon"}${facts.year ?? ""}${word.slice(0, 20)}`
  return key === "anon" ? `s2${ascii(paper.paperId).slice(0, 12)}` : key
}

// What cannot be written in a key of ours: what ends one as BibTeX reads it (whitespace, `,`, `}`),
// a `{` (our reader and LaTeX's \cite count it), an `@` (a note line naming the key would start an
// entry), controls, direction marks and lone surrogates. Everything else BibTeX reads as part of
// a key (`'`, `(`, `:`, `"`, `#`, `%`, `~`, `=`, `\`, any letter): the user's document cites the
// key so, and changing it would leave their `\cite` undefined.
const notInKey = /[\s\p{Cc}\p{Bidi_Control}\p{Cs},{}@]/gu

/**
 * A user's key with what cannot be part of a key of ours removed (see `notInKey`: a key BibTeX
 * reads is kept as written); "" when nothing is left.
 */
export const userKey = (key: string | undefined): string => (key ?? "").replace(notInKey, "")

/** The `%` line before an entry whose key is not the one the user gave (`given`, which held what `notInKey` drops). */
export const cleanedNote = (given: string, key: string): string =>
  `% s2: the key ${
    commentText(JSON.stringify(given))
  } holds what a .bib key cannot (a space, comma, brace, at sign or control); written as ${key}`

/** `a`, `b`, … `z`, `aa`, `ab`, …: the suffixes that make a key unique, as BibTeX styles do for years. */
const suffix = (n: number): string =>
  (n >= 26 ? suffix(Math.floor(n / 26) - 1) : "") + String.fromCharCode(97 + (n % 26))

/** The keys given so far in one run of a writer. */
export interface Keys {
  /**
   * `wanted`, or `wanted` with the first suffix free. A key the user wrote (`own`) is kept when no
   * entry before has it; any other key also avoids every key reserved for the user: a key the user
   * wrote is never taken by another entry.
   */
  readonly take: (wanted: string, own: boolean) => string
}

/** The user's key when it can be written as they gave it (around white space aside), else `undefined`. */
const exact = (key: string | undefined): string | undefined => {
  const trimmed = (key ?? "").trim()
  return trimmed.length > 0 && userKey(trimmed) === trimmed ? trimmed : undefined
}

/**
 * A run's keys, with the user's own keys reserved: those that can be written as given (one that
 * must be cleaned is cited by no document as it is, so its cleaned form never pushes a key the user
 * wrote exactly).
 */
export const keys = (reserved: Iterable<string> = []): Keys => {
  const used = new Set<string>()
  const theirs = new Set(Array.from(reserved, exact).flatMap((key) => key === undefined ? [] : [key.toLowerCase()]))
  const free = (candidate: string) => !used.has(candidate) && !theirs.has(candidate)
  return {
    take: (wanted, own) => {
      let candidate = wanted
      if (!(own && !used.has(wanted.toLowerCase()))) {
        for (let n = 0; !free(candidate.toLowerCase()); n++) candidate = wanted + suffix(n)
      }
      used.add(candidate.toLowerCase())
      return candidate
    }
  }
}

/**
 * The key of one item; `renamed`, the user's key when it was written before and this entry's had to
 * change; `cleaned`, the key as the user gave it when it held what no key of ours can (`notInKey`):
 * `key` is then what was written instead.
 */
export interface Keyed {
  readonly key: string
  readonly renamed?: string
  readonly cleaned?: string
}

/**
 * The key of one item: the user's (what can be a key of it), else one made from the paper; unique in
 * `keys`. `renamed` is the user's key when it was written before and this entry's had to change.
 */
export const keyOf = (keys: Keys, item: Item, facts: Facts): Keyed => {
  const own = exact(item.key)
  const wanted = own ?? userKey(item.key)
  const key = keys.take(wanted.length > 0 ? wanted : madeKey(item.paper, facts), own !== undefined)
  // A key that had to be cleaned is not the user's as given: it yields to every key they wrote exactly.
  if (own === undefined && (item.key ?? "").trim() !== "") return { key, cleaned: item.key! }
  return own !== undefined && key !== own ? { key, renamed: own } : { key }
}

/** The key of one item (see {@link keyOf}). */
export const keyFor = (keys: Keys, item: Item, facts: Facts): string => keyOf(keys, item, facts).key
