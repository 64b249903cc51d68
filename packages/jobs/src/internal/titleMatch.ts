/**
 * Title comparison: two titles are the same title when, normalised, they hold the same content
 * words and differ by little else (stop words, spacing of a compound). The similarity is
 * character-level (Levenshtein, from `fastest-levenshtein`); the content-word rule is what makes a
 * changed word never pass, however long the title (one word in a 20-word title is 5% of it).
 */
import { excerpt } from "@s2-effect/core"
import { distance } from "fastest-levenshtein"
import { plain } from "./bibtex.js"
import { lazy } from "./lazy.js"
import { foldLetters, greekNameByLetter, stopWords } from "./text.js"

/** See `TitleMatch.bound` (docs/jobs.md has the measurements behind it). */
export const bound = 0.9

// Greek letters by name, so `$\alpha$`, "α" and "alpha" are one word; lower case only (the text is
// lowered first).
const greekLetter = lazy(() => new RegExp(`[${[...greekNameByLetter.keys()].join("")}]`, "gu"))

// Symbols that tell titles apart ("C++" and "C", "x < y" and "x > y") spelled as words, so that a
// changed symbol is a changed content word; any other punctuation only separates words. After NFKD
// "≠" is "=" with U+0338 over it: a struck symbol is "not" and its name.
const symbolNames: ReadonlyMap<string, string> = new Map([
  ["+", "plus"],
  ["<", "lt"],
  [">", "gt"],
  ["=", "eq"],
  ["%", "percent"],
  ["≤", "le"],
  ["≥", "ge"]
])
const symbol = lazy(() => new RegExp(`([${[...symbolNames.keys()].join("")}])(\u0338?)`, "gu"))
// "#" is "sharp" after a letter ("C#", "F#"); before a word it is a hashtag or a number sign
// ("#MeToo", "#5"), the same word without it. "*" is "star" inside a word or after one ("A*
// search", "Q* learning"); at the end of a title, or standing alone ("Title*", "Title ∗", "(*)"),
// it is a footnote mark, which titles on the server often carry.
const sharp = /(?<=[\p{L}\p{N}\p{M}])#/gu
const star = /(?<=[\p{L}\p{N}\p{M}])[*∗](?=[^\p{L}\p{N}]*[\p{L}\p{N}])/gu

/** Lower-case text with the symbols that mean something spelled as words (see `symbolNames`). */
const spellSymbols = (lower: string): string =>
  lower.replace(symbol(), (_, c: string, struck: string) => ` ${struck === "" ? "" : "not "}${symbolNames.get(c)!} `)
    .replace(sharp, " sharp ")
    .replace(star, " star ")

// The marks dropped are those of the scripts whose marks are accents or optional pointing (Latin,
// Greek; Arabic and Hebrew vowel points). Elsewhere a mark makes another letter or word: a
// Devanagari vowel sign ("काम" is not "कम"), a kana's voicing mark ("ガ" is not "カ"), Cyrillic "й"
// (NFKD's "и" and a breve); those stay, composed again (NFC) so that equal text stays equal. A mark
// after no letter at all is dropped.
const accented = /([\p{sc=Latin}\p{sc=Greek}\p{sc=Arabic}\p{sc=Hebrew}])\p{M}+/gu
const strayMark = /(^|[^\p{L}\p{N}\p{M}])\p{M}+/gu

/** Plain text's letters in lower case, without accents, Greek letters by name, special letters and symbols spelled out. */
const letters = (text: string): string =>
  // NFKD first: it takes accents off Greek letters too, and makes a math italic 𝑃 a P to lower.
  foldLetters(
    spellSymbols(text.normalize("NFKD").toLowerCase()).replace(accented, "$1").replace(strayMark, "$1")
      .normalize("NFC")
  ).replace(greekLetter(), (c) => greekNameByLetter.get(c)!)

/**
 * Longer than any real title (the longest on the server are a few thousand characters): past it a
 * title is read only up to it, so that a 10 MB "title" costs what a real one does (its normalising
 * took 600 MB and 6 s), and is never the same as another text.
 */
export const longest = 10_000

/** The title up to {@link longest} characters, never splitting a surrogate pair. */
const bounded = (title: string): string => {
  if (title.length <= longest) return title
  const high = title.charCodeAt(longest - 1)
  return title.slice(0, high >= 0xd800 && high <= 0xdbff ? longest - 1 : longest)
}

