/**
 * Bulk search paging. A result set is two sorted sources merged lazily: the matching materialized
 * papers (sorted once and cached) and, for an empty unfiltered query over a universe larger than
 * the corpus, the virtual papers `[size, universe)` whose sort keys are monotone in their index.
 * The opaque token is the merge cursor, so any page is produced without touching earlier ones.
 */
import type { Corpus } from "../Corpus.js"
import { evaluate, parseBulkQuery } from "./bulkQuery.js"
import type { Filter } from "./filters.js"
import { hash, hashString, Rng } from "./prng.js"

export type SortField = "paperId" | "publicationDate" | "citationCount"
export interface Sort {
  readonly field: SortField
  readonly desc: boolean
}

export const parseSort = (raw: string | undefined): Sort | undefined => {
  if (raw === undefined || raw === "") return { field: "paperId", desc: false }
  const [field, dir = "asc"] = raw.split(":")
  if (field !== "paperId" && field !== "publicationDate" && field !== "citationCount") return undefined
  if (dir !== "asc" && dir !== "desc") return undefined
  return { field, desc: dir === "desc" }
}

export const PAGE_SIZE = 1000

export const dateNumber = (corpus: Corpus, i: number): number => {
  const p = corpus.paper(i)
  return p.publicationDate === null ? p.year * 10000 : Number(p.publicationDate.replaceAll("-", ""))
}

const virtualKey = (corpus: Corpus, field: SortField, i: number): number => {
  switch (field) {
    case "paperId":
      return corpus.paperIdKey(i)
    case "citationCount":
      return corpus.citationCount(i)
    case "publicationDate":
      return dateNumber(corpus, i)
  }
}

export interface ResultSet {
  readonly key: string
  readonly total: number
  /** Materialized matches in sort order. */
  readonly sorted: Int32Array
  /** Whether the virtual tail `[size, universe)` belongs to the set. */
  readonly virtual: boolean
  readonly sort: Sort
}

export interface Cursor {
  readonly a: number
  readonly b: number
}

export const buildResultSet = (
  corpus: Corpus,
  key: string,
  query: string,
  filter: Filter | undefined,
  sort: Sort
): ResultSet => {
  const node = parseBulkQuery(query)
  const virtual = node._tag === "All" && filter === undefined && corpus.universe > corpus.size
  const members = evaluate(corpus, node)
  const list: Array<number> = []
  for (let i = 0; i < corpus.size; i++) if (members[i] === 1 && (filter === undefined || filter(i))) list.push(i)
  const keys = new Float64Array(corpus.size)
  for (const i of list) keys[i] = virtualKey(corpus, sort.field, i)
  list.sort((x, y) => keys[x]! - keys[y]! || x - y)
  if (sort.desc) list.reverse()
  const total = list.length + (virtual ? corpus.universe - corpus.size : 0)
  return { key, total, sorted: Int32Array.from(list), virtual, sort }
}

/** The page at `cursor`, and the cursor after it (undefined at the end). */
export const page = (
  corpus: Corpus,
  set: ResultSet,
  cursor: Cursor
): { readonly items: Array<number>; readonly next: Cursor | undefined } => {
  const items: Array<number> = []
  let { a, b } = cursor
  const tail = set.virtual ? corpus.universe - corpus.size : 0
  // Virtual papers: keys ascend with the index for paperId/publicationDate, descend for citationCount.
  const ascendingInIndex = set.sort.field !== "citationCount"
  const tailIndex = (k: number): number =>
    ascendingInIndex !== set.sort.desc ? corpus.size + k : corpus.universe - 1 - k
  while (items.length < PAGE_SIZE && (a < set.sorted.length || b < tail)) {
    if (b >= tail) items.push(set.sorted[a++]!)
    else if (a >= set.sorted.length) items.push(tailIndex(b++))
    else {
      const x = set.sorted[a]!
      const y = tailIndex(b)
      const kx = virtualKey(corpus, set.sort.field, x)
      const ky = virtualKey(corpus, set.sort.field, y)
      const cmp = kx - ky || x - y
      if ((cmp <= 0) !== set.sort.desc) items.push(set.sorted[a++]!)
      else items.push(tailIndex(b++))
    }
  }
  const more = a < set.sorted.length || b < tail
  return { items, next: more ? { a, b } : undefined }
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

const base32 = (bytes: Uint8Array): string => {
  let out = ""
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  return out
}

const unbase32 = (text: string): Uint8Array | undefined => {
  const out: Array<number> = []
  let bits = 0
  let value = 0
  for (const c of text) {
    const v = ALPHABET.indexOf(c)
    if (v < 0) return undefined
    value = ((value << 5) | v) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Uint8Array.from(out)
}

const keystream = (seed: number, n: number): Uint8Array => {
  const rng = new Rng(hash(seed, 53))
  return Uint8Array.from({ length: n }, () => rng.next() & 255)
}

/** Opaque, page-specific token: the result-set key and the cursor, scrambled. */
export const encodeToken = (seed: number, key: string, cursor: Cursor): string => {
  const text = `${hashString(key).toString(36)}.${cursor.a.toString(36)}.${cursor.b.toString(36)}`
  const bytes = new TextEncoder().encode(text)
  const ks = keystream(seed, bytes.length)
  return "PC" + base32(bytes.map((x, k) => x ^ ks[k]!))
}

export const decodeToken = (seed: number, key: string, token: string): Cursor | undefined => {
  if (!token.startsWith("PC")) return undefined
  const bytes = unbase32(token.slice(2))
  if (bytes === undefined) return undefined
  const ks = keystream(seed, bytes.length)
  const text = new TextDecoder().decode(bytes.map((x, k) => x ^ ks[k]!))
  const [k, a, b] = text.split(".")
  if (k !== hashString(key).toString(36) || a === undefined || b === undefined) return undefined
  const cursor = { a: parseInt(a, 36), b: parseInt(b, 36) }
  return Number.isSafeInteger(cursor.a) && Number.isSafeInteger(cursor.b) && cursor.a >= 0 && cursor.b >= 0
    ? cursor
    : undefined
}
