/**
 * Semantic Scholar as tools for an AI assistant: the answer schemas, the typed failure, the 15
 * effect/ai `Tool`s (one table) and their handlers over the client. Answers are compact on
 * purpose: chosen fields, bounded counts, every string from the server cut to a bound, no object
 * keyed by server data. The text each tool shows the model is in `assistantText.ts`.
 */
import type { Fields, OffsetPage, Paper, PaperRef, S2Error, Service } from "@s2-effect/core"
import { Filters, isS2Error, RetryPolicy, SemanticScholar } from "@s2-effect/core"
import { CitationGraph, Resolve, TitleMatch as Titles } from "@s2-effect/jobs"
import * as Prompt from "effect/ai/Prompt"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { HandlersOptions } from "../AssistantTools.js"
import * as text from "./assistantText.js"
import * as verifyTool from "./assistantVerify.js"
import { reportProgress } from "./mcpTools.js"

// ---------------------------------------------------------------------------------------------
// bounds

/**
 * The bounds of the tools' inputs: results per call, ids per lookup, lines per reference list,
 * seeds, depth, neighbours per paper and papers of a citation graph.
 *
 * @category constants
 * @since 1.0.0
 */
export const limits = {
  results: 100,
  ids: 100,
  lines: 200,
  seeds: 5,
  depth: 2,
  perNode: 20,
  nodes: 200
} as const

/** The longest string of each kind an answer carries (UTF-16 units; longer ones end in "…"). */
export const bounds = {
  id: 200,
  title: 300,
  venue: 120,
  name: 100,
  url: 500,
  abstract: 1500,
  tldr: 500,
  journal: 200,
  snippet: 1000,
  line: 500,
  message: 300
} as const

/** Relevance search serves the first 1,000 results of a query, no more. */
const searchWindow = 1000

// ---------------------------------------------------------------------------------------------
// answer schemas

const Bounded = (max: number) => Schema.String.check(Schema.isMaxLength(max))
const optional = Schema.optionalKey
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

const paperSummaryFields = {
  paperId: Bounded(bounds.id),
  title: Bounded(bounds.title),
  year: optional(Schema.Int),
  venue: optional(Bounded(bounds.venue)),
  authors: Schema.Array(Bounded(bounds.name)).check(Schema.isMaxLength(5)).annotate({
    description: "The first five authors' names"
  }),
  authorCount: Count,
  citationCount: optional(Count),
  doi: optional(Bounded(bounds.id)),
  arxiv: optional(Bounded(bounds.id)),
  openAccessPdf: optional(Bounded(bounds.url)),
  url: optional(Bounded(bounds.url))
}

/**
 * A paper in a list: `paperId`, `title` (≤ 300 characters), `year?`, `venue?`, `authors` (the
 * first five names), `authorCount`, `citationCount?`, `doi?`, `arxiv?`, `openAccessPdf?` (a URL),
 * `url?`.
 *
 * @category answers
 * @since 1.0.0
 */
export const PaperSummary = Schema.Struct(paperSummaryFields)
/**
 * @category answers
 * @since 1.0.0
 */
export type PaperSummary = typeof PaperSummary.Type

/**
 * The answer of `get_paper`: a {@link PaperSummary} with `abstract?` (≤ 1,500 characters), `tldr?`,
 * `fieldsOfStudy?`, `referenceCount?`, `influentialCitationCount?`, `publicationDate?`,
 * `publicationTypes?`, `journal?`.
 *
 * @category answers
 * @since 1.0.0
 */
export const PaperDetail = Schema.Struct({
  ...paperSummaryFields,
  abstract: optional(Bounded(bounds.abstract)),
  tldr: optional(Bounded(bounds.tldr)),
  fieldsOfStudy: optional(Schema.Array(Bounded(bounds.name)).check(Schema.isMaxLength(10))),
  referenceCount: optional(Count),
  influentialCitationCount: optional(Count),
  publicationDate: optional(Bounded(bounds.name)),
  publicationTypes: optional(Schema.Array(Bounded(bounds.name)).check(Schema.isMaxLength(10))),
  journal: optional(Bounded(bounds.journal))
})
/**
 * @category answers
 * @since 1.0.0
 */
export type PaperDetail = typeof PaperDetail.Type

/**
 * An author (the answer of `get_author`, an entry of `search_authors`): `authorId`, `name`,
 * `affiliations` (≤ 3), `paperCount?`, `citationCount?`, `hIndex?`, `url?`, `homepage?`.
 *
 * @category answers
 * @since 1.0.0
 */
export const AuthorSummary = Schema.Struct({
  authorId: Bounded(bounds.id),
  name: Bounded(bounds.name),
  affiliations: Schema.Array(Bounded(bounds.venue)).check(Schema.isMaxLength(3)),
  paperCount: optional(Count),
  citationCount: optional(Count),
  hIndex: optional(Count),
  url: optional(Bounded(bounds.url)),
  homepage: optional(Bounded(bounds.url))
})
/**
 * @category answers
 * @since 1.0.0
 */
export type AuthorSummary = typeof AuthorSummary.Type

/** A page of a list: its records, where it starts, and the offset of the next page when there is one. */
const page = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct({ ...fields, offset: Count, next: optional(Count) })

/**
 * The answer of `search_papers`: `{ total, offset, next?, papers }`.
 *
 * @category answers
 * @since 1.0.0
 */
export const PaperSearchAnswer = page({ total: Count, papers: Schema.Array(PaperSummary) })
/**
 * @category answers
 * @since 1.0.0
 */
export type PaperSearchAnswer = typeof PaperSearchAnswer.Type

/**
 * The answer of `get_papers`: `{ papers, notFound }` (the ids not found, as given).
 *
 * @category answers
 * @since 1.0.0
 */
export const PapersAnswer = Schema.Struct({
  papers: Schema.Array(PaperSummary),
  notFound: Schema.Array(Bounded(bounds.id))
})
/**
 * @category answers
 * @since 1.0.0
 */
