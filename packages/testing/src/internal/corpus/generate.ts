/**
 * Pure generators: `paperCore(seed, i, universe)` (and authors.ts's `authorCore(seed, j)`). Nothing here depends
 * on any other paper, so any paper of a 10M-paper universe can be produced on its own.
 */
import type { AuthorCore, PaperCore } from "../../Corpus.js"
import { at, hash, Rng, unit } from "../prng.js"
import {
  capitalize,
  drawn,
  drawSlots,
  fill,
  fillPieces,
  partsOf,
  type PieceList,
  pieceText,
  render,
  skipFill,
  SPACE_PIECE
} from "./patterns.js"
import {
  FIELDS_OF_STUDY,
  LAST_NAMES,
  PUBLICATION_TYPES,
  SENTENCE_PATTERNS,
  TITLE_PATTERNS,
  type Topic,
  TOPICS,
  type Venue
} from "./vocabulary.js"

const SALT_PAPER = 0x5eed01

export type { AuthorCore, PaperCore }
export { type PieceList, pieceText }

const TOTAL_WEIGHT = TOPICS.reduce((n, t) => n + t.weight, 0)

const pickTopic = (rng: Rng): number => {
  let x = rng.float() * TOTAL_WEIGHT
  for (let i = 0; i < TOPICS.length; i++) {
    x -= at(TOPICS, i).weight
    if (x < 0) return i
  }
  return TOPICS.length - 1
}

/**
 * A title, one string per combination of topic, pattern and words, which every paper of that
 * combination shares: made once, not once per paper.
 */
const titles = new Map<number, string>()
/** More than any list of words has: a base to number drawn words in. */
const WORDS = 1 +
  Math.max(...TOPICS.flatMap((topic) => [topic.nouns, topic.adjectives, topic.methods].map((l) => l.length)))
const titleOf = (rng: Rng, topicIndex: number, topic: Topic): string => {
  const pattern = rng.int(TITLE_PATTERNS.length)
  const parts = partsOf(at(TITLE_PATTERNS, pattern))
  const slots = drawSlots(parts, topic, rng)
  // The words in base WORDS, then topic and pattern, which say how many words there are.
  let number = 0
  for (let k = 0; k < slots; k++) number = number * WORDS + drawn[k]!
  number = (number * TOPICS.length + topicIndex) * TITLE_PATTERNS.length + pattern
  let title = titles.get(number)
  if (title === undefined) {
    if (titles.size >= 1 << 20) titles.clear()
    titles.set(number, title = flat(capitalize(render(parts, topic))))
  }
  return title
}

/** Corpus ids grow with the index (stride 23) so a corpus id maps back to its index in O(1). */
export const CORPUS_ID_BASE = 1000
export const CORPUS_ID_STRIDE = 23
export const corpusIdOf = (seed: number, i: number): number =>
  CORPUS_ID_BASE + i * CORPUS_ID_STRIDE + (hash(seed, i, 7) % CORPUS_ID_STRIDE)
export const indexOfCorpusId = (corpusId: number): number => Math.floor((corpusId - CORPUS_ID_BASE) / CORPUS_ID_STRIDE)

/**
 * Paper ids look random but increase with the index: the first 8 hex digits spread the universe
 * evenly over the 32-bit space. That makes `paperId:asc` the index order, which is what lets bulk
 * search page through a virtual universe of 10M papers without sorting or storing it.
 */
export const paperIdOf = (seed: number, i: number, universe: number): string => {
  const rng = new Rng(hash(seed, i, 13))
  // The prefix's 8 hex digits (it is below 2^32), then `rng.hex(32)`: 4 draws of 8 digits each,
  // written as character codes, so that the id is one flat string made once.
  hexDigits(paperIdPrefixOf(seed, i, universe), 0)
  for (let k = 1; k <= 4; k++) hexDigits(rng.next(), 8 * k)
  return String.fromCharCode.apply(null, idCodes)
}
const HEX_CODES = Array.from("0123456789abcdef", (c) => c.charCodeAt(0))
const idCodes: Array<number> = new Array(40).fill(0)
const hexDigits = (n: number, at: number): void => {
  for (let k = 0; k < 8; k++) idCodes[at + k] = HEX_CODES[(n >>> (28 - 4 * k)) & 15]!
}
/** The first 8 hex digits of paper `i`'s id, as a number: what `paperId` order sorts on. */
export const paperIdPrefixOf = (seed: number, i: number, universe: number): number => {
  const slot = 4294967296 / universe
  return Math.floor(i * slot + unit(hash(seed, i, 11)) * Math.max(1, slot - 1))
}
export const indexOfPaperIdPrefix = (paperId: string, universe: number): number =>
  Math.floor(parseInt(paperId.slice(0, 8), 16) / (4294967296 / universe))

