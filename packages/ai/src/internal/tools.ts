/**
 * The 15 tools as a table: each one's parameters (bounded, described, with their defaults), its
 * answer schema, its failure and the text it shows the model. The handlers are in `lookups.ts`,
 * `jobTools.ts` and `verify.ts`, assembled by `handlers.ts`.
 */
import type { S2Error, SemanticScholar } from "@s2-effect/core"
import { Filters } from "@s2-effect/core"
import * as Prompt from "effect/ai/Prompt"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import {
  AuthorPapersAnswer,
  AuthorSearchAnswer,
  AuthorSummary,
  CitationsAnswer,
  GraphAnswer,
  limits,
  PaperDetail,
  PapersAnswer,
  PaperSearchAnswer,
  RecommendationsAnswer,
  ReferencesAnswer,
  RelatedAnswer,
  SnippetsAnswer,
  TitleMatch
} from "../Answers.js"
import { ToolFailure } from "../ToolFailure.js"
import { bounds, optional } from "./answerParts.js"
import * as text from "./text.js"
import * as verify from "./verify.js"

const Query = Schema.String.check(Schema.isBetweenLength(1, 1000))
const Id = Schema.String.check(Schema.isBetweenLength(1, bounds.id))
const paperIdForms = "a Semantic Scholar paper id, DOI:…, ARXIV:…, CorpusId:…, PMID:…, PMCID:…, ACL:…, MAG:…, " +
  "URL:… or a doi.org/arxiv.org/semanticscholar.org link"
/** The id forms once, in the tools taking one paper; a list refers to them (tools/list stays short). */
const eachPaperId = "ids as get_paper takes"

const count = (max: number, fallback: number, description: string) =>
  Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: max })).annotate({
    description: `${description} (1 to ${max}; default ${fallback})`,
    default: fallback
  }).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(fallback)))

const Offset = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
  description: "The answer's next (default 0)",
  default: 0
}).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(0)))

const Year = (description: string) =>
  optional(Schema.Int.check(Schema.isBetween({ minimum: 1000, maximum: 9999 })).annotate({ description }))

const PaperIdParam = Id.annotate({ description: `The paper: ${paperIdForms}` })
/** A citation tool's paper: the forms are said once, in get_paper. */
const CitedPaperParam = Id.annotate({ description: "The paper: an id as get_paper takes" })
const PaperIds = (min: number, description: string) =>
  Schema.Array(Id).check(Schema.isBetweenLength(min, limits.ids)).annotate({
    description: `${description} (${min} to ${limits.ids} ${eachPaperId})`
  })

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

