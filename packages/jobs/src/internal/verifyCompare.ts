/**
 * What a reference claims about a paper, and where a paper disagrees with it: the comparisons
 * behind `Verify.references`. Each comparison forgives what a correct reference may well differ in
 * (case, accents, TeX, initials, abbreviated venues, a preprint's year) and reports the rest.
 */
import type { Paper } from "@s2-effect/core"
import { plain } from "./bibtex.js"
import * as TitleMatch from "./titleMatch.js"

/** A field of a reference that a paper can disagree with (see `Verify.Field`). */
export type Field = "title" | "year" | "authors" | "venue" | "doi" | "eprint"

/** What a reference says, as plain text; each part absent when the reference does not say it. */
export interface Given {
  readonly title?: string
  readonly year?: number
  /** The first author's family name as written (plain text). */
  readonly family?: string
  readonly venue?: string
  /** Lower case, without `https://doi.org/` or `doi:`. */
  readonly doi?: string
  /** Without `arXiv:` or a version. */
  readonly arxiv?: string
}

/**
 * The id of the reference that was looked up, if any (its DOI, else its arXiv id), and whether it
 * named the paper compared (else it was unknown, or named another paper).
 */
export interface Lookup {
  readonly id?: "doi" | "arxiv"
  readonly named: boolean
}

export interface Comparison {
  readonly differs: ReadonlyArray<Field>
  readonly notes: ReadonlyArray<string>
  /** `TitleMatch.compare`'s similarity of the two titles, when both have one. */
  readonly similarity?: number
}

/** A DOI as compared: lower case (DOIs are case-insensitive), without a resolver's prefix. */
export const doiKey = (doi: string): string =>
  doi.trim().replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/i, "").toLowerCase()

/** An arXiv id as compared: without `arXiv:` and a version, lower case. */
export const arxivKey = (id: string): string => id.trim().replace(/^arxiv:\s*/i, "").replace(/v\d+$/i, "").toLowerCase()

const nonEmpty = (text: string | undefined): string | undefined =>
  text === undefined || text.length === 0 ? undefined : text

// A BibTeX value splits at " and " and "," only outside braces: `{Barnes and Noble}` is one name.
const splitTopLevel = (tex: string, separator: RegExp): Array<string> => {
  const parts: Array<string> = []
  let depth = 0
  let start = 0
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i]
    if (c === "\\") i++
    else if (c === "{") depth++
    else if (c === "}") depth--
    else if (depth === 0) {
      const m = separator.exec(tex.slice(i, i + 8))
      if (m !== null && m.index === 0) {
        parts.push(tex.slice(start, i))
        start = i + m[0].length
        i = start - 1
      }
    }
  }
  parts.push(tex.slice(start))
  return parts.map((p) => p.trim()).filter((p) => p.length > 0)
}

const suffix = /^(?:jr|sr|jnr|snr|ii|iii|iv)\.?$/i
const initial = /^(?:\p{L}\.?-?){1,2}$/u

/**
 * The family name of the first author of a BibTeX `author` field, as BibTeX reads a name: the part
 * before the first comma ("von Last, First"), else the last word with the lowercase words before it
 * ("First von Last"). "Vaswani A" (initials after the name, as some styles write it) is read as
 * "Vaswani". Undefined for none or "others".
 */
export const firstFamily = (authorField: string): string | undefined => {
  const first = splitTopLevel(authorField, /^\s+and\s+/i)[0]
  if (first === undefined) return undefined
  const parts = splitTopLevel(first, /^,/)
  const words = parts.length > 1 ? splitTopLevel(parts[0]!, /^\s+/) : splitTopLevel(first, /^\s+/)
  if (parts.length === 1) {
    while (words.length > 1 && suffix.test(plain(words.at(-1)!))) words.pop()
    if (words.length > 1 && plain(words[0]!).length > 2 && words.slice(1).every((w) => initial.test(plain(w)))) {
      words.splice(1)
    }
    let from = words.length - 1
    while (from > 1 && /^\p{Ll}/u.test(plain(words[from - 1]!))) from--
    words.splice(0, from)
  }
  const family = plain(words.join(" "))
  return family.length === 0 || /^others$/i.test(family) ? undefined : family
}

/** The 4-digit year of a `year` (or biblatex `date`) field: "2017", "{2017}", "2017-06-12". */
const yearOf = (text: string | undefined): number | undefined => {
  const m = /(?<!\d)(\d{4})(?!\d)/.exec(plain(text ?? ""))
  return m === null ? undefined : Number(m[1])
}