const LATEST_YEAR = 2025
const EARLIEST_YEAR = 1930

const pickYear = (rng: Rng): number => {
  if (rng.chance(0.06)) return EARLIEST_YEAR + rng.int(LATEST_YEAR - EARLIEST_YEAR + 1)
  const age = Math.floor(-Math.log(1 - rng.float()) * 11)
  return Math.max(EARLIEST_YEAR, LATEST_YEAR - age)
}

export const pad = (n: number, width = 2): string => String(n).padStart(width, "0")

/*
 * The pieces of a paper, each drawn from the paper's one Rng. `paperCore` calls them in a fixed
 * order: each piece takes the draws that follow those of the pieces before it, so reordering the
 * calls (or adding a draw to one) changes every generated corpus.
 */

const abstractOf = (rng: Rng, topic: Topic): string | null => {
  if (!rng.chance(0.88)) return null
  const n = 3 + rng.int(3)
  const sentences: Array<string> = []
  for (let k = 0; k < n; k++) sentences.push(capitalize(fill(rng.pick(SENTENCE_PATTERNS), topic, rng)))
  return sentences.join(" ")
}

/** Takes the draws of `abstractOf` without making the text; whether the paper has an abstract. */
const skipAbstract = (rng: Rng): boolean => {
  if (!rng.chance(0.88)) return false
  const n = 3 + rng.int(3)
  for (let k = 0; k < n; k++) skipFill(rng.pick(SENTENCE_PATTERNS), rng)
  return true
}

/** Paper `i`'s abstract, made again from the start of its draws: the title's come first. */
export const abstractAt = (seed: number, i: number): string | null => {
  const rng = new Rng(hash(seed, i, SALT_PAPER))
  const topic = at(TOPICS, pickTopic(rng))
  skipFill(rng.pick(TITLE_PATTERNS), rng)
  return abstractOf(rng, topic)
}

/**
 * Paper `i`'s title and abstract as pieces (see {@link pieceText}), from the same draws as
 * `paperCore`: the title's, then the abstract's sentences joined by a space (none: no abstract).
 */
export const textPiecesAt = (seed: number, i: number, title: PieceList, abstract: PieceList): void => {
  const rng = new Rng(hash(seed, i, SALT_PAPER))
  const topic = at(TOPICS, pickTopic(rng))
  fillPieces(rng.pick(TITLE_PATTERNS), topic, rng, title)
  if (!rng.chance(0.88)) return
  const n = 3 + rng.int(3)
  for (let k = 0; k < n; k++) {
    if (k > 0) abstract.push(SPACE_PIECE)
    fillPieces(rng.pick(SENTENCE_PATTERNS), topic, rng, abstract)
  }
}

/*
 * A stored paper's abstract, external ids and TLDR are enumerable getters that make them again
 * when read: abstracts are most of a corpus's text (about 100 MB for 200,000 papers) and of the
 * time to generate it, the external ids and TLDRs a third of what else a paper holds, and most are
 * never read. One set of getters per corpus, so that every paper of a corpus shares its hidden classes.
 */
type Getters = Readonly<Record<"abstract" | "externalIds" | "tldr", PropertyDescriptor>>
const getters = new Map<string, Getters>()
const gettersOf = (seed: number, universe: number, authorCount: number): Getters => {
  if (
    last.getters !== undefined && last.seed === seed && last.universe === universe && last.authorCount === authorCount
  ) {
    return last.getters
  }
  const key = `${seed} ${universe} ${authorCount}`
  let found = getters.get(key)
  if (found === undefined) {
    if (getters.size >= 64) getters.clear()
    const parts = (paper: PaperCore): PaperCore => paperCore(seed, paper.index, universe, authorCount, "parts")
    const getter = (get: (paper: PaperCore) => unknown): PropertyDescriptor => ({
      enumerable: true,
      get(this: PaperCore) {
        return get(this)
      }
    })
    getters.set(
      key,
      found = {
        abstract: getter((paper) => abstractAt(seed, paper.index)),
        externalIds: getter((paper) => parts(paper).externalIds),
        tldr: getter((paper) => parts(paper).tldr)
      }
    )
  }
  last = { seed, universe, authorCount, getters: found }
  return found
}
/** The getters asked last: a corpus asks for its own once per paper. */
let last: {
  readonly seed: number
  readonly universe: number
  readonly authorCount: number
  readonly getters?: Getters
} = { seed: -1, universe: -1, authorCount: -1 }

