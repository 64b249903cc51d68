/**
 * The BibTeX writer: entries built from a paper's fields (never the server's `citationStyles`
 * text), every value brace-balanced and on one line, so nothing a server sends can close a field
 * early or open another entry. Text goes through {@link tex}; titles through {@link title}.
 */
import type { Item } from "../../Citable.js"
import { type Facts, facts as factsOf, type Kind, oneLine, type Person } from "./facts.js"
import { keyOf, type Keys } from "./keys.js"
import { balanced, tex, title } from "./latex.js"

const entryType: Readonly<Record<Kind, string>> = {
  article: "article",
  inproceedings: "inproceedings",
  book: "book",
  preprint: "misc",
  misc: "misc"
}

/** Where the container goes in each entry type: a journal, a proceedings, or how it was published. */
const containerField: Readonly<Record<Kind, string>> = {
  article: "journal",
  inproceedings: "booktitle",
  book: "howpublished",
  preprint: "howpublished",
  misc: "howpublished"
}

// BibTeX reads a lone word "and" as the separator of two names and a name "others" as "et al.".
const nameWord = (word: string): string => /^(?:and|others)$/i.test(word) ? `{${word}}` : tex(word)
const nameText = (text: string): string => text.split(" ").map(nameWord).join(" ")

/** "von Last, Jr, First", BibTeX's unambiguous order. */
export const bibtexName = (p: Person): string =>
  [p.particle.length > 0 ? `${p.particle} ${p.family}` : p.family, p.suffix, p.given]
    .filter((part) => part.length > 0).map(nameText).join(", ")

const pagesText = (f: Facts): string =>
  f.pages === undefined
    ? ""
    : f.pages.last.length > 0
    ? `${tex(f.pages.first)}--${tex(f.pages.last)}`
    : tex(f.pages.first)

/** The fields we write, in order; "" means none. DOIs, URLs and arXiv ids are already safe. */
const ownFields = (f: Facts): ReadonlyArray<readonly [string, string]> => [
  ["author", f.authors.map(bibtexName).join(" and ")],
  ["title", title(f.title)],
  [containerField[f.kind], f.kind === "preprint" && f.arxiv.length === 0 ? tex(f.server) : tex(f.container)],
  ["year", f.year === undefined ? "" : String(f.year)],
  ["volume", tex(f.volume)],
  ["number", tex(f.issue)],
  ["pages", pagesText(f)],
  ["doi", f.doi],
  // The paper's page on Semantic Scholar when there is no DOI to link it by.
  ["url", f.doi.length > 0 ? "" : f.url],
  ["eprint", f.arxiv],
  ["archiveprefix", f.arxiv.length > 0 ? "arXiv" : ""]
]

const fieldName = /^[A-Za-z][A-Za-z0-9_:.+-]{0,63}$/

/**
 * The user's own fields not among ours: their TeX kept as written when its braces balance as
 * BibTeX counts them, else written as text.
 */
const extraFields = (extra: Readonly<Record<string, string>>, ours: ReadonlySet<string>) => {
  // BibTeX field names are compared without case: a name given twice is written once.
  const taken = new Set(ours)
  return Object.entries(extra).flatMap(([name, value]): ReadonlyArray<readonly [string, string]> => {
    const line = typeof value === "string" ? oneLine(value) : ""
    if (!fieldName.test(name) || taken.has(name.toLowerCase()) || line.length === 0) return []
    taken.add(name.toLowerCase())
    return [[name, balanced(line) ? line : tex(line)]]
  })
}

/** An entry before it is written: its type, key, and fields in order; what BibTeX skips before it. */
export interface Parts {
  readonly type: string
  readonly key: string
  readonly fields: ReadonlyArray<readonly [string, string]>
  /** Lines of text before the entry (what BibTeX reads as a comment), each without `@`. */
  readonly notes: ReadonlyArray<string>
}

/** The parts of one item's entry, its key taken from `keys` (the user's, else one made from the paper). */
export const parts = (item: Item, keys: Keys): Parts => {
  const f = factsOf(item.paper)
  const own = ownFields(f).filter(([, value]) => value.length > 0)
  const names = new Set(own.map(([name]) => name))
  const extra = item.extra === undefined ? [] : extraFields(item.extra, names)
  const { key, renamed } = keyOf(keys, item, f)
  // A key holds no `@` (userKey drops it): the line cannot start an entry.
  const notes = renamed === undefined
    ? []
    : [`% s2: the key ${renamed} is written twice; this entry is written as ${key}, BibTeX would drop it as a repeat`]
  return { type: entryType[f.kind], key, fields: [...own, ...extra], notes }
}

/** One entry, a field a line, after its notes. */
export const entry = (item: Item, keys: Keys): string => {
  const { fields, key, notes, type } = parts(item, keys)
  const body = fields.map(([name, value]) => `  ${name === "archiveprefix" ? "archivePrefix" : name} = {${value}}`)
  return `${notes.map((line) => `${line}\n`).join("")}@${type}{${key},\n${body.join(",\n")}\n}\n`
}
