/**
 * The relevance-search index of a corpus: an inverted index over term ids in typed arrays, scored
 * exactly as the MiniSearch index it replaces scored (BM25+, its parameters, tokenizer, boosts,
 * prefix weights and tie order), which took 13–17 s and 1.2 GB to build for 200,000 papers: a Map
 * per term and field and an object per document. Same scores to the last bit, same order: the
 * golden tests and test/searchIndex.test.ts (against MiniSearch itself) check it.
 */
import SearchableMap from "minisearch/SearchableMap"
import type * as Api from "../../Corpus.js"
import { queryBoost, queryWords, term } from "./terms.js"

/** The indexed fields, in the order MiniSearch was given them (scores are summed in this order). */
export const FIELDS = ["title", "abstract"] as const
export type Field = typeof FIELDS[number]
type SearchHit = Api.SearchHit

/** The MiniSearch options the index had: field boosts, BM25+ parameters and the prefix weight. */
const BOOST: Readonly<Record<Field, number>> = { title: 2, abstract: 1 }
const BM25 = { k: 1.2, b: 0.7, d: 0.5 }
const PREFIX_WEIGHT = 0.375

/** MiniSearch's default tokenizer, which cut the indexed text. */
const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u

/** Which ASCII characters the tokenizer cuts at: decided by its own pattern. */
const ASCII_SEPARATOR = Uint8Array.from(
  { length: 128 },
  (_, code) => SPACE_OR_PUNCTUATION.test(String.fromCharCode(code)) ? 1 : 0
)

/** One field's postings: for term `t`, papers `docs[t]` (ascending) and their counts `freqs[t]`. */
export interface Postings {
  readonly docs: ReadonlyArray<Int32Array>
  readonly freqs: ReadonlyArray<Uint16Array>
  /** Per paper: the number of distinct words of the field, as MiniSearch counted them. */
  readonly lengths: Int32Array
  /** MiniSearch's running average of `lengths`, computed in the same order (so the same bits). */
  readonly average: number
}

/** An Int32Array that grows. */
class Ints {
  data = new Int32Array(1024)
  length = 0
  push(x: number): void {
    if (this.length === this.data.length) this.data = grow(this.data)
    this.data[this.length++] = x
  }
}

/**
 * One field being indexed: each paper's terms and their counts, appended in paper order to two
 * flat arrays, and each term's number of papers; at the end, a counting sort of those pairs by
 * term into one array of papers and one of counts, each term's postings a view of them. Building
 * a list per term as papers came cost a scattered write through an array of arrays per pair and a
 * copy of every list each time it grew: about three quarters of a 200,000-paper index's build.
 */
class FieldBuilder {
  private terms: Int32Array<ArrayBuffer> = new Int32Array(1024)
  private counts: Uint16Array<ArrayBuffer> = new Uint16Array(1024)
  private pairs = 0
  /** Per term, the number of papers it occurs in. */
  private papers: Int32Array<ArrayBuffer> = new Int32Array(1024)
  /** Per paper, where its pairs end. */
  private readonly ends: Int32Array
  readonly lengths: Int32Array
  average = 0
  constructor(size: number) {
    this.lengths = new Int32Array(size)
    this.ends = new Int32Array(size)
  }

  add(t: number, doc: number, freq: number): void {
    if (this.pairs === this.terms.length) this.room(doc)
    if (t >= this.papers.length) this.papers = grow(this.papers)
    this.terms[this.pairs] = t
    this.counts[this.pairs++] = Math.min(65535, freq)
    this.papers[t]!++
  }

  /** Ends paper `doc`'s pairs. */
  end(doc: number): void {
    this.ends[doc] = this.pairs
  }

  /**
   * More room for pairs: papers are drawn alike, so the pairs so far foretell how many all papers
   * have (grown to that and a twentieth more), rather than doubled a dozen times.
   */
  private room(doc: number): void {
    const size = this.lengths.length
    const foretold = doc >= 1000 ? Math.ceil((this.pairs / doc) * size * 1.05) : 0
    const length = Math.max(2 * this.pairs, foretold)
    const terms = new Int32Array(length)
    terms.set(this.terms)
    this.terms = terms
    const counts = new Uint16Array(length)
    counts.set(this.counts)
    this.counts = counts
  }

