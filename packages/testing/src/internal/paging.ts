/** offset/limit validation and the `{offset, next?, data}` envelope. */
import * as Data from "effect/Data"
import { type EmulatorResponse, error, type Query } from "./wire.js"

export type Paging = Data.TaggedEnum<{
  Ok: { readonly offset: number; readonly limit: number }
  Bad: { readonly response: EmulatorResponse }
}>

const Paging = Data.taggedEnum<Paging>()

const intParam = (query: Query, name: string, fallback: number): number | undefined => {
  const raw = query.get(name)
  if (raw === undefined || raw === "") return fallback
  return /^\d+$/.test(raw) ? Number(raw) : undefined
}

/**
 * `maxLimit`: largest page; `window`: the deepest result served. `strict` lists (citations,
 * references, author papers, paper authors) need offset+limit < window; relevance search allows
 * offset+limit <= window.
 */
export const parsePaging = (
  query: Query,
  options: {
    readonly maxLimit: number
    readonly window: number
    readonly strict: boolean
    readonly defaultLimit?: number
  }
): Paging => {
  const offset = intParam(query, "offset", 0)
  const limit = intParam(query, "limit", options.defaultLimit ?? 100)
  if (offset === undefined) {
    return Paging.Bad({ response: error(400, "Invalid offset: must be a non-negative integer") })
  }
  if (limit === undefined) return Paging.Bad({ response: error(400, "Invalid limit: must be a non-negative integer") })
  if (limit > options.maxLimit) return Paging.Bad({ response: error(400, `Limit must be <= ${options.maxLimit}`) })
  const end = offset + limit
  if (options.strict ? end >= options.window : end > options.window) {
    return Paging.Bad({ response: error(400, "Requested data for this limit and/or offset is not available") })
  }
  return Paging.Ok({ offset, limit })
}

export const nextOf = (
  offset: number,
  limit: number,
  total: number,
  window: number,
  strict: boolean
): number | undefined => {
  const end = offset + limit
  if (end >= total) return undefined
  return (strict ? end < window : end <= window) && limit > 0 ? end : undefined
}