/** See `TitleMatch.normalise`. */
export const normalise = (title: string): string =>
  letters(plain(bounded(title)))
    .replace(/&/g, " and ")
    // "Don't" and "Don’t" are one word, not "don" and "t".
    .replace(/['’ʼ`]/g, "")
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, " ")
    .trim()

// British and American spellings of one word, to one spelling: -ise/-ize, -isation, -yse/-yze,
// -our/-or, -re/-er, a doubled l, "dialogue"/"dialog", "ae"/"oe" in medical words. Applied to both
// titles alike, so a rule only has to send the two spellings to one word, not to the right one.
const spellings: ReadonlyArray<readonly [RegExp, (...groups: Array<string>) => string]> = [
  [/^(dialog|catalog|analog|monolog|prolog|epilog|homolog)ue(s)?$/, (_, stem, s = "") => `${stem}${s}`],
  [/^programme(s)?$/, (_, s = "") => `program${s}`],
  [/^(\p{L}{2,})is(e|es|ed|ing|er|ers|able|ation\p{L}*)$/u, (_, stem, end) => `${stem}iz${end}`],
  [/^(\p{L}+)ys(e|es|ed|ing|er|ers)$/u, (_, stem, end) => `${stem}yz${end}`],
  [
    /^(\p{L}{2,})our(s|ed|ing|able|ably|ite|ites|ful|less|al|ally|ist|ists|er|ers)?$/u,
    (_, stem, end = "") => `${stem}or${end}`
  ],
  [
    /^(cent|theat|fib|met|lit|calib|spect|lust|somb|meag|manoeuv|maneuv)re(s|d)?$/,
    (_, stem, end = "") => `${stem}er${end}`
  ],
  [/^(\p{L}{2,}[aeiou])ll(ing|ed|er|ers|or|ors)$/u, (_, stem, end) => `${stem}l${end}`],
  [/^(defen|offen|licen|preten)ce(s)?$/, (_, stem, s = "") => `${stem}se${s}`],
  [
    /^(haem|anaem|anaesth|paed|gynaec|faec|leukaem|ischaem|septicaem|orthopaed|encyclopaed|aetiol|palaeo|archae|oesoph|oestr|foet|diarrhoe|oedem|coeliac)(\p{L}*)$/u,
    (_, pre, rest) => `${pre.replace(/[ao]e/, () => "e")}${rest}`
  ],
  [/^(judg|acknowledg|abridg)ement(s)?$/, (_, stem, s = "") => `${stem}ment${s}`],
  [/^ageing$/, () => "aging"],
  [/^grey$/, () => "gray"],
  [/^towards$/, () => "toward"],
  [/^aluminium$/, () => "aluminum"]
]

// Any rule at all, in one pass: most words match none, and a page of titles has thousands of them.
const anySpelling = lazy(() => new RegExp(spellings.map(([pattern]) => `(?:${pattern.source})`).join("|"), "u"))

/** One spelling of a word (see `spellings`). */
export const spelling = (word: string): string => {
  if (!anySpelling().test(word)) return word
  for (const [pattern, to] of spellings) {
    const m = pattern.exec(word)
    if (m !== null) return to(...(m as unknown as Array<string>))
  }
  return word
}

/** A normalised title with each word in one spelling. */
const spelled = (normalised: string): string => normalised.split(" ").map(spelling).join(" ")

/** The words of a normalised title that are not stop words, in order. */
export const contentWords = (normalised: string): ReadonlyArray<string> =>
  normalised.split(" ").filter((w) => w.length > 0 && !stopWords.has(w))

/**
 * The keys of a normalised title's words: two titles have the same words when they have the same
 * content words in any order (`words`), or the same letters however spaced (`spaced`: "pre training"
 * and "pretraining"). A page of titles can be indexed by them (see {@link compareNormalised}).
 */
export const wordKeys = (normalised: string): { readonly words: string; readonly spaced: string } => {
  const one = spelled(normalised)
  return { words: [...contentWords(one)].sort().join(" "), spaced: one.replace(/ /g, "") }
}

/** See `TitleMatch.Comparison`. */
export interface Comparison {
  readonly similarity: number
  readonly same: boolean
}

/**
 * The most `shorter * longer` whose distance is computed when the titles cannot be the same: a
 * real title's (the nearest's similarity printed as measured), not a 2 MB one from a server.
 */
const exactUpTo = 1_000_000

/**
 * Similarity of two normalised titles: 1 minus their edit distance over the longer one's length.
 * The distance is at least the difference of the lengths, so the similarity is at most the shorter
 * length over the longer: when that is below the bound the titles cannot be the same, and past
 * `exactUpTo` it is given as the similarity, an upper bound, without the distance (quadratic: a
 * 3,900-character title against a 2 MB title from a server took over a second).
 */
const similarityOf = (a: string, b: string): number => {
  if (a.length === 0 || b.length === 0) return 0
  if (a === b) return 1
  const [shorter, longer] = [Math.min(a.length, b.length), Math.max(a.length, b.length)]
  if (shorter / longer < bound && shorter * longer > exactUpTo) return shorter / longer
  return 1 - distance(a, b) / longer
}

/** `compare` of two titles already normalised (so that a page's titles are normalised once). */
export const compareNormalised = (a: string, b: string): Comparison => {
  const similarity = similarityOf(a, b)
  // Below the bound the words need not be read (a page's titles against one are mostly unlike it).
  if (similarity < bound) return { similarity, same: false }
  const [x, y] = [wordKeys(a), wordKeys(b)]
  return { similarity, same: x.words === y.words || x.spaced === y.spaced }
}

/**
 * See `TitleMatch.compare`. A title past {@link longest} is read only that far, so it is the same as
 * another only when the two texts are equal; its similarity is at most the ratio of the lengths.
 */
export const compare = (given: string, found: string): Comparison => {
  const comparison = compareNormalised(normalise(given), normalise(found))
  if (Math.max(given.length, found.length) <= longest || given === found) return comparison
  const ratio = Math.min(given.length, found.length) / Math.max(given.length, found.length)
  return { similarity: Math.min(comparison.similarity, ratio), same: false }
}

/** See `TitleMatch.describeNearest`. */
export const describeNearest = (found: string, similarity: number): string =>
  `no paper has this title; the nearest, ${JSON.stringify(excerpt(found, 100))}, is ${similarity.toFixed(2)} similar (${
    bound.toFixed(2)
  } and the same words needed)`

// The leading articles a title is cited with or without.
const article: ReadonlySet<string> = new Set(["a", "an", "the"])

/**
 * A title as `Verify` compares it word for word: normalised, each word in one spelling, a leading
 * article dropped, the words joined without spaces ("pre-training" is "pretraining").
 */
const strictKey = (title: string): string => {
  const ws = spelled(normalise(title)).split(" ").filter((w) => w.length > 0)
  return (article.has(ws[0] ?? "") ? ws.slice(1) : ws).join("")
}

// Where a subtitle starts: a colon, full stop, question or exclamation mark, or a dash between spaces
// (records from PubMed end a title's first sentence with a full stop: "Mixed reality videography. Analyzing…").
const subtitleStart = /[:.?!]\s|\s[-–—]+\s/g

/**
 * The title before each of its subtitle starts, as {@link strictKey}s: a title may hold a separator
 * of its own before the subtitle cited with or without it ("Language Models - Part I: Continuity
 * With Classic Debates", "Do Zombies Understand? A … Exploration: A Survey").
 */
const mainKeys = (title: string): ReadonlyArray<string> => {
  const text = plain(title)
  return Array.from(text.matchAll(subtitleStart), (m) => strictKey(text.slice(0, m.index)))
}

/** See `TitleMatch.Relation`. */
export type Relation = "same" | "subtitle" | "other"

/**
 * How an entry's title stands to a paper's, word for word: `same` (the same words, each in any of
 * its British or American spellings, a leading article added or dropped, compounds spaced or not),
 * `subtitle` (the same but for a subtitle one of them adds, after any of its subtitle starts) or
 * `other` (any other word changed, function words included).
 */
export const relation = (given: string, found: string): Relation => {
  const [g, f] = [strictKey(given), strictKey(found)]
  if (g.length === 0 || f.length === 0) return "other"
  if (g === f) return "same"
  // Only the longer title can hold the other and a subtitle.
  const [longer, shorter] = g.length > f.length ? [given, f] : [found, g]
  return mainKeys(longer).includes(shorter) ? "subtitle" : "other"
}

/**
 * A title's keys for {@link relation}, so that a page of titles can be indexed by them: two titles
 * are `subtitle`-related when one's `key` is among the other's `mains`.
 */
export const subtitleKeys = (title: string): { readonly key: string; readonly mains: ReadonlyArray<string> } => ({
  key: strictKey(title),
  mains: mainKeys(title).filter((k) => k.length > 0)
})
