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

const utf8 = new TextEncoder()

/** The bytes `text` takes in a URL's query, percent-encoded as UTF-8 (a lone surrogate as U+FFFD). */
export const encodedBytes = (text: string): number => {
  let n = 0
  for (const byte of utf8.encode(text)) n += unreserved(byte) ? 1 : 3
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

interface Open {
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

/** The best paper of a page with the same title: most similar, then most cited, then first. */
const bestOf = (title: string, page: ReadonlyArray<Paper>): Candidate | undefined => {
  let best: { readonly candidate: Candidate; readonly cited: number } | undefined
  for (const paper of page) {
    if (typeof paper.title !== "string") continue
    const { same, similarity } = TitleMatch.compare(title, paper.title)
    const cited = paper.citationCount ?? 0
    if (
      same && (best === undefined || similarity > best.candidate.similarity ||
        (similarity === best.candidate.similarity && cited > best.cited))
    ) best = { candidate: { paperId: paper.paperId, similarity }, cited }
  }
  return best?.candidate
}

/**
 * One group: a bulk search for its titles ORed, each title settled by a paper of the first page
 * with the same title. A page cut at 1,000 (a token for more) may have pushed a title's paper off:
 * the titles it left open are asked again in two halves, down to one. A group the server refuses
 * is left open whole (its titles go to title match, where one that is refused fails alone).
 */
const settleGroup = (
  group: ReadonlyArray<Open>,
  out: Map<string, Candidate>
): Effect.Effect<void, S2Error, SemanticScholar> =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const query = group.map((open) => `"${phrase(open.title)}"`).join(" | ")
    const first = yield* Stream.runHead(s2.searchPaperPages(query, { bulk: true, fields: bulkFields })).pipe(
      Effect.catchIf(isRefusal, () => Effect.succeed(Option.none()))
    )
    if (Option.isNone(first)) return
    const left: Array<Open> = []
    for (const open of group) {
      const candidate = bestOf(open.title, first.value.data)
      if (candidate !== undefined) out.set(open.key, candidate)
      else left.push(open)
    }
    if (first.value.token === null || left.length <= 1) return
    const half = Math.ceil(left.length / 2)
    yield* settleGroup(left.slice(0, half), out)
    yield* settleGroup(left.slice(half), out)
  })

/**
 * Bulk-searches the titles that can be (enough content words; the caller has left out those too
 * long to send): a candidate per title settled, by key. Titles left out of the map go to title match.
 */
export const bulkTitles = Effect.fn("Resolve.bulkTitles")(function*(
  titles: ReadonlyArray<Open>,
  concurrency: number
) {
  const out = new Map<string, Candidate>()
  const eligible = titles.filter((open) =>
    TitleMatch.contentWords(TitleMatch.normalise(open.title)).length >= bulkMinWords
  )
  yield* Effect.forEach(groupsOf(eligible), (group) => settleGroup(group, out), { concurrency, discard: true })
  return out
})

/** The fields asked for, with `title` (the check needs it) when a list is given without it. */
export const withTitle = (
  fields: ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined
): ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined =>
  fields === undefined || fields.some((f) => (typeof f === "string" ? f : f.name) === "title")
    ? fields
    : [...fields, "title"]