/** What a .bib entry's fields (raw TeX, names in lower case) say about the paper. */
export const givenOfFields = (fields: Readonly<Record<string, string>>): Given => {
  const title = nonEmpty(plain(fields["title"] ?? ""))
  const year = yearOf(fields["year"] ?? fields["date"])
  const family = fields["author"] === undefined ? undefined : firstFamily(fields["author"])
  const venue = nonEmpty(plain(fields["journal"] ?? fields["journaltitle"] ?? fields["booktitle"] ?? ""))
  const doi = nonEmpty(doiKey(plain(fields["doi"] ?? "")))
  const eprint = plain(fields["eprint"] ?? "")
  const archive = plain(fields["archiveprefix"] ?? fields["eprinttype"] ?? "").toLowerCase()
  const arxiv = archive === "arxiv" || /^arxiv:/i.test(eprint) || /^\d{4}\.\d{4,5}(v\d+)?$/.test(eprint)
    ? nonEmpty(arxivKey(eprint))
    : undefined
  return {
    ...(title === undefined ? {} : { title }),
    ...(year === undefined ? {} : { year }),
    ...(family === undefined ? {} : { family }),
    ...(venue === undefined ? {} : { venue }),
    ...(doi === undefined ? {} : { doi }),
    ...(arxiv === undefined ? {} : { arxiv })
  }
}

const words = (text: string): ReadonlyArray<string> => {
  const normalised = TitleMatch.normalise(text)
  return normalised.length === 0 ? [] : normalised.split(" ")
}

/**
 * Whether the family name is among the paper's authors: every word of it (particles such as "van"
 * and "de" aside) is a word of one author's name, compared as titles are (case, accents, TeX,
 * hyphens and apostrophes forgiven: "García-Pérez" is "Garcia Perez", "O'Neil" is "ONeil"). Only the
 * family is compared, so initials and given names never count against a reference.
 */
export const amongAuthors = (family: string, authors: ReadonlyArray<string>): boolean => {
  const wanted = words(family).filter((w) => !particles.has(w))
  if (wanted.length === 0) return true
  return authors.some((name) => {
    const have = words(name)
    return wanted.every((w) => have.includes(w)) || joinsTo(have, wanted.join(""))
  })
}

/** Whether consecutive words join to `word`: "Mc Donald" for "McDonald". */
const joinsTo = (have: ReadonlyArray<string>, word: string): boolean =>
  have.some((_, i) => {
    let joined = ""
    for (let j = i; j < have.length && joined.length < word.length; j++) joined += have[j]
    return joined === word
  })

const particles = new Set([
  "van",
  "von",
  "der",
  "den",
  "de",
  "del",
  "della",
  "di",
  "da",
  "du",
  "la",
  "le",
  "ter",
  "ten",
  "zu"
])

const stopWords = new Set(["a", "an", "the", "of", "for", "and", "in", "on", "to", "with", "by", "at", "from"])

// Words a venue is named with or without: "Proceedings of the 31st International Conference on X"
// is "X". Stop words go too (as in titles).
const filler = new Set([
  ...stopWords,
  "proceedings",
  "proc",
  "conference",
  "conf",
  "international",
  "intl",
  "annual",
  "meeting",
  "ieee",
  "acm",
  "cvf"
])
const ordinal = /^\d+(?:st|nd|rd|th)?$/

const venueWords = (name: string): ReadonlyArray<string> =>
  words(name).filter((w) => !filler.has(w) && !ordinal.test(w))

/**
 * Whether `acronym` is the initials of the venue's words: of those after the filler ("ML" for
 * "Machine Learning"), or the last initials of all its words ("ICML" for "Proceedings of the 34th
 * International Conference on Machine Learning", "ACL" for "Annual Meeting of the Association for
 * Computational Linguistics").
 */
const isInitials = (acronym: string, name: string): boolean => {
  const all = words(name).filter((w) => !ordinal.test(w) && !stopWords.has(w)).map((w) => w[0]).join("")
  return acronym.length >= 2 && (all.endsWith(acronym) || venueWords(name).map((w) => w[0]).join("") === acronym)
}

/** Whether `short`'s words are, in order, each a prefix of a word of `long` ("j mach learn res"). */
const abbreviates = (short: ReadonlyArray<string>, long: ReadonlyArray<string>): boolean => {
  let at = 0
  for (const word of short) {
    while (at < long.length && !long[at]!.startsWith(word)) at++
    if (at === long.length) return false
    at++
  }
  return true
}