export type PapersAnswer = typeof PapersAnswer.Type

/**
 * An entry of `get_citations` / `get_references`: a {@link PaperSummary} with `isInfluential?`.
 *
 * @category answers
 * @since 1.0.0
 */
export const CitedPaper = Schema.Struct({ ...paperSummaryFields, isInfluential: optional(Schema.Boolean) })
/**
 * @category answers
 * @since 1.0.0
 */
export type CitedPaper = typeof CitedPaper.Type

/**
 * The answer of `get_citations` and `get_references`: `{ paperId (as given), offset, next?, papers }`.
 *
 * @category answers
 * @since 1.0.0
 */
export const CitationsAnswer = page({ paperId: Bounded(bounds.id), papers: Schema.Array(CitedPaper) })
/**
 * @category answers
 * @since 1.0.0
 */
export type CitationsAnswer = typeof CitationsAnswer.Type

/**
 * The answer of `search_authors`: `{ total, offset, next?, authors }`.
 *
 * @category answers
 * @since 1.0.0
 */
export const AuthorSearchAnswer = page({ total: Count, authors: Schema.Array(AuthorSummary) })
/**
 * @category answers
 * @since 1.0.0
 */
export type AuthorSearchAnswer = typeof AuthorSearchAnswer.Type

/**
 * The answer of `get_author_papers`: `{ authorId, offset, next?, papers }`.
 *
 * @category answers
 * @since 1.0.0
 */
export const AuthorPapersAnswer = page({ authorId: Bounded(bounds.id), papers: Schema.Array(PaperSummary) })
/**
 * @category answers
 * @since 1.0.0
 */
export type AuthorPapersAnswer = typeof AuthorPapersAnswer.Type

/**
 * The answer of `recommend_papers`: `{ papers }`.
 *
 * @category answers
 * @since 1.0.0
 */
export const RecommendationsAnswer = Schema.Struct({ papers: Schema.Array(PaperSummary) })
/**
 * @category answers
 * @since 1.0.0
 */
export type RecommendationsAnswer = typeof RecommendationsAnswer.Type

/**
 * The answer of `match_title`: a {@link PaperSummary} with `matchScore?`.
 *
 * (Scores are `Finite`: `Number`'s JSON Schema also admits the strings "Infinity" and "NaN".)
 *
 * @category answers
 * @since 1.0.0
 */
export const TitleMatch = Schema.Struct({ ...paperSummaryFields, matchScore: optional(Schema.Finite) })
/**
 * @category answers
 * @since 1.0.0
 */
export type TitleMatch = typeof TitleMatch.Type

/**
 * A passage of `search_snippets`: `{ text, section?, score?, paper: { paperId, title } }`
 * (`paperId` as `CorpusId:…`).
 *
 * @category answers
 * @since 1.0.0
 */
export const SnippetAnswer = Schema.Struct({
  text: Bounded(bounds.snippet),
  section: optional(Bounded(bounds.venue)),
  score: optional(Schema.Finite),
  paper: Schema.Struct({ paperId: Bounded(bounds.id), title: Bounded(bounds.title) })
})
/**
 * @category answers
 * @since 1.0.0
 */
export type SnippetAnswer = typeof SnippetAnswer.Type

/**
 * The answer of `search_snippets`: `{ snippets }`.
 *
 * @category answers
 * @since 1.0.0
 */
export const SnippetsAnswer = Schema.Struct({ snippets: Schema.Array(SnippetAnswer) })
/**
 * @category answers
 * @since 1.0.0
 */
export type SnippetsAnswer = typeof SnippetsAnswer.Type

/**
 * A line of `resolve_references`: `{ line, via?: "id" | "title", paper?, reason?: "unknownId" |
 * "noTitleMatch" | "malformed" | "tooLong" | "refused" | "notTried", nearest?, similarity? }`
 * (`notTried`: the call reached its time budget first; `nearest`: for `noTitleMatch`, the paper
 * title match answered, whose title is not the line's, and `similarity` how close it was).
 *
 * @category answers
 * @since 1.0.0
 */
export const ResolvedReference = Schema.Struct({
  line: Bounded(bounds.line),
  via: optional(Schema.Literals(["id", "title"])),
  paper: optional(PaperSummary),
  reason: optional(Schema.Literals([...Resolve.Reason.literals, "notTried"])),
  nearest: optional(PaperSummary),
  similarity: optional(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })))
})
/**
 * @category answers
 * @since 1.0.0
 */
export type ResolvedReference = typeof ResolvedReference.Type

/** Present when a call stopped at its time budget: the budget, in seconds. */
const TimeBudget = optional(Count.annotate({ description: "The time budget the call stopped at, in seconds" }))

/**
 * The answer of `resolve_references`: `{ found, notFound, notTried?, timeBudgetSeconds?,
 * references }`, one reference per line in input order. When the call reaches its time budget,
 * the lines not yet resolved are `notTried` (counted apart from `notFound`).
 *
 * @category answers
 * @since 1.0.0
 */
export const ReferencesAnswer = Schema.Struct({
  found: Count,
  notFound: Count,
  notTried: optional(Count),
  timeBudgetSeconds: TimeBudget,
  references: Schema.Array(ResolvedReference)
})
/**
 * @category answers
 * @since 1.0.0
 */
export type ReferencesAnswer = typeof ReferencesAnswer.Type

/**
 * A paper of `citation_graph`: `{ paperId, title, year?, citationCount?, depth }`.
 *
 * @category answers
 * @since 1.0.0
 */
export const GraphNode = Schema.Struct({
  paperId: Bounded(bounds.id),
  title: Bounded(bounds.title),
  year: optional(Schema.Int),
  citationCount: optional(Count),
  depth: Count
})
/**
 * @category answers
 * @since 1.0.0
 */
export type GraphNode = typeof GraphNode.Type

