/**
 * A RIS reader: `TAG  - value` lines, a record from `TY` to `ER`, read into BibTeX's fields by a
 * table. Tags are matched as the RIS specification and the exporters we know write them (Zotero,
 * Mendeley, EndNote, Web of Science, our own writer); a line without a tag continues the value
 * before it.
 */
import type * as ReferenceInput from "../ReferenceInput.js"
import { entry, type Fields, newFields, put, putAuthors, putDate, putId, putPages, putVenue } from "./readFields.js"

/** `TY  - JOUR`: two capitals (or a capital and a digit), spaces, a hyphen. */
const tagLine = /^([A-Z][A-Z0-9])\s{1,2}-(?: (.*))?$/

/** Whether a text holds a RIS record. */
export const looksLikeRis = (text: string): boolean => /^TY\s{1,2}- \S/m.test(text)

/** Reference types whose container is a book or proceedings: `booktitle`, not `journal`. */
const inBook = new Set(["CPAPER", "CONF", "CHAP", "EDBOOK", "BOOK"])

/** RIS "Family, Given, Suffix" as BibTeX's "Family, Suffix, Given". */
const bibName = (name: string): string => {
  const parts = name.split(/\s*,\s*/)
  return parts.length === 3 && parts[2]!.length > 0 ? `${parts[0]}, ${parts[2]}, ${parts[1]}` : name
}

/** `2017/06/12/`, `2017///`, `2017`: year, month, day. */
const dateOf = (fields: Fields, text: string | undefined): void => {
  if (text === undefined) return
  const [y, m, d] = text.split("/").map((p) => Number.parseInt(p, 10))
  putDate(fields, Number.isFinite(y) ? y : text, Number.isFinite(m) ? m : undefined, Number.isFinite(d) ? d : undefined)
}

type Tags = ReadonlyMap<string, ReadonlyArray<string>>

/** One record's tags into an entry. */
const entryOf = (tags: Tags, line: number, index: number): ReferenceInput.Entry => {
  const first = (...names: ReadonlyArray<string>): string | undefined => {
    for (const name of names) {
      const v = tags.get(name)?.[0]
      if (v !== undefined && v.trim().length > 0) return v.trim()
    }
    return undefined
  }
  const all = (...names: ReadonlyArray<string>) => names.flatMap((n) => tags.get(n) ?? [])
  const fields = newFields()
  put(fields, "title", first("TI", "T1", "CT"))
  putAuthors(fields, all("AU", "A1").map(bibName))
  dateOf(fields, first("DA"))
  dateOf(fields, first("PY", "Y1"))
  const type = first("TY") ?? ""
  putVenue(fields, first("T2", "JO", "JF", "BT", "JA", "J2", "J1"), inBook.has(type))
  put(fields, "volume", first("VL"))
  put(fields, "number", first("IS", "CP"))
  putPages(fields, first("SP"), first("EP"))
  put(fields, "publisher", first("PB"))
  for (const id of all("DO", "AN", "UR", "L1", "L2", "M3", "N1")) {
    if (id.trim().length > 0 && !/\s/.test(id.trim())) putId(fields, id.trim())
  }
  return entry(first("ID") ?? String(index + 1), fields, line)
}

/** The records of a RIS text, in order. */
export const readRis = (text: string): ReadonlyArray<ReferenceInput.Entry> => {
  const entries: Array<ReferenceInput.Entry> = []
  let tags: Map<string, Array<string>> | undefined
  let start = 0
  let last: { readonly tag: string; readonly at: number } | undefined
  const end = () => {
    if (tags !== undefined) entries.push(entryOf(tags, start, entries.length))
    tags = undefined
    last = undefined
  }
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const m = tagLine.exec(raw.trimEnd())
    if (m === null) {
      // A value wrapped onto the next line.
      if (tags !== undefined && last !== undefined && raw.trim().length > 0) {
        const values = tags.get(last.tag)!
        values[last.at] = `${values[last.at]} ${raw.trim()}`
      }
      return
    }
    const [, tag, value = ""] = m as unknown as [string, string, string | undefined]
    if (tag === "TY") {
      end()
      tags = new Map()
      start = i + 1
    }
    if (tags === undefined) return
    if (tag === "ER") return end()
    const values = tags.get(tag) ?? []
    values.push(value)
    tags.set(tag, values)
    last = { tag, at: values.length - 1 }
  })
  end()
  return entries
}