/** A date in `year`: none for 12%, January 1st for 18% (a year-only date), else a day of the year. */
const dateOf = (rng: Rng, year: number): string | null => {
  const dateRoll = rng.float()
  const month = 1 + rng.int(12)
  drawnMonth = month
  const day = 1 + rng.int(28)
  return dateRoll < 0.12 ? null : dateRoll < 0.3 ? dateText(year, 1, 1) : dateText(year, month, day)
}
/** The month `dateOf` drew last (which external ids read): kept here, not in an object a paper. */
let drawnMonth = 1

/** `YYYY-MM-DD`, one string per date that every paper of that date shares. */
const dates = new Map<number, string>()
const dateText = (year: number, month: number, day: number): string => {
  const key = year * 10000 + month * 100 + day
  let text = dates.get(key)
  if (text === undefined) dates.set(key, text = `${year}-${pad(month)}-${pad(day)}`)
  return text
}

/** What a paper's external ids are made of. */
interface IdParts {
  readonly i: number
  readonly topic: Topic
  readonly topicIndex: number
  readonly venue: Venue | null
  readonly year: number
  readonly month: number
}

/** A venue's short name as ids spell it: lower case, without what `drop` matches; made once per name. */
const idWords = new Map<string, string>()
const idWord = (short: string, drop: RegExp): string => {
  const key = `${drop.source}\u0000${short}`
  let word = idWords.get(key)
  if (word === undefined) idWords.set(key, word = short.toLowerCase().replace(drop, ""))
  return word
}

/** A paper's external ids; with `make` false, only their draws are taken (no id is made). */
const externalIdsOf = (
  rng: Rng,
  paper: IdParts,
  corpusId: number,
  make: boolean
): Record<string, string | number> | null => {
  const { i, month, topic, topicIndex, venue, year } = paper
  const externalIds: Record<string, string | number> = {}
  // The year's two digits, only where an id is made: a closure per paper was garbage at build.
  const yy = make ? pad(year % 100) : ""
  if (topic.fields.includes("Computer Science") && rng.chance(0.6)) {
    const last = rng.pick(LAST_NAMES)
    if (make) {
      externalIds.DBLP = `${venue?.type === "conference" ? "conf" : "journals"}/${
        idWord(venue?.short ?? "corr", /[^a-z]/g)
      }/${last}${yy}-${i}`
    }
  }
  if (rng.chance(0.7)) {
    const n = rng.int(97)
    if (make) externalIds.MAG = String(1000000000 + i * 97 + n)
  }
  if (topic.arxiv && year >= 1992 && rng.chance(0.4) && make) externalIds.ArXiv = `${yy}${pad(month)}.${pad(i, 5)}`
  if (venue?.host === "aclweb.org") {
    const letter = rng.int(26)
    if (make) externalIds.ACL = `${String.fromCharCode(65 + letter)}${yy}-${i}`
  }
  if (rng.chance(0.75) && make) {
    externalIds.DOI = `10.${1000 + (hash(topicIndex, venue?.short.length ?? 0) % 9000)}/${
      idWord(venue?.short ?? "s2", /[^a-z0-9]/g)
    }.${year}.${i}`
  }
  if (topic.pubmed && rng.chance(0.8)) {
    const n = rng.int(3)
    const central = rng.chance(0.5)
    if (make) {
      externalIds.PubMed = String(10000000 + i * 3 + n)
      if (central) externalIds.PubMedCentral = String(1000000 + i)
    }
  }
  if (!make) return null
  externalIds.CorpusId = corpusId
  return externalIds
}

/*
 * Fields of study and publication types come in few combinations: every paper with the same one
 * shares one frozen array (and its entries) instead of holding its own copy, which in a 200,000-paper
 * corpus is about 90 MB less to hold.
 */
const shared = new Map<string, ReadonlyArray<unknown>>()
const intern = <A>(items: ReadonlyArray<A>, key: string): ReadonlyArray<A> => {
  let found = shared.get(key)
  if (found === undefined) {
    shared.set(
      key,
      found = Object.freeze(items.map((x) => typeof x === "object" ? Object.freeze(x) : x))
    )
  }
  return found as ReadonlyArray<A>
}
const internStrings = (items: ReadonlyArray<string>): ReadonlyArray<string> =>
  intern(items, `s\u0000${items.join("\u0000")}`)