/**
 * The answer of `citation_graph`: `{ nodes, edges: { from, to }[] (from cites to), notFound,
 * skipped?, truncated, timeBudgetSeconds? }`; `truncated` at `maxNodes` papers, or at the time
 * budget (then `timeBudgetSeconds` says which); `skipped` counts the ids the server listed that no
 * request can carry (a control character, a `..` segment), left out of the walk.
 *
 * @category answers
 * @since 1.0.0
 */
export const GraphAnswer = Schema.Struct({
  nodes: Schema.Array(GraphNode),
  edges: Schema.Array(Schema.Struct({ from: Bounded(bounds.id), to: Bounded(bounds.id) })),
  notFound: Schema.Array(Bounded(bounds.id)),
  skipped: optional(Count),
  truncated: Schema.Boolean,
  timeBudgetSeconds: TimeBudget
})
/**
 * @category answers
 * @since 1.0.0
 */
export type GraphAnswer = typeof GraphAnswer.Type

/**
 * A paper of `related_papers`: a {@link PaperSummary} with `score`, `coCitation` (papers citing a
 * seed that cite it too), `coupling` (papers a seed cites that it cites too), `citesSeed`,
 * `citedBySeed`.
 *
 * @category answers
 * @since 1.1.0
 */
export const RelatedPaperAnswer = Schema.Struct({
  ...paperSummaryFields,
  score: Schema.Finite,
  coCitation: Count,
  coupling: Count,
  citesSeed: Schema.Boolean,
  citedBySeed: Schema.Boolean
})
/**
 * @category answers
 * @since 1.1.0
 */
export type RelatedPaperAnswer = typeof RelatedPaperAnswer.Type

/**
 * The answer of `related_papers`: `{ seeds: { paperId, title, year? }[], notFound, papers (best
 * first), candidates, citing, cited, cutLists, timeBudgetSeconds? }`: how many papers were ranked,
 * how many papers citing a seed and cited by one had their lists read, and how many lists the API
 * cut at 1,000 entries (their counts may be low). At the time budget the papers are ranked from
 * the lists read so far (`timeBudgetSeconds`).
 *
 * @category answers
 * @since 1.1.0
 */
export const RelatedAnswer = Schema.Struct({
  seeds: Schema.Array(Schema.Struct({
    paperId: Bounded(bounds.id),
    title: Bounded(bounds.title),
    year: optional(Schema.Int)
  })),
  notFound: Schema.Array(Bounded(bounds.id)),
  papers: Schema.Array(RelatedPaperAnswer),
  candidates: Count,
  citing: Count,
  cited: Count,
  cutLists: Count,
  timeBudgetSeconds: TimeBudget
})
/**
 * @category answers
 * @since 1.1.0
 */
export type RelatedAnswer = typeof RelatedAnswer.Type

// ---------------------------------------------------------------------------------------------
// failures

/**
 * The kinds of {@link ToolFailure}.
 *
 * @category models
 * @since 1.0.0
 */
export const FailureKind = Schema.Literals([
  "notFound",
  "badParameter",
  "rateLimited",
  "timeout",
  "forbidden",
  "serverError",
  "unreachable",
  "badAnswer"
])
/**
 * @category models
 * @since 1.0.0
 */
export type FailureKind = typeof FailureKind.Type

/**
 * Marks a {@link ToolFailure}.
 *
 * @category symbols
 * @since 1.0.0
 */
export const ToolFailureTypeId: unique symbol = Symbol.for("@s2-effect/ai/AssistantTools/ToolFailure")

/**
 * @category symbols
 * @since 1.0.0
 */
export type ToolFailureTypeId = typeof ToolFailureTypeId

/**
 * A tool's failure: what went wrong in a word (`kind`), one line for the model (`message`, at most
 * 300 characters, starting with the kind in words) and, when rate limited, the wait in seconds.
 *
 * @category errors
 * @since 1.0.0
 */
export class ToolFailure extends Schema.TaggedError<ToolFailure>()("ToolFailure", {
  kind: FailureKind,
  message: Schema.String,
  retryAfterSeconds: optional(Schema.Number)
}) {
  /** @since 1.0.0 */
  readonly [ToolFailureTypeId]: ToolFailureTypeId = ToolFailureTypeId
}

const kindWords: { readonly [K in FailureKind]: string } = {
  notFound: "not found",
  badParameter: "bad parameter",
  rateLimited: "rate limited",
  timeout: "timed out",
  forbidden: "forbidden",
  serverError: "server error",
  unreachable: "unreachable",
  badAnswer: "bad answer from the server"
}

/**
 * A URL's query (the field list, the query text) told the model nothing it did not send, and
 * pushed the server's own words out of the 300 characters.
 */
