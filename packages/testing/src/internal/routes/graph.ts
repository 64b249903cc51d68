/** Graph API (`/graph/v1`): one handler per wire route. */
import { buildResultSet, decodeToken, encodeToken, page, PAGE_SIZE, parseSort } from "../bulk.js"
import { resolveShown, type RouteContext, shown } from "../context.js"
import { authorsYear } from "../corpus/generate.js"
import { type FieldSpec, parseFields, unknownFieldsMessage } from "../fields.js"
import { type Filter, parseDateRange, parseFilters } from "../filters.js"
import { nextOf, parsePaging } from "../paging.js"
import { hash, hashString, unit } from "../prng.js"
import {
  authorJson,
  citedOf,
  citingOf,
  edgeJson,
  type Json,
  paperJson,
  unresolvedCount,
  unresolvedEdgeJson
} from "../serialize.js"
import { type EmulatorRequest, type EmulatorResponse, error, json, parseJsonBody, Query, rawJson } from "../wire.js"

const LIST_WINDOW = 10_000
const RELEVANCE_WINDOW = 1_000

type Spec = { readonly ok: true; readonly spec: FieldSpec } | {
  readonly ok: false
  readonly response: EmulatorResponse
}

const fieldsOf = (query: Query, context: "paper" | "author" | "edge"): Spec => {
  const parsed = parseFields(query.get("fields"), context)
  return parsed._tag === "Ok"
    ? { ok: true, spec: parsed.spec }
    : { ok: false, response: error(400, unknownFieldsMessage(parsed.names)) }
}

const paperNotFound = (id: string) => error(404, `Paper with id ${id} not found`)
const authorNotFound = (id: string) => error(404, `Author with id ${id} not found`)

/** GET /paper/{id} */
export const getPaper = (ctx: RouteContext, query: Query, id: string): EmulatorResponse => {
  const i = resolveShown(ctx, id)
  if (i === undefined) return paperNotFound(id)
  const f = fieldsOf(query, "paper")
  if (!f.ok) return f.response
  return json(200, paperJson(ctx.corpus, i, f.spec))
}

const idsOf = (
  body: string | undefined,
  max: number
): { readonly ok: true; readonly ids: ReadonlyArray<string> } | {
  readonly ok: false
  readonly response: EmulatorResponse
} => {
  const parsed = parseJsonBody(body)
  if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null || !("ids" in parsed.value)) {
    return { ok: false, response: error(400, "Unacceptable request body: expected {\"ids\": [...]}") }
  }
  const ids: unknown = parsed.value.ids
  if (!Array.isArray(ids) || !ids.every((x): x is string => typeof x === "string")) {
    return { ok: false, response: error(400, "Unacceptable request body: ids must be a list of strings") }
  }
  if (ids.length > max) return { ok: false, response: error(400, `Cannot process more than ${max} ids`) }
  return { ok: true, ids }
}

/** A batch: one answer per id, in order, `null` where the id is unknown. */
const batch = (
  request: EmulatorRequest,
  query: Query,
  kind: "paper" | "author",
  max: number,
  answer: (id: string, spec: FieldSpec) => Json
): EmulatorResponse => {
  const f = fieldsOf(query, kind)
  if (!f.ok) return f.response
  const ids = idsOf(request.body, max)
  if (!ids.ok) return ids.response
  return json(200, ids.ids.map((id) => answer(id, f.spec)))
}

/** POST /paper/batch */
export const paperBatch = (ctx: RouteContext, request: EmulatorRequest, query: Query): EmulatorResponse =>
  batch(request, query, "paper", 500, (id, spec) => {
    const i = resolveShown(ctx, id)
    return i === undefined ? null : paperJson(ctx.corpus, i, spec)
  })

const listEnvelope = (offset: number, limit: number, total: number, data: ReadonlyArray<Json>): EmulatorResponse => {
  const next = nextOf(offset, limit, total, LIST_WINDOW, true)
  return json(200, next === undefined ? { offset, data } : { offset, next, data })
}

/** GET /paper/{id}/authors */
export const paperAuthors = (ctx: RouteContext, query: Query, id: string): EmulatorResponse => {
  const i = resolveShown(ctx, id)
  if (i === undefined) return paperNotFound(id)
  const f = fieldsOf(query, "author")
  if (!f.ok) return f.response
  const paging = parsePaging(query, { maxLimit: 1000, window: LIST_WINDOW, strict: true })
  if (paging._tag === "Bad") return paging.response
  const authors = ctx.corpus.paper(i).authors
  const data = authors.slice(paging.offset, paging.offset + paging.limit).map((a) => authorJson(ctx.corpus, a, f.spec))
  return listEnvelope(paging.offset, paging.limit, authors.length, data)
}

