/** The check of {@link Api.check}: list each watch's recent papers, keep the unseen, fetch them in batches. */
import type { Fields, Paper, S2Error, Service } from "@s2-effect/core"
import { Filters, SemanticScholar } from "@s2-effect/core"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as Citable from "../Citable.js"
import type * as Api from "../Watch.js"
import { papersById } from "./papersById.js"

const DAY = 86_400_000
const WINDOW_DAYS = 90
const RECENT = 100
/** Citations and author papers: the most a page holds, so that one request lists a window. */
const LIST_LIMIT = 1000
/** What a list asks for: the id comes with every record, the date says how long to remember it. */
const LIST_FIELDS = ["publicationDate", "year"] as const

const dayOf = (millis: number): string => new Date(millis).toISOString().slice(0, 10)

/** A paper listed: its id and the day until which the window keeps it remembered. */
interface Listed {
  readonly id: string
  readonly keep: string
}

/**
 * The day a listed paper is remembered until: its publication date, or the last day of its year
 * when it has only a year (a year-only paper matches a date filter while its year does). A paper
 * with neither, which a date filter should not list, is remembered for the window from today.
 */
const keepOf = (
  paper: { readonly publicationDate?: string | null | undefined; readonly year?: number | null | undefined },
  today: string
): string => {
  const date = paper.publicationDate
  if (typeof date === "string" && /^\d{4}-\d{2}-\d{2}/.test(date)) return date.slice(0, 10)
  if (typeof paper.year === "number") return `${String(paper.year).padStart(4, "0")}-12-31`
  return today
}

const known = <A extends string>(values: ReadonlyArray<A>) => (value: string): A | Fields.Unchecked =>
  values.includes(value as A) ? value as A : Filters.unchecked(value)

/** The papers of a watch dated from `since`, newest first, each once. */
const list = (s2: Service, watch: Api.Watch, since: string, today: string): Effect.Effect<Array<Listed>, S2Error> => {
  const dated = `${since}:`
  const collect = <A>(
    pages: Stream.Stream<{ readonly data: ReadonlyArray<A> }, S2Error>,
    paperOf: (a: A) => { readonly paperId: string | null } & Parameters<typeof keepOf>[0]
  ) =>
    Stream.runFold(pages, () => new Map<string, string>(), (acc, page) => {
      for (const record of page.data) {
        const paper = paperOf(record)
        if (paper.paperId !== null && !acc.has(paper.paperId)) acc.set(paper.paperId, keepOf(paper, today))
      }
      return acc
    }).pipe(
      Effect.map((found) =>
        Array.from(found, ([id, keep]) => ({ id, keep }))
          // Newest first whatever the endpoint's order (author papers come by id).
          .sort((a, b) => (a.keep < b.keep ? 1 : a.keep > b.keep ? -1 : 0))
      )
    )
  // The citation and author lists are asked the same way: dated from the watch's start, 1,000 a page.
  const listed = { fields: LIST_FIELDS, limit: LIST_LIMIT, publicationDateOrYear: dated }
  switch (watch._tag) {
    case "Citations":
      return collect(
        s2.getPaperCitationsPages(watch.paperId, listed),
        (citation) => citation.citingPaper
      )
    case "Author":
      return collect(
        s2.getAuthorPapersPages(watch.authorId, listed),
        (paper) => paper
      )
    case "Query": {
      const filters = watch.filters ?? {}
      return collect(
        s2.searchPaperPages(watch.query, {
          bulk: true,
          sort: "publicationDate:desc",
          fields: LIST_FIELDS,
          publicationDateOrYear: dated,
          year: filters.year,
          openAccessPdf: filters.openAccessPdf,
          venue: filters.venue,
          minCitationCount: filters.minCitationCount,
          fieldsOfStudy: filters.fieldsOfStudy?.map(known(Filters.fieldsOfStudy)),
          publicationTypes: filters.publicationTypes?.map(known(Filters.publicationTypes))
        }),
        (paper) => paper
      )
    }
  }
}

/**
 * The first day a check of `entry` lists: its last check minus its window, but never before its
 * `since` (papers dated before it were never asked for, so they are not new either).
 */
