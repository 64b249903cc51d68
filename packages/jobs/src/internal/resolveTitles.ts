/**
 * Titles to papers in few requests, each answer checked with TitleMatch: bulk searches whose query
 * ORs the quoted titles settle many at once, and only those left open go to title match, one each.
 */
import type { BadQueryParameters, Fields, Paper, S2Error, UnexpectedStatus } from "@s2-effect/core"
import { SemanticScholar } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { plain } from "./bibtex.js"
import * as TitleMatch from "./titleMatch.js"

/**
 * The most URL-encoded bytes one query may take: a bulk group's ORed titles, or one title. The API
 * sits behind a gateway whose URLs end at 8,192 bytes (a 20,000-character query gets 414); 4,000
 * leaves room for the path, the field list and the filters. A title longer than this alone is
 * refused before sending (`tooLong`), not sent to fail with the others.
 */
export const queryBytes = 4000

/**
 * A title goes to bulk search only with this many content words: a shorter phrase ("Deep
 * Learning") is in the abstracts of thousands of papers, and would push the group's other papers off
 * the 1,000 of a bulk page. Those go straight to title match.
 */
export const bulkMinWords = 3

const bulkFields = ["title", "citationCount"] as const

const unreserved = (byte: number): boolean =>
  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) ||
  byte === 0x2d || byte === 0x2e || byte === 0x5f || byte === 0x7e

/**
 * The bytes `text` takes in a URL's query, percent-encoded as UTF-8 (a lone surrogate as U+FFFD),
 * counted character by character: a 10 MB title is measured without a copy of it.
 */
export const encodedBytes = (text: string): number => {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) n += unreserved(code) ? 1 : 3
    else if (code < 0x800) n += 6
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1)
      if (low >= 0xdc00 && low <= 0xdfff) {
        n += 12
        i++
      } else n += 9
    } else n += 9
  }
  return n
}

/**
 * A title as a bulk-search phrase: its letters and digits, one space between words, so that no
 * character of it (a quote, `|`, `-`, `*`, `~`) is read as the query language's.
 */
export const phrase = (title: string): string => plain(title).replace(/[^\p{L}\p{N}]+/gu, " ").trim()

/** A paper a bulk search found for a title: its id, for the batch that fetches its fields, and how close. */
export interface Candidate {
  readonly paperId: string
  readonly similarity: number
}

export interface Open {
  readonly key: string
  readonly title: string
}

/** Whether an error is the server refusing this request as too long or malformed (400, 413, 414, 431). */
export const isRefusal = (error: S2Error): error is BadQueryParameters | UnexpectedStatus =>
  (error._tag === "BadQueryParameters" && error.refusedBy === "server") ||
  (error._tag === "UnexpectedStatus" && [413, 414, 431].includes(error.status))

/** The titles of one bulk request: as many as fit in {@link queryBytes}, in order. */
const groupsOf = (titles: ReadonlyArray<Open>): Array<Array<Open>> => {
  const groups: Array<Array<Open>> = []
  let group: Array<Open> = []
  let bytes = 0
  for (const open of titles) {
    // `"phrase"` (the quotes are %22), and ` | ` (%20%7C%20) before all but the first.
    const size = encodedBytes(phrase(open.title)) + 6
    if (group.length > 0 && bytes + 9 + size > queryBytes) {
      groups.push(group)
      group = []
      bytes = 0
    }
    bytes += group.length > 0 ? 9 + size : size
    group.push(open)
  }
  if (group.length > 0) groups.push(group)
  return groups
}

/**
 * A page's papers with titles, normalised once and indexed by their word keys (`TitleMatch`'s
 * `wordKeys`): a title can only be the same title as the papers under one of its own keys, so it is
 * compared with those alone, not with the whole page (50 titles and 1,000 papers were 50,000
 * normalisations and comparisons a group; a hostile page of 300,000 titles, minutes).
 */
interface PageIndex {
  readonly papers: ReadonlyArray<{ readonly paper: Paper; readonly title: string }>
  readonly byKey: Map<string, Array<number>>
}

const indexPage = (page: ReadonlyArray<Paper>): PageIndex => {
  const papers: Array<{ readonly paper: Paper; readonly title: string }> = []
  const byKey = new Map<string, Array<number>>()
  const add = (key: string, at: number) => {
    const bucket = byKey.get(key)
    if (bucket === undefined) byKey.set(key, [at])
    else bucket.push(at)
  }
  for (const paper of page) {
    const title = paper.title
    if (typeof title !== "string") continue
    const normalised = TitleMatch.normalise(title)
    const keys = TitleMatch.wordKeys(normalised)
    papers.push({ paper, title: normalised })
    add(`w${keys.words}`, papers.length - 1)
    add(`s${keys.spaced}`, papers.length - 1)
  }
  return { papers, byKey }
}

/**
 * The best paper of a page with the same title (most similar, then most cited, then first), and
 * the ids of the page's other papers with the same title: which of them the reference is, its
 * authors and year decide (`Verify`), not their citations.
 */
