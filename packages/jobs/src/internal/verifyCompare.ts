/**
 * What a reference claims about a paper, and where a paper disagrees with it: the comparisons
 * behind `Verify.references`. Each comparison forgives what a correct reference may well differ in
 * (case, accents, TeX, initials, abbreviated venues, a preprint's year) and reports the rest.
 */
import { type Paper, PaperId } from "@s2-effect/core"
import { idsOf, plain } from "./bibtex.js"
import { withoutDoiPrefix } from "./ids.js"
import { stopWords } from "./text.js"
import * as TitleMatch from "./titleMatch.js"
import {
  type AuthorList,
  authorList,
  compareAuthors,
  displayName,
  familyIn,
  firstAuthorAlone,
  words
} from "./verifyAuthors.js"

/** A field of a reference that a paper can disagree with (see `Verify.Field`). */
export type Field = "title" | "year" | "authors" | "venue" | "doi" | "eprint"

/** What a reference says, as plain text; each part absent when the reference does not say it. */
export interface Given {
  readonly title?: string
  readonly year?: number
  /** The authors as a list (see `verifyAuthors.ts`). */
  readonly authors?: AuthorList
  /**
   * Whether a list of one name may cite the paper by its first author alone, the others left
   * unsaid (a formatted reference or a line, "Vaswani 2017"); a .bib, RIS or CSL-JSON list is whole.
   */
  readonly firstAlone?: boolean
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
  readonly differs: ReadonlyArray<Difference>
  readonly notes: ReadonlyArray<string>
  /** `TitleMatch.compare`'s similarity of the two titles, when both have one. */
  readonly similarity?: number
}

/** A DOI as compared: lower case (DOIs are case-insensitive), without a resolver's prefix. */
export const doiKey = (doi: string): string => withoutDoiPrefix(doi.trim()).toLowerCase()

/** An arXiv id as compared: without `arXiv:` and a version, lower case. */
export const arxivKey = (id: string): string => {
  const r = PaperId.recognise(/^arxiv:/i.test(id.trim()) ? id : `arXiv:${id}`)
  return (r._tag === "Id" && r.id.startsWith("ARXIV:") ? r.id.slice("ARXIV:".length) : id.trim()).toLowerCase()
}

const nonEmpty = (text: string | undefined): string | undefined =>
  text === undefined || text.length === 0 ? undefined : text

/**
 * The family name of the first author of a BibTeX `author` field, as BibTeX reads a name (see
 * `verifyAuthors.nameOf`). Undefined for none or "others".
 */
export const firstFamily = (authorField: string): string | undefined => authorList(authorField).names[0]?.familyShown

/** The 4-digit year of a `year` (or biblatex `date`) field: "2017", "{2017}", "2017-06-12". */
const yearOf = (text: string | undefined): number | undefined => {
  const m = /(?<!\d)(\d{4})(?!\d)/.exec(plain(text ?? ""))
  return m === null ? undefined : Number(m[1])
}

/**
 * What a .bib entry's fields (raw TeX, names in lower case) say about the paper; `ids` are its ids
 * as `idsOf` reads them, when the caller has read them already.
 */
export const givenOfFields = (
  fields: Readonly<Record<string, string>>,
  ids: ReturnType<typeof idsOf> = idsOf(fields)
): Given => {
  const title = nonEmpty(plain(fields["title"] ?? ""))
  const year = yearOf(fields["year"] ?? fields["date"])
  const authors = fields["author"] === undefined ? undefined : authorList(fields["author"])
  const venue = nonEmpty(plain(fields["journal"] ?? fields["journaltitle"] ?? fields["booktitle"] ?? ""))
  // The ids as the entry is asked by (`idsOf`); the DOI field as written, which may be arXiv's DOI.
  const doi = nonEmpty(doiKey(plain(fields["doi"] ?? ""))) ??
    (ids.doi === undefined ? undefined : doiKey(ids.doi.slice("DOI:".length)))
  const arxiv = ids.arxiv === undefined ? undefined : nonEmpty(arxivKey(ids.arxiv))
  return {
    ...(title === undefined ? {} : { title }),
    ...(year === undefined ? {} : { year }),
    ...(authors === undefined || authors.names.length === 0 ? {} : { authors }),
    ...(venue === undefined ? {} : { venue }),
    ...(doi === undefined ? {} : { doi }),
    ...(arxiv === undefined ? {} : { arxiv })
  }
}

