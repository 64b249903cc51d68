/**
 * What a reference claims about a paper, and where a paper disagrees with it: the comparisons
 * behind `Verify.references`. Each comparison forgives what a correct reference may well differ in
 * (case, accents, TeX, initials, abbreviated venues, a preprint's year) and reports the rest.
 */
import type { Paper } from "@s2-effect/core"
import { plain } from "./bibtex.js"
import { isNewArxivId, withoutArxivPrefix, withoutDoiPrefix } from "./ids.js"
import { stopWords } from "./text.js"
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
export const doiKey = (doi: string): string => withoutDoiPrefix(doi.trim()).toLowerCase()

/** An arXiv id as compared: without `arXiv:` and a version, lower case. */
export const arxivKey = (id: string): string => withoutArxivPrefix(id.trim()).replace(/v\d+$/i, "").toLowerCase()

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
  const arxiv = archive === "arxiv" || withoutArxivPrefix(eprint) !== eprint || isNewArxivId(eprint)
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

export const particles: ReadonlySet<string> = new Set([
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

// The same in the languages journals are most often named in besides English ("Revue des maladies
// respiratoires", "Berliner Journal für Soziologie"); single letters stay words ("Physical Review E").
const venueStopWords = new Set([
  ...stopWords,
  ...["de", "des", "du", "la", "le", "les", "et", "en", "di", "del", "della", "da", "do", "dos", "em", "el"],
  ...["der", "die", "das", "und", "fur"]
])

// Words a venue is named with or without: "Proceedings of the 31st International Conference on X"
// is "X".
const filler = new Set([
  "proceedings",
  "proc",
  "conference",
  "conf",
  "symposium",
  "symp",
  "international",
  "intl",
  "annual",
  "meeting",
  "ieee",
  "acm",
  "cvf"
])
const ordinal = /^\d+(?:st|nd|rd|th)?$/

interface VenueWord {
  readonly word: string
  readonly filler: boolean
}

/**
 * A venue name's words without stop words, ordinals and years, each marked filler or not. "Advances
 * in" opening a name is filler too: NeurIPS's proceedings are "Advances in Neural Information
 * Processing Systems", while "Science Advances" is not "Science".
 */
const venueWords = (name: string): ReadonlyArray<VenueWord> => {
  const all = words(name).filter((w) => !ordinal.test(w))
  const start = all.findIndex((w) => !filler.has(w) && !venueStopWords.has(w))
  const advances = start >= 0 && all[start] === "advances" && all[start + 1] === "in"
  return all.flatMap((word, i) =>
    venueStopWords.has(word) ? [] : [{ word, filler: filler.has(word) || (advances && i === start) }]
  )
}

const contentOf = (name: ReadonlyArray<VenueWord>) => name.filter((w) => !w.filler)

/**
 * Whether two names' words align in order, each matched by the same word or an abbreviation of it
 * (a prefix: "Mach." for "Machine", "Trans." for "Transactions"), and every word left unmatched
 * filler: "J. Mach. Learn. Res." is "Journal of Machine Learning Research", "Int. Conf. X" is
 * "Conference on X"; "Nature" is not "Nature Communications", whose "Communications" is left over.
 * Greedy: a word matches the next word it can, and a filler word is passed over when none does.
 */
const aligns = (x: ReadonlyArray<VenueWord>, y: ReadonlyArray<VenueWord>): boolean => {
  let i = 0
  let j = 0
  while (i < x.length || j < y.length) {
    const [a, b] = [x[i], y[j]]
    if (a !== undefined && b !== undefined && (a.word.startsWith(b.word) || b.word.startsWith(a.word))) {
      i++
      j++
    } else if (b?.filler === true) j++
    else if (a?.filler === true) i++
    else return false
  }
  return true
}

/**
 * Whether `acronym` is the initials of all the venue's words after some of its leading filler:
 * "ICML" (or "ML") for "International Conference on Machine Learning", "ACL" for "Annual Meeting of
 * the Association for Computational Linguistics", "NIPS" for "Advances in Neural Information
 * Processing Systems"; never the initials of only its last words ("NLP" is not "Empirical Methods
 * in Natural Language Processing").
 */
const isInitials = (acronym: string, name: string): boolean => {
  const all = venueWords(name)
  const initials = all.map((w) => w.word[0]).join("")
  const firstContent = all.findIndex((w) => !w.filler)
  const from = initials.length - acronym.length
  return acronym.length >= 2 && from >= 0 && from <= firstContent && initials.endsWith(acronym)
}

/** One name of a venue against another: see {@link sameVenue}. */
const sameName = (a: string, b: string): boolean => {
  const [x, y] = [venueWords(a), venueWords(b)]
  const [cx, cy] = [contentOf(x), contentOf(y)]
  if (cx.length === 0 || cy.length === 0) return true
  return aligns(x, y) || (cx.length === 1 && isInitials(cx[0]!.word, b)) ||
    (cy.length === 1 && isInitials(cy[0]!.word, a))
}

// A parenthesis, closed or running to the end ("Neuropathol (Kyoto 1993").
const parenthesis = /\(([^()]*)(?:\)|$)/g
// Acronyms of a joint conference: "NAACL-HLT", "EMNLP-IJCNLP".
const joint = /(?<![\p{L}\p{N}])\p{Lu}[\p{Lu}\p{N}]+(?:-\p{Lu}[\p{Lu}\p{N}]+)+(?![\p{L}\p{N}])/u

/**
 * A name, the name before its subtitle, the names in its first two parentheses and the venues of a
 * joint conference: "Erkenntnis: An International Journal of Scientific Philosophy" is also
 * "Erkenntnis", "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)" also
 * "CVPR", "Proc. of NAACL-HLT" also "NAACL" and "HLT".
 */
const alternatives = (name: string): ReadonlyArray<string> => {
  const inner = Array.from(name.matchAll(parenthesis), (m) => m[1]!).slice(0, 2)
  const outer = name.replace(parenthesis, " ")
  const main = outer.split(/:\s| [-–—] /)[0]!
  const parts = joint.exec(name)?.[0].split("-").slice(0, 3) ?? []
  return [...new Set([outer, main, ...inner, ...parts])].filter((n) => contentOf(venueWords(n)).length > 0)
}

/**
 * Whether two venue names name one venue, forgivingly: ignoring the words venues are named with or
 * without (proceedings, conference, symposium, international, annual, meeting, IEEE, ACM, a leading
 * "Advances in", ordinals and years, stop words), their words agree in order, each the same word or
 * an abbreviation of it ("J. Mach. Learn. Res."; see {@link aligns}), or one is a single word, the
 * initials of the other ("ICML", "CVPR"; see {@link isInitials}). The name before a subtitle, a
 * name in parentheses and each of a joint conference's are more names of the venue ("Erkenntnis",
 * "CVPR", "NAACL"). A name of filler only
 * ("Proceedings") agrees with any. An acronym a name carries ("AAAI" in "AAAI Conference on
 * Artificial Intelligence") is not enough: "AI" would be "AI Communications"; the server's
 * alternate names of a venue list such acronyms.
 */
export const sameVenue = (a: string, b: string): boolean => {
  const [xs, ys] = [alternatives(a), alternatives(b)]
  if (xs.length === 0 || ys.length === 0) return true
  return xs.some((x) => ys.some((y) => sameName(x, y)))
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
  const paperTitle = typeof paper.title === "string" && paper.title.trim().length > 0 ? paper.title : undefined
  const title = given.title !== undefined && paperTitle !== undefined
    ? TitleMatch.compare(given.title, paperTitle)
    : undefined
  // A paper without a title cannot show that it is the work the entry names: a difference, not a pass.
  if (given.title !== undefined && paperTitle === undefined) {
    differs.push("title")
    notes.push("the paper has no title to compare with the entry's")
  } else if (title !== undefined && !title.same) differs.push("title")
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
