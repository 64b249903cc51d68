/**
 * The words and search terms of the corpus's text and of queries, shared by the search indexes:
 * how text is cut into words, and the stem each word is searched by.
 */
import { stemmer } from "stemmer"

export const tokenize = (text: string): Array<string> =>
  text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0)

/**
 * The search term of a lower-case word: its Porter stem, so that singular and plural (and other
 * inflections) match, as on the live service: `transformer` finds "Transformers".
 */
export const term = (word: string): string => {
  // The corpus's text comes from a small vocabulary: stemming each distinct word once makes
  // building the search indexes several times faster. Bounded, since queries bring words too.
  let stem = stems.get(word)
  if (stem === undefined) {
    if (stems.size >= 100_000) stems.clear()
    stems.set(word, stem = stemmer(word))
  }
  return stem
}
const stems = new Map<string, string>()

/** The search terms of a text: its words, stemmed. */
export const terms = (text: string): Array<string> => tokenize(text).map(term)

/**
 * The most distinct words of a query searched: the first ones. A search builds a result map per word
 * of the query (about 0.4 MB on a corpus of 2,000 papers), repeats included, so a 4,000-word query
 * took 1.76 GB and 20,000 ran out of memory; a title or a reference line has far fewer.
 */
export const MAX_QUERY_WORDS = 256

/** A word as MiniSearch's default tokenizer, which indexes the corpus, cuts text into them. */
export const WORD = /[^\n\r\p{Z}\p{P}]+/gu

/**
 * How many times each stem of the query last tokenized came. MiniSearch tokenizes a query and then
 * asks each term's boost in one synchronous call, so {@link queryBoost} reads this query's counts.
 */
const queryCounts = new Map<string, number>()

/**
 * The words of a query as the index tokenizes text, each stem once, at most
 * {@link MAX_QUERY_WORDS}: a word's repeats are counted instead, read lazily, so that a query of any
 * length costs the memory of its first distinct words.
 */
export const queryWords = (text: string): Array<string> => {
  queryCounts.clear()
  const words: Array<string> = []
  for (const [word] of text.matchAll(WORD)) {
    const stem = term(word.toLowerCase())
    const count = queryCounts.get(stem)
    if (count !== undefined) {
      queryCounts.set(stem, count + 1)
    } else if (words.length < MAX_QUERY_WORDS) {
      queryCounts.set(stem, 1)
      words.push(word)
    }
  }
  return words
}

/**
 * A query term's boost: the number of times it came, so that a word repeated weighs what its
 * repeats weighed when each was searched on its own.
 */
export const queryBoost = (stem: string): number => queryCounts.get(stem) ?? 1