const dateFilter = (
  ctx: RouteContext,
  query: Query
): { readonly ok: true; readonly filter: Filter | undefined } | {
  readonly ok: false
  readonly response: EmulatorResponse
} => {
  const raw = query.get("publicationDateOrYear")
  if (raw === undefined || raw === "") return { ok: true, filter: undefined }
  if (parseDateRange(raw) === undefined) {
    return { ok: false, response: error(400, `Invalid publicationDateOrYear: ${raw}`) }
  }
  const only = new URLSearchParams({ publicationDateOrYear: raw })
  const parsed = parseFilters(ctx.corpus, new Query(only))
  return parsed._tag === "Ok"
    ? { ok: true, filter: parsed.filter }
    : { ok: false, response: error(400, parsed.message) }
}

/**
 * A list of papers (by corpus index) filtered by `publicationDateOrYear` and paged: the shape of
 * the citations and author-papers routes.
 */
const datedList = (
  ctx: RouteContext,
  query: Query,
  kind: "edge" | "paper",
  indexes: () => ReadonlyArray<number>,
  toJson: (index: number, spec: FieldSpec) => Json
): EmulatorResponse => {
  const f = fieldsOf(query, kind)
  if (!f.ok) return f.response
  const paging = parsePaging(query, { maxLimit: 1000, window: LIST_WINDOW, strict: true })
  if (paging._tag === "Bad") return paging.response
  const dates = dateFilter(ctx, query)
  if (!dates.ok) return dates.response
  const filter = dates.filter
  const all = filter === undefined ? indexes() : indexes().filter((index) => filter(index))
  const data = all.slice(paging.offset, paging.offset + paging.limit).map((index) => toJson(index, f.spec))
  return listEnvelope(paging.offset, paging.limit, all.length, data)
}

/** GET /paper/{id}/citations */
export const paperCitations = (ctx: RouteContext, query: Query, id: string): EmulatorResponse => {
  const i = resolveShown(ctx, id)
  if (i === undefined) return paperNotFound(id)
  return datedList(
    ctx,
    query,
    "edge",
    () => Array.from(citingOf(ctx.corpus, i)).filter((c) => shown(ctx, c)),
    (c, spec) => edgeJson(ctx.corpus, c, i, "citingPaper", spec)
  )
}

/** GET /paper/{id}/references */
export const paperReferences = (ctx: RouteContext, query: Query, id: string): EmulatorResponse => {
  const i = resolveShown(ctx, id)
  if (i === undefined) return paperNotFound(id)
  const f = fieldsOf(query, "edge")
  if (!f.ok) return f.response
  const paging = parsePaging(query, { maxLimit: 1000, window: LIST_WINDOW, strict: true })
  if (paging._tag === "Bad") return paging.response
  const cited = citedOf(ctx.corpus, i)
  const total = cited.length + unresolvedCount(ctx.corpus, i)
  const data: Array<Json> = []
  for (let k = paging.offset; k < Math.min(total, paging.offset + paging.limit); k++) {
    data.push(
      k < cited.length
        ? edgeJson(ctx.corpus, i, cited[k]!, "citedPaper", f.spec)
        : unresolvedEdgeJson(ctx.corpus, i, k - cited.length, f.spec)
    )
  }
  return listEnvelope(paging.offset, paging.limit, total, data)
}

const relevanceHits = (
  ctx: RouteContext,
  text: string
): ReadonlyArray<{ readonly id: number; readonly score: number }> =>
  ctx.relevance.get(text, () => ctx.corpus.searchIndex.search(text).map((r) => ({ id: Number(r.id), score: r.score })))