/** A paper's fields of study, drawn as before; its arrays are made once per combination. */
const fieldsOf = (rng: Rng, topic: Topic, topicIndex: number): FieldsOf => {
  // Drawn as `rng.pick` draws (an index), so that the combination has a number to look it up by.
  const p = rng.int(topic.fields.length)
  const primary = at(topic.fields, p)
  let s = -1
  const external = rng.chance(0.88)
  if (external) {
    const drawn = rng.int(topic.fields.length)
    if (at(topic.fields, drawn) !== primary && rng.chance(0.5)) s = drawn
  }
  const m = rng.chance(0.3) ? rng.int(FIELDS_OF_STUDY.length) : -1
  const n = FIELDS_PER_TOPIC
  const number = (((topicIndex * n + p) * (n + 1) + s + 1) * (FIELDS_OF_STUDY.length + 1) + m + 1) * 2 +
    (external ? 1 : 0)
  let found = fieldsByNumber.get(number)
  if (found === undefined) {
    found = fieldsNamed(
      external,
      primary,
      s < 0 ? undefined : at(topic.fields, s),
      m < 0 ? undefined : at(FIELDS_OF_STUDY, m)
    )
    fieldsByNumber.set(number, found)
  }
  return found
}
const fieldsByNumber = new Map<number, FieldsOf>()
const FIELDS_PER_TOPIC = Math.max(...TOPICS.map((topic) => topic.fields.length))

const fieldsNamed = (
  external: boolean,
  primary: string,
  second: string | undefined,
  model: string | undefined
): FieldsOf => {
  const key = `f\u0000${external ? 1 : 0}\u0000${primary}\u0000${second ?? ""}\u0000${model ?? ""}`
  let found = shared.get(key) as FieldsOf | undefined
  if (found === undefined) {
    const fieldsOfStudy = external ? (second === undefined ? [primary] : [primary, second]) : null
    const s2FieldsOfStudy: Array<{ category: string; source: string }> = []
    for (const f of fieldsOfStudy ?? []) s2FieldsOfStudy.push({ category: f, source: "external" })
    s2FieldsOfStudy.push({ category: primary, source: "s2-fos-model" })
    if (model !== undefined) s2FieldsOfStudy.push({ category: model, source: "s2-fos-model" })
    found = Object.freeze({
      fieldsOfStudy: fieldsOfStudy === null ? null : internStrings(fieldsOfStudy),
      s2FieldsOfStudy: intern(
        s2FieldsOfStudy,
        `c\u0000${s2FieldsOfStudy.map((f) => `${f.category}\u0001${f.source}`).join("\u0000")}`
      )
    })
    shared.set(key, found as unknown as ReadonlyArray<unknown>)
  }
  return found
}
type FieldsOf = Pick<PaperCore, "fieldsOfStudy" | "s2FieldsOfStudy">

const PUBMED_TYPES = ["Review", "ClinicalTrial", "CaseReport", "MetaAnalysis", "Study"]

const publicationTypesOf = (rng: Rng, topic: Topic, venue: Venue | null): ReadonlyArray<string> | null => {
  if (!rng.chance(0.8)) return null
  const conference = venue?.type === "conference"
  const extras = topic.pubmed ? PUBMED_TYPES : PUBLICATION_TYPES
  // Drawn as `rng.pick` draws, so that the combination has a number to look it up by.
  const extra = rng.chance(0.25) ? rng.int(extras.length) : -1
  const number = ((extra + 1) * 2 + (topic.pubmed ? 1 : 0)) * 2 + (conference ? 1 : 0)
  let found = typesByNumber.get(number)
  if (found === undefined) {
    const publicationTypes = [conference ? "Conference" : "JournalArticle"]
    if (extra >= 0 && !publicationTypes.includes(at(extras, extra))) publicationTypes.push(at(extras, extra))
    typesByNumber.set(number, found = internStrings(publicationTypes))
  }
  return found
}
const typesByNumber = new Map<number, ReadonlyArray<string>>()

