/**
 * One reading of a paper record for the three citable writers (BibTeX, CSL-JSON, RIS): what kind
 * of work it is, its container, its people, dates, pages and identifiers. Every writer takes the
 * same decisions from here, so a paper is an `@article` in BibTeX exactly when it is an
 * `article-journal` in CSL-JSON and a `JOUR` in RIS.
 */
import type { Paper } from "@s2-effect/core"
import { replaceUnsafe } from "@s2-effect/core"
import { plain } from "../bibtex.js"
import { isDoi, withoutDoiPrefix } from "../ids.js"

/** What a paper is, as the writers tell it: each maps it to its own type names. */
export type Kind = "article" | "inproceedings" | "book" | "preprint" | "misc"

/** A person's name split as BibTeX, CSL and RIS want it; empty strings where a part is missing. */
export interface Person {
  readonly given: string
  readonly particle: string
  readonly family: string
  readonly suffix: string
}

/** The pages as given: a range (`first`, `last`) or a single page or article number (`first`). */
export interface Pages {
  readonly first: string
  readonly last: string
}

export interface Facts {
  readonly kind: Kind
  readonly title: string
  readonly authors: ReadonlyArray<Person>
  readonly year: number | undefined
  /** Year, month and day from `publicationDate` when it agrees with `year`; else the year alone. */
  readonly date: ReadonlyArray<number>
  /** The journal, the proceedings or (for `misc`) the venue; "" when none. */
  readonly container: string
  /** The preprint server of a `preprint` (arXiv, bioRxiv…); "" otherwise. */
  readonly server: string
  readonly volume: string
  readonly issue: string
  readonly pages: Pages | undefined
  readonly doi: string
  readonly url: string
  readonly arxiv: string
  /** The publisher, from the user's fields (the record has none); "" when none. */
  readonly publisher: string
}

// Of the characters core's `replaceUnsafe` lists, a lone surrogate becomes U+FFFD; the
// bidirectional marks, overrides and isolates are dropped (they reorder what a reader sees); every
// other control character, line break and separator becomes a space.
const safe = (char: string): string => /\p{Cs}/u.test(char) ? "\ufffd" : /\p{Bidi_Control}/u.test(char) ? "" : " "

// The server sends some venues HTML-escaped ("Mind &amp; Language"). A Map, as it is looked up by
// the server's text.
const entities: ReadonlyMap<string, string> = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", "\""],
  ["apos", "'"]
])
const entity = /&(amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-f]{1,6});/gi

const decodeEntity = (whole: string, name: string): string => {
  if (name[0] !== "#") return entities.get(name.toLowerCase()) ?? whole
  const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
}

/**
 * Text as one line: entities decoded, controls and line breaks as single spaces, lone surrogates
 * as U+FFFD, NFC. Nothing a server sends can start a new line (a RIS tag) after this.
 */
export const oneLine = (text: string | null | undefined): string =>
  typeof text !== "string"
    ? ""
    : replaceUnsafe(text.replace(entity, (whole, name) => decodeEntity(whole, name)), safe).replace(/\s+/g, " ").trim()
      .normalize("NFC")

/** Text for a `%` line of a .bib: {@link oneLine}, and no `@` (BibTeX starts an entry at one anywhere outside an entry). */
export const commentText = (text: string): string => oneLine(text).replace(/@/g, () => "(at)")