const withoutQueries = (detail: string) => detail.replace(/(https?:\/\/[^\s?#)]+)[?#][^\s)]*/g, "$1")

/** A failure of `kind`: its words, then `detail` on one line (URLs without their query), ≤ 300 characters. */
export const failure = (kind: FailureKind, detail: string, retryAfterSeconds?: number): ToolFailure =>
  new ToolFailure({
    kind,
    message: text.cut(text.oneLine(`${kindWords[kind]}: ${withoutQueries(detail)}`), bounds.message),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds })
  })

/** The server's wait, else the longest the default policy waits after a 429 (no wait is safe to advise). */
const seconds = (millis: number | undefined) =>
  Math.max(1, Math.ceil((millis ?? Duration.toMillis(RetryPolicy.defaultBudgets.rateLimited.cap)) / 1000))

const rateLimited = (retryAfterMillis: number | undefined, what: string) => {
  const wait = seconds(retryAfterMillis)
  return failure("rateLimited", `${what}; retry after ${wait} s`, wait)
}

/** An `S2Error` as the tool failure the model sees. */
export const toolFailure = (error: S2Error): ToolFailure => {
  switch (error._tag) {
    case "ObjectNotFound":
      return failure("notFound", error.message)
    case "BadQueryParameters":
    case "InvalidOptions":
      return failure("badParameter", error.message)
    case "RateLimited":
      return rateLimited(error.retryAfterMillis, "the API answered 429 (too many requests) to every retry")
    case "Timeout":
      // The deadline stopped the retries of a 429: the model should wait, not treat it as slowness.
      return isS2Error(error.cause) && error.cause._tag === "RateLimited"
        ? rateLimited(
          error.cause.retryAfterMillis,
          "the API answered 429 (too many requests) and the wait would pass the deadline"
        )
        : failure("timeout", error.message)
    case "Forbidden":
      return failure("forbidden", error.message)
    case "ServerError":
    case "UnexpectedStatus":
      return failure("serverError", error.message)
    case "TransportError":
    case "RateLimiterUnavailable":
      return failure("unreachable", error.message)
    case "DecodeError":
    case "ProtocolError":
      return failure("badAnswer", error.message)
  }
}

// ---------------------------------------------------------------------------------------------
// parameters

const Query = Schema.String.check(Schema.isBetweenLength(1, 1000))
const Id = Schema.String.check(Schema.isBetweenLength(1, bounds.id))
const paperIdForms = "a Semantic Scholar paper id, DOI:…, ARXIV:…, CorpusId:…, PMID:…, PMCID:…, ACL:…, MAG:…, " +
  "URL:… or a doi.org / arxiv.org / semanticscholar.org link"

const count = (max: number, fallback: number, description: string) =>
  Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: max })).annotate({
    description: `${description} (1 to ${max}; default ${fallback})`,
    default: fallback
  }).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(fallback)))

const Offset = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
  description: "Skip this many results, to get the next page (the answer's `next`; default 0)",
  default: 0
}).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(0)))

const Year = (description: string) =>
  optional(Schema.Int.check(Schema.isBetween({ minimum: 1000, maximum: 9999 })).annotate({ description }))

const PaperIdParam = Id.annotate({ description: `The paper: ${paperIdForms}` })
const PaperIds = (min: number, description: string) =>
  Schema.Array(Id).check(Schema.isBetweenLength(min, limits.ids)).annotate({
    description: `${description} (${min} to ${limits.ids} ids; each ${paperIdForms})`
  })

// ---------------------------------------------------------------------------------------------
// the tools, as a table

const tool = <const Name extends string, P extends Schema.Struct.Fields, S extends Schema.Top>(
  name: Name,
  spec: {
    readonly title: string
    readonly description: string
    readonly parameters: P
    readonly success: S
    readonly render: (answer: S["Type"]) => string
  }
) =>
  Tool.make(name, {
    description: spec.description,
    parameters: Schema.Struct(spec.parameters),
    success: spec.success,
    failure: ToolFailure,
    failureMode: "return",
    toModelOutput: (answer) => [Prompt.textPart({ text: spec.render(answer) })]
  })
    .annotate(Tool.Title, spec.title)
    .annotate(Tool.Readonly, true)
    .annotate(Tool.Destructive, false)
    .annotate(Tool.Idempotent, true)
    .annotate(Tool.OpenWorld, true)

const SearchPapers = tool("search_papers", {
  title: "Search papers",
  description: "Search Semantic Scholar for papers by relevance to a query, with optional filters. " +
    "Pages through the first 1,000 results with offset and limit.",
  parameters: {
    query: Query.annotate({ description: "Words to search for (plain text, no query syntax)" }),
    yearFrom: Year("Only papers published in or after this year"),
    yearTo: Year("Only papers published in or before this year"),
    fieldsOfStudy: optional(
      Schema.Array(Schema.Literals(Filters.fieldsOfStudy)).check(Schema.isBetweenLength(1, 23)).annotate({
        description: "Only papers in one of these fields of study"
      })
    ),
    openAccessOnly: optional(Schema.Boolean.annotate({ description: "Only papers with a free PDF" })),
    limit: count(limits.results, 10, "How many papers"),
    offset: Offset
  },
  success: PaperSearchAnswer,
  render: (answer) => text.searchPapers(answer)
})

const GetPaper = tool("get_paper", {
  title: "Get a paper",
  description: "Look up one paper by any of its ids: title, authors, venue, abstract, TL;DR, counts and links.",
  parameters: { id: PaperIdParam },
  success: PaperDetail,
  render: (answer) => text.paperDetail(answer)
})

const GetPapers = tool("get_papers", {
  title: "Get papers",
  description: "Look up several papers at once by their ids (one request); ids not found are listed apart.",
  parameters: { ids: PaperIds(1, "The papers") },
  success: PapersAnswer,
  render: (answer) => text.papers(answer)
})

/** The papers citing a paper, or those it cites: the same list seen from either end. */
const citationTool = <const Name extends string>(
  name: Name,
  spec: { readonly title: string; readonly description: string; readonly relation: "citing" | "cited by" }
) =>
  tool(name, {
    title: spec.title,
    description: spec.description,
    parameters: {
      id: PaperIdParam,
      limit: count(limits.results, 20, `How many papers ${spec.relation} it`),
      offset: Offset
    },
    success: CitationsAnswer,
    render: (answer) => text.citations(answer, spec.relation)
  })

const GetCitations = citationTool("get_citations", {
  title: "Papers citing a paper",
  description: "List the papers that cite a paper, a page at a time, marking influential citations.",
  relation: "citing"
})

const GetReferences = citationTool("get_references", {
  title: "Papers a paper cites",
  description: "List the papers a paper cites (its references), a page at a time.",
  relation: "cited by"
})

const SearchAuthors = tool("search_authors", {
  title: "Search authors",
  description: "Search Semantic Scholar for authors by name.",
  parameters: {
    query: Query.annotate({ description: "The author's name, or part of it" }),
    limit: count(limits.results, 10, "How many authors"),
    offset: Offset
  },
  success: AuthorSearchAnswer,
  render: (answer) => text.searchAuthors(answer)
})

