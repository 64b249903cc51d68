/**
 * The emulator's scholarly graph: a deterministic, seeded corpus of papers, authors and citation
 * edges. `size` papers are materialized (graph, indexes, search); bulk search may range over a
 * larger virtual universe (`bulkSize`) whose extra papers are generated on demand from the seed.
 *
 * @since 1.0.0
 */
import type MiniSearch from "minisearch"
import * as internal from "./internal/corpus/corpus.js"

/**
 * Options for {@link Corpus.make}.
 *
 * @category options
 * @since 1.0.0
 */
export interface CorpusOptions {
  /** Same seed, same corpus, byte for byte. */
  readonly seed: number
  /** Number of materialized papers (graph, search indexes). */
  readonly size: number
  /** Number of papers bulk search pages over when the query is empty (default: `size`). Up to 10M and more. */
  readonly bulkSize?: number
  /**
   * When true, any well-formed paper id (40-hex, CorpusId, DOI, ArXiv, MAG, ACL, PMID, PMCID, URL) and any unknown numeric author id resolves deterministically to some corpus record,
   * as if the emulator knew every paper in the world (the returned record carries its own ids).
   * Malformed ids (e.g. `0`) still give 404. Default false: unknown ids give 404 / `null`.
   */
  readonly openWorld?: boolean
}

/**
 * A generated corpus. Indices address papers (`0 .. universe - 1`, the first `size` of them
 * materialized) and authors (`0 .. authorCount - 1`); the emulator's routes read it, and tests read
 * it to know what the emulator will answer.
 *
 * @example
 * ```ts
 * import { Corpus } from "@s2-effect/testing"
 * const corpus = Corpus.make({ seed: 1, size: 1000 })
 * corpus.paper(0).title
 * ```
 * @category models
 * @since 1.0.0
 */
export interface Corpus {
  readonly seed: number
  readonly size: number
  /** Number of papers addressable by index (materialized plus virtual). */
  readonly universe: number
  readonly authorCount: number
  readonly openWorld: boolean
  /**
   * Every stored paper (`0 .. size - 1`). Papers are made from the seed when first read and kept;
   * this list makes all of them, so `paper(i)` is the cheaper read of a few.
   */
  readonly papers: ReadonlyArray<PaperCore>
  /** Every author; made when first read, as papers are (`author(j)` reads one). */
  readonly authors: ReadonlyArray<AuthorCore>
  readonly graph: Graph
  /** CSR: papers of author j, in paperId order. */
  readonly authorPaperStart: Int32Array
  readonly authorPapers: Int32Array
  readonly authorCitationCount: Float64Array
  readonly authorHIndex: Int32Array
  /** Indices of the landmark papers: real papers with their real ids, titles and authors. */
  readonly landmarks: Int32Array
  /** Paper `i` of the universe, made when first read; papers beyond `size` are generated on demand and not stored. */
  paper(i: number): PaperCore
  /** `paper(i).year`, read without making the paper. */
  year(i: number): number
  /** `paper(i).topic`, read without making the paper. */
  topic(i: number): number
  citationCount(i: number): number
  /**
   * Paper `i`'s place in `paperId` order: the index order, except for landmarks, whose real ids
   * fall elsewhere.
   */
  paperIdKey(i: number): number
  influentialCitationCount(i: number): number
  referenceCount(i: number): number
  author(j: number): AuthorCore
  authorPaperCount(j: number): number
  /** Resolves any accepted paper id form to an index of the universe. */
  resolvePaper(id: string): number | undefined
  resolveAuthor(id: string): number | undefined
  /**
   * The relevance-search index over titles and abstracts that the emulator's searches use, built on
   * first use (or finished then): an inverted index in typed arrays, 200,000 papers in under 2 s of
   * CPU on a busy machine, scored as {@link Corpus.search} scores.
   *
   * @since 1.2.0
   */
  readonly searchIndex: SearchIndex
  /**
   * The same index as a MiniSearch instance, built when first read (it takes many times the
   * time and memory of {@link Corpus.searchIndex}: 13–17 s and 1.2 GB for 200,000 papers); kept for
   * code that reads MiniSearch's results, which {@link Corpus.searchIndex} gives the same scores and order.
   */
  readonly search: MiniSearch<{ id: number; title: string; abstract: string }>
  /**
   * Builds {@link Corpus.searchIndex} a slice at a time between other work (timers), so that a server can
   * answer while it builds; reading `searchIndex` meanwhile finishes the build at once. Same index as
   * building it on first use. Resolves when it is complete; calling it again returns the same promise.
   *
   * @since 1.0.0
   */
  indexInBackground(): Promise<void>
  /** token → ascending paper indices, over title and abstract (built on first use). */
  readonly postings: Map<string, Int32Array>
  /** Term sequence of a paper's title and abstract (for phrases). */
  tokens(i: number): ReadonlyArray<string>
  /** Author indices whose name contains every token of the query, most cited first. */
  searchAuthors(query: string): Array<number>
}