/** Heavy-tailed author choice: a few prolific authors, many with one or two papers. */
const authorsOf = (rng: Rng, authorCount: number): Array<number> => {
  // Drawn into a scratch list, then copied into an array of the length it has (one array a
  // paper, not one grown by push and its copy).
  const n = drawAuthors(rng, authorCount)
  const authors: Array<number> = new Array(n)
  for (let k = 0; k < n; k++) authors[k] = drawnAuthors[k]!
  return authors
}
/** A paper's authors drawn into `drawnAuthors`; returns how many. */
const drawAuthors = (rng: Rng, authorCount: number): number => {
  const nAuthors = 1 + Math.min(7, Math.floor(-Math.log(1 - rng.float()) * 2))
  let n = 0
  for (let k = 0; k < nAuthors; k++) {
    const a = Math.floor(authorCount * Math.pow(rng.float(), 2.2))
    let seen = false
    for (let m = 0; m < n && !seen; m++) seen = drawnAuthors[m] === a
    if (!seen) drawnAuthors[n++] = a
  }
  return n
}
/** The authors of the paper `authorsOf` or `paperColumns` drew last (the first of them, as many as they returned). */
export const drawnAuthors = new Int32Array(8)

const OPEN_ACCESS_STATUSES = ["GREEN", "GOLD", "HYBRID", "BRONZE", null] as const

/** A paper's open access PDF: one object, its URL one flat string. */
const openAccessOf = (rng: Rng, venue: Venue | null, paperId: string): PaperCore["openAccess"] => {
  if (!rng.chance(0.35)) return null
  const status = rng.pick(OPEN_ACCESS_STATUSES)
  return { url: flat(`https://${venue?.host ?? "arxiv.org"}/pdf/${paperId.slice(0, 12)}.pdf`), status }
}

const TLDR_VERBS = ["shows", "proposes", "studies", "argues"]
const TLDR_PATTERN = "{method} improves {adj} {noun}"

/** A paper's TLDR; with `make` false, only its draws are taken, and `LAZY` stands for a TLDR. */
const tldrOf = (rng: Rng, topic: Topic, abstract: string | null, make: boolean): string | null => {
  if (abstract === null || !rng.chance(0.7)) return null
  const verb = rng.pick(TLDR_VERBS)
  if (!make) {
    skipFill(TLDR_PATTERN, rng)
    return LAZY
  }
  return `This paper ${verb} that ${fill(TLDR_PATTERN, topic, rng)}.`
}

const journalOf = (rng: Rng, venue: Venue | null, year: number): PaperCore["journal"] =>
  venue === null
    ? null
    : rng.chance(0.5)
    ? journalNamed(venue)
    : { name: venue.name, volume: String(1 + (year % 60)), pages: `${1 + rng.int(900)}-${901 + rng.int(99)}` }

/** A journal of a name only: one frozen object per venue, which its papers share. */
const journals = new Map<Venue, PaperCore["journal"]>()
const journalNamed = (venue: Venue): PaperCore["journal"] => {
  let journal = journals.get(venue)
  if (journal === undefined) journals.set(venue, journal = Object.freeze({ name: venue.name }))
  return journal
}

/**
 * The same text as one flat string. Built by concatenation, a short string is a tree of pieces
 * (and may keep a longer parent alive) at 2-4 times the size; a corpus keeps hundreds of thousands.
 * `normalize` returns it flat; the comparison guards against text that NFC would change.
 */
export const flat = (text: string): string => {
  // V8 copies shorter strings into a flat one when it joins or slices them.
  if (text.length < 13) return text
  const out = text.normalize()
  return out === text ? out : text
}
const flatOrNull = (text: string | null): string | null => text === null ? null : flat(text)

const flatValues = (ids: Record<string, string | number>): Record<string, string | number> => {
  for (const key in ids) {
    const value = ids[key]!
    if (typeof value === "string") ids[key] = flat(value)
  }
  return ids
}

/** Marks a text made when read (a made one is never empty). */
const LAZY = ""

/**
 * What `paperCore` makes: `all` of it; for a paper a corpus `stores`, its abstract, external ids
 * and TLDR are getters that make them when read (see `gettersOf`); `parts` is all but the abstract,
 * which those getters read. The same draws and the same values read in each.
 */
export type Make = "all" | "stored" | "parts"