const AuthorIdParam = Id.annotate({ description: "The Semantic Scholar author id, a number such as \"1741101\"" })

const GetAuthor = tool("get_author", {
  title: "Get an author",
  description:
    "Look up one author by Semantic Scholar author id: name, affiliations, paper and citation counts, h-index.",
  parameters: { id: AuthorIdParam },
  success: AuthorSummary,
  render: (answer) => text.author(answer)
})

const GetAuthorPapers = tool("get_author_papers", {
  title: "An author's papers",
  description: "List an author's papers, a page at a time.",
  parameters: { id: AuthorIdParam, limit: count(limits.results, 20, "How many papers"), offset: Offset },
  success: AuthorPapersAnswer,
  render: (answer) => text.authorPapers(answer)
})

const RecommendPapers = tool("recommend_papers", {
  title: "Recommend papers",
  description: "Recommend papers like the positive examples and unlike the negative ones.",
  parameters: {
    positive: PaperIds(1, "Papers like the ones wanted"),
    negative: optional(PaperIds(0, "Papers unlike the ones wanted")),
    limit: count(limits.results, 10, "How many papers")
  },
  success: RecommendationsAnswer,
  render: (answer) => text.recommendations(answer)
})

const MatchTitle = tool("match_title", {
  title: "Find a paper by title",
  description:
    "Find the paper with this title (case, accents and punctuation aside); not found, naming the nearest title and how similar it is, when no paper has it.",
  parameters: { title: Query.annotate({ description: "The paper's whole title" }) },
  success: TitleMatch,
  render: (answer) => text.titleMatch(answer)
})

const SearchSnippets = tool("search_snippets", {
  title: "Search passages",
  description: "Search the text of papers for passages matching a query; each with its paper.",
  parameters: {
    query: Query.annotate({ description: "Words to find in the papers' text" }),
    limit: count(limits.results, 10, "How many passages")
  },
  success: SnippetsAnswer,
  render: (answer) => text.snippets(answer)
})

const ResolveReferences = tool("resolve_references", {
  title: "Resolve a reference list",
  description: "Find the paper of each line of a reference list: a DOI, an arXiv id, a Semantic Scholar link or " +
    "id, or a reference's text or title. One answer per line, in order.",
  parameters: {
    lines: Schema.Array(Schema.String.check(Schema.isMaxLength(2000))).check(
      Schema.isBetweenLength(1, limits.lines)
    ).annotate({
      description: `The references, one per entry (1 to ${limits.lines}; each at most 2,000 characters)`
    })
  },
  success: ReferencesAnswer,
  render: (answer) => text.references(answer)
})

const CitationGraphTool = tool("citation_graph", {
  title: "Citation graph",
  description: "Walk the citation graph from seed papers, breadth first: the papers reached and who cites whom, " +
    "cut at maxNodes papers.",
  parameters: {
    seeds: Schema.Array(Id).check(Schema.isBetweenLength(1, limits.seeds)).annotate({
      description: `The papers to start from (1 to ${limits.seeds}; each ${paperIdForms})`
    }),
    direction: Schema.Literals(["citations", "references", "both"]).annotate({
      description: "Follow the papers citing each paper, those it cites, or both (default references)",
      default: "references"
    }).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed("references" as const))),
    depth: count(limits.depth, 1, "How many steps from the seeds"),
    perNode: count(limits.perNode, 10, "At most this many neighbours of each paper, in each direction"),
    maxNodes: count(limits.nodes, 50, "Stop at this many papers")
  },
  success: GraphAnswer,
  render: (answer) => text.graph(answer)
})

const RelatedPapersTool = tool("related_papers", {
  title: "Related papers",
  description: "The papers most related to seed papers, ranked from the citation graph: co-citation (papers " +
    "citing a seed also cite it) and bibliographic coupling (it cites what a seed cites). What to read next.",
  parameters: {
    seeds: Schema.Array(Id).check(Schema.isBetweenLength(1, limits.seeds)).annotate({
      description: `The seed papers (1 to ${limits.seeds}; each ${paperIdForms})`
    }),
    top: count(limits.results, 20, "How many related papers, best first")
  },
  success: RelatedAnswer,
  render: (answer) => text.related(answer)
})

// Made from this module's definitions (some defined further down, hence the arrows).
const verify = verifyTool.make({
  PaperSummary,
  paperSummary: (paper) => paperSummary(paper),
  failure: (kind, detail) => failure(kind, detail),
  withinBudget: (work, budget) => withinBudget(work, budget),
  budgetSeconds: (budget) => budgetSeconds(budget),
  maxReferences: limits.lines,
  bounds
})

const VerifyReferences = tool("verify_references", verify.spec)

/**
 * The 15 tools: `search_papers`, `get_paper`, `get_papers`, `get_citations`, `get_references`,
 * `search_authors`, `get_author`, `get_author_papers`, `recommend_papers`, `match_title`,
 * `search_snippets`, `resolve_references`, `citation_graph`, `related_papers`, `verify_references`.
 * Each is read-only, idempotent and open-world, returns its failures (`failureMode: "return"`,
 * {@link ToolFailure}) and shows the model a short text (`toModelOutput`).
 *
 * @example
 * ```ts
 * import { Effect, Layer, Stream } from "effect"
 * import { AssistantTools } from "@s2-effect/ai"
 * import type { SemanticScholar } from "@s2-effect/core"
 *
 * const program = Effect.gen(function*() {
 *   const tools = yield* AssistantTools.toolkit
 *   const results = yield* tools.handle("search_papers", { query: "graph neural networks", limit: 5 })
 *   const last = yield* Stream.runLast(results)
 *   return last
 * }).pipe(Effect.provide(AssistantTools.handlers))
 * const typed: Effect.Effect<unknown, unknown, SemanticScholar> = program
 * ```
 * @category tools
 * @since 1.0.0
 */