const sinceOf = (entry: Api.Entry, now: number): string => {
  const window = (entry.watch.windowDays ?? WINDOW_DAYS) * DAY
  const last = entry.checkedAt === undefined ? Number.NaN : Date.parse(entry.checkedAt)
  const listed = Number.isFinite(last) ? dayOf(Math.min(last, now) - window) : undefined
  const since = entry.watch.since
  if (listed === undefined) return since ?? dayOf(now - window)
  return since !== undefined && since > listed ? since : listed
}

/** What a feed keeps of a paper found. */
const recentOf = (watch: string, paper: Paper, foundAt: string): Api.Recent => ({
  watch,
  paperId: paper.paperId,
  title: paper.title ?? null,
  authors: (paper.authors ?? []).flatMap((author) => (typeof author.name === "string" ? [author.name] : [])),
  publicationDate: paper.publicationDate ?? null,
  year: paper.year ?? null,
  venue: paper.venue ?? null,
  url: paper.url ?? null,
  foundAt
})

/** A watch's list, or its failure, and its unseen papers. */
type Listing = { readonly entry: Api.Entry; readonly listed: Result.Result<Array<Listed>, S2Error> | undefined }

/**
 * The entry after a check that showed `shown`: remembered until the window passes them. A paper
 * dated before the window, which a server that ignores the date filter lists, is remembered for a
 * window from today: forgotten at once, it was shown as new by every check.
 */
const nextEntry = (entry: Api.Entry, shown: ReadonlyArray<Listed>, now: number, checkedAt: string): Api.Entry => {
  const forgetBefore = dayOf(now - (entry.watch.windowDays ?? WINDOW_DAYS) * DAY)
  const seen = new Map<string, string>(entry.seen)
  for (const { id, keep } of shown) seen.set(id, keep < forgetBefore ? dayOf(now) : keep)
  return {
    watch: entry.watch,
    checkedAt,
    seen: Array.from(seen).filter(([, keep]) => keep >= forgetBefore).sort((a, b) => (a[0] < b[0] ? -1 : 1))
  }
}

export const check: (
  state: Api.State,
  options?: Api.CheckOptions
) => Effect.Effect<Api.CheckResult, S2Error, SemanticScholar> = Effect.fn("Watch.check")(function*(
  state: Api.State,
  options: Api.CheckOptions = {}
) {
  const s2 = yield* SemanticScholar
  const now = yield* Clock.currentTimeMillis
  const checkedAt = new Date(now).toISOString()
  const today = dayOf(now)
  const names = options.names === undefined || options.names.length === 0 ? undefined : new Set(options.names)
  const listings: ReadonlyArray<Listing> = yield* Effect.forEach(
    state.watches,
    (entry) =>
      names !== undefined && !names.has(entry.watch.name)
        ? Effect.succeed<Listing>({ entry, listed: undefined })
        : Effect.map(
          Effect.result(list(s2, entry.watch, sinceOf(entry, now), today)),
          (listed): Listing => ({ entry, listed })
        ),
    { concurrency: 4 }
  )
  const unseen = listings.map(({ entry, listed }) => {
    if (listed === undefined || Result.isFailure(listed)) return []
    const seen = new Set(entry.seen.map(([id]) => id))
    return listed.success.filter(({ id }) => !seen.has(id))
  })
  // One batch lookup for every watch's new papers; a paper new to two watches is asked once.
  const ids = Array.from(new Set(unseen.flat().map(({ id }) => id)))
  const papers = new Map<string, Paper | undefined>(
    ids.length === 0 ? [] : yield* papersById(s2, ids, options.fields ?? Citable.fields)
  )
  const found: Array<Api.Found> = []
  const failed: Array<Api.Failed> = []
  const watches = listings.map(({ entry, listed }, k): Api.Entry => {
    if (listed === undefined) return entry
    if (Result.isFailure(listed)) {
      failed.push({ watch: entry.watch.name, error: listed.failure })
      return entry
    }
    // A paper the batch does not know is not shown, so not remembered: the next check asks again.
    const shown = unseen[k]!.filter(({ id }) => papers.get(id) !== undefined)
    for (const { id } of shown) found.push({ watch: entry.watch.name, paper: papers.get(id)! })
    return nextEntry(entry, shown, now, checkedAt)
  })
  const recent = [...found.map(({ paper, watch }) => recentOf(watch, paper, checkedAt)), ...state.recent]
    .slice(0, Math.max(0, options.recent ?? RECENT))
  return { found, failed, checkedAt, state: { version: 1 as const, watches, recent } } satisfies Api.CheckResult
})
