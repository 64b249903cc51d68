/**
 * What the assistant tools answer: the bounds of their inputs, and the answer schemas. Compact on
 * purpose: chosen fields, bounded counts, every string from the server cut to a bound, no object
 * keyed by server data. A leaf module (it imports only `internal/answerParts.ts` of this package),
 * so that the handlers that make these answers import them without importing `AssistantTools.ts`,
 * which imports them back; `AssistantTools.ts` re-exports each, and users reach them there
 * (`AssistantTools.PaperSummary`).
 *
 * @since 1.0.0
 */
import { Resolve } from "@s2-effect/jobs"
import * as Schema from "effect/Schema"
import {
  AnswerBudget,
  Bounded,
  bounds,
  Count,
  optional,
  page,
  pagedHere,
  paperSummaryFields,
  TimeBudget
} from "./internal/answerParts.js"

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
 * The answer of `get_papers`: `{ papers, notFound, next?, answerBudgetChars? }` (the ids not found,
 * as given); when cut to fit the answer budget, `next` is the position (from 0) in `ids` of the
 * first id not answered.
 *
 * @category answers
 * @since 1.0.0
 */
export const PapersAnswer = Schema.Struct({
  papers: Schema.Array(PaperSummary),
  notFound: Schema.Array(Bounded(bounds.id)),
  next: optional(Count),
  answerBudgetChars: AnswerBudget
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
 * The answer of `recommend_papers`: `{ papers, offset?, next?, answerBudgetChars? }`.
 *
 * @category answers
 * @since 1.0.0
 */
export const RecommendationsAnswer = Schema.Struct({ papers: Schema.Array(PaperSummary), ...pagedHere })
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
 * The answer of `search_snippets`: `{ snippets, offset?, next?, answerBudgetChars? }`.
 *
 * @category answers
 * @since 1.0.0
 */
export const SnippetsAnswer = Schema.Struct({ snippets: Schema.Array(SnippetAnswer), ...pagedHere })
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

/**
 * The answer of `resolve_references`: `{ found, notFound, notTried?, timeBudgetSeconds?,
 * references, next?, answerBudgetChars? }`, one reference per line in input order. When the call
 * reaches its time budget, the lines not yet resolved are `notTried` (counted apart from
 * `notFound`). When cut to fit the answer budget, `references` (and the counts) are the first
 * lines, and `next` the position (from 0) of the first line not answered.
 *
 * @category answers
 * @since 1.0.0
 */
export const ReferencesAnswer = Schema.Struct({
  found: Count,
  notFound: Count,
  notTried: optional(Count),
  timeBudgetSeconds: TimeBudget,
  references: Schema.Array(ResolvedReference),
  next: optional(Count),
  answerBudgetChars: AnswerBudget
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
 * request can carry (a control character, a `..` segment), left out of the walk. Cut to fit the
 * answer budget, it holds the papers nearest the seeds and the citations among them, `notShown`
 * counting the others.
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
  timeBudgetSeconds: TimeBudget,
  notShown: optional(Count),
  answerBudgetChars: AnswerBudget
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
 * the lists read so far (`timeBudgetSeconds`). `offset`, `next` and `answerBudgetChars` page the
 * ranking as a list tool's do.
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
  timeBudgetSeconds: TimeBudget,
  ...pagedHere
})
/**
 * @category answers
 * @since 1.1.0
 */
export type RelatedAnswer = typeof RelatedAnswer.Type
