/**
 * A CSL-JSON reader: the items citeproc-js, Zotero, Mendeley, pandoc and our own writer write, read
 * into BibTeX's fields by a table. Only an item's own properties are read, and only those named
 * here: a property named `__proto__` or `constructor` is data, never ours.
 */
import type * as ReferenceInput from "../ReferenceInput.js"
import { entry, type Fields, newFields, put, putAuthors, putDate, putId, putPages, putVenue } from "./readFields.js"

type Json = Readonly<Record<string, unknown>>

const isObject = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

const own = (item: Json, name: string): unknown => Object.hasOwn(item, name) ? item[name] : undefined

/** A text or number property as text. */
const text = (item: Json, name: string): string | undefined => {
  const v = own(item, name)
  return typeof v === "string" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : undefined
}

/** The item types whose container is a book or proceedings: `booktitle`, not `journal`. */
const inBook = new Set(["paper-conference", "chapter", "entry-encyclopedia", "entry-dictionary", "book"])

/** A CSL name as BibTeX writes it: "particle Family, Suffix, Given", or a literal name braced. */
const nameOf = (name: unknown): string => {
  if (!isObject(name)) return ""
  const literal = text(name, "literal")
  if (literal !== undefined) return `{${literal}}`
  const family = [text(name, "non-dropping-particle"), text(name, "family")].filter((p) => p !== undefined).join(" ")
  const given = [text(name, "given"), text(name, "dropping-particle")].filter((p) => p !== undefined).join(" ")
  const suffix = text(name, "suffix")
  return [family, ...(suffix === undefined ? [] : [suffix]), ...(given.length > 0 ? [given] : [])].join(", ")
}

/** `issued`: date-parts, else a raw or literal date's year. */
const dateOf = (fields: Fields, issued: unknown): void => {
  if (!isObject(issued)) return
  const parts = own(issued, "date-parts")
  const first = Array.isArray(parts) && Array.isArray(parts[0]) ? (parts[0] as ReadonlyArray<unknown>) : undefined
  if (first !== undefined) {
    const [y, m, d] = first.map((p) => typeof p === "number" ? p : Number.parseInt(String(p), 10))
    return putDate(fields, y, Number.isFinite(m) ? m : undefined, Number.isFinite(d) ? d : undefined)
  }
  putDate(fields, text(issued, "raw") ?? text(issued, "literal"))
}

const entryOf = (item: Json, index: number): ReferenceInput.Entry => {
  const fields = newFields()
  put(fields, "title", text(item, "title"))
  const authors = own(item, "author")
  putAuthors(fields, Array.isArray(authors) ? authors.map(nameOf) : [])
  dateOf(fields, own(item, "issued"))
  const type = text(item, "type") ?? ""
  putVenue(fields, text(item, "container-title") ?? text(item, "collection-title"), inBook.has(type))
  put(fields, "volume", text(item, "volume"))
  put(fields, "number", text(item, "issue"))
  putPages(fields, text(item, "page"))
  put(fields, "publisher", text(item, "publisher"))
  for (const name of ["DOI", "URL", "number", "archive_location"]) {
    const id = text(item, name)?.trim()
    if (id !== undefined && id.length > 0 && !/\s/.test(id)) putId(fields, id)
  }
  return entry(text(item, "id") ?? text(item, "citation-key") ?? String(index + 1), fields)
}

/** Whether a parsed JSON value is CSL-JSON: an item, or an array of items, each with a type, title, DOI or id. */
export const cslItems = (json: unknown): ReadonlyArray<Json> | undefined => {
  const items = Array.isArray(json) ? json : [json]
  const isItem = (u: unknown) =>
    isObject(u) && ["type", "title", "DOI", "id"].some((name) => own(u, name) !== undefined)
  return items.length > 0 && items.every(isItem) ? (items as ReadonlyArray<Json>) : undefined
}

/** The items of CSL-JSON, in order. */
export const readCsl = (items: ReadonlyArray<Json>): ReadonlyArray<ReferenceInput.Entry> => items.map(entryOf)
