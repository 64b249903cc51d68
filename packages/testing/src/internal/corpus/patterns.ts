/**
 * The patterns generated text is made of: split once into their text and slots, filled with the
 * words drawn for a topic, and numbered as pieces, which the search index reads instead of text.
 */
import { at, type Rng } from "../prng.js"
import type { Topic } from "./vocabulary.js"

export const capitalize = (s: string): string => s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1)

/** A `{slot}` of a pattern: which list it draws from, and whether the word is capitalised. */
interface Slot {
  readonly list: "nouns" | "adjectives" | "methods"
  readonly capital: boolean
}

/** A pattern's text between slots, and its pieces as written and as a sentence's start. */
interface Text {
  readonly text: string
  readonly piece: number
  readonly capitalPiece: number
}

type Part = Text | Slot

/**
 * Every distinct piece generated text is made of (a pattern's text between slots, a vocabulary
 * word, each also capitalised), numbered: the search index reads a paper's title and abstract as
 * the pieces they are made of, each cut into words once, instead of making and reading the text.
 */
const pieceTexts: Array<string> = []
const pieceIds = new Map<string, number>()
const pieceOf = (text: string): number => {
  let id = pieceIds.get(text)
  if (id === undefined) {
    id = pieceTexts.length
    pieceIds.set(text, id)
    pieceTexts.push(text)
  }
  return id
}
/** The text of piece `id`. */
export const pieceText = (id: number): string => pieceTexts[id]!
export const SPACE_PIECE = pieceOf(" ")

/** Somewhere to write a text's pieces. */
export interface PieceList {
  push(piece: number): void
}

/**
 * Patterns split once into their text and slots: filling them by `String.prototype.replace` with a
 * regular expression, per sentence of every abstract, was most of a 100,000-paper corpus's build.
 */
const compiled = new Map<string, ReadonlyArray<Part>>()

const textPart = (text: string): Text => ({ text, piece: pieceOf(text), capitalPiece: pieceOf(capitalize(text)) })

const compile = (pattern: string): ReadonlyArray<Part> => {
  const parts: Array<Part> = []
  let last = 0
  for (const match of pattern.matchAll(/\{(\w+)\}/g)) {
    const key = match[1]!
    const lower = key.toLowerCase()
    parts.push(textPart(pattern.slice(last, match.index)), {
      list: lower.startsWith("noun") ? "nouns" : lower === "adj" ? "adjectives" : "methods",
      capital: key[0] === key[0]!.toUpperCase()
    })
    last = match.index + match[0].length
  }
  parts.push(textPart(pattern.slice(last)))
  return parts
}

export const partsOf = (pattern: string): ReadonlyArray<Part> => {
  let parts = compiled.get(pattern)
  if (parts === undefined) compiled.set(pattern, parts = compile(pattern))
  return parts
}

/** The words drawn for a pattern's slots, in order (as `rng.pick` draws them); returns how many. */
export const drawn = new Int32Array(16)
export const drawSlots = (parts: ReadonlyArray<Part>, topic: Topic, rng: Rng): number => {
  let slots = 0
  for (const part of parts) if (!("text" in part)) drawn[slots++] = rng.int(topic[part.list].length)
  return slots
}

/** A pattern's text with the words just drawn (see `drawSlots`) in its slots. */
export const render = (parts: ReadonlyArray<Part>, topic: Topic): string => {
  let out = ""
  let slot = 0
  for (const part of parts) {
    if ("text" in part) out += part.text
    else {
      const word = at(topic[part.list], drawn[slot++]!)
      out += part.capital ? capitalize(word) : word
    }
  }
  return out
}

export const fill = (pattern: string, topic: Topic, rng: Rng): string => {
  const parts = partsOf(pattern)
  drawSlots(parts, topic, rng)
  return render(parts, topic)
}

/** Takes the draws `fill` would take for `pattern` (one per slot), without making its text. */
export const skipFill = (pattern: string, rng: Rng): void => {
  for (const part of partsOf(pattern)) if (!("text" in part)) rng.next()
}

/** A topic's words of one list as pieces, as written and capitalised; made once per list. */
interface WordPieces {
  readonly plain: Int32Array
  readonly capital: Int32Array
}
const wordPieces = new Map<ReadonlyArray<string>, WordPieces>()
const wordPiecesOf = (words: ReadonlyArray<string>): WordPieces => {
  let found = wordPieces.get(words)
  if (found === undefined) {
    wordPieces.set(
      words,
      found = {
        plain: Int32Array.from(words, pieceOf),
        capital: Int32Array.from(words, (word) => pieceOf(capitalize(word)))
      }
    )
  }
  return found
}

/**
 * The pieces of `capitalize(fill(pattern, topic, rng))`, with the same draws: the first non-empty
 * piece is the capitalised one (capitalising a text capitalises its first character).
 */
export const fillPieces = (pattern: string, topic: Topic, rng: Rng, out: PieceList): void => {
  let first = true
  for (const part of partsOf(pattern)) {
    let piece: number
    if ("text" in part) piece = first ? part.capitalPiece : part.piece
    else {
      const words = wordPiecesOf(topic[part.list])
      const k = rng.int(words.plain.length)
      piece = (part.capital || first ? words.capital : words.plain)[k]!
    }
    out.push(piece)
    if (first) first = pieceTexts[piece]!.length === 0
  }
}
