/**
 * The BibTeX writer: entries built from a paper's fields (never the server's `citationStyles`
 * text), every value brace-balanced and on one line, so nothing a server sends can close a field
 * early or open another entry. Text goes through {@link tex}; titles through {@link title}.
 */
import type { Item } from "../../Citable.js"
import { plain } from "../bibtex.js"
import { commentText, type Facts, facts as factsOf, type Kind, oneLine, type Person, withUserFields } from "./facts.js"
import { cleanedNote, keyOf, type Keys } from "./keys.js"
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

/**
 * Whether a user's field name is written back as given: one BibTeX reads as a field's name (no digit
 * first, nothing of white space and `"#%'(),={}`, as the .bib reader reads it: `x/y`, `ti$tle`,
 * `a;b`) in printable ASCII, without `@` (a note naming it would start an entry) or `\` (our reader
 * and other tools skip the character after it). Any other is named in {@link leftOutNote}.
 */
export const writableName = (name: string): boolean =>
  /^[!$&*+\-./:;<>?A-Z[\]^_`a-z|~][!$&*+\-./0-9:;<>?A-Z[\]^_`a-z|~]*$/.test(name)

/** The `%` line naming the user's fields left out for their names ({@link writableName}), each as JSON. */
export const leftOutNote = (names: ReadonlyArray<string>): string =>
  `% s2: left out, not a field name we write (printable ASCII, no at sign or backslash): ${
    commentText(names.map((name) => JSON.stringify(name)).join(", "))
  }`

const containers = ["journal", "booktitle", "howpublished"]

/**
 * The user's fields that say what one of ours says under another name: replaced when we write that
 * one (a `booktitle` when Semantic Scholar names the journal, a biblatex `date` beside our `year`).
 */
const sameThing: ReadonlyMap<string, ReadonlyArray<string>> = new Map([
  ["journal", containers],
  ["journaltitle", containers],
  ["booktitle", containers],
  ["howpublished", containers],
  ["date", ["year"]],
  ["issue", ["number"]],
  ["eprinttype", ["eprint"]],
  ["archiveprefix", ["eprint"]]
])

/** Digits and the id alone: `{2017}` and `2017`, `arXiv:1706.03762v5` and `1706.03762` are one value. */
const bare = (value: string): string => value.replace(/[{}\s]/g, "").replace(/^arxiv:/i, "").replace(/v\d+$/, "")

/**
 * Whether the user's field `name` is replaced by ours: ours has it, or a field of ours says the same
 * thing ({@link sameThing}); a `month` goes with a year we changed, a `primaryclass` with an eprint.
 */
const replacedBy = (
  name: string,
  user: ReadonlyMap<string, string>,
  ours: ReadonlyMap<string, string>
): string | undefined => {
  const same = [name, ...(sameThing.get(name) ?? [])].find((field) => ours.has(field))
  if (same !== undefined) return ours.get(same)!
  const changed = (field: string) => ours.has(field) && bare(ours.get(field)!) !== bare(user.get(field) ?? "")
  return (name === "month" && changed("year")) || (name === "primaryclass" && changed("eprint")) ? "" : undefined
}

/** Two values that read the same: letters and digits alike, without case, TeX read as text. */
const sameText = (a: string, b: string): boolean => {
  const letters = (text: string) => plain(text).toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")
  return letters(a) === letters(b)
}

/** What an entry writes: ours and the user's fields in order, and the lines that say what was left out. */
interface Merged {
  readonly fields: ReadonlyArray<readonly [string, string]>
  readonly notes: ReadonlyArray<string>
  /** The names of the user's fields written (the record has no value for them), and of those replaced by a value that differs. */
  readonly kept: ReadonlyArray<string>
  readonly replaced: ReadonlyArray<string>
}

/**
 * Our fields, then the user's own: each kept (its TeX as written when its braces balance as BibTeX
 * counts them, else as text) unless Semantic Scholar's record has it ({@link replacedBy}); a field
 * the record lacks (no authors, no year, a publisher) keeps the user's value. The user's `url` is
 * kept over our link to the Semantic Scholar page. Nothing of the user's is left out without a
 * note: the names of fields replaced, written twice, or with a name we do not write ({@link writableName}).
 */