/**
 * Whether the family name is among the paper's authors: every word of it (particles such as "van"
 * and "de" aside) is a word of one author's name, compared as titles are (case, accents, TeX,
 * hyphens and apostrophes forgiven: "García-Pérez" is "Garcia Perez", "O'Neil" is "ONeil").
 */
export const amongAuthors = (family: string, authors: ReadonlyArray<string>): boolean =>
  authors.some((name) => familyIn(words(family), words(name)))

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

// Words that name a meeting, or a book series of its papers, not a journal: "Proceedings of the
// 40th International Conference on Machine Learning", "NeurIPS 2023 Workshop on X", "Lecture Notes
// in Computer Science", "Findings of the ACL". A journal's name carries none ("Proceedings of the
// National Academy of Sciences", "Proceedings of the IEEE" are journals).
const meetingWord =
  /^(?:conference|conf|workshop|workshops|symposium|symp|meeting|congress|colloquium|summit|lecture|findings|companion|forum|\d+(?:st|nd|rd|th)|(?:19|20)\d{2})$/

/**
 * Whether a venue is named as a meeting's proceedings: a word of {@link meetingWord}, a leading
 * "Advances in" (NeurIPS's proceedings), or an acronym alone ("ICML", "NeurIPS 2023"), which names
 * a conference far more often than a journal. A formatted reference does not say whether its venue
 * is a journal or a book, so the name decides.
 */
const isMeeting = (name: string): boolean => {
  const all = words(name)
  const acronym = /^[\p{L}\p{N}-]+(?:\s+(?:19|20)\d{2})?$/u.test(name.trim()) && /\p{Lu}.*\p{Lu}/u.test(name) &&
    all.length <= 2
  return acronym || all.some((w) => meetingWord.test(w)) || (all[0] === "advances" && all[1] === "in")
}

/** A DOI of a preprint server's (arXiv, bioRxiv/medRxiv, SSRN, ChemRxiv, OSF, Research Square, TechRxiv…). */
const preprintDoi = /^10\.(?:48550|1101|2139|26434|31234|31219|21203|36227|31223|20944|22541)\//

/**
 * The venue given against the paper's: see `docs/jobs.md` (the `venue` check). `doi` is the
 * entry's, when it is the paper's own.
 */
const compareVenue = (
  venue: string,
  paper: Paper,
  doi: string | undefined
): { readonly differs: boolean; readonly note?: string } => {
  const names = venueNames(paper)
  const published = names.filter((n) => !isPreprintVenue(n))
  // A preprint cited for a paper since published: the same work, the venue not comparable. Unless
  // the server knows of no preprint of it (no arXiv id, no preprint server among its venues) and
  // the entry's DOI is the publication's: then the preprint server is another paper's venue. (The
  // server's own BibTeX writes `journal = {ArXiv}` beside a publisher's DOI: that paper has a
  // preprint on record.)
  if (isPreprintVenue(venue)) {
    if (published.length === 0) return { differs: false }
    const preprint = names.length > published.length || typeof paper.externalIds?.ArXiv === "string"
    const publication = !preprint && doi !== undefined && !preprintDoi.test(doi)
    return {
      differs: publication,
      note: publication
        ? `a preprint server cited with the DOI of its publication in ${JSON.stringify(published[0])}`
        : `cited as a preprint; published in ${JSON.stringify(published[0])}`
    }
  }
  // Known only as a preprint (a preprint server its only venue, or an arXiv id and no venue):
  // where it was published cannot be confirmed. A meeting's proceedings are not a difference: real
  // references cite the proceedings of many papers the server knows from arXiv. A journal is: a
  // journal article has a DOI of its own, which the server merges with its preprint, so a journal
  // the server has never heard of for it is a publication nobody recorded.
  if (published.length === 0) {
    const preprint = names.length > 0 || typeof paper.externalIds?.ArXiv === "string"
    return !preprint ? { differs: false } : {
      differs: !isMeeting(venue),
      note: `venue ${JSON.stringify(venue)} not confirmed: the paper is known only as a preprint`
    }
  }
  return { differs: !published.some((name) => sameVenue(venue, name)) }
}