  /** The postings: the pairs sorted by term (stable, so each term's papers ascend). */
  finish(termCount: number): Postings {
    const start = new Int32Array(termCount + 1)
    for (let t = 0; t < termCount; t++) start[t + 1] = start[t]! + (this.papers[t] ?? 0)
    const all = new Int32Array(this.pairs)
    const freqs = new Uint16Array(this.pairs)
    const fill = start.slice(0, termCount)
    const { counts, ends, terms } = this
    let k = 0
    for (let doc = 0; doc < ends.length; doc++) {
      for (const end = ends[doc]!; k < end; k++) {
        const at = fill[terms[k]!]!++
        all[at] = doc
        freqs[at] = counts[k]!
      }
    }
    this.terms = new Int32Array(0)
    this.counts = new Uint16Array(0)
    const docsOf: Array<Int32Array> = new Array(termCount)
    const freqsOf: Array<Uint16Array> = new Array(termCount)
    for (let t = 0; t < termCount; t++) {
      docsOf[t] = all.subarray(start[t]!, start[t + 1]!)
      freqsOf[t] = freqs.subarray(start[t]!, start[t + 1]!)
    }
    return { docs: docsOf, freqs: freqsOf, lengths: this.lengths, average: this.average }
  }
}

/** Where a source writes a text's pieces. */
export interface PieceList {
  push(piece: number): void
}

/**
 * Where a paper's text is made of pieces (see `textPiecesAt`): each piece is cut into words once,
 * and a text is read as its pieces' words, joined where two pieces meet inside a word.
 */
export interface PieceSource {
  /** The text of piece `id`. */
  readonly text: (piece: number) => string
  /** Writes paper `i`'s title and abstract as pieces; false when its text is not made of pieces. */
  readonly pieces: (i: number, title: PieceList, abstract: PieceList) => boolean
}

/**
 * A piece cut into words as the tokenizer cuts it alone, PIECE numbers a piece in `pieceData`: its
 * kind (0: not cut yet), its first word, its last (the same word when it holds no separator), where
 * the words inside start and end in `middles`, and whether it starts or ends with a separator.
 * Typed arrays, not an object a piece: a 200,000-paper index reads about 6 million pieces.
 */
const PIECE = 8
const NOT_CUT = 0
const EMPTY_PIECE = 1
const ONE_WORD = 2
const SPLIT = 3

/**
 * Builds the index paper by paper, in index order (the order MiniSearch was given them, which
 * decides term ids, tie order and the average lengths), so that a build can run in slices.
 */
export class SearchIndexBuilder {
  private readonly fields: ReadonlyArray<FieldBuilder>
  /** Search terms in order of first use, and their ids. */
  private readonly termIds = new Map<string, number>()
  private readonly termNames: Array<string> = []
  /** Words as the tokenizer cut them (case kept), their ids and their term's id (-1: none; -2: not yet looked up). */
  private readonly wordIds = new Map<string, number>()
  private readonly wordNames: Array<string> = []
  private wordTerm: Int32Array<ArrayBuffer> = new Int32Array(1024)
  private wordStamp: Int32Array<ArrayBuffer> = new Int32Array(1024)
  /** The field being read: its stamp in `wordStamp` and its distinct words so far. */
  private stamp = 1
  private distinct = 0
  private termCount: Int32Array<ArrayBuffer> = new Int32Array(1024)
  private touched: Int32Array<ArrayBuffer> = new Int32Array(1024)
  private touchedCount = 0
  /** The word ids of the text being added. */
  private words: Int32Array<ArrayBuffer> = new Int32Array(1024)
  /** A trie of ASCII words: 128 children per node (0: none; the root is node 0), and its word id. */
  private trie: Int32Array<ArrayBuffer> = new Int32Array(128 * 1024)
  private nodeWord: Int32Array<ArrayBuffer> = new Int32Array(1024).fill(-1)
  private nodes = 1
  /** Pieces cut into words, by piece id; and the pieces of the paper being added. */
  private pieceData: Int32Array<ArrayBuffer> = new Int32Array(PIECE * 1024)
  private readonly middles = new Ints()
  private readonly titlePieces = new Ints()
  private readonly abstractPieces = new Ints()
  /** The id of the empty word. */
  private readonly empty: number
  added = 0

  constructor(
    readonly size: number,
    private readonly textOf: (i: number, field: Field) => string,
    private readonly source?: PieceSource
  ) {
    this.fields = FIELDS.map(() => new FieldBuilder(size))
    this.empty = this.wordId("")
  }

