/** The seven search filters shared by relevance, bulk and title-match search (and snippets). */
import * as Data from "effect/Data"
import type { Corpus } from "../Corpus.js"
import type { Query } from "./wire.js"

export type Filter = (i: number) => boolean

export type FilterResult = Data.TaggedEnum<{
  Ok: { readonly filter: Filter | undefined }
  Bad: { readonly message: string }
}>

const FilterResult = Data.taggedEnum<FilterResult>()

const dateBound = (text: string, end: boolean): string | undefined => {
  if (text === "") return undefined
  const m = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(text)
  if (m === null) return undefined
  const [, y, mo, d] = m
  if (end) return `${y}-${mo ?? "12"}-${d ?? "31"}`
  return `${y}-${mo ?? "01"}-${d ?? "01"}`
}

const paperDate = (corpus: Corpus, i: number): string => {
  const p = corpus.paper(i)
  return p.publicationDate ?? `${p.year}-00-00`
}

export const parseYear = (raw: string): { readonly from: number; readonly to: number } | undefined => {
  const m = /^(\d{4})?(-)?(\d{4})?$/.exec(raw.trim())
  if (m === null || (m[1] === undefined && m[3] === undefined)) return undefined
  const from = m[1] === undefined ? 0 : Number(m[1])
  const to = m[3] === undefined ? (m[2] === undefined ? from : 9999) : Number(m[3])
  return { from, to }
}

export const parseDateRange = (raw: string): { readonly from: string; readonly to: string } | undefined => {
  const parts = raw.split(":")
  if (parts.length > 2) return undefined
  const [a = "", b] = parts
  if (b === undefined) {
    const from = dateBound(a, false)
    const to = dateBound(a, true)
    return from === undefined || to === undefined ? undefined : { from, to }
  }
  const from = a === "" ? "0000-00-00" : dateBound(a, false)
  const to = b === "" ? "9999-99-99" : dateBound(b, true)
  if (from === undefined || to === undefined) return undefined
  return { from, to }
}

export const parseFilters = (corpus: Corpus, query: Query): FilterResult => {
  const checks: Array<Filter> = []
  const year = query.get("year")
  if (year !== undefined && year !== "") {
    const range = parseYear(year)
    if (range === undefined) return FilterResult.Bad({ message: `Invalid year: ${year}` })
    checks.push((i) => {
      const y = corpus.year(i)
      return y >= range.from && y <= range.to
    })
  }
  const dates = query.get("publicationDateOrYear")
  if (dates !== undefined && dates !== "") {
    const range = parseDateRange(dates)
    if (range === undefined) return FilterResult.Bad({ message: `Invalid publicationDateOrYear: ${dates}` })
    checks.push((i) => {
      const p = corpus.paper(i)
      if (p.publicationDate === null) {
        const y = String(p.year)
        return y >= range.from.slice(0, 4) && y <= range.to.slice(0, 4)
      }
      const d = paperDate(corpus, i)
      return d >= range.from && d <= range.to
    })
  }
  const types = query.get("publicationTypes")
  if (types !== undefined && types !== "") {
    const wanted = types.split(",").map((t) => t.trim())
    checks.push((i) => corpus.paper(i).publicationTypes?.some((t) => wanted.includes(t)) ?? false)
  }
  const fos = query.get("fieldsOfStudy")
  if (fos !== undefined && fos !== "") {
    const wanted = fos.split(",").map((t) => t.trim().toLowerCase())
    checks.push((i) => corpus.paper(i).s2FieldsOfStudy.some((f) => wanted.includes(f.category.toLowerCase())))
  }
  const venue = query.get("venue")
  if (venue !== undefined && venue !== "") {
    const wanted = venue.split(",").map((t) => t.trim().toLowerCase())
    checks.push((i) => {
      const v = corpus.paper(i).venue
      return v !== null && (wanted.includes(v.name.toLowerCase()) || wanted.includes(v.short.toLowerCase()))
    })
  }
  const minCitations = query.get("minCitationCount")
  if (minCitations !== undefined && minCitations !== "") {
    if (!/^\d+$/.test(minCitations)) return FilterResult.Bad({ message: `Invalid minCitationCount: ${minCitations}` })
    const n = Number(minCitations)
    checks.push((i) => corpus.citationCount(i) >= n)
  }
  if (query.has("openAccessPdf")) checks.push((i) => corpus.paper(i).openAccess !== null)
  if (checks.length === 0) return FilterResult.Ok({ filter: undefined })
  return FilterResult.Ok({ filter: (i) => checks.every((check) => check(i)) })
}
