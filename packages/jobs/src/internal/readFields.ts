/**
 * What every reader shares: an entry's fields built in BibTeX's names and conventions (contract 1),
 * ids read by `PaperId.recognise` and nothing else.
 */
import { PaperId } from "@s2-effect/core"
import type * as ReferenceInput from "../ReferenceInput.js"

/** Fields being built: names no prototype shadows, values trimmed, an empty value never kept. */
export type Fields = Record<string, string>

export const newFields = (): Fields => Object.create(null) as Fields

export const put = (fields: Fields, name: string, value: string | undefined): void => {
  const v = value?.replace(/\s+/g, " ").trim()
  if (v !== undefined && v.length > 0 && fields[name] === undefined) fields[name] = v
}

/**
 * Where an id `PaperId.recognise` reads goes: a DOI to `doi`, an arXiv id to `eprint` (with
 * `archiveprefix`), any other link to `url`; the first of each kind kept. Whether it was one. An
 * arXiv DOI (`10.48550/arXiv.2404.13957`), which the API knows by its arXiv id, is kept as the
 * `doi` written too: the entry says what the user wrote.
 */
export const putId = (fields: Fields, text: string): boolean => {
  const r = PaperId.recognise(text)
  if (r._tag !== "Id") return false
  if (r.id.startsWith("DOI:")) put(fields, "doi", r.id.slice(4))
  else if (r.id.startsWith("ARXIV:")) {
    put(fields, "eprint", r.id.slice(6).replace(/v\d+$/, ""))
    put(fields, "archiveprefix", "arXiv")
    const doi = PaperId.withoutDoiPrefix(text.trim())
    if (PaperId.isDoi(doi)) put(fields, "doi", doi)
  } else if (r.id.startsWith("URL:")) put(fields, "url", r.id.slice(4))
  else return false
  return true
}

/** A year's four digits, and the ISO date when month (and day) are known. */
export const putDate = (fields: Fields, year: number | string | undefined, month?: number, day?: number): void => {
  const y = String(year ?? "").match(/\b(\d{4})\b/)?.[1]
  if (y === undefined) return
  put(fields, "year", y)
  if (month !== undefined && month >= 1 && month <= 12) {
    const mm = String(month).padStart(2, "0")
    put(
      fields,
      "date",
      day !== undefined && day >= 1 && day <= 31 ? `${y}-${mm}-${String(day).padStart(2, "0")}` : `${y}-${mm}`
    )
  }
}

/** Pages as BibTeX writes a range: `5998--6008`. */
export const putPages = (fields: Fields, first: string | undefined, last?: string): void => {
  const range = (last === undefined ? first ?? "" : `${first ?? ""}-${last}`).trim().split(/\s*[-–—]+\s*/)
  put(fields, "pages", range.filter((p) => p.length > 0).join("--"))
}

/** Names joined as BibTeX joins them; `others` for a list that ends "et al.". */
export const putAuthors = (fields: Fields, names: ReadonlyArray<string>, others = false): void => {
  const kept = names.map((n) => n.trim()).filter((n) => n.length > 0)
  if (kept.length === 0) return
  put(fields, "author", [...kept, ...(others ? ["others"] : [])].join(" and "))
}

/** Where a venue goes: `booktitle` for proceedings, chapters and talks, else `journal`. */
export const putVenue = (fields: Fields, venue: string | undefined, inBook: boolean): void =>
  put(fields, inBook ? "booktitle" : "journal", venue)

/** An entry, or its problem when nothing in it can find a paper. */
export const entry = (key: string, fields: Fields, line?: number): ReferenceInput.Entry => {
  const findable = fields["doi"] !== undefined || fields["eprint"] !== undefined || fields["title"] !== undefined
  return {
    key,
    fields,
    ...(line === undefined ? {} : { line }),
    ...(findable ? {} : { problem: "no title, DOI or arXiv id could be read in it" })
  }
}
