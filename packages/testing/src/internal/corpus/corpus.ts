/** The corpus behind the public {@link Api.Corpus} interface: generation, id resolution and search indexes. */
import MiniSearch from "minisearch"
import type * as Api from "../../Corpus.js"
import { externalKey, isAuthorId, parsePaperRef } from "../ids.js"
import { hashString } from "../prng.js"
import { authorCore, authorIdOf, indexOfAuthorId } from "./authors.js"
import {
  type AuthorCore,
  corpusIdOf,
  drawnAuthors,
  indexOfCorpusId,
  indexOfPaperIdPrefix,
  paperColumns,
  type PaperCore,
  paperCore,
  paperIdOf,
  paperIdPrefixOf,
  pieceText,
  textPiecesAt
} from "./generate.js"
import { buildGraph, type Graph } from "./graph.js"
import { landmarkAuthorCore, landmarkAuthors, landmarkCount, landmarkPaperCore } from "./landmarks.js"
import type { SearchIndex } from "./searchIndex.js"
import { SearchIndexBuilder } from "./searchIndex.js"
import { decode, type Derived, encode } from "./snapshot.js"
import { MAX_QUERY_WORDS, queryBoost, queryWords, term, terms, tokenize } from "./terms.js"

/** Papers indexed per turn of a background build: about 20 ms, so requests wait little meanwhile. */
const INDEX_SLICE = 500

const DAY = 86_400_000
const VIRTUAL_FROM = Date.UTC(1950, 0, 1)
const VIRTUAL_TO = Date.UTC(2025, 11, 31)

export class CorpusImpl implements Api.Corpus {
  readonly seed: number
  readonly size: number
  /** Number of papers addressable by index (materialized plus virtual). */
  readonly universe: number
  readonly authorCount: number
  readonly openWorld: boolean
  readonly graph: Graph
  /**
   * Papers and authors made so far: each is made from the seed when first read and kept (a build
   * makes only the landmarks), so that a start holds typed arrays, not 200,000 objects.
   */
  private readonly madePapers: Array<PaperCore | undefined>
  private readonly madeAuthors: Array<AuthorCore | undefined>
  /** Each stored paper's year and topic, which whole-corpus scans read without making the papers. */
  private readonly years: Uint16Array
  private readonly topics: Uint8Array
  /** The authors generated papers draw from (landmark authors come after them). */
  private readonly generatedAuthors: number
  /** CSR: papers of author j, in paperId order. */
  readonly authorPaperStart: Int32Array
  readonly authorPapers: Int32Array
  readonly authorCitationCount: Float64Array
  readonly authorHIndex: Int32Array
  /** Indices of the landmark papers: real papers with their real ids, titles and authors. */
  readonly landmarks: Int32Array
  // Landmarks' external ids; generated ones are parsed back to their index (see `resolveExternal`).
  private readonly landmarkExternal = new Map<string, number>()
  // Landmarks keep their real ids, which do not follow the generated id layout.
  private readonly landmarkPaperIds = new Map<string, number>()
  private readonly landmarkCorpusIds = new Map<number, number>()
  private readonly landmarkAuthorIds = new Map<string, number>()

  /** Why the corpus file given was not used (undefined: none given, or used). */
  readonly refused: string | undefined
  /** Whether the graph, authors' tables and search index were read from a corpus file. */
  readonly fromFile: boolean

