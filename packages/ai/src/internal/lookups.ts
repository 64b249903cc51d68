/**
 * The handlers of the tools that make one request: searches, lookups, citation lists,
 * recommendations, passages and the checked title match.
 */
import type { Fields, OffsetPage, PaperRef, S2Error, Service, Snippet } from "@s2-effect/core"
import { PaperId } from "@s2-effect/core"
import { TitleMatch as Titles } from "@s2-effect/jobs"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type {
  AuthorPapersAnswer,
  AuthorSearchAnswer,
  CitationsAnswer,
  PapersAnswer,
  PaperSearchAnswer,
  RecommendationsAnswer,
  SnippetsAnswer,
  TitleMatch
} from "../Answers.js"
import { bounds } from "./answerParts.js"
import { failure } from "./failure.js"
import { authorFields, authorSummary, paperSummary, some, str, summaryFields } from "./summaries.js"
import * as text from "./text.js"
import type {
  GetAuthorPapers,
  GetCitations,
  GetPapers,
  GetReferences,
  Params,
  RecommendPapers,
  Run,
  SearchAuthors,
  SearchPapers,
  SearchSnippets
} from "./tools.js"

/** Relevance search serves the first 1,000 results of a query, no more. */
const searchWindow = 1000

/** An id in the API's spelling when it is one of the forms it reads (a bare DOI, a link…), else as given. */
export const paperId: (id: string) => string = PaperId.spelled

/** The first page of a paginated list (one request), or an empty page. */
const firstPage = <A>(pages: Stream.Stream<OffsetPage<A>, S2Error>, offset: number) =>
  Effect.map(
    Stream.runHead(pages),
    // The page starts where it was asked to, whatever offset (negative, say) the server wrote in it.
    Option.match({ onNone: (): OffsetPage<A> => ({ offset, data: [] }), onSome: (page) => ({ ...page, offset }) })
  )

/** The API's lists serve their first 9,999 records (search its first 1,000). */
const listWindow = 9999

/** `next` only when the server gave one past this page that the list can still serve. */
const nextOf = (page: OffsetPage<unknown>, window = listWindow) =>
  some("next", page.next !== undefined && page.next > page.offset && page.next < window ? page.next : undefined)

const refuse = (detail: string) => Effect.fail(failure("badParameter", detail))

const yearFilter = (from: number | undefined, to: number | undefined) =>
  from === undefined && to === undefined ? {} : { year: from === to ? `${from}` : `${from ?? ""}-${to ?? ""}` }

const pageTotal = (page: OffsetPage<unknown>) => Math.max(page.total ?? 0, page.offset + page.data.length)

export const searchPapers = (s2: Service, params: Params<typeof SearchPapers>): Run<PaperSearchAnswer> => {
  if (params.yearFrom !== undefined && params.yearTo !== undefined && params.yearFrom > params.yearTo) {
    return refuse(`yearFrom ${params.yearFrom} is after yearTo ${params.yearTo}: give yearFrom ≤ yearTo`)
  }
  if (params.offset + params.limit > searchWindow) {
    return refuse(
      `offset ${params.offset} + limit ${params.limit} is over ${searchWindow}: search serves its first ` +
        `${searchWindow} results only; give offset + limit ≤ ${searchWindow}`
    )
  }
  const pages = s2.searchPaperPages(params.query, {
    fields: summaryFields,
    limit: params.limit,
    offset: params.offset,
    ...yearFilter(params.yearFrom, params.yearTo),
    ...some("fieldsOfStudy", params.fieldsOfStudy),
    ...(params.openAccessOnly === true ? { openAccessPdf: true } : {})
  })
  return Effect.map(firstPage(pages, params.offset), (page) => ({
    total: pageTotal(page),
    offset: page.offset,
    ...nextOf(page, searchWindow),
    papers: page.data.map(paperSummary)
  }))
}

export const getPapers = (s2: Service, { ids }: Params<typeof GetPapers>): Run<PapersAnswer> => {
  const asked = ids.map(paperId)
  const given = new Map(asked.map((id, i) => [id, ids[i]!]))
  return Effect.map(s2.getPapers(asked, { fields: summaryFields, returnNotFound: true }), (result) => ({
    papers: result.found.map(paperSummary),
    notFound: result.notFound.map((id) => text.cut(given.get(id) ?? id, bounds.id))
  }))
}

const citationPage = <E extends { readonly isInfluential?: boolean | null | undefined }>(
  given: string,
  page: OffsetPage<E>,
  paperOf: (edge: E) => PaperRef
): CitationsAnswer => ({
  paperId: text.cut(given, bounds.id),
  offset: page.offset,
  ...nextOf(page),
  // An entry without a paperId (the API lists some) names nothing the model could ask about.
  papers: page.data.flatMap((edge) => {
    const paper = paperOf(edge)
    return paper.paperId === null ? [] : [{ ...paperSummary(paper), ...some("isInfluential", edge.isInfluential) }]
  })
})

const citationFields = ["isInfluential", ...summaryFields] as const satisfies ReadonlyArray<Fields.CitationField>