  /** Adds papers up to `end` (exclusive). */
  addUpTo(end: number): void {
    for (; this.added < end; this.added++) {
      const i = this.added
      this.titlePieces.length = 0
      this.abstractPieces.length = 0
      if (this.source?.pieces(i, this.titlePieces, this.abstractPieces) === true) {
        this.countPieces(this.titlePieces)
        this.addCounted(i, 0)
        this.countPieces(this.abstractPieces)
        this.addCounted(i, 1)
      } else {
        for (let f = 0; f < FIELDS.length; f++) {
          const count = this.wordsOf(this.textOf(i, FIELDS[f]!))
          for (let k = 0; k < count; k++) this.count(this.words[k]!)
          this.addCounted(i, f)
        }
      }
    }
  }

  finish(): SearchIndex {
    this.addUpTo(this.size)
    return new SearchIndex(
      this.size,
      this.termIds,
      this.termNames,
      this.fields.map((field) => field.finish(this.termNames.length))
    )
  }

  private wordId(word: string): number {
    let id = this.wordIds.get(word)
    if (id === undefined) {
      id = this.wordIds.size
      this.wordIds.set(word, id)
      this.wordNames.push(word)
      if (id === this.wordTerm.length) {
        this.wordTerm = grow(this.wordTerm)
        this.wordStamp = grow(this.wordStamp)
      }
      // Its term is looked up where the word first occurs, so that term ids follow the text's order.
      this.wordTerm[id] = -2
    }
    return id
  }

  /** The term id of word `w` (-1: none), looked up the first time: MiniSearch's processTerm. */
  private termOf(w: number): number {
    let t = this.wordTerm[w]!
    if (t === -2) {
      // An empty term (from an empty word) is not indexed.
      const stem = term(this.wordNames[w]!.toLowerCase())
      this.wordTerm[w] = t = stem === "" ? -1 : this.termId(stem)
    }
    return t
  }

  /** Cuts piece `id` into words (see `PIECE`), the first time it is met. */
  private cutPiece(id: number): void {
    while ((id + 1) * PIECE > this.pieceData.length) this.pieceData = grow(this.pieceData)
    const words = this.source!.text(id).split(SPACE_OR_PUNCTUATION).map((word) => this.wordId(word))
    const n = words.length - 1
    const first = words[0]!
    const last = words[n]!
    const empty = this.empty
    const at = id * PIECE
    const data = this.pieceData
    data[at] = n === 0 && first === empty ? EMPTY_PIECE : n > 0 ? SPLIT : ONE_WORD
    data[at + 1] = first
    data[at + 2] = last
    data[at + 3] = this.middles.length
    for (let m = 1; m < n; m++) this.middles.push(words[m]!)
    data[at + 4] = this.middles.length
    data[at + 5] = n > 0 && first === empty ? 1 : 0
    data[at + 6] = n > 0 && last === empty ? 1 : 0
  }

  /**
   * Counts the words of a text made of `pieces` (see `count`): the same words as `wordsOf` the
   * whole text. Where a piece without a separator at its edge meets its neighbour, their words
   * join; where two separators meet, they are one run.
   */
  private countPieces(pieces: Ints): void {
    const ids = pieces.data
    let data = this.pieceData
    let middles = this.middles.data
    let pending = this.empty
    let separated = false
    for (let k = 0; k < pieces.length; k++) {
      const at = ids[k]! * PIECE
      if (at >= data.length || data[at] === NOT_CUT) {
        this.cutPiece(ids[k]!)
        data = this.pieceData
        middles = this.middles.data
      }
      const kind = data[at]!
      if (kind === EMPTY_PIECE) continue
      if (kind === ONE_WORD) {
        pending = this.joined(pending, data[at + 1]!)
        separated = false
        continue
      }
      if (!(separated && data[at + 5] === 1)) this.count(this.joined(pending, data[at + 1]!))
      for (let m = data[at + 3]!, end = data[at + 4]!; m < end; m++) this.count(middles[m]!)
      pending = data[at + 2]!
      separated = data[at + 6] === 1
    }
    this.count(pending)
  }

  /** The word two words make where they meet without a separator. */
  private joined(a: number, b: number): number {
    const empty = this.empty
    return a === empty ? b : b === empty ? a : this.wordId(this.wordNames[a]! + this.wordNames[b]!)
  }