/**
 * Whether two venue names name one venue, forgivingly: after dropping the words venues are named
 * with or without (proceedings, conference, international, annual, IEEE, ACM, ordinals and years,
 * stop words), the shorter's words are in order prefixes of the longer's (an abbreviation: "J.
 * Mach. Learn. Res."; a part: "Advances in Neural Information Processing Systems"), or one is a
 * single word, the initials of the other ("ICML", "CVPR"; see {@link isInitials}).
 */
export const sameVenue = (a: string, b: string): boolean => {
  const [x, y] = [venueWords(a), venueWords(b)]
  if (x.length === 0 || y.length === 0) return true
  const [short, long] = x.length <= y.length ? [x, y] : [y, x]
  if (abbreviates(short, long)) return true
  return (x.length === 1 && isInitials(x[0]!, b)) || (y.length === 1 && isInitials(y[0]!, a))
}

// arXiv, CoRR, bioRxiv…: a preprint's venue, said of the same work as its publication.
const preprintWord = /^(?:arxiv|corr|biorxiv|medrxiv|chemrxiv|psyarxiv|ssrn|preprint|preprints|techrxiv|eartharxiv)$/

const isPreprintVenue = (name: string): boolean => words(name).some((w) => preprintWord.test(w))

const decoded = (text: string): string => text.replace(/&amp;/gi, "&")

/** Every name the paper's venue goes by: `venue`, the journal's, the publication venue's and its alternates. */
const venueNames = (paper: Paper): ReadonlyArray<string> =>
  [paper.venue, paper.journal?.name, paper.publicationVenue?.name, ...(paper.publicationVenue?.alternate_names ?? [])]
    .filter((n): n is string => typeof n === "string" && n.trim().length > 0).map(decoded)

const compareVenue = (venue: string, paper: Paper): { readonly differs: boolean; readonly note?: string } => {
  const names = venueNames(paper)
  const published = names.filter((n) => !isPreprintVenue(n))
  // A preprint cited for a paper since published, or a publication the server knows as a preprint
  // only: the same work, the venue not comparable.
  if (isPreprintVenue(venue)) {
    return published.length === 0 ? { differs: false } : {
      differs: false,
      note: `cited as a preprint; published in ${JSON.stringify(published[0])}`
    }
  }
  if (published.length === 0) return { differs: false }
  return { differs: !published.some((name) => sameVenue(venue, name)) }
}

const compareYear = (year: number, paper: Paper): { readonly differs: boolean; readonly note?: string } => {
  if (typeof paper.year !== "number") return { differs: false }
  const apart = Math.abs(year - paper.year)
  return apart === 1
    ? {
      differs: false,
      note: `year ${year} given, ${paper.year} here: one year apart, as a preprint and its publication often are`
    }
    : { differs: apart > 1 }
}

/**
 * Whether the reference's id disagrees: the id looked up did not name the paper, or an id not
 * looked up is not the paper's (a paper without one is not evidence either way).
 */
const idDiffers = (
  given: string | undefined,
  lookedUp: boolean,
  lookup: Lookup,
  has: string | null | undefined,
  key: (s: string) => string
) => given !== undefined && (lookedUp ? !lookup.named : typeof has === "string" && key(has) !== given)

/** Where `paper` disagrees with what the reference says, and what is worth a word without being a difference. */
export const compare = (given: Given, paper: Paper, lookup: Lookup): Comparison => {
  const differs: Array<Field> = []
  const notes: Array<string> = []
  const title = given.title !== undefined && typeof paper.title === "string"
    ? TitleMatch.compare(given.title, paper.title)
    : undefined
  if (title !== undefined && !title.same) differs.push("title")
  if (given.year !== undefined) {
    const year = compareYear(given.year, paper)
    if (year.differs) differs.push("year")
    if (year.note !== undefined) notes.push(year.note)
  }
  const authors = (paper.authors ?? []).flatMap((a) => typeof a.name === "string" ? [a.name] : [])
  if (given.family !== undefined && authors.length > 0 && !amongAuthors(given.family, authors)) differs.push("authors")
  if (given.venue !== undefined) {
    const venue = compareVenue(given.venue, paper)
    if (venue.differs) differs.push("venue")
    if (venue.note !== undefined) notes.push(venue.note)
  }
  if (idDiffers(given.doi, lookup.id === "doi", lookup, paper.externalIds?.DOI, doiKey)) differs.push("doi")
  if (idDiffers(given.arxiv, lookup.id === "arxiv", lookup, paper.externalIds?.ArXiv, arxivKey)) differs.push("eprint")
  return { differs, notes, ...(title === undefined ? {} : { similarity: title.similarity }) }
}
