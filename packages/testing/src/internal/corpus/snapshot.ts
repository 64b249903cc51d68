/**
 * What a corpus derives from its papers, as bytes and back: the citation graph, the authors'
 * tables and the relevance-search index, the parts of a build that are not the papers themselves
 * (about half of its CPU, and all of the first search's). The papers are made again from the seed,
 * which is cheaper than reading them: a corpus file holds only these typed arrays and the terms.
 *
 * Platform-free: bytes in, bytes out. Reading checks every length, range and order the corpus
 * relies on and a checksum of the whole, so that a truncated, stale or hostile file is refused with
 * a reason rather than answering from out-of-range indices.
 */
import type { Graph } from "../../Corpus.js"
import { mix32 } from "../prng.js"
import { FIELDS, type Postings, SearchIndex } from "./searchIndex.js"
import { CORPUS_VERSION } from "./version.js"

/** What a corpus file holds besides the papers. */
export interface Derived {
  readonly graph: Graph
  readonly authorPaperStart: Int32Array
  readonly authorPapers: Int32Array
  readonly authorCitationCount: Float64Array
  readonly authorHIndex: Int32Array
  readonly index: SearchIndex
}

/** Whose corpus a file is: what must match before anything else is read. */
export interface Key {
  readonly seed: number
  readonly size: number
  readonly authorCount: number
}

const MAGIC = "s2-effect corpus"
/** The layout of the file; the generator's own version is {@link CORPUS_VERSION}. */
const FORMAT = 1
/**
 * Magic, format, version (64 ASCII hex digits), seed, size, authors, terms, checksum, body length,
 * and 4 bytes of padding: the body starts at a multiple of 8, as its typed arrays do.
 */
const HEADER = 16 + 4 + 64 + 4 * 6 + 4

type Typed = Int32Array | Uint16Array | Uint8Array | Float64Array
interface TypedClass<T extends Typed> {
  new(buffer: ArrayBuffer, offset: number, length: number): T
  readonly BYTES_PER_ELEMENT: number
}

/** The bytes of a corpus's derived parts, for {@link decode} to read back. */
export const encode = (key: Key, derived: Derived): Uint8Array => {
  const { graph, index } = derived
  const sections: Array<Typed> = [
    graph.refStart,
    graph.refTargets,
    graph.citeStart,
    graph.citeSources,
    graph.citationCount,
    graph.influentialCount,
    graph.unresolvedRefs,
    derived.authorPaperStart,
    derived.authorPapers,
    derived.authorCitationCount,
    derived.authorHIndex,
    new TextEncoder().encode(index.termNames.join("\n"))
  ]
  for (const postings of index.postings) {
    const start = new Int32Array(index.termNames.length + 1)
    for (let t = 0; t < index.termNames.length; t++) start[t + 1] = start[t]! + postings.docs[t]!.length
    const docs = new Int32Array(start[index.termNames.length]!)
    const freqs = new Uint16Array(docs.length)
    for (let t = 0; t < index.termNames.length; t++) {
      docs.set(postings.docs[t]!, start[t]!)
      freqs.set(postings.freqs[t]!, start[t]!)
    }
    sections.push(start, docs, freqs, postings.lengths, Float64Array.of(postings.average))
  }
  // Each section: its element count, then its bytes from an offset that is a multiple of 8.
  let length = 0
  for (const s of sections) length = align(length + 4) + s.byteLength
  const out = new Uint8Array(HEADER + align(length))
  const body = out.subarray(HEADER)
  const view = new DataView(out.buffer, HEADER)
  let at = 0
  for (const s of sections) {
    view.setUint32(at, s.length, true)
    at = align(at + 4)
    body.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), at)
    at += s.byteLength
  }
  const head = new DataView(out.buffer)
  new TextEncoder().encodeInto(MAGIC, out)
  head.setUint32(16, FORMAT, true)
  new TextEncoder().encodeInto(CORPUS_VERSION, out.subarray(20, 84))
  ;[key.seed, key.size, key.authorCount, index.termNames.length, checksum(body), body.length].forEach((n, k) =>
    head.setUint32(84 + 4 * k, n, true)
  )
  return out
}