/** GET /paper/search */
export const searchPaper = (ctx: RouteContext, query: Query): EmulatorResponse => {
  const f = fieldsOf(query, "paper")
  if (!f.ok) return f.response
  const paging = parsePaging(query, { maxLimit: 100, window: RELEVANCE_WINDOW, strict: false })
  if (paging._tag === "Bad") return paging.response
  const filters = parseFilters(ctx.corpus, query)
  if (filters._tag === "Bad") return error(400, filters.message)
  const filter = filters.filter
  const hits = relevanceHits(ctx, query.get("query") ?? "").filter((h) =>
    shown(ctx, h.id) && (filter === undefined || filter(h.id))
  )
  if (hits.length === 0) return json(200, { total: 0, offset: 0 })
  const data = hits.slice(paging.offset, paging.offset + paging.limit).map((h) => paperJson(ctx.corpus, h.id, f.spec))
  const next = nextOf(paging.offset, paging.limit, hits.length, RELEVANCE_WINDOW, false)
  const body = next === undefined
    ? { total: hits.length, offset: paging.offset, data }
    : { total: hits.length, offset: paging.offset, next, data }
  return json(200, body)
}

/**
 * The result set of a bulk search as the corpus is now, when papers arrive with the clock: cached
 * by the number arrived, so a set is rebuilt when the corpus has grown; tokens keep the query's key,
 * so a search paged across an arrival continues where it was.
 */
const arrivedSet = (
  ctx: RouteContext,
  key: string,
  text: string,
  filter: Filter | undefined,
  sort: NonNullable<ReturnType<typeof parseSort>>
) =>
  ctx.bulkSets.get(
    `${key}\u0000${ctx.timeline!.epoch(ctx.now)}`,
    () => buildResultSet(ctx.corpus, key, text, (i) => shown(ctx, i) && (filter === undefined || filter(i)), sort)
  )

/** GET /paper/search/bulk */
export const searchPaperBulk = (ctx: RouteContext, query: Query): EmulatorResponse => {
  const f = fieldsOf(query, "paper")
  if (!f.ok) return f.response
  const sort = parseSort(query.get("sort"))
  if (sort === undefined) return error(400, `Invalid sort: ${query.get("sort") ?? ""}`)
  const filters = parseFilters(ctx.corpus, query)
  if (filters._tag === "Bad") return error(400, filters.message)
  const text = query.get("query") ?? ""
  const filterKeys = ["year", "publicationDateOrYear", "publicationTypes", "fieldsOfStudy", "venue", "minCitationCount"]
    .map((k) => `${k}=${query.get(k) ?? ""}`).join("&") + (query.has("openAccessPdf") ? "&oa" : "")
  const key = `${text}\u0000${filterKeys}\u0000${sort.field}:${sort.desc ? "desc" : "asc"}`
  const set = ctx.timeline === undefined
    ? ctx.bulkSets.get(key, () => buildResultSet(ctx.corpus, key, text, filters.filter, sort))
    : arrivedSet(ctx, key, text, filters.filter, sort)
  const token = query.get("token")
  let cursor = { a: 0, b: 0 }
  if (token !== undefined && token !== "") {
    const decoded = decodeToken(ctx.corpus.seed, key, token)
    if (decoded !== undefined) cursor = decoded
    else if (ctx.corpus.openWorld) {
      // A token minted elsewhere (e.g. by the live API): continue at a deterministic later page.
      const pages = Math.ceil(set.sorted.length / PAGE_SIZE)
      cursor = { a: Math.min(set.sorted.length, (1 + (hashString(token) % Math.max(1, pages))) * PAGE_SIZE), b: 0 }
    } else return error(400, "Invalid token")
  }
  const result = page(ctx.corpus, set, cursor)
  const nextToken = result.next === undefined ? null : encodeToken(ctx.corpus.seed, key, result.next)
  const cache = ctx.serialized.get(query.get("fields") ?? "", () => [])
  const items = result.items.map((i) => {
    const hit = cache[i]
    if (hit !== undefined) return hit
    const text = JSON.stringify(paperJson(ctx.corpus, i, f.spec))
    if (i < ctx.corpus.size) cache[i] = text
    return text
  })
  return rawJson(200, `{"total":${set.total},"token":${JSON.stringify(nextToken)},"data":[${items.join(",")}]}\n`)
}

/**
 * Words that alone never make a title match: "the texbook" shares only "the" with "On the cancer
 * of elderly cancer", and must not match it.
 */
const matchStopWords = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "for",
  "from",
  "in",
  "into",
  "is",
  "it",
  "its",
  "of",
  "on",
  "or",
  "the",
  "their",
  "to",
  "towards",
  "via",
  "with"
])

const contentWordsOf = (text: string): Set<string> =>
  new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0 && !matchStopWords.has(t)))