  /** With `file`, the bytes of a corpus file (see snapshot.ts): its parts are used if they check out. */
  constructor(options: Api.CorpusOptions, file?: Uint8Array) {
    this.seed = options.seed >>> 0
    this.size = Math.max(1, Math.floor(options.size))
    this.universe = Math.max(this.size, Math.floor(options.bulkSize ?? this.size))
    this.openWorld = options.openWorld ?? false
    const generatedAuthors = Math.max(20, Math.round(this.size * 0.7))
    this.generatedAuthors = generatedAuthors
    // Landmarks take the last paper slots and come after the generated authors, so the generated
    // papers and authors are the same with or without them.
    const landmarks = landmarkCount(this.size)
    const landmarkAuthorList = landmarkAuthors(landmarks)
    this.authorCount = generatedAuthors + landmarkAuthorList.length
    const authors: Array<AuthorCore | undefined> = new Array(this.authorCount)
    landmarkAuthorList.forEach((author, k) => {
      const j = generatedAuthors + k
      const made = authors[j] = landmarkAuthorCore(author, j, authorIdOf(this.seed, j))
      this.landmarkAuthorIds.set(made.authorId, j)
    })
    this.madeAuthors = authors
    const papers: Array<PaperCore | undefined> = new Array(this.size)
    const firstLandmark = this.size - landmarks
    for (let k = 0; k < landmarks; k++) {
      const i = firstLandmark + k
      const slot = { paperId: paperIdOf(this.seed, i, this.universe), corpusId: corpusIdOf(this.seed, i) }
      const made = papers[i] = landmarkPaperCore(
        k,
        i,
        slot,
        (author) => generatedAuthors + landmarkAuthorList.indexOf(author)
      )
      this.landmarkPaperIds.set(made.paperId, i)
      this.landmarkCorpusIds.set(made.corpusId, i)
    }
    this.madePapers = papers
    this.landmarks = Int32Array.from({ length: landmarks }, (_, k) => firstLandmark + k)
    const columns = columnsOf(this.seed, this.size, generatedAuthors, papers)
    this.years = Uint16Array.from(columns.dates, (date) => Math.floor(date / 10000))
    this.topics = columns.topics

    for (let i = firstLandmark; i < this.size; i++) {
      for (const [kind, value] of Object.entries(papers[i]!.externalIds)) {
        if (kind === "CorpusId" || kind === "DBLP") continue
        this.landmarkExternal.set(externalKey(kind, String(value)), i)
      }
    }

    const derived = file === undefined ? undefined : decode(file, {
      seed: this.seed,
      size: this.size,
      authorCount: this.authorCount
    })
    const disagrees = typeof derived === "object" ? disagreement(columns, derived) : derived
    this.refused = disagrees
    this.fromFile = typeof derived === "object" && disagrees === undefined
    if (typeof derived === "object" && disagrees === undefined) {
      this.graph = derived.graph
      this.authorPaperStart = derived.authorPaperStart
      this.authorPapers = derived.authorPapers
      this.authorCitationCount = derived.authorCitationCount
      this.authorHIndex = derived.authorHIndex
      this.index = derived.index
      return
    }
    const order = dateOrder(columns.dates)
    this.graph = buildGraph(this.seed, this.size, order, this.landmarks)
    const authorTables = authorTablesOf(columns, this.authorCount, this.graph)
    this.authorPaperStart = authorTables.authorPaperStart
    this.authorPapers = authorTables.authorPapers
    this.authorCitationCount = authorTables.authorCitationCount
    this.authorHIndex = authorTables.authorHIndex
  }

  /** What a corpus file keeps of this corpus (the search index built if it is not yet). */
  derived(): Derived {
    const { authorCitationCount, authorHIndex, authorPaperStart, authorPapers, graph } = this
    return { graph, authorPaperStart, authorPapers, authorCitationCount, authorHIndex, index: this.searchIndex }
  }

  /** Paper `i` of the universe; papers beyond `size` are generated on demand and not stored. */
  private readonly virtualCache = new Map<number, PaperCore>()
  paper(i: number): PaperCore {
    if (i < this.size) {
      return this.madePapers[i] ??
        (this.madePapers[i] = paperCore(this.seed, i, this.universe, this.generatedAuthors, "stored"))
    }
    const cached = this.virtualCache.get(i)
    if (cached !== undefined) return cached
    // A bounded cache: a bulk page touches each virtual paper several times.
    if (this.virtualCache.size >= 8192) this.virtualCache.clear()
    const generated = this.generateVirtual(i)
    this.virtualCache.set(i, generated)
    return generated
  }

  private generateVirtual(i: number): PaperCore {
    const core = paperCore(this.seed, i, this.universe, this.authorCount)
    // Virtual papers are dated in index order, which keeps date-sorted bulk paging lazy.
    const t = VIRTUAL_FROM +
      Math.floor(((i - this.size) / Math.max(1, this.universe - this.size)) * (VIRTUAL_TO - VIRTUAL_FROM) / DAY) * DAY
    const date = new Date(t).toISOString().slice(0, 10)
    return { ...core, year: Number(date.slice(0, 4)), publicationDate: date }
  }