const align = (n: number): number => (n + 7) & ~7

/** A 32-bit checksum of `bytes` (a multiple of 8 long), a word at a time. */
const checksum = (bytes: Uint8Array): number => {
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2)
  let h = 0x811c9dc5 ^ bytes.length
  for (let k = 0; k < words.length; k++) h = Math.imul(h ^ words[k]!, 0x01000193) + (h >>> 15)
  return mix32(h)
}

/** Why a file was refused. */
class Refused {
  constructor(readonly reason: string) {}
}
const refuse = (reason: string): never => {
  throw new Refused(reason)
}

/**
 * The derived parts in `bytes` for the corpus `key`, or why not: another corpus, another version of
 * the generator, a wrong length, an index out of range, a list out of order, a bad checksum.
 */
export const decode = (bytes: Uint8Array, key: Key): Derived | string => {
  try {
    return read(bytes, key)
  } catch (error) {
    if (error instanceof Refused) return error.reason
    throw error
  }
}

const read = (bytes: Uint8Array, key: Key): Derived => {
  if (bytes.length < HEADER) refuse(`${bytes.length} bytes, shorter than a header`)
  // The sections are read as typed arrays in the machine's byte order; files are little-endian.
  if (new Uint8Array(Uint16Array.of(1).buffer)[0] !== 1) refuse("this machine is big-endian")
  const head = new DataView(bytes.buffer, bytes.byteOffset, HEADER)
  if (new TextDecoder().decode(bytes.subarray(0, 16)) !== MAGIC) refuse("not a corpus file")
  if (head.getUint32(16, true) !== FORMAT) refuse(`format ${head.getUint32(16, true)}, not ${FORMAT}`)
  if (new TextDecoder().decode(bytes.subarray(20, 84)) !== CORPUS_VERSION) {
    refuse("made by another version of the generator")
  }
  const word = (k: number): number => head.getUint32(84 + 4 * k, true)
  const [seed, size, authorCount, terms, sum, length] = [word(0), word(1), word(2), word(3), word(4), word(5)]
  if (seed !== key.seed || size !== key.size || authorCount !== key.authorCount) {
    refuse(`the corpus of seed ${seed}, ${size} papers and ${authorCount} authors, not the one asked for`)
  }
  if (length !== bytes.length - HEADER || length % 8 !== 0) {
    refuse(`${bytes.length - HEADER} bytes of body, not ${length}`)
  }
  // Copied when not aligned for the typed arrays read from it.
  const body = (bytes.byteOffset + HEADER) % 8 === 0 ? bytes.subarray(HEADER) : bytes.slice(HEADER)
  if (checksum(body) !== sum) refuse("its checksum does not match (a damaged file)")
  const sections = new Sections(body)
  const n = size
  const edges = (start: Int32Array): number => start[n]!
  const refStart = starts(sections.take(Int32Array, n + 1, "refStart"), "refStart")
  const refTargets = inRange(sections.take(Int32Array, edges(refStart), "refTargets"), n, "refTargets")
  const citeStart = starts(sections.take(Int32Array, n + 1, "citeStart"), "citeStart")
  const citeSources = inRange(sections.take(Int32Array, edges(refStart), "citeSources"), n, "citeSources")
  const citationCount = sections.take(Int32Array, n, "citationCount")
  for (let i = 0; i < n; i++) {
    if (citationCount[i] !== citeStart[i + 1]! - citeStart[i]!) refuse("citationCount disagrees with citeStart")
  }
  const influentialCount = sections.take(Int32Array, n, "influentialCount")
  for (let i = 0; i < n; i++) {
    if (!(influentialCount[i]! >= 0 && influentialCount[i]! <= citationCount[i]!)) {
      refuse("influentialCount out of range")
    }
  }
  const unresolvedRefs = sections.take(Uint8Array, n, "unresolvedRefs")
  const authorPaperStart = starts(sections.take(Int32Array, authorCount + 1, "authorPaperStart"), "authorPaperStart")
  const authorPapers = inRange(
    sections.take(Int32Array, authorPaperStart[authorCount]!, "authorPapers"),
    n,
    "authorPapers"
  )
  const authorCitationCount = sections.take(Float64Array, authorCount, "authorCitationCount")
  const authorHIndex = sections.take(Int32Array, authorCount, "authorHIndex")
  for (let j = 0; j < authorCount; j++) {
    if (!(authorHIndex[j]! >= 0 && authorCitationCount[j]! >= 0)) refuse("an author's counts out of range")
  }
  const termNames = new TextDecoder("utf-8", { fatal: true }).decode(sections.take(Uint8Array, -1, "terms")).split("\n")
  if (termNames.length !== terms || new Set(termNames).size !== terms) refuse(`not ${terms} distinct terms`)
  const postings = FIELDS.map((field) => readPostings(sections, terms, n, field))
  if (!sections.done()) refuse("more sections than a corpus has")
  const graph = { refStart, refTargets, citeStart, citeSources, citationCount, influentialCount, unresolvedRefs }
  const termIds = new Map(termNames.map((name, t) => [name, t]))
  return {
    graph,
    authorPaperStart,
    authorPapers,
    authorCitationCount,
    authorHIndex,
    index: new SearchIndex(n, termIds, termNames, postings)
  }
}

