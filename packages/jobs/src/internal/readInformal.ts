/**
 * A reference written informally on one line, as people type one into a chat or a note rather than
 * paste it from a paper: "Attention is all you need. Vaswani 2017", "Vaswani et al. (2017) Attention
 * is all you need", "Title, NeurIPS 2017", "Turing, Title, Mind 1950", a title and its link. A line
 * none of these layouts fits is a title (or an id), as before: a layout is taken only where its
 * names, venue and year stand where a title's words would not (at an end, set off by punctuation).
 */
import { lazy } from "./lazy.js"
import { type Fields, newFields, put, putAuthors, putDate } from "./readFields.js"
import { sentence, tail, takeIds, venueWord } from "./readFormatted.js"
import { particles } from "./verifyAuthors.js"

const year = String.raw`(?:1[6-9]|20)\d\d`

/**
 * A family name as typed: capitalised, the rest lower case but for a second part's capital
 * ("Vaswani", "LeCun", "Haraldsen-Poe", "O’Neil"), particles before it. An acronym ("NeurIPS") is none.
 */
const surname = String.raw`(?:(?:${
  [...particles].map((p) => `[${p[0]}${p[0]!.toUpperCase()}]${p.slice(1)}`).join("|")
})\s+){0,2}\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}+)?(?:[-'’]\p{Lu}?\p{Ll}+)*`

/**
 * Who a line cites: a name, "et al." after it, or names joined by commas and a last "and" or "&";
 * a comma before "and" only after two names or more ("Comprehension, and Decision" is a title's).
 */
const cited = String
  .raw`${surname}(?:\s+et\.?\s*al\.?|(?:,\s*${surname})+,?\s+(?:and|&)\s+${surname}|\s+(?:and|&)\s+${surname})?`

/**
 * One-word names of journals, which look like a family name: "Deep learning. Nature 2015" cites a
 * venue, not an author called Nature.
 */
const oneWordVenues: ReadonlySet<string> = new Set(
  ("nature science cell neuron lancet mind brain blood gut chest circulation immunity genetics radiology " +
    "pediatrics econometrica biometrika bioinformatics cognition language synthese erkenntnis analysis nous " +
    "ethics demography sociology physics arxiv")
    .split(" ")
)

const etAl = /\s+et\.?\s*al\.?$/

const isSurname = lazy(() => new RegExp(String.raw`^${cited}$`, "u"))

/** Whether a piece names who is cited, not a venue. */
const isCited = (text: string): boolean => isSurname().test(text) && !oneWordVenues.has(text.toLowerCase())

/**
 * Whether a short piece names a venue: a venue's word ("Journal", "Proceedings", "IEEE"), an acronym
 * ("NeurIPS", "ICML", "NAACL-HLT"), or a journal of one word ("Nature", "Mind").
 */
const isVenue = (text: string): boolean =>
  oneWordVenues.has(text.toLowerCase()) ||
  (text.split(/\s+/).length <= 12 && /^[\p{Lu}\d]/u.test(text) &&
    (venueWord.test(text) || /^\p{Lu}[\p{L}\d-]*\p{Lu}[\p{L}\d-]*$/u.test(text)))

/**
 * Whether a piece where a venue stands (after the title, before the year) may be one: a venue's
 * name ({@link isVenue}, "arXiv"), or it starts with a capital or a digit and is not longer than a venue's name ("Frontiers in Robotics and AI").
 */
const mayBeVenue = (text: string): boolean =>
  isVenue(text) || (/^[\p{Lu}\d]/u.test(text) && text.split(/\s+/).length <= 12)

/** A title that ends in a venue after a comma ("Title, NAACL"): the two; else the title alone. */
const lastVenue = (text: string, venue: (piece: string) => boolean): readonly [string, string | undefined] => {
  const at = text.lastIndexOf(", ")
  return at > 0 && venue(text.slice(at + 2).trim())
    ? [text.slice(0, at), text.slice(at + 2).trim()]
    : [text, undefined]
}

interface Read {
  readonly title: string
  readonly who?: string | undefined
  readonly year?: string | undefined
  readonly venue?: string | undefined
  /** What follows the title (venue, volume, pages), read as a formatted reference's is. */
  readonly rest?: string | undefined
}

/**
 * Names first, then the year, then the title: "Vaswani et al. 2017. Title", "Vaswani (2017) Title".
 * A bare year is ended by a point or a comma, never a colon: "Europe 2020: A Strategy…" is a title.
 */
const namesYearTitle = lazy(() =>
  new RegExp(String.raw`^(${cited})\s*,?\s*(?:\((${year})[a-z]?\)[.:,]?|(${year})[a-z]?[.,])\s+(.+)$`, "u")
)
/** Names first, then the title and the year at the end: "Turing, Title, Mind 1950". */
const namesTitleYear = lazy(() => new RegExp(String.raw`^(${cited}),\s+(.+?)[.,]?\s+\(?(${year})[a-z]?\)?$`, "u"))
/** The names and the year that end a line, in parentheses or not: "Vaswani et al., 2017", "(Ammar et al., NAACL 2018)". */
const namesYearEnd = lazy(() => new RegExp(String.raw`^(${cited})(?:,\s*([^,()]+?))?,?\s+(${year})[a-z]?$`, "u"))
/** A venue and the year that end a line: "NeurIPS 2017", "NIPS, 2017". */
const venueYearEnd = new RegExp(String.raw`^(.+?),?\s+(${year})[a-z]?$`, "u")