  year(i: number): number {
    return i < this.size ? this.years[i]! : this.paper(i).year
  }

  topic(i: number): number {
    return i < this.size ? this.topics[i]! : this.paper(i).topic
  }

  citationCount(i: number): number {
    // Virtual papers: decreasing with the index so citation-sorted bulk paging stays lazy.
    return i < this.size ? this.graph.citationCount[i]! : Math.floor((20 * this.size) / (i + 1))
  }

  /**
   * Paper `i`'s place in `paperId` order: the index order, except for landmarks, whose real ids
   * fall elsewhere. Ties (a landmark sharing 8 hex digits with a generated id) go by index.
   */
  paperIdKey(i: number): number {
    if (i >= this.size - this.landmarks.length && i < this.size) {
      return parseInt(this.paper(i).paperId.slice(0, 8), 16)
    }
    return paperIdPrefixOf(this.seed, i, this.universe)
  }

  influentialCitationCount(i: number): number {
    return i < this.size ? this.graph.influentialCount[i]! : Math.floor(this.citationCount(i) / 10)
  }

  referenceCount(i: number): number {
    if (i >= this.size) return 0
    return this.graph.refStart[i + 1]! - this.graph.refStart[i]! + this.graph.unresolvedRefs[i]!
  }

  author(j: number): AuthorCore {
    return this.madeAuthors[j] ?? (this.madeAuthors[j] = authorCore(this.seed, j))
  }

  private everyPaper: ReadonlyArray<PaperCore> | undefined
  /** Every stored paper, each made now if it was not yet: reading papers one by one makes fewer. */
  get papers(): ReadonlyArray<PaperCore> {
    return this.everyPaper ??= Array.from({ length: this.size }, (_, i) => this.paper(i))
  }

  private everyAuthor: ReadonlyArray<AuthorCore> | undefined
  /** Every author, each made now if it was not yet. */
  get authors(): ReadonlyArray<AuthorCore> {
    return this.everyAuthor ??= Array.from({ length: this.authorCount }, (_, j) => this.author(j))
  }

  authorPaperCount(j: number): number {
    return this.authorPaperStart[j + 1]! - this.authorPaperStart[j]!
  }

  /** Resolves any accepted paper id form to an index of the universe. */
  resolvePaper(id: string): number | undefined {
    const ref = parsePaperRef(id)
    if (ref === undefined) return undefined
    switch (ref._tag) {
      case "PaperId": {
        const landmark = this.landmarkPaperIds.get(ref.value)
        if (landmark !== undefined) return landmark
        const guess = indexOfPaperIdPrefix(ref.value, this.universe)
        for (const i of [guess, guess - 1, guess + 1]) {
          if (i >= 0 && i < this.universe && this.paper(i).paperId === ref.value) return i
        }
        return this.openWorld ? hashString(ref.value) % this.size : undefined
      }
      case "CorpusId": {
        const landmark = this.landmarkCorpusIds.get(ref.value)
        if (landmark !== undefined) return landmark
        const i = indexOfCorpusId(ref.value)
        if (i >= 0 && i < this.universe && this.paper(i).corpusId === ref.value) return i
        return this.openWorld ? hashString(`CorpusId:${ref.value}`) % this.size : undefined
      }
      case "External": {
        const found = this.resolveExternal(ref.kind, ref.value)
        if (found !== undefined) return found
        return this.openWorld ? hashString(externalKey(ref.kind, ref.value)) % this.size : undefined
      }
    }
  }

  /**
   * A materialized paper by external id. Generated ids embed their paper's index (see
   * `externalIdsOf`), so the index is read back from the id and the paper's own id compared:
   * no table of every paper's ids. Landmarks' real ids come first, as they always have.
   */
  private resolveExternal(kind: string, value: string): number | undefined {
    const key = externalKey(kind, value)
    const landmark = this.landmarkExternal.get(key)
    if (landmark !== undefined) return landmark
    const i = generatedIndexOf(kind, value.toLowerCase())
    if (i === undefined || !(i >= 0 && i < this.size - this.landmarks.length)) return undefined
    const own = this.paper(i).externalIds[kind]
    return own !== undefined && externalKey(kind, String(own)) === key ? i : undefined
  }

