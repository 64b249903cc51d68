/**
 * Whether a paper's title is the title a user gave: the check behind every title match of the
 * client (`Resolve.references`, `s2 resolve`, the assistant tools), so that a paper is never
 * claimed to be a reference it is not.
 *
 * Two titles are the same when, after {@link normalise}, (1) they hold the same content words (every
 * word but a few articles, prepositions and "and"; spacing of a compound forgiven: "pre-training" is
 * "pretraining") and (2) their similarity is at least {@link bound}. Rule 1 means a title with one
 * content word changed, added or dropped is never the same, however long it is; rule 2 bounds the
 * rest (stop words, word order). docs/jobs.md gives the measurements behind the bound.
 *
 * @since 1.0.0
 */
import * as internal from "./internal/titleMatch.js"

/**
 * The outcome of {@link compare}: `similarity` in [0, 1] (1 minus the Levenshtein distance of the
 * normalised titles over the longer one's length; 0 when either is empty; for titles longer than
 * any real one whose lengths differ too much to be the same, the shorter's length over the
 * longer's, the most it could be, without the distance), and whether the titles are the `same`.
 *
 * @category models
 * @since 1.0.0
 */
export interface Comparison {
  readonly similarity: number
  readonly same: boolean
}

/**
 * The least similarity of two titles that are the same: 0.9. Measured on the recorded titles,
 * realistic noise (case, accents, LaTeX, punctuation, a trailing period) normalises away
 * (similarity 1), a dropped leading article stays above 0.9, and unrelated titles stay far below.
 *
 * @category constants
 * @since 1.0.0
 */
export const bound: number = internal.bound

/**
 * A title as it is compared: TeX accents, special letters and markup read (`Schr\"{o}dinger`,
 * `{\'e}`, `\emph{x}` → x, `$\alpha$` → alpha; Greek letters by name), lower case, accents
 * dropped (NFKD; off Latin and Greek letters, and Arabic and Hebrew points: a mark that makes
 * another letter in another script, as "ガ" or "й", stays), `ß` `æ` `ø` `ł`… spelled out, `&` as "and", the symbols that tell
 * titles apart spelled as words (`+` "plus", `<` "lt", `=` "eq", `%` "percent", `#` after a letter
 * "sharp", `*` in or after a word "star"; docs/jobs.md lists them), apostrophes dropped, any other
 * run of punctuation or white space as one space. A text longer than any real title (10,000
 * characters) is read only that far, so that its cost stays a real title's.
 *
 * @example
 * ```ts
 * import { TitleMatch } from "@s2-effect/jobs"
 *
 * TitleMatch.normalise("Schr\\\"{o}dinger's {$\\alpha$}-Decay: A Study.") // "schrodingers alpha decay a study"
 * ```
 * @category utils
 * @since 1.0.0
 */
export const normalise: (title: string) => string = internal.normalise

/**
 * Compares the title a user gave with the title of a paper found for it. A text longer than any
 * real title (10,000 characters) is the same as another only when the two are equal.
 *
 * @example
 * ```ts
 * import { TitleMatch } from "@s2-effect/jobs"
 *
 * TitleMatch.compare("attention is all you need.", "Attention Is All You Need") // { similarity: 1, same: true }
 * TitleMatch.compare("Deep residual learning for image recognition",
 *   "Deep residual learning for speech recognition").same // false
 * ```
 * @category utils
 * @since 1.0.0
 */
export const compare: (given: string, found: string) => Comparison = internal.compare

/**
 * Why the paper found for a title is not that title, in the words every title match of the client
 * uses (`Resolve`'s `NotFound`, `s2 resolve`, `s2 match`, the assistant tools): the paper's title,
 * cut to 100 characters, and its similarity.
 *
 * @example
 * ```ts
 * import { TitleMatch } from "@s2-effect/jobs"
 *
 * const given = "Deep residual learning for image recognition"
 * const found = "Deep residual learning for speech recognition"
 * const { same, similarity } = TitleMatch.compare(given, found)
 * if (!same) TitleMatch.describeNearest(found, similarity)
 * // 'no paper has this title; the nearest, "Deep residual learning for speech recognition", is 0.87 similar (0.90 and the same words needed)'
 * ```
 * @category utils
 * @since 1.1.0
 */
export const describeNearest: (found: string, similarity: number) => string = internal.describeNearest

/**
 * How an entry's title stands to a paper's, word for word, as `Verify` compares them: `same`
 * (the same words, each in any of its British or American spellings — -ise/-ize, -isation,
 * -yse/-yze, -our/-or, -re/-er, a doubled l, dialogue/dialog… — a leading article added or
 * dropped, compounds spaced or not), `subtitle` (the same but for a subtitle, after a colon, a
 * full stop, a question or exclamation mark or a spaced dash, that one of them adds; the longer
 * title cut at any of these) or `other` (any other word changed, function words included).
 *
 * @category models
 * @since 1.1.0
 */
export type Relation = "same" | "subtitle" | "other"

/**
 * The {@link Relation} of an entry's title to a paper's. Stricter than {@link compare}, which
 * finds candidates: "Learning with noisy labels" is the same title as "Learning from noisy labels"
 * to `compare`, and `other` here.
 *
 * @example
 * ```ts
 * import { TitleMatch } from "@s2-effect/jobs"
 *
 * TitleMatch.relation("Analysing organisational dialog", "Analyzing Organizational Dialogue") // "same"
 * TitleMatch.relation("Graph kernels", "Graph Kernels: A Survey") // "subtitle"
 * TitleMatch.relation("Learning with noisy labels", "Learning from noisy labels") // "other"
 * ```
 * @category utils
 * @since 1.1.0
 */
export const relation: (given: string, found: string) => Relation = internal.relation