/** The year of an arXiv id's first version: "1706.03762" 2017, "cs/0112017" 2001. */
const arxivYear = (id: string | null | undefined): number | undefined => {
  const m = typeof id === "string" ? /^(?:[a-z-]+(?:\.[a-z-]+)?\/)?(\d{2})(\d{2})/i.exec(arxivKey(id)) : null
  if (m === null) return undefined
  const yy = Number(m[1])
  return yy >= 91 ? 1900 + yy : 2000 + yy
}

/**
 * The years a reference may give: from the first version's (the earliest of the arXiv id's, the
 * publication date's and the record's year) to the publication's, and one after it (proceedings
 * and journal issues often come out the next year) unless that is after `today`.
 */
const compareYear = (year: number, paper: Paper, today: number): { readonly why?: string; readonly note?: string } => {
  const dated = [paper.year, yearOf(paper.publicationDate ?? undefined)].filter((y): y is number =>
    typeof y === "number"
  )
  const arxiv = arxivYear(paper.externalIds?.ArXiv)
  const known = arxiv === undefined ? dated : [...dated, arxiv]
  if (known.length === 0) return {}
  const first = Math.min(...known)
  const last = Math.max(...(dated.length === 0 ? known : dated))
  if (year < first) {
    const how = first === arxiv && !dated.includes(first) ? ` (arXiv ${paper.externalIds!.ArXiv})` : ""
    return { why: `${year} is before the paper first appeared, in ${first}${how}` }
  }
  if (year > last + 1) return { why: `the paper is of ${last}` }
  if (year === last + 1) {
    return year > today
      ? { why: `${year} is after this year, ${today}` }
      : { note: `year ${year} given, ${last} here: one year apart, as a preprint and its publication often are` }
  }
  return year === paper.year || typeof paper.year !== "number"
    ? {}
    : { note: `year ${year} given, ${paper.year} here: the year of its first version or of its publication` }
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

/** A field that differs, the entry's value and the record's, and why, for people. */
export interface Difference {
  readonly field: Field
  readonly given: string
  readonly record: string
  readonly why: string
}

/** The record's authors as display names. */
const authorNames = (paper: Paper): ReadonlyArray<string> =>
  (paper.authors ?? []).flatMap((a) => typeof a.name === "string" && a.name.trim().length > 0 ? [a.name] : [])

const shownAuthors = (list: AuthorList): string =>
  [...list.names.map((n) => n.shown), ...(list.others ? ["others"] : [])].join(" and ")

/**
 * Whether the entry's title and venue, read on, are the paper's title: a formatted reference whose
 * title ends at a full stop ("Synthesizing Proteins on the Graphics Card. Protein Folding and…")
 * reads its second sentence as the venue, which is then no venue to compare.
 */
const isRestOfTitle = (given: Given, paper: Paper): boolean =>
  given.title !== undefined && given.venue !== undefined && typeof paper.title === "string" &&
  TitleMatch.relation(`${given.title}. ${given.venue}`, paper.title) === "same"

/** What the entry says of the paper's authors, year and venue: the differences and the notes. */
const compareRest = (given: Given, paper: Paper, today: number, differs: Array<Difference>, notes: Array<string>) => {
  if (given.year !== undefined) {
    const year = compareYear(given.year, paper, today)
    if (year.why !== undefined) {
      differs.push({ field: "year", given: String(given.year), record: String(paper.year ?? ""), why: year.why })
    }
    if (year.note !== undefined) notes.push(year.note)
  }
  const names = authorNames(paper)
  if (given.authors !== undefined && names.length > 0) {
    const record = names.flatMap((n) => displayName(n) ?? [])
    const alone = given.firstAlone === true && firstAuthorAlone(given.authors, record)
    const problems = alone ? [] : compareAuthors(given.authors, record)
    if (alone) notes.push(`only the first author is named; the paper has ${record.length}`)
    if (problems.length > 0) {
      differs.push({
        field: "authors",
        given: shownAuthors(given.authors),
        record: names.join(", "),
        why: problems.join("; ")
      })
    }
  }
  if (given.venue !== undefined) {
    const has = paper.externalIds?.DOI
    const own = given.doi !== undefined && typeof has === "string" && doiKey(has) === given.doi
    const venue = compareVenue(given.venue, paper, own ? given.doi : undefined)
    if (venue.differs && isRestOfTitle(given, paper)) {
      notes.push(`venue ${JSON.stringify(given.venue)} is the rest of the paper's title, read as a venue`)
    } else if (venue.differs) {
      const why = venue.note ?? "another venue"
      const record = venueNames(paper).find((n) => !isPreprintVenue(n)) ?? venueNames(paper)[0] ?? ""
      differs.push({ field: "venue", given: given.venue, record, why })
    } else if (venue.note !== undefined) notes.push(venue.note)
  }
}

/**
 * An entry's title against the titles of the papers found for it, each pair compared once: a
 * similarity the search measured is `seed`ed, not measured again; the rest measured when first
 * asked for.
 */
export interface TitlePairs {
  readonly seed: (found: unknown, similarity: number | undefined) => void
  readonly similarity: (found: string) => number
  readonly relation: (found: string) => TitleMatch.Relation
}

/** See {@link TitlePairs}. */
export const titlePairs = (given: string): TitlePairs => {
  const pairs = new Map<string, { similarity?: number; relation?: TitleMatch.Relation }>()
  const at = (found: string) => {
    let pair = pairs.get(found)
    if (pair === undefined) pairs.set(found, pair = {})
    return pair
  }
  return {
    seed: (found, similarity) => {
      if (typeof found === "string" && similarity !== undefined) at(found).similarity ??= similarity
    },
    similarity: (found) => at(found).similarity ??= TitleMatch.compare(given, found).similarity,
    relation: (found) => at(found).relation ??= TitleMatch.relation(given, found)
  }
}

/**
 * Where `paper` disagrees with what the reference says, and what is worth a word without being a
 * difference. `titles` are the entry's title's comparisons (see {@link TitlePairs}).
 */
export const compare = (
  given: Given,
  paper: Paper,
  lookup: Lookup,
  today: number,
  titles: TitlePairs = titlePairs(given.title ?? "")
): Comparison => {
  const differs: Array<Difference> = []
  const notes: Array<string> = []
  const paperTitle = typeof paper.title === "string" && paper.title.trim().length > 0 ? paper.title : undefined
  const similarity = given.title !== undefined && paperTitle !== undefined ? titles.similarity(paperTitle) : undefined
  compareRest(given, paper, today, differs, notes)
  const title = (why: string) => ({ field: "title" as const, given: given.title ?? "", record: paperTitle ?? "", why })
  // A paper without a title cannot show that it is the work the entry names: a difference, not a pass.
  if (given.title !== undefined && paperTitle === undefined) {
    differs.unshift(title("the paper has no title"))
    notes.push("the paper has no title to compare with the entry's")
  } else if (given.title !== undefined && paperTitle !== undefined) {
    const relation = titles.relation(paperTitle)
    const agree = !differs.some((d) => d.field === "authors" || d.field === "year")
    const byTitle = given.authors !== undefined && given.year !== undefined
    // The entry's own DOI or arXiv id naming the paper shows it as well as its authors and year do.
    const byId = lookup.named && lookup.id !== undefined
    if (relation === "subtitle" && agree && (byTitle || byId)) {
      notes.push(
        `the paper's title is ${JSON.stringify(paperTitle)}: a subtitle added or dropped; ${
          byTitle ? "authors and year agree" : `its ${lookup.id === "doi" ? "DOI" : "arXiv id"} names the paper`
        }`
      )
    } else if (relation !== "same") {
      differs.unshift(
        title(
          relation === "subtitle"
            ? "a subtitle added or dropped, and not the authors and year to show it is the paper"
            : "another title"
        )
      )
    }
  }
  const ids: ReadonlyArray<readonly [Field, string | undefined, string | null | undefined, (s: string) => string]> = [
    ["doi", given.doi, paper.externalIds?.DOI, doiKey],
    ["eprint", given.arxiv, paper.externalIds?.ArXiv, arxivKey]
  ]
  for (const [field, mine, has, key] of ids) {
    if (idDiffers(mine, lookup.id === (field === "doi" ? "doi" : "arxiv"), lookup, has, key)) {
      differs.push({
        field,
        given: mine!,
        record: has ?? "",
        why: has == null ? "not the paper's" : "the paper's is another"
      })
    }
  }
  const order: ReadonlyArray<Field> = ["title", "year", "authors", "venue", "doi", "eprint"]
  differs.sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field))
  return { differs, notes, ...(similarity === undefined ? {} : { similarity }) }
}