export const toolkit = Toolkit.make(
  SearchPapers,
  GetPaper,
  GetPapers,
  GetCitations,
  GetReferences,
  SearchAuthors,
  GetAuthor,
  GetAuthorPapers,
  RecommendPapers,
  MatchTitle,
  SearchSnippets,
  ResolveReferences,
  CitationGraphTool,
  RelatedPapersTool,
  VerifyReferences
)

// ---------------------------------------------------------------------------------------------
// from records to answers

/** `{ [key]: value }` when the value is there, else nothing: optional keys stay absent, never null. */
const some = <K extends string, V>(key: K, value: V | null | undefined): { readonly [P in K]?: V } =>
  (value === null || value === undefined ? {} : { [key]: value }) as { readonly [P in K]?: V }

const str = (value: string | null | undefined, max: number) =>
  value === null || value === undefined ? undefined : text.cut(value, max)

const nonNegative = (n: number | null | undefined) => n === null || n === undefined || n < 0 ? undefined : n

type AnyPaper = Paper | PaperRef

export const paperSummary = (paper: AnyPaper): PaperSummary => {
  const authors = paper.authors ?? []
  return {
    paperId: text.cut(paper.paperId ?? "", bounds.id),
    title: text.cut(paper.title ?? "", bounds.title),
    ...some("year", paper.year),
    ...some("venue", str(paper.venue === "" ? undefined : paper.venue, bounds.venue)),
    authors: authors.slice(0, 5).map((author) => text.cut(author.name ?? "", bounds.name)),
    authorCount: authors.length,
    ...some("citationCount", nonNegative(paper.citationCount)),
    ...some("doi", str(paper.externalIds?.DOI, bounds.id)),
    ...some("arxiv", str(paper.externalIds?.ArXiv, bounds.id)),
    ...some("openAccessPdf", str(paper.openAccessPdf?.url === "" ? undefined : paper.openAccessPdf?.url, bounds.url)),
    ...some("url", str(paper.url, bounds.url))
  }
}

const firstNames = (values: ReadonlyArray<string> | null | undefined, max: number) =>
  values === null || values === undefined ? undefined : values.slice(0, max).map((v) => text.cut(v, bounds.name))

export const paperDetail = (paper: Paper): PaperDetail => ({
  ...paperSummary(paper),
  ...some("abstract", str(paper.abstract, bounds.abstract)),
  ...some("tldr", str(paper.tldr?.text, bounds.tldr)),
  ...some("fieldsOfStudy", firstNames(paper.fieldsOfStudy, 10)),
  ...some("referenceCount", nonNegative(paper.referenceCount)),
  ...some("influentialCitationCount", nonNegative(paper.influentialCitationCount)),
  ...some("publicationDate", str(paper.publicationDate, bounds.name)),
  ...some("publicationTypes", firstNames(paper.publicationTypes, 10)),
  ...some("journal", str(paper.journal?.name, bounds.journal))
})

interface AuthorLike {
  readonly authorId: string | null
  readonly name?: string | null | undefined
  readonly affiliations?: ReadonlyArray<string> | null | undefined
  readonly paperCount?: number | null | undefined
  readonly citationCount?: number | null | undefined
  readonly hIndex?: number | null | undefined
  readonly url?: string | null | undefined
  readonly homepage?: string | null | undefined
}

export const authorSummary = (author: AuthorLike): AuthorSummary => ({
  authorId: text.cut(author.authorId ?? "", bounds.id),
  name: text.cut(author.name ?? "", bounds.name),
  affiliations: (author.affiliations ?? []).slice(0, 3).map((a) => text.cut(a, bounds.venue)),
  ...some("paperCount", nonNegative(author.paperCount)),
  ...some("citationCount", nonNegative(author.citationCount)),
  ...some("hIndex", nonNegative(author.hIndex)),
  ...some("url", str(author.url, bounds.url)),
  ...some("homepage", str(author.homepage, bounds.url))
})

// ---------------------------------------------------------------------------------------------
// handlers

const summaryFields = [
  "title",
  "year",
  "venue",
  "authors",
  "citationCount",
  "externalIds",
  "openAccessPdf",
  "url"
] as const satisfies ReadonlyArray<Fields.PaperField>

const detailFields = [
  ...summaryFields,
  "abstract",
  "tldr",
  "fieldsOfStudy",
  "referenceCount",
  "influentialCitationCount",
  "publicationDate",
  "publicationTypes",
  "journal"
] as const satisfies ReadonlyArray<Fields.PaperField>

const authorFields = [
  "name",
  "affiliations",
  "paperCount",
  "citationCount",
  "hIndex",
  "url",
  "homepage"
] as const satisfies ReadonlyArray<Fields.AuthorField>

/** An id in the API's spelling when it is one of the forms it reads (a bare DOI, a link…), else as given. */
const paperId = (id: string): string => {
  const recognised = Resolve.recognise(id)
  return recognised._tag === "Id" ? recognised.id : id
}

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

/**
 * How long a call of a tool that makes many requests (`citation_graph`, `resolve_references`) may
 * run before it answers with what it has. An assistant's MCP client gives up on a call after 60 s
 * by default (the official SDK's request timeout); 40 s leaves room for the request in flight when
 * the budget is reached, whose interruption and the answer's encoding still have to fit before that.
 */
export const defaultBudget: Duration.Duration = Duration.seconds(40)

/** Runs `work` for at most `budget`; true when the budget stopped it (interrupted, nothing left running). */
const withinBudget = <E, R>(work: Effect.Effect<void, E, R>, budget: Duration.Duration) =>
  Effect.map(Effect.timeoutOption(work, budget), Option.isNone)

const budgetSeconds = (budget: Duration.Duration) => Math.max(0, Math.round(Duration.toSeconds(budget)))

/** At most this many citations in a graph's answer (200 papers with 20 neighbours each could give 8,000). */
const maxEdges = 1000