const bestOf = (
  title: string,
  index: PageIndex
): { readonly best: Candidate; readonly others: ReadonlyArray<string> } | undefined => {
  const normalised = TitleMatch.normalise(title)
  const keys = TitleMatch.wordKeys(normalised)
  const at = [...new Set([...index.byKey.get(`w${keys.words}`) ?? [], ...index.byKey.get(`s${keys.spaced}`) ?? []])]
    .sort((a, b) => a - b)
  let best: { readonly candidate: Candidate; readonly cited: number } | undefined
  const same: Array<string> = []
  for (const i of at) {
    const { paper, title: found } = index.papers[i]!
    const { same: isSame, similarity } = TitleMatch.compareNormalised(normalised, found)
    const cited = paper.citationCount ?? 0
    if (isSame) same.push(paper.paperId)
    if (
      isSame && (best === undefined || similarity > best.candidate.similarity ||
        (similarity === best.candidate.similarity && cited > best.cited))
    ) best = { candidate: { paperId: paper.paperId, similarity }, cited }
  }
  return best === undefined
    ? undefined
    : { best: best.candidate, others: same.filter((id) => id !== best.candidate.paperId) }
}

/** The most papers of a page kept for a title as the same but for a subtitle. */
const nearMost = 2

/**
 * The papers of a page whose title is one of `titles` but for a subtitle added or dropped
 * (`TitleMatch.relation`), by the title's key: a title match, which wants the same words, misses
 * them, and `Verify` lets the entry's authors and year decide. The page's keys are computed only
 * when some title is left open, once each.
 */
const nearOn = (
  titles: ReadonlyArray<Open>,
  page: ReadonlyArray<Paper>,
  near: Map<string, ReadonlyArray<string>>
): void => {
  const byKey = new Map<string, Array<string>>()
  const byMain = new Map<string, Array<string>>()
  const add = (map: Map<string, Array<string>>, key: string, id: string) => {
    const bucket = map.get(key)
    if (bucket === undefined) map.set(key, [id])
    else if (!bucket.includes(id)) bucket.push(id)
  }
  for (const paper of page) {
    if (typeof paper.title !== "string") continue
    const { key, mains } = TitleMatch.subtitleKeys(paper.title)
    add(byKey, key, paper.paperId)
    for (const main of mains) add(byMain, main, paper.paperId)
  }
  for (const open of titles) {
    const { key, mains } = TitleMatch.subtitleKeys(open.title)
    const ids = [...new Set([...byMain.get(key) ?? [], ...mains.flatMap((main) => byKey.get(main) ?? [])])]
    if (ids.length > 0) near.set(open.key, ids.slice(0, nearMost))
  }
}

/**
 * The titles a page settles: each title's best paper on it, by key; titles it does not settle are
 * left out. The other papers of the same title are added to `others`, by key, when given, and the
 * papers of a title left open but for a subtitle to `near`.
 */
export const settledBy = (
  titles: ReadonlyArray<Open>,
  page: ReadonlyArray<Paper>,
  others?: Map<string, ReadonlyArray<string>>,
  near?: Map<string, ReadonlyArray<string>>
): Map<string, Candidate> => {
  const index = indexPage(page)
  const out = new Map<string, Candidate>()
  for (const open of titles) {
    const found = bestOf(open.title, index)
    if (found === undefined) continue
    out.set(open.key, found.best)
    if (others !== undefined && found.others.length > 0) others.set(open.key, found.others)
  }
  const left = titles.filter((open) => !out.has(open.key))
  if (near !== undefined && left.length > 0) nearOn(left, page, near)
  return out
}

/**
 * One group: a bulk search for its titles ORed, each title settled by a paper of the first page
 * with the same title. A page cut at 1,000 (a token for more) may have pushed a title's paper off:
 * the titles it left open are asked again in two halves, down to one. A group the server refuses
 * is left open whole (its titles go to title match, where one that is refused fails alone).
 */
const settleGroup = (
  group: ReadonlyArray<Open>,
  out: Map<string, Candidate>,
  others: Map<string, ReadonlyArray<string>>,
  near: Map<string, ReadonlyArray<string>>
): Effect.Effect<void, S2Error, SemanticScholar> =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const query = group.map((open) => `"${phrase(open.title)}"`).join(" | ")
    const first = yield* Stream.runHead(s2.searchPaperPages(query, { bulk: true, fields: bulkFields })).pipe(
      Effect.catchIf(isRefusal, () => Effect.succeed(Option.none()))
    )
    if (Option.isNone(first)) return
    const settled = settledBy(group, first.value.data, others, near)
    settled.forEach((candidate, key) => out.set(key, candidate))
    const left = group.filter((open) => !settled.has(open.key))
    if (first.value.token === null || left.length <= 1) return
    const half = Math.ceil(left.length / 2)
    yield* settleGroup(left.slice(0, half), out, others, near)
    yield* settleGroup(left.slice(half), out, others, near)
  })

/**
 * Bulk-searches the titles that can be (enough content words; the caller has left out those too
 * long to send): a candidate per title settled, by key, the ids of the other papers of its title,
 * and, for a title left open, of the papers of its title but for a subtitle (`near`). Titles left
 * out of `candidates` go to title match.
 */
export const bulkTitles = Effect.fn("Resolve.bulkTitles")(function*(
  titles: ReadonlyArray<Open>,
  concurrency: number
) {
  const out = new Map<string, Candidate>()
  const others = new Map<string, ReadonlyArray<string>>()
  const near = new Map<string, ReadonlyArray<string>>()
  const eligible = titles.filter((open) =>
    TitleMatch.contentWords(TitleMatch.normalise(open.title)).length >= bulkMinWords
  )
  yield* Effect.forEach(groupsOf(eligible), (group) => settleGroup(group, out, others, near), {
    concurrency,
    discard: true
  })
  return { candidates: out, others, near }
})

/** The fields asked for, with `title` (the check needs it) when a list is given without it. */
export const withTitle = (
  fields: ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined
): ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined =>
  fields === undefined || fields.some((f) => (typeof f === "string" ? f : f.name) === "title")
    ? fields
    : [...fields, "title"]