export const getCitations = (s2: Service, { id, limit, offset }: Params<typeof GetCitations>): Run<CitationsAnswer> =>
  Effect.map(
    firstPage(s2.getPaperCitationsPages(paperId(id), { fields: citationFields, limit, offset }), offset),
    (page) => citationPage(id, page, (edge) => edge.citingPaper)
  )

export const getReferences = (s2: Service, { id, limit, offset }: Params<typeof GetReferences>): Run<CitationsAnswer> =>
  Effect.map(
    firstPage(s2.getPaperReferencesPages(paperId(id), { fields: citationFields, limit, offset }), offset),
    (page) => citationPage(id, page, (edge) => edge.citedPaper)
  )

export const searchAuthors = (
  s2: Service,
  { limit, offset, query }: Params<typeof SearchAuthors>
): Run<AuthorSearchAnswer> =>
  Effect.map(firstPage(s2.searchAuthorPages(query, { fields: authorFields, limit, offset }), offset), (page) => ({
    total: pageTotal(page),
    offset: page.offset,
    ...nextOf(page),
    authors: page.data.map(authorSummary)
  }))

export const getAuthorPapers = (
  s2: Service,
  { id, limit, offset }: Params<typeof GetAuthorPapers>
): Run<AuthorPapersAnswer> =>
  Effect.map(firstPage(s2.getAuthorPapersPages(id, { fields: summaryFields, limit, offset }), offset), (page) => ({
    authorId: text.cut(id, bounds.id),
    offset: page.offset,
    ...nextOf(page),
    papers: page.data.map(paperSummary)
  }))

/** The recommendations endpoints answer their first 500 papers, snippet search its first 1,000 passages. */
const recommendationsWindow = 500
const snippetsWindow = 1000

/**
 * A list the API answers whole, up to `window` records: asked for `offset + limit`, the first
 * `offset` dropped. `offset` is in the answer only past the first page (`next` only when the
 * answer budget cut it: `pages.ts`).
 */
const windowed = (what: string, window: number, limit: number, offset: number) =>
  offset + limit > window
    ? refuse(
      `offset ${offset} + limit ${limit} is over ${window}: ${what} serves its first ${window} results only; ` +
        `give offset + limit ≤ ${window}`
    )
    : Effect.succeed(offset + limit)

const pageOf = <A>(records: ReadonlyArray<A>, limit: number, offset: number) => ({
  records: records.slice(offset, offset + limit),
  ...(offset > 0 ? { offset } : {})
})

/** One positive example and no negative: the for-paper endpoint; else the lists endpoint. */
export const recommendPapers = (
  s2: Service,
  { limit, negative = [], offset, positive }: Params<typeof RecommendPapers>
): Run<RecommendationsAnswer> =>
  Effect.flatMap(windowed("recommendation", recommendationsWindow, limit, offset), (asked) =>
    Effect.map(
      positive.length === 1 && negative.length === 0
        ? s2.getRecommendedPapers(paperId(positive[0]!), { fields: summaryFields, limit: asked })
        : s2.getRecommendedPapersFromLists(positive.map(paperId), negative.map(paperId), {
          fields: summaryFields,
          limit: asked
        }),
      (papers) => {
        const { records, ...at } = pageOf(papers, limit, offset)
        return { papers: records.map(paperSummary), ...at }
      }
    ))

export const searchSnippets = (
  s2: Service,
  { limit, offset, query }: Params<typeof SearchSnippets>
): Run<SnippetsAnswer> =>
  Effect.flatMap(
    windowed("snippet search", snippetsWindow, limit, offset),
    (asked) =>
      Effect.map(s2.searchSnippet(query, { limit: asked }), (found) => {
        const { records, ...at } = pageOf(found, limit, offset)
        return { snippets: records.map(snippetAnswer), ...at }
      })
  )

const snippetAnswer = (s: Snippet) => ({
  text: text.cut(s.snippet?.text ?? "", bounds.snippet),
  ...some("section", str(s.snippet?.section, bounds.venue)),
  ...some("score", Number.isFinite(s.score) ? s.score : undefined),
  paper: {
    // The snippet endpoint names papers by corpus id only; `CorpusId:…` is an id the other tools take.
    paperId: s.paper.corpusId === null || s.paper.corpusId === undefined
      ? ""
      : text.cut(`CorpusId:${s.paper.corpusId}`, bounds.id),
    title: text.cut(s.paper.title ?? "", bounds.title)
  }
})

/**
 * The paper of `match_title`, only when it has the title given: the API answers its nearest title
 * however far, and the model would present that paper as the one asked for.
 */
export const matchTitle = (s2: Service, title: string): Run<TitleMatch> =>
  Effect.flatMap(s2.matchPaperTitle(title, { fields: summaryFields }), (paper) => {
    const { same, similarity } = Titles.compare(title, paper.title ?? "")
    return same
      ? Effect.succeed({
        ...paperSummary(paper),
        ...some("matchScore", Number.isFinite(paper.matchScore) ? paper.matchScore : undefined)
      })
      : Effect.fail(failure(
        "notFound",
        // Its id, so that the model can show that paper as what it is: another title, not the one asked for.
        `${Titles.describeNearest(paper.title ?? "", similarity)}${
          paper.paperId === null ? "" : `; its paperId ${paper.paperId}`
        }`
      ))
  })
