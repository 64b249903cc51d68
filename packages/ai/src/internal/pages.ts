/**
 * How each tool's answer is cut to the answer budget (`paging.ts`): a page of a list keeps its
 * first records and gives the offset of the first one not shown; an answer to a list of inputs
 * (ids, reference lines, entries) keeps its first entries and says from which input to call again;
 * a citation graph keeps the papers nearest the seeds.
 */
import type {
  AuthorPapersAnswer,
  AuthorSearchAnswer,
  CitationsAnswer,
  GraphAnswer,
  PapersAnswer,
  PaperSearchAnswer,
  RecommendationsAnswer,
  ReferencesAnswer,
  RelatedAnswer,
  SnippetsAnswer
} from "../Answers.js"
import { bounds } from "./answerParts.js"
import type { Pager } from "./paging.js"
import * as text from "./text.js"

type Paged = { readonly offset?: number | undefined }

/** A page of a list kept to its first `k` records, `next` the offset of the first one not shown. */
const listPage = <A extends Paged, K extends keyof A>(
  key: K,
  render: (answer: A) => string
): Pager<A, unknown> => ({
  records: (answer) => (answer[key] as ReadonlyArray<unknown>).length,
  take: (answer, k, chars) => ({
    ...answer,
    [key]: (answer[key] as ReadonlyArray<unknown>).slice(0, k),
    next: (answer.offset ?? 0) + k,
    answerBudgetChars: chars
  }),
  render
})

export const searchPapers = listPage<PaperSearchAnswer, "papers">("papers", text.searchPapers)
export const citations = (relation: "citing" | "cited by") =>
  listPage<CitationsAnswer, "papers">("papers", (answer) => text.citations(answer, relation))
export const searchAuthors = listPage<AuthorSearchAnswer, "authors">("authors", text.searchAuthors)
export const authorPapers = listPage<AuthorPapersAnswer, "papers">("papers", text.authorPapers)
export const recommendations = listPage<RecommendationsAnswer, "papers">("papers", text.recommendations)
export const snippets = listPage<SnippetsAnswer, "snippets">("snippets", text.snippets)
export const related = listPage<RelatedAnswer, "papers">("papers", text.related)

/**
 * The papers of `get_papers` kept to the first `k` found: `next` is the position in `ids` of the
 * first id not answered. Found papers and the ids not found both come in the order asked, so the
 * position of each is read by walking `ids` beside `notFound`.
 */
export const papers: Pager<PapersAnswer, { readonly ids: ReadonlyArray<string> }> = {
  records: (answer) => answer.papers.length,
  take: (answer, k, chars, { ids }) => {
    const found: Array<number> = []
    const missing: Array<number> = []
    for (let i = 0; i < ids.length; i++) {
      if (answer.notFound[missing.length] === text.cut(ids[i]!, bounds.id)) missing.push(i)
      else found.push(i)
    }
    const next = found[k] ?? ids.length
    return {
      papers: answer.papers.slice(0, k),
      notFound: answer.notFound.slice(0, missing.filter((i) => i < next).length),
      next,
      answerBudgetChars: chars
    }
  },
  render: text.papers
}

/** The lines of `resolve_references` kept to the first `k`, counted again. */
export const references: Pager<ReferencesAnswer, unknown> = {
  records: (answer) => answer.references.length,
  take: (answer, k, chars) => {
    const references = answer.references.slice(0, k)
    const found = references.filter((r) => r.paper !== undefined).length
    const notTried = references.filter((r) => r.reason === "notTried").length
    return {
      found,
      notFound: references.length - found - notTried,
      ...(notTried > 0 ? { notTried } : {}),
      ...(notTried > 0 && answer.timeBudgetSeconds !== undefined
        ? { timeBudgetSeconds: answer.timeBudgetSeconds }
        : {}),
      references,
      next: k,
      answerBudgetChars: chars
    }
  },
  render: text.references
}

/** A citation graph kept to its first `k` papers (the walk's order: nearest the seeds first) and the citations among them. */
export const graph: Pager<GraphAnswer, unknown> = {
  records: (answer) => answer.nodes.length,
  take: (answer, k, chars) => {
    const nodes = answer.nodes.slice(0, k)
    const kept = new Set(nodes.map((node) => node.paperId))
    return {
      ...answer,
      nodes,
      edges: answer.edges.filter((edge) => kept.has(edge.from) && kept.has(edge.to)),
      truncated: true,
      notShown: answer.nodes.length - k,
      answerBudgetChars: chars
    }
  },
  render: text.graph
}