/**
 * What a search of {@link Corpus.searchIndex} may ask, as MiniSearch's `search` took it.
 *
 * @category options
 * @since 1.2.0
 */
export interface SearchOptions {
  /** The fields searched: both by default. */
  readonly fields?: ReadonlyArray<"title" | "abstract">
  /** Whether a query word also finds the longer terms it begins (weighed less). */
  readonly prefix?: boolean
  /** `AND`: papers with every query word; `OR` (the default): with any. */
  readonly combineWith?: "AND" | "OR"
}

/**
 * A paper a search found: its index in the corpus and its BM25+ score.
 *
 * @category models
 * @since 1.2.0
 */
export interface SearchHit {
  readonly id: number
  readonly score: number
}

/**
 * A relevance-search index: titles (boosted 2) and abstracts, words stemmed, BM25+ as MiniSearch
 * scores it.
 *
 * @category models
 * @since 1.2.0
 */
export interface SearchIndex {
  /** Papers matching `text`, best first. */
  search(text: string, options?: SearchOptions): Array<SearchHit>
}

/**
 * Builds corpora.
 *
 * @category constructors
 * @since 1.0.0
 */
export const Corpus: {
  /**
   * Generates a corpus. 1,000 papers take a few tens of milliseconds; 200,000 about 4 s of CPU on a
   * busy machine and under 400 MB of RSS. The search indexes are built on first use (or by
   * `indexInBackground`).
   *
   * @example
   * ```ts
   * import { Corpus } from "@s2-effect/testing"
   *
   * const corpus = Corpus.make({ seed: 1, size: 1000, bulkSize: 10_000_000 })
   * ```
   * @since 1.0.0
   */
  readonly make: (options: CorpusOptions) => Corpus
} = { make: internal.make }

/**
 * A paper of the generated corpus, before it is rendered as the API's JSON. In a paper a corpus
 * stores, `abstract`, `externalIds` and `tldr` are own enumerable getters that make the value when
 * read (the same value each time; `externalIds` a new object each read), so that most of a corpus's
 * text is never made.
 *
 * @category models
 * @since 1.0.0
 */
export interface PaperCore {
  readonly index: number
  readonly paperId: string
  readonly corpusId: number
  readonly topic: number
  readonly title: string
  readonly abstract: string | null
  readonly year: number
  readonly publicationDate: string | null
  readonly venue: Venue | null
  readonly externalIds: Readonly<Record<string, string | number>>
  readonly fieldsOfStudy: ReadonlyArray<string> | null
  readonly s2FieldsOfStudy: ReadonlyArray<{ readonly category: string; readonly source: string }>
  readonly publicationTypes: ReadonlyArray<string> | null
  readonly authors: ReadonlyArray<number>
  readonly openAccess: { readonly url: string; readonly status: string | null } | null
  readonly tldr: string | null
  readonly journal: { readonly name: string; readonly volume?: string; readonly pages?: string } | null
}

/**
 * An author of the generated corpus, before it is rendered as the API's JSON.
 *
 * @category models
 * @since 1.0.0
 */
export interface AuthorCore {
  readonly index: number
  readonly authorId: string
  readonly name: string
  readonly affiliations: ReadonlyArray<string>
  readonly homepage: string | null
  readonly externalIds: { readonly DBLP?: ReadonlyArray<string>; readonly ORCID?: string }
}

/**
 * A venue of the generated corpus: the `venue` of a {@link PaperCore} and its `publicationVenue`.
 *
 * @category models
 * @since 1.0.0
 */
export interface Venue {
  readonly name: string
  readonly short: string
  readonly type: "journal" | "conference"
  readonly issn: string | null
  readonly host: string
}

/**
 * The citation graph of a corpus, in compressed sparse rows indexed by paper.
 *
 * @category models
 * @since 1.0.0
 */
export interface Graph {
  /** CSR: references of paper i are refTargets[refStart[i] .. refStart[i+1]). */
  readonly refStart: Int32Array
  readonly refTargets: Int32Array
  /** CSR: citations of paper j (citing papers, newest first). */
  readonly citeStart: Int32Array
  readonly citeSources: Int32Array
  readonly citationCount: Int32Array
  readonly influentialCount: Int32Array
  /** References to papers outside the corpus (`paperId: null` on the wire). */
  readonly unresolvedRefs: Uint8Array
}