export const SearchPapers = tool("search_papers", {
  title: "Search papers",
  description: "Search papers by relevance to a query, with optional filters (first 1,000 results).",
  parameters: {
    query: Query.annotate({ description: "Words to search for (plain text, no query syntax)" }),
    yearFrom: Year("Only papers from this year on"),
    yearTo: Year("Only papers up to this year"),
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

export const GetPaper = tool("get_paper", {
  title: "Get a paper",
  description: "Look up one paper by any of its ids: title, authors, venue, abstract, TL;DR, counts and links.",
  parameters: { id: PaperIdParam },
  success: PaperDetail,
  render: (answer) => text.paperDetail(answer)
})

export const GetPapers = tool("get_papers", {
  title: "Get papers",
  description: "Look up several papers by id in one request; ids not found are listed apart.",
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
      id: CitedPaperParam,
      limit: count(limits.results, 20, `How many papers ${spec.relation} it`),
      offset: Offset
    },
    success: CitationsAnswer,
    render: (answer) => text.citations(answer, spec.relation)
  })

export const GetCitations = citationTool("get_citations", {
  title: "Papers citing a paper",
  description: "Papers citing a paper, a page at a time; influential citations marked.",
  relation: "citing"
})

export const GetReferences = citationTool("get_references", {
  title: "Papers a paper cites",
  description: "Papers a paper cites (its references), a page at a time.",
  relation: "cited by"
})

export const SearchAuthors = tool("search_authors", {
  title: "Search authors",
  description: "Search authors by name.",
  parameters: {
    query: Query.annotate({ description: "The author's name, or part of it" }),
    limit: count(limits.results, 10, "How many authors"),
    offset: Offset
  },
  success: AuthorSearchAnswer,
  render: (answer) => text.searchAuthors(answer)
})

const AuthorIdParam = Id.annotate({ description: "An author id, a number such as \"1741101\"" })

export const GetAuthor = tool("get_author", {
  title: "Get an author",
  description: "Look up one author by author id: name, affiliations, paper and citation counts, h-index.",
  parameters: { id: AuthorIdParam },
  success: AuthorSummary,
  render: (answer) => text.author(answer)
})

export const GetAuthorPapers = tool("get_author_papers", {
  title: "An author's papers",
  description: "List an author's papers, a page at a time.",
  parameters: { id: AuthorIdParam, limit: count(limits.results, 20, "How many papers"), offset: Offset },
  success: AuthorPapersAnswer,
  render: (answer) => text.authorPapers(answer)
})

export const RecommendPapers = tool("recommend_papers", {
  title: "Recommend papers",
  description: "Recommend papers like the positive examples and unlike the negative ones.",
  parameters: {
    positive: PaperIds(1, "Papers like the ones wanted"),
    negative: optional(PaperIds(0, "Papers unlike the ones wanted")),
    limit: count(limits.results, 10, "How many papers"),
    offset: Offset
  },
  success: RecommendationsAnswer,
  render: (answer) => text.recommendations(answer)
})

export const MatchTitle = tool("match_title", {
  title: "Find a paper by title",
  description:
    "Find the paper with this title (case, accents and punctuation aside); else not found, with the nearest title.",
  parameters: { title: Query.annotate({ description: "The paper's whole title" }) },
  success: TitleMatch,
  render: (answer) => text.titleMatch(answer)
})

export const SearchSnippets = tool("search_snippets", {
  title: "Search passages",
  description: "Search the text of papers for passages matching a query; each with its paper.",
  parameters: {
    query: Query.annotate({ description: "Words to find in the papers' text" }),
    limit: count(limits.results, 10, "How many passages"),
    offset: Offset
  },
  success: SnippetsAnswer,
  render: (answer) => text.snippets(answer)
})

export const ResolveReferences = tool("resolve_references", {
  title: "Resolve a reference list",
  description: "Find the paper of each line of a reference list (an id, link, reference text or title); " +
    "one answer per line, in order.",
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

export const CitationGraphTool = tool("citation_graph", {
  title: "Citation graph",
  description: "Walk the citation graph from seed papers, breadth first: the papers reached and who cites whom.",
  parameters: {
    seeds: Schema.Array(Id).check(Schema.isBetweenLength(1, limits.seeds)).annotate({
      description: `The papers to start from (1 to ${limits.seeds} ${eachPaperId})`
    }),
    direction: Schema.Literals(["citations", "references", "both"]).annotate({
      description: "Follow citing papers, cited papers or both (default references)",
      default: "references"
    }).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed("references" as const))),
    depth: count(limits.depth, 1, "How many steps from the seeds"),
    perNode: count(limits.perNode, 10, "Neighbours per paper and direction"),
    maxNodes: count(limits.nodes, 50, "Stop at this many papers")
  },
  success: GraphAnswer,
  render: (answer) => text.graph(answer)
})

export const RelatedPapersTool = tool("related_papers", {
  title: "Related papers",
  description: "What to read next: the papers most related to seed papers, co-cited with them or citing what " +
    "they cite.",
  parameters: {
    seeds: Schema.Array(Id).check(Schema.isBetweenLength(1, limits.seeds)).annotate({
      description: `The seed papers (1 to ${limits.seeds} ${eachPaperId})`
    }),
    top: count(limits.results, 20, "How many related papers, best first"),
    offset: Offset
  },
  success: RelatedAnswer,
  render: (answer) => text.related(answer)
})

export const VerifyReferences = tool("verify_references", verify.spec)

/** See `AssistantTools.toolkit`. */
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

export type Params<T extends Tool.Any> = Tool.Parameters<T>

/** What a handler does, over the client; a refused input fails with a `ToolFailure` at once. */
export type Run<A> = Effect.Effect<A, S2Error | ToolFailure, SemanticScholar>
