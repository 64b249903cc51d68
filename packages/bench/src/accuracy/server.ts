/**
 * A small Semantic Scholar over the recorded papers, in memory: an `HttpClient` answering the
 * endpoints `Verify.references` calls, as S2-WIRE.md says the API answers them, and counting each
 * request by path. The emulator of @s2-effect/testing generates its own corpus and cannot be given
 * these papers; the verifier's figures must come from papers as the API records them.
 *
 * - `POST /graph/v1/paper/batch`: `{"ids":[…]}` ≤ 500, an array in the same order, `null` where unknown.
 * - `GET /graph/v1/paper/{id}`: the paper, or 404 `{"error":"Paper with id X not found"}`.
 * - `GET /graph/v1/paper/search/bulk`: `query` as ORed (`|`) clauses of `"phrases"` and words, each
 *   clause matching a paper whose title or abstract holds all its phrases; `{total, token, data}`,
 *   1,000 a page, in `paperId` order.
 * - `GET /graph/v1/paper/search/match`: the paper whose title shares the most words with `query`
 *   (Dice over words, at least half of them), `{data:[{paperId, title, matchScore, …}]}`, else 404
 *   `{"error":"Title match not found"}`.
 *
 * Ids: a 40-hex paperId, `CorpusId:`, `DOI:` (any case), `ARXIV:`, `MAG:`, `ACL:`, `PMID:`,
 * `PMCID:`, a bare DOI, `URL:` of semanticscholar.org or arxiv.org. A versioned arXiv id is not one
 * the API records, and is unknown here.
 */
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import type { RecordedPaper } from "./papers.js"

const fold = (s: string) => s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
/** The words of a text, as a search engine indexes them: letters and digits, case and accents folded. */
export const tokens = (s: string): Array<string> => fold(s).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0)

const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) })

const hasRun = (haystack: ReadonlyArray<string>, needle: ReadonlyArray<string>): boolean => {
  if (needle.length === 0) return false
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let k = 0; k < needle.length; k++) if (haystack[i + k] !== needle[k]) continue outer
    return true
  }
  return false
}

/** A bulk query's clauses: split on `|` outside quotes, each a list of phrases (a bare word is one). */
const clausesOf = (query: string): Array<Array<Array<string>>> => {
  const clauses: Array<Array<Array<string>>> = [[]]
  for (const m of query.matchAll(/"([^"]*)"|(\|)|([^\s"|]+)/g)) {
    if (m[2] !== undefined) clauses.push([])
    else {
      const words = tokens(m[1] ?? m[3] ?? "")
      if (words.length > 0) clauses.at(-1)!.push(words)
    }
  }
  return clauses.filter((c) => c.length > 0)
}

const dice = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  const counts = new Map<string, number>()
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1)
  let common = 0
  for (const w of b) {
    const n = counts.get(w) ?? 0
    if (n > 0) {
      common++
      counts.set(w, n - 1)
    }
  }
  return a.length + b.length === 0 ? 0 : (2 * common) / (a.length + b.length)
}

export interface Counts {
  readonly byPath: Record<string, number>
  total: number
}

/** The papers, indexed by every id the API reads and by the words of their titles and abstracts. */
interface Index {
  readonly byId: ReadonlyMap<string, RecordedPaper>
  readonly words: ReadonlyArray<
    { readonly paper: RecordedPaper; readonly title: Array<string>; readonly abstract: Array<string> }
  >
}

const indexOf = (papers: ReadonlyArray<RecordedPaper>): Index => {
  const byId = new Map<string, RecordedPaper>()
  for (const p of papers) {
    byId.set(p.paperId, p)
    if (p.corpusId !== undefined) byId.set(`corpusid:${p.corpusId}`, p)
    for (const [kind, value] of Object.entries(p.externalIds ?? {})) {
      byId.set(`${kind.toLowerCase()}:${fold(String(value))}`, p)
    }
  }
  const words = papers.map((p) => ({
    paper: p,
    title: tokens(p.title),
    abstract: typeof p.abstract === "string" ? tokens(p.abstract) : []
  }))
  return { byId, words }
}

