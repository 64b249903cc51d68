/** Recommendations API (`/recommendations/v1`). */
import type { Corpus } from "../../Corpus.js"
import type { RouteContext } from "../context.js"
import { parseFields, unknownFieldsMessage } from "../fields.js"
import { hash } from "../prng.js"
import { paperJson } from "../serialize.js"
import { type EmulatorRequest, type EmulatorResponse, error, json, parseJsonBody, type Query } from "../wire.js"

const parseLimit = (query: Query): number | EmulatorResponse => {
  const raw = query.get("limit")
  if (raw === undefined || raw === "") return 100
  if (!/^\d+$/.test(raw)) return error(400, "Invalid limit: must be a non-negative integer")
  const n = Number(raw)
  return n > 500 ? error(400, "Limit must be <= 500") : n
}

/** Ranks the corpus by topic affinity (positive minus negative), then recency, then a seeded tie-break. */
const rank = (
  corpus: Corpus,
  weights: ReadonlyMap<number, number>,
  exclude: ReadonlySet<number>,
  keep: (i: number) => boolean,
  limit: number,
  salt: number
): Array<number> => {
  const scored: Array<{ i: number; s: number }> = []
  for (let i = 0; i < corpus.size; i++) {
    if (exclude.has(i) || !keep(i)) continue
    const affinity = weights.get(corpus.topic(i)) ?? 0
    if (affinity < 0) continue
    scored.push({ i, s: affinity * 1e6 + corpus.year(i) * 10 + (hash(corpus.seed, salt, i) % 10) })
  }
  scored.sort((a, b) => b.s - a.s || a.i - b.i)
  return scored.slice(0, limit).map((x) => x.i)
}

const isCs = (corpus: Corpus, i: number) =>
  corpus.paper(i).s2FieldsOfStudy.some((f) => f.category === "Computer Science")

/** GET /papers/forpaper/{id} */
export const forPaper = (ctx: RouteContext, query: Query, id: string): EmulatorResponse => {
  const i = ctx.corpus.resolvePaper(id)
  if (i === undefined) return error(404, `Paper with id ${id} not found`)
  const fields = parseFields(query.get("fields"), "paper")
  if (fields._tag === "Unknown") return error(400, unknownFieldsMessage(fields.names))
  const limit = parseLimit(query)
  if (typeof limit !== "number") return limit
  const from = query.get("from") ?? "recent"
  if (from !== "recent" && from !== "all-cs") return error(400, `Invalid pool: ${from}`)
  const corpus = ctx.corpus
  let latest = 0
  for (let k = 0; k < corpus.size; k++) latest = Math.max(latest, corpus.year(k))
  const recentYear = latest - 5
  const keep = from === "all-cs" ? (k: number) => isCs(corpus, k) : (k: number) => corpus.year(k) >= recentYear
  const ids = rank(corpus, new Map([[corpus.topic(i), 1]]), new Set([i]), keep, limit, i)
  return json(200, { recommendedPapers: ids.map((k) => paperJson(corpus, k, fields.spec)) })
}

const stringList = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.filter((x): x is string => typeof x === "string") : []

/** POST /papers/ */
export const fromLists = (ctx: RouteContext, request: EmulatorRequest, query: Query): EmulatorResponse => {
  const fields = parseFields(query.get("fields"), "paper")
  if (fields._tag === "Unknown") return error(400, unknownFieldsMessage(fields.names))
  const limit = parseLimit(query)
  if (typeof limit !== "number") return limit
  const body = parseJsonBody(request.body)
  const value: Record<string, unknown> = body.ok && typeof body.value === "object" && body.value !== null
    ? { ...body.value }
    : {}
  const positives = stringList(value.positivePaperIds)
  const negatives = stringList(value.negativePaperIds)
  if (positives.length === 0) return error(400, "No positive paper examples given")
  const corpus = ctx.corpus
  const weights = new Map<number, number>()
  const exclude = new Set<number>()
  for (const [list, w] of [[positives, 1], [negatives, -1]] as const) {
    for (const id of list) {
      const i = corpus.resolvePaper(id)
      if (i === undefined) return error(404, `Paper with id ${id} not found`)
      exclude.add(i)
      const t = corpus.topic(i)
      weights.set(t, (weights.get(t) ?? 0) + w)
    }
  }
  const ids = rank(corpus, weights, exclude, () => true, limit, positives.length)
  return json(200, { recommendedPapers: ids.map((k) => paperJson(corpus, k, fields.spec)) })
}