/**
 * GET /paper/search/match. As lenient as the live endpoint appears in the recordings (it answers
 * the fragment "mining association rules between" with the whole title): the best-ranked title
 * that holds at least half of the query's content words, stop words aside; none in common is 404.
 */
export const searchPaperMatch = (ctx: RouteContext, query: Query): EmulatorResponse => {
  const f = fieldsOf(query, "paper")
  if (!f.ok) return f.response
  const filters = parseFilters(ctx.corpus, query)
  if (filters._tag === "Bad") return error(400, filters.message)
  const filter = filters.filter
  const text = query.get("query") ?? ""
  const wanted = contentWordsOf(text)
  if (wanted.size === 0) return error(404, "Title match not found")
  const hits = ctx.corpus.searchIndex.search(text, { fields: ["title"] }).filter((h) =>
    filter === undefined || filter(Number(h.id))
  )
  const best = hits[0]
  if (best === undefined) return error(404, "Title match not found")
  const titleWords = contentWordsOf(ctx.corpus.paper(Number(best.id)).title)
  const overlap = [...wanted].filter((t) => titleWords.has(t)).length
  if (overlap === 0 || overlap * 2 < wanted.size) return error(404, "Title match not found")
  const top = new Set(f.spec.top)
  top.add("title")
  const paper = paperJson(ctx.corpus, Number(best.id), { top, nested: f.spec.nested })
  // A float on the wire, like the live API's scores.
  const matchScore = Math.round(best.score * 100000) / 100000 + 0.00001
  return json(200, { data: [{ ...paper, matchScore }] })
}

/** GET /paper/autocomplete */
export const autocomplete = (ctx: RouteContext, query: Query): EmulatorResponse => {
  const text = (query.get("query") ?? "").slice(0, 100)
  if (text.trim() === "") return json(200, { matches: [] })
  const hits = ctx.corpus.searchIndex.search(text, { fields: ["title"], prefix: true, combineWith: "AND" }).slice(0, 10)
  return json(200, {
    matches: hits.map((h) => {
      const p = ctx.corpus.paper(Number(h.id))
      return {
        id: p.paperId,
        title: p.title,
        authorsYear: authorsYear(p.authors.map((a) => ctx.corpus.author(a).name), p.year)
      }
    })
  })
}

/** GET /author/{id} */
export const getAuthor = (ctx: RouteContext, query: Query, id: string): EmulatorResponse => {
  const j = ctx.corpus.resolveAuthor(id)
  if (j === undefined) return authorNotFound(id)
  const f = fieldsOf(query, "author")
  if (!f.ok) return f.response
  return json(200, authorJson(ctx.corpus, j, f.spec))
}

/** POST /author/batch */
export const authorBatch = (ctx: RouteContext, request: EmulatorRequest, query: Query): EmulatorResponse =>
  batch(request, query, "author", 1000, (id, spec) => {
    const j = ctx.corpus.resolveAuthor(id)
    return j === undefined ? null : authorJson(ctx.corpus, j, spec)
  })

/** GET /author/{id}/papers */
export const authorPapers = (ctx: RouteContext, query: Query, id: string): EmulatorResponse => {
  const j = ctx.corpus.resolveAuthor(id)
  if (j === undefined) return authorNotFound(id)
  const { authorPaperStart, authorPapers: papers } = ctx.corpus
  return datedList(
    ctx,
    query,
    "paper",
    () => Array.from(papers.subarray(authorPaperStart[j]!, authorPaperStart[j + 1]!)).filter((p) => shown(ctx, p)),
    (p, spec) => paperJson(ctx.corpus, p, spec)
  )
}

/** GET /author/search */
export const searchAuthor = (ctx: RouteContext, query: Query): EmulatorResponse => {
  const f = fieldsOf(query, "author")
  if (!f.ok) return f.response
  const paging = parsePaging(query, { maxLimit: 1000, window: LIST_WINDOW, strict: true })
  if (paging._tag === "Bad") return paging.response
  const hits = ctx.corpus.searchAuthors(query.get("query") ?? "")
  const data = hits.slice(paging.offset, paging.offset + paging.limit).map((j) => authorJson(ctx.corpus, j, f.spec))
  const next = nextOf(paging.offset, paging.limit, hits.length, LIST_WINDOW, true)
  return json(
    200,
    next === undefined
      ? { total: hits.length, offset: paging.offset, data }
      : { total: hits.length, offset: paging.offset, next, data }
  )
}