  resolveAuthor(id: string): number | undefined {
    if (!isAuthorId(id)) return undefined
    const landmark = this.landmarkAuthorIds.get(id)
    if (landmark !== undefined) return landmark
    const j = indexOfAuthorId(Number(id))
    if (j >= 0 && j < this.authorCount && this.author(j).authorId === id) return j
    return this.openWorld ? hashString(id) % this.authorCount : undefined
  }

  // ---- search indexes, built on first use so that start-up stays fast ----

  private builder: SearchIndexBuilder | undefined
  private index: SearchIndex | undefined
  private indexing: Promise<void> | undefined
  get searchIndex(): SearchIndex {
    if (this.index === undefined) {
      // Whatever a background build has not reached yet is added now, in the same order.
      this.index = this.indexBuilder().finish()
      this.builder = undefined
    }
    return this.index
  }

  private indexBuilder(): SearchIndexBuilder {
    if (this.builder === undefined) {
      // Generated papers' text is read as the pieces it is made of; landmarks' as text.
      const generated = this.size - this.landmarks.length
      this.builder = new SearchIndexBuilder(this.size, (i, field) => {
        const p = this.paper(i)
        return field === "title" ? p.title : p.abstract ?? ""
      }, {
        text: pieceText,
        pieces: (i, title, abstract) => i < generated && (textPiecesAt(this.seed, i, title, abstract), true)
      })
    }
    return this.builder
  }

  indexInBackground(): Promise<void> {
    if (this.indexing === undefined) {
      this.indexing = new Promise<void>((resolve) => {
        const slice = (): void => {
          if (this.index !== undefined) return resolve()
          const builder = this.indexBuilder()
          builder.addUpTo(Math.min(this.size, builder.added + INDEX_SLICE))
          if (builder.added < this.size) setTimeout(slice, 0)
          else resolve(void this.searchIndex)
        }
        setTimeout(slice, 0)
      })
    }
    return this.indexing
  }

  private miniSearch: MiniSearch<{ id: number; title: string; abstract: string }> | undefined
  get search(): MiniSearch<{ id: number; title: string; abstract: string }> {
    if (this.miniSearch === undefined) {
      const ms = new MiniSearch<{ id: number; title: string; abstract: string }>({
        fields: ["title", "abstract"],
        storeFields: [],
        processTerm: (word) => term(word.toLowerCase()),
        searchOptions: { boost: { title: 2 }, tokenize: queryWords, boostTerm: queryBoost }
      })
      for (const p of this.papers) ms.add({ id: p.index, title: p.title, abstract: p.abstract ?? "" })
      this.miniSearch = ms
    }
    return this.miniSearch
  }

  private inverted: Map<string, Int32Array> | undefined
  /** token → ascending paper indices, over title and abstract. */
  get postings(): Map<string, Int32Array> {
    if (this.inverted === undefined) {
      const lists = new Map<string, Array<number>>()
      for (const p of this.papers) {
        const seen = new Set(terms(`${p.title} ${p.abstract ?? ""}`))
        for (const token of seen) {
          let list = lists.get(token)
          if (list === undefined) lists.set(token, list = [])
          list.push(p.index)
        }
      }
      const out = new Map<string, Int32Array>()
      for (const [token, list] of lists) out.set(token, Int32Array.from(list))
      this.inverted = out
    }
    return this.inverted
  }

  private tokensCache: Array<ReadonlyArray<string> | undefined> = []
  /** Term sequence of a paper's title and abstract (for phrases). */
  tokens(i: number): ReadonlyArray<string> {
    let t = this.tokensCache[i]
    if (t === undefined) {
      const p = this.paper(i)
      t = terms(`${p.title} ${p.abstract ?? ""}`)
      if (i < this.size) this.tokensCache[i] = t
    }
    return t
  }