/**
 * The citation graph walk, stopped at `maxNodes` papers (a paper more means `truncated`). The walk
 * emits a level's papers and then its citations in one chunk, fetched by one batch request: the
 * chunk that fills the answer is read to its end for the citations among the papers kept, and no
 * more is pulled, so no request is made for papers that would not be shown.
 */
const walk = (
  seeds: ReadonlyArray<string>,
  options: CitationGraph.CrawlOptions,
  maxNodes: number,
  budget: Duration.Duration
) =>
  Effect.suspend(() => {
    const nodes: Array<GraphNode> = []
    const edges: Array<GraphAnswer["edges"][number]> = []
    const kept = new Set<string>()
    const notFound: Array<string> = []
    let skipped = 0
    let truncated = false
    const take = (element: CitationGraph.Element) => {
      switch (element._tag) {
        case "NotFound":
          notFound.push(text.cut(element.seed, bounds.id))
          return
        case "Skipped":
          skipped++
          return
        case "Edge":
          if (!kept.has(element.from) || !kept.has(element.to)) return
          if (edges.length >= maxEdges) truncated = true
          else edges.push({ from: text.cut(element.from, bounds.id), to: text.cut(element.to, bounds.id) })
          return
        case "Node": {
          if (nodes.length >= maxNodes) {
            truncated = true
            return
          }
          kept.add(element.paper.paperId)
          const summary = paperSummary(element.paper)
          nodes.push({
            paperId: summary.paperId,
            title: summary.title,
            ...some("year", summary.year),
            ...some("citationCount", summary.citationCount),
            depth: element.depth
          })
        }
      }
    }
    let reported = 0
    const crawled = Stream.runForEachWhile(Stream.chunks(CitationGraph.crawl(seeds, options)), (chunk) =>
      Effect.suspend(() => {
        chunk.forEach(take)
        if (nodes.length === reported) {
          return Effect.succeed(!truncated)
        }
        reported = nodes.length
        return Effect.as(reportProgress(`${reported} papers, ${edges.length} citations`), !truncated)
      }))
    // At the budget the walk is interrupted between chunks' takes (they are synchronous): the
    // answer holds whole levels, each paper with the citations that found it.
    return Effect.map(withinBudget(crawled, budget), (stopped): GraphAnswer => ({
      nodes,
      edges,
      notFound,
      ...(skipped > 0 ? { skipped } : {}),
      truncated: truncated || stopped,
      ...(stopped ? { timeBudgetSeconds: budgetSeconds(budget) } : {})
    }))
  })

type Params<T extends Tool.Any> = Tool.Parameters<T>

/** What a handler does, over the client; a refused input fails with a `ToolFailure` at once. */
type Run<A> = Effect.Effect<A, S2Error | ToolFailure, SemanticScholar>

const pageTotal = (page: OffsetPage<unknown>) => Math.max(page.total ?? 0, page.offset + page.data.length)