const readPostings = (sections: Sections, terms: number, n: number, field: string): Postings => {
  const start = starts(sections.take(Int32Array, terms + 1, `${field} starts`), `${field} starts`)
  const all = inRange(sections.take(Int32Array, start[terms]!, `${field} papers`), n, `${field} papers`)
  const counts = sections.take(Uint16Array, all.length, `${field} counts`)
  const lengths = sections.take(Int32Array, n, `${field} lengths`)
  const average = sections.take(Float64Array, 1, `${field} average`)[0]!
  if (!(Number.isFinite(average) && average >= 0)) refuse(`${field} average out of range`)
  const docs: Array<Int32Array> = new Array(terms)
  const freqs: Array<Uint16Array> = new Array(terms)
  for (let t = 0; t < terms; t++) {
    docs[t] = all.subarray(start[t]!, start[t + 1]!)
    freqs[t] = counts.subarray(start[t]!, start[t + 1]!)
    // Each term's papers ascending, each once: the scoring walks them so.
    for (let e = start[t]! + 1; e < start[t + 1]!; e++) {
      if (all[e]! <= all[e - 1]!) refuse(`${field} papers out of order`)
    }
  }
  for (let i = 0; i < n; i++) if (lengths[i]! < 0) refuse(`${field} lengths out of range`)
  return { docs, freqs, lengths, average }
}

/** A CSR's starts: from 0, never decreasing. */
const starts = (a: Int32Array, name: string): Int32Array => {
  if (a[0] !== 0) refuse(`${name} does not start at 0`)
  for (let k = 1; k < a.length; k++) if (a[k]! < a[k - 1]!) refuse(`${name} decreases`)
  return a
}

/** Indices in `0 .. n - 1`. */
const inRange = (a: Int32Array, n: number, name: string): Int32Array => {
  for (let k = 0; k < a.length; k++) if (!(a[k]! >= 0 && a[k]! < n)) refuse(`${name} out of range`)
  return a
}

/** The sections of a body, read in order. */
class Sections {
  private at = 0
  private readonly view: DataView
  constructor(private readonly body: Uint8Array) {
    this.view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  }

  /** The next section, of `expected` elements (-1: any number), as a view of the body. */
  take<T extends Typed>(Type: TypedClass<T>, expected: number, name: string): T {
    if (this.at + 4 > this.body.length) refuse(`ends before ${name}`)
    const count = this.view.getUint32(this.at, true)
    if (expected >= 0 && count !== expected) refuse(`${name} holds ${count} items, not ${expected}`)
    const from = align(this.at + 4)
    const bytes = count * Type.BYTES_PER_ELEMENT
    if (from + bytes > this.body.length) refuse(`ends inside ${name}`)
    this.at = from + bytes
    return new Type(this.body.buffer as ArrayBuffer, this.body.byteOffset + from, count)
  }

  /** Whether only padding is left. */
  done(): boolean {
    return align(this.at) === this.body.length
  }
}
