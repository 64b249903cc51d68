/**
 * The handlers of the tools over the jobs (`@s2-effect/jobs`), which make many requests:
 * `resolve_references`, `citation_graph` and `related_papers`, each answering what it has at its
 * time budget. `verify_references` is in `verify.ts`.
 */
import { CitationGraph, Resolve } from "@s2-effect/jobs"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { GraphAnswer, GraphNode, ReferencesAnswer, RelatedAnswer, ResolvedReference } from "../Answers.js"
import { bounds } from "./answerParts.js"
import { budgetSeconds, withinBudget } from "./budget.js"
import { failure } from "./failure.js"
import { paperId } from "./lookups.js"
import { reportProgress } from "./mcp.js"
import { paperSummary, some, summaryFields } from "./summaries.js"
import * as text from "./text.js"
import type { CitationGraphTool, Params, RelatedPapersTool, ResolveReferences, Run } from "./tools.js"

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
export const resolveReferences = ({ lines }: Params<typeof ResolveReferences>, budget: Duration.Duration) =>
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

export const citationGraph = (
  { depth, direction, maxNodes, perNode, seeds }: Params<typeof CitationGraphTool>,
  budget: Duration.Duration
): Run<GraphAnswer> =>
  walk(seeds.map(paperId), { direction, depth, perNode, fields: ["title", "year", "citationCount"] }, maxNodes, budget)

/**
 * `CitationGraph.related`, starting no list request after half the budget (then ranking what it
 * read, `timeBudgetSeconds`): the other half is for the request in flight then and the one batch of
 * the answer's details, each up to a paced request and its retries.
 */
export const relatedPapers = (
  { offset, seeds, top }: Params<typeof RelatedPapersTool>,
  budget: Duration.Duration
): Run<RelatedAnswer> =>
  offset + top > relatedWindow
    ? Effect.fail(failure(
      "badParameter",
      `offset ${offset} + top ${top} is over ${relatedWindow}: the ranking answers its first ${relatedWindow} ` +
        `papers; give offset + top ≤ ${relatedWindow}`
    ))
    : CitationGraph.related(seeds.map(paperId), {
      // A later page ranks again (the same requests; with a cache, none) and shows the papers after `offset`.
      top: offset + top,
      fields: summaryFields,
      stopAfter: Duration.divideUnsafe(budget, 2)
    }).pipe(
      Effect.timeoutOption(budget),
      Effect.flatMap(Option.match({
        onNone: () =>
          Effect.fail(failure("timeout", `related papers did not answer within ${budgetSeconds(budget)} s`)),
        onSome: (answer) => Effect.succeed(relatedAnswer(answer, budget, offset))
      }))
    )

/** `CitationGraph.related` ranks at most 500 papers. */
const relatedWindow = 500

const relatedAnswer = (answer: CitationGraph.Related, budget: Duration.Duration, offset: number): RelatedAnswer => ({
  seeds: answer.seeds.map((seed) => {
    const summary = paperSummary(seed)
    return { paperId: summary.paperId, title: summary.title, ...some("year", summary.year) }
  }),
  notFound: answer.notFound.map((id) => text.cut(id, bounds.id)),
  papers: answer.papers.slice(offset).map((r) => ({
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
  ...(answer.stopped ? { timeBudgetSeconds: budgetSeconds(budget) } : {}),
  ...(offset > 0 ? { offset } : {})
})