  private authorIndex: Map<string, Array<number>> | undefined
  /** Author indices whose name contains every token of the query. */
  searchAuthors(query: string): Array<number> {
    if (this.authorIndex === undefined) {
      const index = new Map<string, Array<number>>()
      for (const a of this.authors) {
        for (const token of new Set(tokenize(a.name))) {
          let list = index.get(token)
          if (list === undefined) index.set(token, list = [])
          list.push(a.index)
        }
      }
      this.authorIndex = index
    }
    const tokens = tokenize(query)
    if (tokens.length === 0) return []
    let result: Array<number> | undefined
    for (const token of tokens) {
      const list = this.authorIndex.get(token) ?? []
      result = result === undefined ? list.slice() : result.filter((j) => list.includes(j))
    }
    return (result ?? []).sort((a, b) => this.authorCitationCount[b]! - this.authorCitationCount[a]! || a - b)
  }
}

/** The index a generated external id was made from (the inverse of `externalIdsOf`), if it has that form. */
const generatedIndexOf = (kind: string, value: string): number | undefined => {
  const digits = (re: RegExp): number | undefined => {
    const m = re.exec(value)
    return m === null ? undefined : Number(m[1])
  }
  const n = digits(/^(\d{1,15})$/)
  switch (kind) {
    case "MAG":
      return n === undefined ? undefined : Math.floor((n - 1_000_000_000) / 97)
    case "PubMed":
      return n === undefined ? undefined : Math.floor((n - 10_000_000) / 3)
    case "PubMedCentral":
      return n === undefined ? undefined : n - 1_000_000
    case "ArXiv":
      return digits(/^\d{4}\.(\d{5,15})$/)
    case "ACL":
      return digits(/^[a-z]\d{2}-(\d{1,15})$/)
    case "DOI":
      return digits(/\.(\d{1,15})$/)
  }
  return undefined
}

/**
 * Whether a corpus file's authors' tables disagree with the papers made from the seed: each
 * author's list of papers is read back from the papers (cheap beside making them), a check that
 * the file belongs to these papers beyond its header and checksum.
 */
const disagreement = (columns: Columns, derived: Derived): string | undefined => {
  const { authorPaperStart, authorPapers } = derived
  const seen = new Int32Array(authorPaperStart.length - 1)
  for (let i = 0; i + 1 < columns.authorStart.length; i++) {
    for (let k = columns.authorStart[i]!; k < columns.authorStart[i + 1]!; k++) {
      const a = columns.authors[k]!
      if (a >= seen.length || authorPapers[authorPaperStart[a]! + seen[a]!++] !== i) return "an author's papers"
    }
  }
  for (let j = 0; j < seen.length; j++) {
    if (seen[j] !== authorPaperStart[j + 1]! - authorPaperStart[j]!) return "an author's papers"
  }
  return undefined
}

/** Each author's papers (CSR, in index order), citation count and h-index. */
const authorTablesOf = (columns: Columns, authorCount: number, graph: Graph) => {
  const { authorStart, authors } = columns
  const count = new Int32Array(authorCount)
  for (let k = 0; k < authors.length; k++) count[authors[k]!]!++
  const authorPaperStart = new Int32Array(authorCount + 1)
  for (let j = 0; j < authorCount; j++) authorPaperStart[j + 1] = authorPaperStart[j]! + count[j]!
  const authorPapers = new Int32Array(authorPaperStart[authorCount]!)
  const fill = authorPaperStart.slice(0, authorCount)
  for (let i = 0; i + 1 < authorStart.length; i++) {
    for (let k = authorStart[i]!; k < authorStart[i + 1]!; k++) authorPapers[fill[authors[k]!]!++] = i
  }
  const authorCitationCount = new Float64Array(authorCount)
  const authorHIndex = new Int32Array(authorCount)
  // Each author's papers' citation counts, sorted ascending in place (a typed array sorts
  // numbers without a comparator); the h-index read from the top.
  const counts = new Int32Array(authorPapers.length)
  for (let k = 0; k < counts.length; k++) counts[k] = graph.citationCount[authorPapers[k]!]!
  for (let j = 0; j < authorCount; j++) {
    const from = authorPaperStart[j]!
    const to = authorPaperStart[j + 1]!
    const own = counts.subarray(from, to)
    if (own.length > 1) own.sort()
    let h = 0
    let sum = 0
    for (let k = to - 1; k >= from; k--) {
      if (counts[k]! > h) h++
      sum += counts[k]!
    }
    authorHIndex[j] = h
    authorCitationCount[j] = sum
  }
  return { authorPaperStart, authorPapers, authorCitationCount, authorHIndex }
}