const merged = (own: ReadonlyArray<readonly [string, string]>, extra: Readonly<Record<string, string>>): Merged => {
  const given = Object.entries(extra).flatMap(([name, value]) => {
    const line = typeof value === "string" ? oneLine(value) : ""
    return line.length > 0 ? [[name, line] as const] : []
  })
  const user = new Map(given.map(([name, line]) => [name.toLowerCase(), line] as const))
  const ours = new Map(own.filter(([name]) => !(name === "url" && user.has("url"))))
  const fields = [...ours]
  // BibTeX field names are compared without case: a name given twice is written once.
  const taken = new Set<string>()
  const replaced: Array<string> = []
  const kept: Array<string> = []
  const twice: Array<string> = []
  const unwritable: Array<string> = []
  for (const [name, line] of given) {
    const lower = name.toLowerCase()
    if (!writableName(name)) unwritable.push(name)
    else if (taken.has(lower)) twice.push(name)
    else {
      const by = replacedBy(lower, user, ours)
      // A value ours repeats (the same title in other capitals) is replaced without a word.
      if (by === undefined) {
        fields.push([name, balanced(line) ? line : tex(line)])
        kept.push(lower)
      } else if (!sameText(line, by)) replaced.push(lower)
    }
    taken.add(lower)
  }
  const notes = [
    replaced.length > 0
      ? `% s2: Semantic Scholar's values written in place of yours, which differ: ${replaced.join(", ")}`
      : "",
    twice.length > 0 ? `% s2: left out, given twice: ${twice.join(", ")}` : "",
    unwritable.length > 0 ? leftOutNote(unwritable) : ""
  ]
  return { fields, notes: notes.filter((line) => line.length > 0), kept, replaced }
}

/** An entry before it is written: its type, key, and fields in order; what BibTeX skips before it. */
export interface Parts {
  readonly type: string
  readonly key: string
  readonly fields: ReadonlyArray<readonly [string, string]>
  /** Lines of text before the entry (what BibTeX reads as a comment), each without `@`. */
  readonly notes: ReadonlyArray<string>
}

/** What an entry does with the user's fields: those written (the record has none) and those replaced by a value that differs. */
export const userFields = (item: Item): Pick<Merged, "kept" | "replaced"> => {
  const own = ownFields(factsOf(item.paper, item.type)).filter(([, value]) => value.length > 0)
  const { kept, replaced } = merged(own, item.extra ?? {})
  return { kept, replaced }
}

/** The parts of one item's entry, its key taken from `keys` (the user's, else one made from the paper). */
export const parts = (item: Item, keys: Keys): Parts => {
  const f = factsOf(item.paper, item.type)
  const { fields, notes } = merged(ownFields(f).filter(([, value]) => value.length > 0), item.extra ?? {})
  // The key made as the CSL and RIS writers make it, from the user's fields where the record has none.
  const { cleaned, key, renamed } = keyOf(keys, item, withUserFields(f, item.extra))
  // Each note names fields and keys only (neither holds `@`; a key as given goes through
  // cleanedNote's commentText): no note can start an entry.
  const cleanNote = cleaned === undefined ? [] : [cleanedNote(cleaned, key)]
  const keyNote = renamed === undefined
    ? []
    : [`% s2: the key ${renamed} is written twice; this entry is written as ${key}, BibTeX would drop it as a repeat`]
  return { type: entryType[f.kind], key, fields, notes: [...cleanNote, ...keyNote, ...notes] }
}

/** One entry, a field a line, after its notes. */
export const entry = (item: Item, keys: Keys): string => {
  const { fields, key, notes, type } = parts(item, keys)
  const body = fields.map(([name, value]) => `  ${name === "archiveprefix" ? "archivePrefix" : name} = {${value}}`)
  return `${notes.map((line) => `${line}\n`).join("")}@${type}{${key},\n${body.join(",\n")}\n}\n`
}