const bareYear = new RegExp(String.raw`^${year}$`)

/** Where a title may end before what a line says of it: a point, comma or semicolon, a spaced dash, a parenthesis. */
const titleEnd = /[.,;]?\s+\(|[.,;]\s+|\s+[-–—]\s+/g

/**
 * Each place a title of two words or more may end in a line, the title and what follows it: a
 * parenthesis opened there closes the line ("Title (Vaswani et al., 2017)").
 */
const titleEnds = (
  text: string
): Array<{ readonly title: string; readonly after: string; readonly mark: string }> =>
  Array.from(text.matchAll(titleEnd)).flatMap((end) => {
    const title = text.slice(0, end.index)
    const after = text.slice(end.index + end[0].length).replace(/\)$/, "").trim()
    return end[0].includes("(") !== text.endsWith(")") || title.split(/\s+/).length < 2
      ? []
      : [{ title, after, mark: end[0].trim() }]
  })

/** The ways of a line, tried in order; the first that fits reads it. */
const layouts: ReadonlyArray<(text: string) => Read | undefined> = [
  (text) => {
    const m = namesYearTitle().exec(text)
    if (m === null) return undefined
    const [title, rest] = sentence(m[4]!)
    const [head, venue] = rest.length === 0 ? lastVenue(title, isVenue) : [title, undefined]
    return { who: m[1]!, year: m[2] ?? m[3], title: head, venue, rest }
  },
  // The title first, then who and the year (and a venue): "Title. Vaswani 2017", "Title (Ammar et
  // al., NAACL 2018)". Before names then a title, so that "History, Status, and … Wang 2023" is a
  // title and its author, not an author "History".
  (text) => {
    for (const { after, title } of titleEnds(text)) {
      const who = namesYearEnd().exec(after)
      if (who !== null && isCited(who[1]!) && (who[2] === undefined || isVenue(who[2]))) {
        return { title, who: who[1]!, venue: who[2], year: who[3]! }
      }
    }
    return undefined
  },
  (text) => {
    const m = namesTitleYear().exec(text)
    if (m === null) return undefined
    const [title, venue] = lastVenue(m[2]!, mayBeVenue)
    return { who: m[1]!, title, venue, year: m[3]! }
  },
  // The title, then a venue and the year, or the year alone: the last place the title may end that
  // fits is taken, since a title holds commas more often than a venue's name.
  (text) => {
    for (const { after, mark, title } of titleEnds(text).reverse()) {
      const venue = venueYearEnd.exec(after)
      const name = venue?.[1]!.replace(/,$/, "")
      if (venue !== null && !name!.includes(", ") && mayBeVenue(name!)) return { title, venue: name, year: venue[2]! }
      // A year alone after a comma may be the title's own ("Global Burden of Disease Study, 2019").
      if (!mark.startsWith(",") && bareYear.test(after)) return { title, year: after }
    }
    return undefined
  }
]

/**
 * The fields of a line written informally, or undefined when it is a title (or an id) alone: what
 * a line says besides its title is taken only where a layout fits it, so a title that holds a year
 * or a name ("Europe 2020: A Strategy…") is still a title.
 */
export const readInformal = (line: string): Fields | undefined => {
  const fields = newFields()
  const body = takeIds(line, fields).replace(/[\s.]+$/, "")
  if (informal(body, fields)) return fields
  const hasId = fields["doi"] !== undefined || fields["eprint"] !== undefined
  if (!hasId || body.length === 0) return undefined
  put(fields, "title", body)
  return fields
}

/**
 * A reference's text, its ids taken out, read by the first layout that fits into `fields`; whether
 * one did. A formatted reference no layout of its own fits ("Title - Vaswani et al., 2017") is
 * read so too.
 */
export const informal = (body: string, fields: Fields): boolean => {
  const read = layouts.reduce<Read | undefined>((found, layout) => found ?? layout(body), undefined)
  if (read === undefined) return false
  if (read.who !== undefined) {
    // Family names only: "LeCun, Bengio and Hinton" is three people, not "LeCun, Bengio" and "Hinton".
    const others = etAl.test(read.who)
    putAuthors(fields, read.who.replace(etAl, "").split(/\s*,\s*|\s+(?:and|&)\s+/), others)
  }
  put(fields, "title", read.title.replace(/[\s.,:;]+$/, ""))
  putDate(fields, read.year)
  if (read.venue !== undefined) put(fields, "journal", read.venue)
  if (read.rest !== undefined && read.rest.length > 0) tail(read.rest, fields)
  return true
}
