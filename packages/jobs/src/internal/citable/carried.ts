/**
 * The user's own BibTeX fields in CSL-JSON and RIS: those the formats have a place for beyond what
 * the facts read (ISBN, abstract, keywords, note…), written from the user's value, and the names of
 * the rest, which neither format can hold: said, never dropped in silence.
 */
import type { Item } from "../../Citable.js"
import { plain } from "../bibtex.js"
import { userFields } from "./bibtex.js"
import { oneLine } from "./facts.js"

/** A BibTeX field, its CSL-JSON variable and its RIS tag, each written from the user's value. */
const places: ReadonlyArray<readonly [bibtex: string, csl: string, ris: string]> = [
  ["isbn", "ISBN", "SN"],
  ["issn", "ISSN", "SN"],
  ["abstract", "abstract", "AB"],
  ["keywords", "keyword", "KW"],
  ["note", "note", "N1"],
  ["annote", "annote", "N1"],
  ["address", "publisher-place", "CY"],
  ["location", "publisher-place", "CY"],
  ["edition", "edition", "ET"],
  ["series", "collection-title", "T3"],
  ["language", "language", "LA"],
  ["url", "URL", "UR"]
]

/** The fields `withUserFields` reads where the record has no value (or whose value the record's date gives). */
const read: ReadonlySet<string> = new Set(
  ["title", "author", "year", "month", "date", "journal", "journaltitle", "booktitle"].concat(
    ["volume", "number", "issue", "pages", "doi", "publisher"]
  )
)

/** The user's fields, names in lower case, values as plain text on one line; empty values left out. */
const userValues = (extra: Readonly<Record<string, string>> | undefined): ReadonlyArray<readonly [string, string]> =>
  Object.entries(extra ?? {}).flatMap(([name, value]) => {
    const text = typeof value === "string" ? oneLine(plain(value)) : ""
    return text.length > 0 ? [[name.toLowerCase(), text] as const] : []
  })

/**
 * The user's values a format has a place for, as `[variable or tag, value]` in the order of
 * {@link places}: CSL-JSON (`which` 1) or RIS (`which` 2). The first of two fields with one place
 * (`address`, `location`) is taken.
 */
export const carried = (
  extra: Readonly<Record<string, string>> | undefined,
  which: 1 | 2
): ReadonlyArray<readonly [string, string]> => {
  const user = new Map(userValues(extra))
  const out: Array<readonly [string, string]> = []
  const placed = new Set<string>()
  for (const place of places) {
    const value = user.get(place[0])
    // Synonyms (`address`, `location`) have one place: the first is written. RIS's SN holds an
    // ISBN and an ISSN alike, a KW line a keyword each.
    if (value === undefined || (placed.has(place[which]) && place[which] !== "SN")) continue
    placed.add(place[which])
    const values = which === 2 && place[2] === "KW" ? value.split(/\s*[,;]\s*/) : [value]
    for (const one of values) if (one.length > 0) out.push([place[which], one])
  }
  return out
}

/**
 * The names of the user's fields, among `kept` (those the record does not replace), that neither
 * the facts nor {@link places} write: a .bib's `file`, `editor`, `groups`….
 */
export const leftOut = (kept: ReadonlyArray<string>): ReadonlyArray<string> =>
  kept.filter((name) => {
    const lower = name.toLowerCase()
    return !read.has(lower) && !places.some(([bibtex]) => bibtex === lower)
  })

/**
 * What writing `item` as CSL-JSON or RIS does to the user's own fields, one line each: those
 * Semantic Scholar's values replaced where they differ, and those the format has no place for.
 */
export const notes = (item: Item, format: "csl-json" | "ris"): ReadonlyArray<string> => {
  const { kept, replaced } = userFields(item)
  const out = leftOut(kept)
  return [
    replaced.length > 0
      ? `Semantic Scholar's values written in place of yours, which differ: ${replaced.join(", ")}`
      : "",
    out.length > 0 ? `left out, ${format === "ris" ? "RIS" : "CSL-JSON"} has no place for: ${out.join(", ")}` : ""
  ].filter((line) => line.length > 0)
}