const SNIPPET_FIELDS = new Set([
  "snippet.text",
  "snippet.snippetKind",
  "snippet.section",
  "snippet.snippetOffset",
  "snippet.annotations",
  "snippet.annotations.sentences",
  "snippet.annotations.refMentions"
])

/** GET /snippet/search */
export const searchSnippet = (ctx: RouteContext, query: Query): EmulatorResponse => {
  const text = query.get("query")
  if (text === undefined || text.trim() === "") return error(400, "Missing required parameter: 'query'")
  const rawFields = query.get("fields")
  const fields = rawFields === undefined || rawFields === "" ? undefined : rawFields.split(",").map((s) => s.trim())
  const unknown = (fields ?? []).filter((name) => !SNIPPET_FIELDS.has(name))
  if (unknown.length > 0) return error(400, unknownFieldsMessage(unknown))
  const paging = parsePaging(query, { maxLimit: 1000, window: 1001, strict: false, defaultLimit: 10 })
  if (paging._tag === "Bad") return paging.response
  const authors = query.get("authors")
  const authorNames = authors === undefined || authors === ""
    ? []
    : authors.split(",").map((a) => a.trim().toLowerCase())
  if (authorNames.length > 10) return error(400, "Cannot filter by more than 10 authors")
  const filters = parseFilters(ctx.corpus, query)
  if (filters._tag === "Bad") return error(400, filters.message)
  const paperIds = query.get("paperIds")
  const only = paperIds === undefined || paperIds === ""
    ? undefined
    : new Set(paperIds.split(",").map((id) => ctx.corpus.resolvePaper(id.trim())))
  const filter = filters.filter
  const corpus = ctx.corpus
  const hits = relevanceHits(ctx, text).filter((h) =>
    (filter === undefined || filter(h.id)) &&
    (only === undefined || only.has(h.id)) &&
    authorNames.every((name) =>
      corpus.paper(h.id).authors.some((a) => corpus.author(a).name.toLowerCase().includes(name))
    )
  ).slice(0, paging.limit)
  const maxScore = hits[0]?.score ?? 1
  const terms = text.toLowerCase().split(/\s+/).filter((t) => t.length > 0)
  const want = (name: string) =>
    fields === undefined || fields.includes(name) ||
    (name.startsWith("snippet.annotations") && fields.includes("snippet.annotations"))
  const data = hits.map((h) => {
    const p = corpus.paper(h.id)
    const sentences = (p.abstract ?? "").split(/(?<=\.)\s+/).filter((s) => s.length > 0)
    const sentence = sentences.find((s) => terms.some((t) => s.toLowerCase().includes(t)))
    const body = unit(hash(corpus.seed, h.id, 59)) < 0.3 && sentence !== undefined
    const kind = sentence === undefined ? "title" : body ? "body" : "abstract"
    const snippetText = sentence ?? p.title
    const start = sentence === undefined
      ? 0
      : body
      ? 1000 + (hash(corpus.seed, h.id, 61) % 4000)
      : (p.abstract ?? "").indexOf(sentence)
    const snippet: Record<string, Json> = {}
    if (want("snippet.text")) snippet.text = snippetText
    if (want("snippet.snippetKind")) snippet.snippetKind = kind
    if (want("snippet.section")) snippet.section = kind === "body" ? "Introduction" : null
    if (want("snippet.snippetOffset")) snippet.snippetOffset = { start, end: start + snippetText.length }
    if (want("snippet.annotations.sentences") || want("snippet.annotations.refMentions")) {
      const annotations: Record<string, Json> = {}
      if (want("snippet.annotations.sentences")) annotations.sentences = [{ start: 0, end: snippetText.length }]
      if (want("snippet.annotations.refMentions")) annotations.refMentions = []
      snippet.annotations = annotations
    }
    return {
      snippet,
      score: Math.round((h.score / maxScore) * 0.9 * 1000) / 1000,
      paper: {
        corpusId: String(p.corpusId),
        title: p.title,
        authors: p.authors.map((a) => corpus.author(a).name),
        openAccessInfo: p.openAccess === null
          ? null
          : {
            license: "CCBY",
            status: p.openAccess.status ?? "GREEN",
            disclaimer: "Notice: this snippet is provided by the emulator."
          }
      }
    }
  })
  return json(200, { data, retrievalVersion: "v1.0.0" })
}
