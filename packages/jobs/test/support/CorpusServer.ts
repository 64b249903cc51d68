/**
 * A scripted server over a few papers, for the verifier's tests: a bulk search answers every paper
 * (the client keeps those of the same title), the batch answers by id (as `asRecord` writes a
 * paper; also by `DOI:` and `ARXIV:` when the paper carries `externalIds`), title match the paper of
 * the most similar title; `fail` answers 500 to everything.
 */
import { Effect } from "effect"
import { TitleMatch } from "../../src/index.js"
import { json, testLayer } from "./Scripted.js"

export interface Listed {
  readonly paperId: string
  readonly title?: string | null | undefined
  readonly citationCount?: number | null | undefined
}

/** A paper's DOI and arXiv ids as the batch is asked for them, lower case. */
const idsOf = (paper: Listed): ReadonlyArray<string> => {
  const ids = (paper as { readonly externalIds?: { readonly DOI?: string; readonly ArXiv?: string } }).externalIds
  return [
    ...(ids?.DOI === undefined ? [] : [`doi:${ids.DOI.toLowerCase()}`]),
    ...(ids?.ArXiv === undefined ? [] : [`arxiv:${ids.ArXiv.toLowerCase()}`])
  ]
}

export const corpusServer = <P extends Listed>(
  papers: ReadonlyArray<P>,
  asRecord: (paper: P) => unknown,
  options: { readonly fail?: boolean } = {}
) =>
  testLayer((request) => {
    if (options.fail === true) return Effect.succeed(json({ error: "down" }, 500))
    const path = request.url.pathname
    if (path.endsWith("/paper/search/bulk")) {
      const data = papers.map((p) => ({ paperId: p.paperId, title: p.title, citationCount: p.citationCount ?? 0 }))
      return Effect.succeed(json({ total: data.length, token: null, data }))
    }
    if (path.endsWith("/paper/batch")) {
      const ids = (request.body as { ids: ReadonlyArray<string> }).ids
      return Effect.succeed(json(ids.map((id) => {
        const p = papers.find((p) => p.paperId === id || idsOf(p).includes(id.toLowerCase()))
        return p === undefined ? null : asRecord(p)
      })))
    }
    if (path.endsWith("/paper/search/match")) {
      const query = request.url.searchParams.get("query") ?? ""
      const similarity = (p: P) => TitleMatch.compare(query, p.title ?? "").similarity
      const best = [...papers].sort((a, b) => similarity(b) - similarity(a))[0]
      return Effect.succeed(
        best === undefined
          ? json({ error: "Title match not found" }, 404)
          : json({ data: [{ ...(asRecord(best) as object), matchScore: 50 }] })
      )
    }
    return Effect.succeed(json({ error: "not found" }, 404))
  }, options.fail === true ? { retry: false } : {})