/** Paper `i`, made as `make` says. */
export const paperCore = (
  seed: number,
  i: number,
  universe: number,
  authorCount: number,
  make: Make = "all"
): PaperCore => {
  const stored = make === "stored"
  const rng = new Rng(hash(seed, i, SALT_PAPER))
  const topicIndex = pickTopic(rng)
  const topic = at(TOPICS, topicIndex)
  const title = titleOf(rng, topicIndex, topic)
  const abstract = make === "all" ? abstractOf(rng, topic) : skipAbstract(rng) ? LAZY : null
  const year = pickYear(rng)
  const publicationDate = dateOf(rng, year)
  const month = drawnMonth
  const venue = rng.chance(0.85) ? rng.pick(topic.venues) : null
  const paperId = paperIdOf(seed, i, universe)
  const corpusId = corpusIdOf(seed, i)
  const externalIds = externalIdsOf(rng, { i, topic, topicIndex, venue, year, month }, corpusId, !stored)
  const { fieldsOfStudy, s2FieldsOfStudy } = fieldsOf(rng, topic, topicIndex)
  const publicationTypes = publicationTypesOf(rng, topic, venue)
  const authors = authorsOf(rng, authorCount)
  const openAccess = openAccessOf(rng, venue, paperId)
  const tldr = tldrOf(rng, topic, abstract, !stored)
  const journal = journalOf(rng, venue, year)
  const lazy = stored ? gettersOf(seed, universe, authorCount) : undefined
  // Built in this order, which is the order of the fields in the paper's JSON.
  const paper: Record<string, unknown> = { index: i, paperId, corpusId, topic: topicIndex, title }
  if (lazy !== undefined && abstract === LAZY) Object.defineProperty(paper, "abstract", lazy.abstract)
  else paper.abstract = abstract
  paper.year = year
  paper.publicationDate = publicationDate
  paper.venue = venue
  if (lazy !== undefined) Object.defineProperty(paper, "externalIds", lazy.externalIds)
  else paper.externalIds = flatValues(externalIds!)
  paper.fieldsOfStudy = fieldsOfStudy
  paper.s2FieldsOfStudy = s2FieldsOfStudy
  paper.publicationTypes = publicationTypes
  paper.authors = authors
  paper.openAccess = openAccess
  if (lazy !== undefined && tldr === LAZY) Object.defineProperty(paper, "tldr", lazy.tldr)
  else paper.tldr = flatOrNull(tldr)
  paper.journal = journal
  return paper as unknown as PaperCore
}

/**
 * What a corpus's build needs of paper `i` (stored, not a landmark), drawn as `paperCore` draws it
 * but without making the paper: its date as the number YYYYMMDD (January 1st where it has none), its
 * topic, and its authors, left in `drawnAuthors` (returns how many). The paper itself is made when first read.
 */
export const paperColumns = (
  seed: number,
  i: number,
  authorCount: number,
  date: Int32Array,
  topics: Uint8Array
): number => {
  const rng = new Rng(hash(seed, i, SALT_PAPER))
  const topicIndex = pickTopic(rng)
  topics[i] = topicIndex
  const topic = at(TOPICS, topicIndex)
  skipFill(rng.pick(TITLE_PATTERNS), rng)
  skipAbstract(rng)
  const year = pickYear(rng)
  // `dateOf`'s draws, and the date it writes (none and a year-only date are January 1st).
  const dateRoll = rng.float()
  const month = 1 + rng.int(12)
  const day = 1 + rng.int(28)
  date[i] = year * 10000 + (dateRoll < 0.3 ? 101 : month * 100 + day)
  const venue = rng.chance(0.85) ? rng.pick(topic.venues) : null
  externalIdsOf(rng, { i, topic, topicIndex, venue, year, month }, 0, false)
  fieldsOf(rng, topic, topicIndex)
  publicationTypesOf(rng, topic, venue)
  return drawAuthors(rng, authorCount)
}

/** Deterministic dense vector for the `embedding` field; computed on demand, never stored. */
export const embeddingOf = (seed: number, i: number, topic: number, model: string): ReadonlyArray<number> => {
  const rng = new Rng(hash(seed, i, model.length, 19))
  const topicRng = new Rng(hash(seed, topic, 23))
  const dims = model === "specter_v2" ? 768 : 768
  const out: Array<number> = new Array(dims)
  for (let d = 0; d < dims; d++) out[d] = Math.round(((topicRng.float() - 0.5) * 4 + (rng.float() - 0.5)) * 1e6) / 1e6
  return out
}

export const authorsYear = (names: ReadonlyArray<string>, year: number): string => {
  const first = names[0]
  if (first === undefined) return String(year)
  const last = first.split(" ").at(-1) ?? first
  return `${last}${names.length > 1 ? " et al." : ""}, ${year}`
}