  private termId(stem: string): number {
    let id = this.termIds.get(stem)
    if (id === undefined) {
      id = this.termNames.length
      this.termIds.set(stem, id)
      this.termNames.push(stem)
      if (id === this.termCount.length) this.termCount = grow(this.termCount)
    }
    return id
  }

  /**
   * The ids of the words of `text`, as MiniSearch's tokenizer cuts it (empty words included), into
   * `this.words`; returns how many. ASCII text is read through a trie of character codes, with no
   * string made per word; other text is split by the tokenizer's own pattern.
   */
  private wordsOf(text: string): number {
    let count = 0
    let node = 0
    let start = 0
    let separated = false
    for (let k = 0; k <= text.length; k++) {
      const code = k < text.length ? text.charCodeAt(k) : -1
      if (code >= 128) return this.splitWords(text)
      if (code === -1 || ASCII_SEPARATOR[code] === 1) {
        // As `split`: a word before each run of separators, and the last one (empty after a separator).
        if (!separated || code === -1) count = this.pushWord(count, this.trieWord(node, text, start, k))
        separated = true
        node = 0
        start = k + 1
      } else {
        separated = false
        node = this.child(node, code)
      }
    }
    return count
  }

  private splitWords(text: string): number {
    let count = 0
    for (const word of text.split(SPACE_OR_PUNCTUATION)) count = this.pushWord(count, this.wordId(word))
    return count
  }

  private pushWord(count: number, id: number): number {
    if (count === this.words.length) this.words = grow(this.words)
    this.words[count] = id
    return count + 1
  }

  /** The trie node below `node` by character `code`, made if new. */
  private child(node: number, code: number): number {
    const at = node * 128 + code
    let next = this.trie[at]!
    if (next === 0) {
      next = this.nodes++
      if (this.nodes * 128 > this.trie.length) {
        this.trie = grow(this.trie)
        this.nodeWord = grow(this.nodeWord)
      }
      this.trie[at] = next
      this.nodeWord[next] = -1
    }
    return next
  }

  /** The word id of the trie node a word ended at: looked up by its text the first time. */
  private trieWord(node: number, text: string, start: number, end: number): number {
    let id = this.nodeWord[node]!
    if (id < 0) this.nodeWord[node] = id = this.wordId(text.slice(start, end))
    return id
  }

  /** Counts word `w` in the field being read: its distinct words and each term's occurrences. */
  private count(w: number): void {
    // MiniSearch's field length: the number of distinct words, empty ones included.
    if (this.wordStamp[w] !== this.stamp) {
      this.wordStamp[w] = this.stamp
      this.distinct++
    }
    let t = this.wordTerm[w]!
    if (t === -2) t = this.termOf(w)
    if (t < 0) return
    if (this.termCount[t] === 0) {
      if (this.touchedCount === this.touched.length) this.touched = grow(this.touched)
      this.touched[this.touchedCount++] = t
    }
    this.termCount[t]!++
  }

  /** Adds the words counted as field `f` of paper `doc`, and starts the next field's count. */
  private addCounted(doc: number, f: number): void {
    const field = this.fields[f]!
    const { termCount, touched } = this
    for (let k = 0; k < this.touchedCount; k++) {
      const t = touched[k]!
      field.add(t, doc, termCount[t]!)
      termCount[t] = 0
    }
    field.end(doc)
    this.touchedCount = 0
    field.lengths[doc] = this.distinct
    // MiniSearch's running average, operation for operation.
    field.average = (field.average * doc + this.distinct) / (doc + 1)
    this.distinct = 0
    this.stamp++
  }
}

const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
  const grown = new Int32Array(a.length * 2)
  grown.set(a)
  return grown
}

/** MiniSearch's BM25+ score of a term in a field, written as it writes it. */
const bm25 = (termFreq: number, matching: number, total: number, length: number, average: number): number => {
  const { b, d, k } = BM25
  const invDocFreq = Math.log(1 + (total - matching + 0.5) / (matching + 0.5))
  return invDocFreq * (d + termFreq * (k + 1) / (termFreq + k * (1 - b + b * length / average)))
}

export class SearchIndex implements Api.SearchIndex {
  /** Terms in the order MiniSearch's radix tree held them, for prefix search; made when first asked. */
  private tree: SearchableMap<number> | undefined

