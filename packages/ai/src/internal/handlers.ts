/**
 * The handlers of every tool over the client in context, assembled from `lookups.ts`,
 * `jobTools.ts` and `verify.ts`.
 */
import { SemanticScholar } from "@s2-effect/core"
import type * as Tool from "effect/ai/Tool"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import type { HandlersOptions } from "../AssistantTools.js"
import { type ToolFailure } from "../ToolFailure.js"
import { defaultBudget } from "./budget.js"
import { toolFailure } from "./failure.js"
import { citationGraph, relatedPapers, resolveReferences } from "./jobTools.js"
import * as lookups from "./lookups.js"
import * as pages from "./pages.js"
import { fitted } from "./paging.js"
import { authorFields, authorSummary, detailFields, paperDetail } from "./summaries.js"
import { type Run, toolkit } from "./tools.js"
import * as verify from "./verify.js"

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
      // A list is cut to the answer budget (`paging.ts`); one paper or author is answered whole.
      search_papers: (params) => run(lookups.searchPapers(s2, params)).pipe(fitted(pages.searchPapers, params)),
      get_paper: ({ id }) => run(Effect.map(s2.getPaper(lookups.paperId(id), { fields: detailFields }), paperDetail)),
      get_papers: (params) => run(lookups.getPapers(s2, params)).pipe(fitted(pages.papers, params)),
      get_citations: (params) => run(lookups.getCitations(s2, params)).pipe(fitted(pages.citations("citing"), params)),
      get_references: (params) =>
        run(lookups.getReferences(s2, params)).pipe(fitted(pages.citations("cited by"), params)),
      search_authors: (params) => run(lookups.searchAuthors(s2, params)).pipe(fitted(pages.searchAuthors, params)),
      get_author: ({ id }) => run(Effect.map(s2.getAuthor(id, { fields: authorFields }), authorSummary)),
      get_author_papers: (params) => run(lookups.getAuthorPapers(s2, params)).pipe(fitted(pages.authorPapers, params)),
      recommend_papers: (params) =>
        run(lookups.recommendPapers(s2, params)).pipe(fitted(pages.recommendations, params)),
      match_title: ({ title }) => run(lookups.matchTitle(s2, title)),
      search_snippets: (params) => run(lookups.searchSnippets(s2, params)).pipe(fitted(pages.snippets, params)),
      resolve_references: (params) => run(resolveReferences(params, budget)).pipe(fitted(pages.references, params)),
      verify_references: (params) => run(verify.handle(params, budget)).pipe(fitted(verify.pager, params)),
      citation_graph: (params) => run(citationGraph(params, budget)).pipe(fitted(pages.graph, params)),
      related_papers: (params) => run(relatedPapers(params, budget)).pipe(fitted(pages.related, params))
    })
  }))
}

/** {@link handlersWith} the default budget. */
export const handlers: Layer.Layer<Tool.HandlersFor<typeof toolkit.tools>, never, SemanticScholar> = handlersWith()