const searchPapers = (s2: Service, params: Params<typeof SearchPapers>): Run<PaperSearchAnswer> => {
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

const getPapers = (s2: Service, { ids }: Params<typeof GetPapers>): Run<PapersAnswer> => {
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

const getCitations = (s2: Service, { id, limit, offset }: Params<typeof GetCitations>): Run<CitationsAnswer> =>
  Effect.map(
    firstPage(s2.getPaperCitationsPages(paperId(id), { fields: citationFields, limit, offset }), offset),
    (page) => citationPage(id, page, (edge) => edge.citingPaper)
  )

const getReferences = (s2: Service, { id, limit, offset }: Params<typeof GetReferences>): Run<CitationsAnswer> =>
  Effect.map(
    firstPage(s2.getPaperReferencesPages(paperId(id), { fields: citationFields, limit, offset }), offset),
    (page) => citationPage(id, page, (edge) => edge.citedPaper)
  )

const searchAuthors = (s2: Service, { limit, offset, query }: Params<typeof SearchAuthors>): Run<AuthorSearchAnswer> =>
  Effect.map(firstPage(s2.searchAuthorPages(query, { fields: authorFields, limit, offset }), offset), (page) => ({
    total: pageTotal(page),
    offset: page.offset,
    ...nextOf(page),
    authors: page.data.map(authorSummary)
  }))

const getAuthorPapers = (
  s2: Service,
  { id, limit, offset }: Params<typeof GetAuthorPapers>
): Run<AuthorPapersAnswer> =>
  Effect.map(firstPage(s2.getAuthorPapersPages(id, { fields: summaryFields, limit, offset }), offset), (page) => ({
    authorId: text.cut(id, bounds.id),
    offset: page.offset,
    ...nextOf(page),
    papers: page.data.map(paperSummary)
  }))

/** One positive example and no negative: the for-paper endpoint; else the lists endpoint. */
const recommendPapers = (
  s2: Service,
  { limit, negative = [], positive }: Params<typeof RecommendPapers>
): Run<RecommendationsAnswer> =>
  Effect.map(
    positive.length === 1 && negative.length === 0
      ? s2.getRecommendedPapers(paperId(positive[0]!), { fields: summaryFields, limit })
      : s2.getRecommendedPapersFromLists(positive.map(paperId), negative.map(paperId), {
        fields: summaryFields,
        limit
      }),
    (papers) => ({ papers: papers.slice(0, limit).map(paperSummary) })
  )

const searchSnippets = (s2: Service, { limit, query }: Params<typeof SearchSnippets>): Run<SnippetsAnswer> =>
  Effect.map(s2.searchSnippet(query, { limit }), (found) => ({
    snippets: found.slice(0, limit).map((s) => ({
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
    }))
  }))

const resolvedReference = (line: string, result: Resolve.Result | undefined): ResolvedReference => ({
  line: text.cut(line, bounds.line),
  ...(result === undefined
    ? { reason: "notTried" as const }
    : result._tag === "Found"
    ? { via: result.via, paper: paperSummary(result.paper) }
    : result._tag === "Mismatch"
    // Lines are never given with a title to check against, so never a Mismatch; the nearest if one were.
    ? { reason: "noTitleMatch" as const, nearest: paperSummary(result.paper), similarity: result.similarity }
    : {
      reason: result.notFound,
      ...(result.nearest === undefined ? {} : { nearest: paperSummary(result.nearest) }),
      ...some("similarity", result.similarity)
    })
})

/**
 * `Resolve.references` over the lines: bulk searches for the titles, one batch request for the ids
 * and the papers found, one title match per title left open, every title checked. It gives each
 * result as soon as it and those before it are known, so at the budget the lines resolved so far
 * are answered and the rest are `notTried`.
 */
const resolveReferences = ({ lines }: Params<typeof ResolveReferences>, budget: Duration.Duration) =>
  Effect.suspend((): Run<ReferencesAnswer> => {
    const results: Array<Resolve.Result> = []
    const work = Stream.runForEach(Resolve.references(lines, { fields: summaryFields }), (result) => {
      results.push(result)
      return reportProgress(`${results.length} of ${lines.length} lines`)
    })
    return Effect.map(withinBudget(work, budget), (stopped) => {
      const references = lines.map((line, i) => resolvedReference(line, results[i]))
      const found = references.filter((r) => r.paper !== undefined).length
      const notTried = lines.length - results.length
      return {
        found,
        notFound: results.length - found,
        ...(notTried > 0 ? { notTried } : {}),
        ...(stopped ? { timeBudgetSeconds: budgetSeconds(budget) } : {}),
        references
      }
    })
  })

const citationGraph = (
  { depth, direction, maxNodes, perNode, seeds }: Params<typeof CitationGraphTool>,
  budget: Duration.Duration
): Run<GraphAnswer> =>
  walk(seeds.map(paperId), { direction, depth, perNode, fields: ["title", "year", "citationCount"] }, maxNodes, budget)

/**
 * `CitationGraph.related`, starting no list request after half the budget (then ranking what it
 * read, `timeBudgetSeconds`): the other half is for the request in flight then and the one batch of
 * the answer's details, each up to a paced request and its retries.
 */
const relatedPapers = (
  { seeds, top }: Params<typeof RelatedPapersTool>,
  budget: Duration.Duration
): Run<RelatedAnswer> =>
  CitationGraph.related(seeds.map(paperId), {
    top,
    fields: summaryFields,
    stopAfter: Duration.divideUnsafe(budget, 2)
  }).pipe(
    Effect.timeoutOption(budget),
    Effect.flatMap(Option.match({
      onNone: () => Effect.fail(failure("timeout", `related papers did not answer within ${budgetSeconds(budget)} s`)),
      onSome: (answer) => Effect.succeed(relatedAnswer(answer, budget))
    }))
  )

const relatedAnswer = (answer: CitationGraph.Related, budget: Duration.Duration): RelatedAnswer => ({
  seeds: answer.seeds.map((seed) => {
    const summary = paperSummary(seed)
    return { paperId: summary.paperId, title: summary.title, ...some("year", summary.year) }
  }),
  notFound: answer.notFound.map((id) => text.cut(id, bounds.id)),
  papers: answer.papers.map((r) => ({
    ...paperSummary(r.paper),
    score: r.score,
    coCitation: r.coCitation,
    coupling: r.coupling,
    citesSeed: r.citesSeed,
    citedBySeed: r.citedBySeed
  })),
  candidates: answer.candidates,
  citing: answer.citing,
  cited: answer.cited,
  cutLists: answer.truncated.length,
  ...(answer.stopped ? { timeBudgetSeconds: budgetSeconds(budget) } : {})
})

/**
 * The paper of `match_title`, only when it has the title given: the API answers its nearest title
 * however far, and the model would present that paper as the one asked for.
 */
const matchTitle = (s2: Service, title: string): Run<TitleMatch> =>
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

/**
 * The handlers over the client in context: each maps the client's errors to a `ToolFailure`;
 * `citation_graph`, `resolve_references` and `related_papers` answer what they have at `options.budget`.
 */
export const handlersWith = (
  options: HandlersOptions = {}
): Layer.Layer<Tool.HandlersFor<typeof toolkit.tools>, never, SemanticScholar> => {
  const budget = options.budget === undefined ? defaultBudget : Duration.fromInputUnsafe(options.budget)
  return toolkit.toLayer(Effect.map(Effect.service(SemanticScholar), (s2) => {
    const run = <A>(effect: Run<A>): Effect.Effect<A, ToolFailure> =>
      effect.pipe(
        Effect.mapError((error) => error._tag === "ToolFailure" ? error : toolFailure(error)),
        Effect.provideService(SemanticScholar, s2)
      )
    return toolkit.of({
      search_papers: (params) => run(searchPapers(s2, params)),
      get_paper: ({ id }) => run(Effect.map(s2.getPaper(paperId(id), { fields: detailFields }), paperDetail)),
      get_papers: (params) => run(getPapers(s2, params)),
      get_citations: (params) => run(getCitations(s2, params)),
      get_references: (params) => run(getReferences(s2, params)),
      search_authors: (params) => run(searchAuthors(s2, params)),
      get_author: ({ id }) => run(Effect.map(s2.getAuthor(id, { fields: authorFields }), authorSummary)),
      get_author_papers: (params) => run(getAuthorPapers(s2, params)),
      recommend_papers: (params) => run(recommendPapers(s2, params)),
      match_title: ({ title }) => run(matchTitle(s2, title)),
      search_snippets: (params) => run(searchSnippets(s2, params)),
      resolve_references: (params) => run(resolveReferences(params, budget)),
      verify_references: (params) => run(verify.handle(params, budget)),
      citation_graph: (params) => run(citationGraph(params, budget)),
      related_papers: (params) => run(relatedPapers(params, budget))
    })
  }))
}

/** {@link handlersWith} the default budget. */
export const handlers: Layer.Layer<Tool.HandlersFor<typeof toolkit.tools>, never, SemanticScholar> = handlersWith()