  constructor(
    readonly size: number,
    private readonly termIds: ReadonlyMap<string, number>,
    /** Read by a corpus file (snapshot.ts), which keeps the index beside the corpus. */
    readonly termNames: ReadonlyArray<string>,
    readonly postings: ReadonlyArray<Postings>
  ) {}

  /** The terms a query term finds, with their weights: itself, then (prefix) longer terms, as MiniSearch ordered them. */
  private derived(stem: string, prefix: boolean): Array<readonly [number, number]> {
    const out: Array<readonly [number, number]> = []
    const exact = this.termIds.get(stem)
    if (exact !== undefined) out.push([exact, 1])
    if (!prefix) return out
    if (this.tree === undefined) {
      // Inserted in order of first use, the radix tree has MiniSearch's shape and iteration order.
      this.tree = new SearchableMap<number>()
      this.termNames.forEach((name, id) => this.tree!.set(name, id))
    }
    for (const [name, id] of this.tree.atPrefix(stem)) {
      const distance = name.length - stem.length
      if (distance === 0) continue
      out.push([id, PREFIX_WEIGHT * name.length / (name.length + 0.3 * distance)])
    }
    return out
  }

  /** Papers matching `text`, best first, scored and ordered as MiniSearch's `search` did. */
  search(text: string, options: Api.SearchOptions = {}): Array<SearchHit> {
    const fields = (options.fields ?? FIELDS).map((field) => FIELDS.indexOf(field))
    const and = options.combineWith === "AND"
    const stems = queryWords(text).map((word) => term(word.toLowerCase())).filter((stem) => stem !== "")
    if (stems.length === 0) return []
    const total = new Float64Array(this.size)
    const matched = new Uint16Array(this.size)
    const scores = new Float64Array(this.size)
    const seen = new Uint8Array(this.size)
    let order: Array<number> = []
    for (let q = 0; q < stems.length; q++) {
      const boost = queryBoost(stems[q]!)
      // This term's papers, in the order MiniSearch's result map met them.
      const found: Array<number> = []
      for (const [t, weight] of this.derived(stems[q]!, options.prefix === true)) {
        for (const f of fields) {
          const { average, lengths } = this.postings[f]!
          const docs = this.postings[f]!.docs[t]!
          const freqs = this.postings[f]!.freqs[t]!
          const fieldBoost = BOOST[FIELDS[f]!]
          const matching = docs.length
          for (let e = 0; e < matching; e++) {
            const doc = docs[e]!
            const score = weight * boost * fieldBoost * bm25(freqs[e]!, matching, this.size, lengths[doc]!, average)
            if (seen[doc] === 0) {
              seen[doc] = 1
              scores[doc] = score
              found.push(doc)
            } else {
              scores[doc] = scores[doc]! + score
            }
          }
        }
      }
      order = combine(q, and, found, order, { matched, scores, seen, total })
    }
    // MiniSearch multiplies by the number of query terms matched, then sorts stably.
    return order.map((doc) => ({ id: doc, score: total[doc]! * matched[doc]! })).sort((a, b) => b.score - a.score)
  }
}

/** MiniSearch's OR and AND of a term's results into those of the terms before. */
const combine = (
  q: number,
  and: boolean,
  found: ReadonlyArray<number>,
  order: Array<number>,
  state: {
    readonly matched: Uint16Array
    readonly scores: Float64Array
    readonly seen: Uint8Array
    readonly total: Float64Array
  }
): Array<number> => {
  const { matched, scores, seen, total } = state
  for (const doc of found) seen[doc] = 0
  if (q === 0) {
    for (const doc of found) {
      total[doc] = scores[doc]!
      matched[doc] = 1
    }
    return found.slice()
  }
  if (and) {
    // AND keeps the papers of every term so far, in this term's order.
    const next: Array<number> = []
    for (const doc of found) {
      if (matched[doc] !== q) continue
      total[doc] = total[doc]! + scores[doc]!
      matched[doc] = q + 1
      next.push(doc)
    }
    return next
  }
  for (const doc of found) {
    if (matched[doc]! > 0) {
      total[doc] = total[doc]! + scores[doc]!
      matched[doc]!++
    } else {
      total[doc] = scores[doc]!
      matched[doc] = 1
      order.push(doc)
    }
  }
  return order
}