const s2Url =
  /^URL:https?:\/\/(?:www\.)?(semanticscholar\.org\/paper\/(?:[^/]+\/)?([0-9a-f]{40})|arxiv\.org\/abs\/([^?#]+))$/i
const prefixedId = /^(CorpusId|DOI|ARXIV|MAG|ACL|PMID|PMCID):(.+)$/i

/** The paper an id names, as the API reads ids. */
const resolve = ({ byId }: Index, id: string): RecordedPaper | undefined => {
  if (/^[0-9a-f]{40}$/i.test(id)) return byId.get(id.toLowerCase())
  const url = s2Url.exec(id)
  if (url !== null) return url[2] !== undefined ? byId.get(url[2].toLowerCase()) : byId.get(`arxiv:${fold(url[3]!)}`)
  const prefixed = prefixedId.exec(id)
  if (prefixed !== null) {
    const kind = prefixed[1]!.toLowerCase()
    const key = { pmid: "pubmed", pmcid: "pubmedcentral" }[kind] ?? kind
    return byId.get(`${key}:${fold(prefixed[2]!)}`)
  }
  return id.startsWith("10.") ? byId.get(`doi:${fold(id)}`) : undefined
}

/** A paper with the fields asked (null for those it lacks), as the API shapes it. */
const shaped = (p: RecordedPaper, fields: ReadonlyArray<string>, extra: Record<string, unknown> = {}) => {
  const out: Record<string, unknown> = { paperId: p.paperId, ...extra }
  for (const f of fields) if (f !== "paperId") out[f] = p[f] ?? null
  return out
}

const batch = (index: Index, fields: ReadonlyArray<string>, body: string | undefined) => {
  const ids: unknown = (JSON.parse(body ?? "{}") as { ids?: unknown }).ids
  if (!Array.isArray(ids) || ids.length > 500) return json(400, { error: "ids: at most 500 ids" })
  return json(
    200,
    ids.map((id) => {
      const p = typeof id === "string" ? resolve(index, id) : undefined
      return p === undefined ? null : shaped(p, fields)
    })
  )
}

const bulk = (index: Index, fields: ReadonlyArray<string>, url: URL) => {
  const clauses = clausesOf(url.searchParams.get("query") ?? "")
  const found = index.words.filter((x) =>
    clauses.some((c) => c.every((phrase) => hasRun(x.title, phrase) || hasRun(x.abstract, phrase)))
  ).map((x) => x.paper).sort((a, b) => (a.paperId < b.paperId ? -1 : 1))
  const from = Number(url.searchParams.get("token") ?? "0")
  const page = found.slice(from, from + 1000)
  const token = from + 1000 < found.length ? String(from + 1000) : null
  return json(200, { total: found.length, token, data: page.map((p) => shaped(p, fields)) })
}

const match = (index: Index, fields: ReadonlyArray<string>, url: URL) => {
  const asked = tokens(url.searchParams.get("query") ?? "")
  let best: { paper: RecordedPaper; score: number } | undefined
  for (const x of index.words) {
    const score = dice(asked, x.title)
    if (score >= 0.5 && (best === undefined || score > best.score)) best = { paper: x.paper, score }
  }
  return best === undefined
    ? json(404, { error: "Title match not found" })
    : json(200, { data: [shaped(best.paper, fields, { title: best.paper.title, matchScore: best.score * 100 })] })
}

const handle = (index: Index, method: string, url: URL, body: string | undefined) => {
  const path = url.pathname.replace(/^\/graph\/v1/, () => "")
  const fields = (url.searchParams.get("fields") ?? "title").split(",").filter((f) => f.length > 0)
  if (method === "POST" && path === "/paper/batch") return batch(index, fields, body)
  if (method !== "GET") return json(405, { error: `${method} ${path} is not supported` })
  if (path === "/paper/search/bulk") return bulk(index, fields, url)
  if (path === "/paper/search/match") return match(index, fields, url)
  const single = /^\/paper\/(.+)$/.exec(path)
  if (single === null) return json(404, { error: `no route ${path}` })
  const id = decodeURIComponent(single[1]!)
  const p = resolve(index, id)
  return p === undefined ? json(404, { error: `Paper with id ${id} not found` }) : json(200, shaped(p, fields))
}

const bodyOf = (request: HttpClientRequest.HttpClientRequest): string | undefined =>
  request.body._tag === "Uint8Array"
    ? new TextDecoder().decode(request.body.body)
    : request.body._tag === "Raw" && typeof request.body.body === "string"
    ? request.body.body
    : undefined

/** The server: an `HttpClient` answering from `papers`, and its request counts by method and path. */
export const makeServer = (papers: ReadonlyArray<RecordedPaper>) => {
  const index = indexOf(papers)
  const counts: Counts = { byPath: {}, total: 0 }
  const client = HttpClient.make((request, url) =>
    Effect.sync(() => {
      const route = url.pathname.startsWith("/graph/v1/paper/search/") || url.pathname === "/graph/v1/paper/batch"
        ? url.pathname
        : "/graph/v1/paper/{id}"
      const key = `${request.method} ${route}`
      counts.byPath[key] = (counts.byPath[key] ?? 0) + 1
      counts.total++
      const { body, status } = handle(index, request.method, url, bodyOf(request))
      return HttpClientResponse.fromWeb(
        request,
        new Response(body, { status, headers: { "content-type": "application/json" } })
      )
    })
  )
  return { client, counts }
}