/** What a build reads of every paper: its date (YYYYMMDD), its topic and, CSR, its authors. */
interface Columns {
  readonly dates: Int32Array
  readonly topics: Uint8Array
  readonly authorStart: Int32Array
  readonly authors: Int32Array
}

/**
 * The columns of every paper: drawn for generated papers (see `paperColumns`), read from the
 * landmarks, which are made (`made[i]`).
 */
const columnsOf = (
  seed: number,
  size: number,
  authorCount: number,
  made: ReadonlyArray<PaperCore | undefined>
): Columns => {
  const dates = new Int32Array(size)
  const topics = new Uint8Array(size)
  const authorStart = new Int32Array(size + 1)
  // Papers have 1 to 8 authors, about 2.5 on average; grown if a corpus has more.
  let authors = new Int32Array(Math.max(64, size * 3))
  let n = 0
  for (let i = 0; i < size; i++) {
    authorStart[i] = n
    const landmark = made[i]
    const count = landmark === undefined
      ? paperColumns(seed, i, authorCount, dates, topics)
      : landmark.authors.length
    if (landmark !== undefined) {
      dates[i] = dateKey(landmark)
      topics[i] = landmark.topic
    }
    if (n + count > authors.length) {
      const grown = new Int32Array(authors.length * 2)
      grown.set(authors)
      authors = grown
    }
    for (let k = 0; k < count; k++) authors[n++] = landmark === undefined ? drawnAuthors[k]! : landmark.authors[k]!
  }
  authorStart[size] = n
  return { dates, topics, authorStart, authors: authors.slice(0, n) }
}

/**
 * Papers by date, then index: a counting sort over the days of the years dates fall in (a sort
 * with a comparator was about 5% of a build).
 */
const dateOrder = (dates: Int32Array): Int32Array => {
  let from = Infinity
  let to = -Infinity
  for (let i = 0; i < dates.length; i++) {
    from = Math.min(from, Math.floor(dates[i]! / 10000))
    to = Math.max(to, Math.floor(dates[i]! / 10000))
  }
  if (!(to - from <= 1000)) {
    return Int32Array.from({ length: dates.length }, (_, i) => i).sort((a, b) => dates[a]! - dates[b]! || a - b)
  }
  // A date's slot: 10,000 a year, one for each MMDD.
  const slot = (date: number): number => (Math.floor(date / 10000) - from) * 10000 + (date % 10000)
  const start = new Int32Array(dates.length === 0 ? 1 : slot(to * 10000 + 9999) + 2)
  for (let i = 0; i < dates.length; i++) start[slot(dates[i]!) + 1]!++
  for (let s = 1; s < start.length; s++) start[s] = start[s]! + start[s - 1]!
  const order = new Int32Array(dates.length)
  for (let i = 0; i < dates.length; i++) order[start[slot(dates[i]!)]!++] = i
  return order
}

const dateKey = (p: PaperCore): number => {
  const date = p.publicationDate
  if (date === null) return p.year * 10000 + 101
  // `YYYY-MM-DD` read as the number YYYYMMDD digit by digit, without a string made per paper.
  let n = 0
  for (let k = 0; k < date.length; k++) {
    const digit = date.charCodeAt(k) - 48
    if (digit >= 0 && digit <= 9) n = n * 10 + digit
    else if (date[k] !== "-" || date.length !== 10) return Number(date.replaceAll("-", ""))
  }
  return n
}

export { MAX_QUERY_WORDS, term, terms, tokenize }

export const make = (options: Api.CorpusOptions): Api.Corpus => new CorpusImpl(options)

/** The bytes of a corpus file of `corpus` (its search index built if it is not yet). */
export const encodeFile = (corpus: CorpusImpl): Uint8Array =>
  encode({ seed: corpus.seed, size: corpus.size, authorCount: corpus.authorCount }, corpus.derived())