const suffixes = /^(?:jr|sr|jnr|snr|ii|iii|iv|v|vi)\.?$/i
// "T.Chuprina": initials written against the family name.
const glued = /^((?:\p{Lu}\.)+)(\p{Lu}[\p{Ll}\p{M}'’-].*)$/u

/**
 * A name as "Given Family" split into its parts: the last word is the family name, lowercase words
 * before it are its particle ("von", "van der": BibTeX's own rule), a trailing "Jr."/"III" is the
 * suffix. Commas are dropped (the server's names hold none that mean "Family, Given" reliably).
 */
export const person = (name: string | null | undefined): Person | undefined => {
  const words = oneLine(name).replace(/,/g, " ").split(" ").filter((w) => w.length > 0)
  if (words.length === 0) return undefined
  if (words.length === 1) {
    const parts = glued.exec(words[0]!)
    return parts === null
      ? { given: "", particle: "", family: words[0]!, suffix: "" }
      : { given: parts[1]!, particle: "", family: parts[2]!, suffix: "" }
  }
  const suffix = words.length > 2 && suffixes.test(words.at(-1)!) ? words.pop()! : ""
  const family = words.pop()!
  let cut = words.length
  while (cut > 1 && /^\p{Ll}/u.test(words[cut - 1]!)) cut--
  return { given: words.slice(0, cut).join(" "), particle: words.slice(cut).join(" "), family, suffix }
}

/**
 * Servers whose papers are preprints: their name as a venue is not a journal. A Map, as it is
 * looked up by the server's venue: an object's `constructor` or `__proto__` would answer too.
 */
const preprintServers: ReadonlyMap<string, string> = new Map([
  ["arxiv", "arXiv"],
  ["arxiv.org", "arXiv"],
  ["biorxiv", "bioRxiv"],
  ["medrxiv", "medRxiv"],
  ["chemrxiv", "ChemRxiv"],
  ["psyarxiv", "PsyArXiv"],
  ["socarxiv", "SocArXiv"],
  ["techrxiv", "TechRxiv"],
  ["eartharxiv", "EarthArXiv"],
  ["research square", "Research Square"],
  ["preprints.org", "Preprints.org"],
  ["osf preprints", "OSF Preprints"]
])
const serverOf = (name: string): string | undefined => preprintServers.get(name.toLowerCase())

const arxivId = /^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})(?:v\d+)?$/
// DOIs and URLs are written as they are (biblatex reads them verbatim); what could break a BibTeX
// field, a RIS line or a link is percent-encoded.
const uriUnsafe = /[^\x21-\x7e]|[{}\\"]/gu
const uriSafe = (text: string): string =>
  text.replace(
    uriUnsafe,
    (c) => Array.from(new TextEncoder().encode(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("")
  )

const doiOf = (paper: Paper): string => {
  const doi = withoutDoiPrefix(oneLine(paper.externalIds?.DOI))
  return isDoi(doi) ? uriSafe(doi) : ""
}

const urlOf = (paper: Paper): string => {
  const url = oneLine(paper.url)
  return /^https?:\/\/[^\s/]+/i.test(url) ? uriSafe(url) : ""
}

/** Pages as the server spells them: "390-7", "286:1-286:12", "e941209-1 - e941209-4", "105197". */
const pagesOf = (text: string | null | undefined): Pages | undefined => {
  const pages = oneLine(text)
  if (pages.length === 0) return undefined
  const spaced = pages.split(/\s+[-–—]+\s+/)
  const [first, last] = spaced.length === 2 ? spaced : pages.split(/\s*[-–—]+\s*/)
  return spaced.length <= 2 && first !== undefined && last !== undefined && first.length > 0 && last.length > 0
    ? { first, last }
    : { first: pages, last: "" }
}

/** The server packs the issue after the volume ("12 5"); arXiv's "abs/2311.08576" is no volume. */
const volumeOf = (text: string | null | undefined): readonly [string, string] => {
  const volume = oneLine(text)
  if (/^abs\//i.test(volume)) return ["", ""]
  const parts = /^(\S+) (\S+)$/.exec(volume)
  return parts === null ? [volume, ""] : [parts[1]!, parts[2]!]
}

const yearOf = (paper: Paper): number | undefined => {
  const year = paper.year
  return typeof year === "number" && Number.isInteger(year) && year > 0 && year < 10000 ? year : undefined
}

const dateOf = (paper: Paper, year: number | undefined): ReadonlyArray<number> => {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(oneLine(paper.publicationDate))
  if (parts === null || Number(parts[1]) !== year) return year === undefined ? [] : [year]
  const [month, day] = [Number(parts[2]), Number(parts[3])]
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 ? [year, month, day] : [year]
}

/** The entry types a user's own entry may have that say a conference paper, an article, a book. */
const userKinds: ReadonlyMap<string, Kind> = new Map([
  ["inproceedings", "inproceedings"],
  ["conference", "inproceedings"],
  ["article", "article"],
  ["book", "book"]
])

/** The venue's names: its name, the journal-less venue string and its alternate names (ICML), lower case. */
const venueNames = (paper: Paper, venue: string): ReadonlySet<string> =>
  new Set(
    [venue, oneLine(paper.publicationVenue?.name), ...(paper.publicationVenue?.alternate_names ?? []).map(oneLine)]
      .filter((name) => name.length > 0).map((name) => name.toLowerCase())
  )

/**
 * The kind of work and its container. A paper typed `Conference`, one at a venue of type conference
 * whose journal is that venue (ICML's papers come with the conference's name as their journal) or
 * has none, and one the user cites as `@inproceedings` (unless the venue is a journal) is an
 * inproceedings in its proceedings. Else a journal the server names (other than a preprint server)
 * makes an article; a preprint server alone makes a preprint; `Book` alone a book; anything else is
 * what the user's entry type says (`@article`, `@book`), or `misc`, with its venue.
 */
const kindOf = (paper: Paper, userType: string): Pick<Facts, "kind" | "container" | "server"> => {
  const types = paper.publicationTypes ?? []
  const journal = oneLine(paper.journal?.name)
  const venue = oneLine(paper.venue).length > 0 ? oneLine(paper.venue) : oneLine(paper.publicationVenue?.name)
  const journalServer = serverOf(journal)
  const venueServer = serverOf(venue)
  const ownJournal = journalServer === undefined ? journal : ""
  const ownVenue = venueServer === undefined ? venue : ""
  const venueType = paper.publicationVenue?.type
  const user = userKinds.get(userType.toLowerCase())
  const conference = types.includes("Conference") ||
    (venueType === "conference" &&
      (ownJournal.length === 0 || venueNames(paper, venue).has(ownJournal.toLowerCase()))) ||
    (user === "inproceedings" && venueType !== "journal")
  if (conference && (ownJournal.length > 0 || ownVenue.length > 0)) {
    return { kind: "inproceedings", container: ownJournal || ownVenue, server: "" }
  }
  if (ownJournal.length > 0) return { kind: "article", container: ownJournal, server: "" }
  if (ownVenue.length > 0 && (venueType === "journal" || (venueType === undefined && user === "article"))) {
    return { kind: "article", container: ownVenue, server: "" }
  }
  const server = journalServer ?? venueServer ?? (paper.externalIds?.ArXiv ? "arXiv" : undefined)
  if (server !== undefined && ownVenue.length === 0) return { kind: "preprint", container: "", server }
  if ((types.length === 1 && types[0] === "Book") || (types.length === 0 && user === "book" && ownVenue.length === 0)) {
    return { kind: "book", container: "", server: "" }
  }
  return { kind: "misc", container: ownVenue, server: "" }
}

/**
 * The facts the writers need, read once from a paper record (any field may be absent or `null`), and
 * the user's own entry type when they gave one (`inproceedings`, `article`…; "" when none).
 */
export const facts = (paper: Paper, userType = ""): Facts => {
  const year = yearOf(paper)
  const [volume, issue] = volumeOf(paper.journal?.volume)
  const arxiv = oneLine(paper.externalIds?.ArXiv)
  return {
    ...kindOf(paper, userType),
    title: oneLine(paper.title),
    authors: (paper.authors ?? []).flatMap((a) => person(a.name) ?? []),
    year,
    date: dateOf(paper, year),
    volume,
    issue,
    pages: pagesOf(paper.journal?.pages),
    doi: doiOf(paper),
    url: urlOf(paper),
    arxiv: arxivId.test(arxiv) ? arxiv : "",
    publisher: ""
  }
}

/** A BibTeX name as plain text ("von Last, Jr, First", "Last, First" or "First von Last") split into its parts. */
const bibtexPerson = (name: string): Person | undefined => {
  const parts = name.split(",").map((part) => part.trim())
  if (parts.length < 2) return person(name)
  const [last, given] = parts.length === 2 ? [parts[0]!, parts[1]!] : [parts[0]!, parts[2]!]
  const words = last.split(" ").filter((w) => w.length > 0)
  let cut = 0
  while (cut < words.length - 1 && /^\p{Ll}/u.test(words[cut]!)) cut++
  const family = words.slice(cut).join(" ")
  return family.length === 0
    ? undefined
    : { given, particle: words.slice(0, cut).join(" "), family, suffix: parts.length === 2 ? "" : parts[1]! }
}

const months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

/** A BibTeX month (`oct`, `October`, `10`) as its number, or none. */
const monthOf = (text: string): ReadonlyArray<number> => {
  const n = /^\d{1,2}$/.test(text) ? Number(text) : months.indexOf(text.slice(0, 3).toLowerCase()) + 1
  return n >= 1 && n <= 12 ? [n] : []
}

/**
 * The facts with what the record lacks taken from the user's own BibTeX fields (as plain text): a
 * record without authors, year, title, container, volume, number, pages or DOI keeps the user's,
 * and the user's publisher is kept. For CSL-JSON and RIS; the BibTeX writer keeps the user's TeX.
 */
export const withUserFields = (f: Facts, extra: Readonly<Record<string, string>> | undefined): Facts => {
  if (extra === undefined) return f
  const user = new Map(
    Object.entries(extra).map((
      [name, value]
    ) => [name.toLowerCase(), typeof value === "string" ? oneLine(plain(value)) : ""])
  )
  const get = (...names: ReadonlyArray<string>): string =>
    names.map((n) => user.get(n) ?? "").find((v) => v.length > 0) ?? ""
  // biblatex's `date` (1950-10-01) gives the year where there is no `year`.
  const yearText = /^\d{1,4}$/.exec(get("year"))?.[0] ?? /^(\d{4})(?:-|$)/.exec(get("date"))?.[1]
  const year = f.year ?? (yearText === undefined || Number(yearText) === 0 ? undefined : Number(yearText))
  const authors = f.authors.length > 0
    ? f.authors
    : get("author").split(/\s+and\s+/).filter((n) => n !== "others").flatMap((n) => bibtexPerson(n) ?? [])
  const doi = withoutDoiPrefix(get("doi"))
  return {
    ...f,
    title: f.title || get("title"),
    authors,
    year,
    // The user's month with their year, when the record has no finer date (and not another year).
    date: f.date.length > 1 || year === undefined
      ? f.date
      : yearText !== undefined && Number(yearText) === year
      ? [year, ...monthOf(get("month"))]
      : [year],
    container: f.container || (f.kind === "preprint" ? "" : get("journal", "journaltitle", "booktitle")),
    volume: f.volume || get("volume"),
    issue: f.issue || get("number", "issue"),
    pages: f.pages ?? pagesOf(get("pages")),
    doi: f.doi || (isDoi(doi) ? uriSafe(doi) : ""),
    publisher: get("publisher")
  }
}
