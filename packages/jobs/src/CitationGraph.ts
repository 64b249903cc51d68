/**
 * Walking the citation graph from seed papers ("snowballing" for a literature review): breadth
 * first, each paper once, each edge once, in a handful of requests. Paper details come through the
 * batch endpoint (one POST per 500 new papers), neighbours through the paginated citation and
 * reference lists (one GET per page), so the walk stays within the client's rate limit and retry
 * policy like any other call.
 *
 * @since 1.0.0
 */
import type { Fields, Paper, S2Error, SemanticScholar } from "@s2-effect/core"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type { Element, Related } from "./CitationGraphRecords.js"
import * as internal from "./internal/crawl.js"
import * as internalRelated from "./internal/related.js"

export { Edge, Element, Node, NotFound, Skipped } from "./CitationGraphRecords.js"

/**
 * Options of {@link crawl}.
 *
 * @category options
 * @since 1.0.0
 */
export interface CrawlOptions {
  /** Follow the papers citing each paper, the papers it cites, or both. */
  readonly direction: "citations" | "references" | "both"
  /**
   * How many steps from the seeds (0: the seeds only). Papers at the last depth are emitted but
   * not expanded, so edges among them are not looked for.
   */
  readonly depth: number
  /**
   * At most this many neighbours from each list of each paper (with `both`, this many citing and
   * this many cited), chosen by `order`. Records the API lists without a paperId, twice, or as the
   * paper itself count against it (another page to replace them would break the request budget).
   */
  readonly perNode: number
  /**
   * Which neighbours `perNode` keeps. The API cannot sort the citation and reference lists:
   * `"listed"` (the default) takes the first ones listed, in pages of `min(perNode, 1000)`;
   * `"mostCited"` reads the first `max(perNode, 1000)` of each list (one page when `perNode` ≤ 1000,
   * with each entry's `citationCount`) and keeps the most cited, so the request count is the same.
   */
  readonly order?: "listed" | "mostCited" | undefined
  /**
   * Keeps a paper found on the way (seeds are always kept): one it refuses is neither emitted nor
   * expanded, and its edges are dropped. It sees the paper with `fields`, so ask for what it reads
   * (e.g. `year`, `citationCount`, `fieldsOfStudy`).
   */
  readonly filter?: ((paper: Paper) => boolean) | undefined
  /** The fields of each node's paper (the client's defaults when omitted); `paperId` always comes. */
  readonly fields?: ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined
}

/**
 * Walks the citation graph breadth first from the seeds (any id form the API accepts: S2 id, `DOI:`,
 * `arXiv:`, `CorpusId:`, …). The stream emits each seed's `Node` (or `NotFound`), then level after
 * level the new papers' `Node`s and the `Edge`s between emitted nodes; an edge follows its two ends.
 * An id from the server that no request can carry is a `Skipped` element and a Warning, not a
 * failure: only the caller's own seeds fail with `BadQueryParameters`.
 *
 * Requests: one batch POST per 500 new papers of a level (the seeds are level 0), one GET per page
 * of each expanded paper's list (a page of `min(perNode, 1000)` records), nothing else. Memory:
 * the ids of the papers and edges seen, plus one level's frontier. Pulled: nothing is fetched before
 * the consumer asks. Invalid options fail with `BadQueryParameters` before any request.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { CitationGraph } from "@s2-effect/jobs"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * const program = Effect.gen(function*() {
 *   const walk = CitationGraph.crawl(["arXiv:1706.03762"], {
 *     direction: "both",
 *     depth: 2,
 *     perNode: 20,
 *     fields: ["title", "year", "citationCount"],
 *     filter: (paper) => (paper.year ?? 0) >= 2015
 *   })
 *   const elements = yield* Stream.runCollect(walk)
 *   const nodes = elements.filter((e) => e._tag === "Node")
 *   const edges = elements.filter((e) => e._tag === "Edge")
 *   return `${nodes.length} papers, ${edges.length} citations`
 * })
 * // program: Effect<string, S2Error, SemanticScholar>
 * const typed: Effect.Effect<string, unknown, SemanticScholar> = program
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const crawl: (
  seeds: ReadonlyArray<string>,
  options: CrawlOptions
) => Stream.Stream<Element, S2Error, SemanticScholar> = internal.crawl

// ---------------------------------------------------------------------------------------------
// related papers

export { CountedPaper, CutList, Related, RelatedPaper, SimilarLink } from "./CitationGraphRecords.js"

/**
 * Options of {@link related}.
 *
 * @category options
 * @since 1.0.0
 */
export interface RelatedOptions {
  /** How many papers to answer, best first: 1 to 500 (default 20). */
  readonly top?: number | undefined
  /**
   * At most this many extra list requests (1,000 records each) to read a seed's list that the
   * batch endpoint cut at 1,000 entries (default 10; 0: none). Lists of other papers are not paged:
   * a cut one is reported in `truncated`.
   */
  readonly maxPages?: number | undefined
  /**
   * The fields of the seeds and papers answered (default title, year, authors, venue,
   * citationCount, externalIds); `paperId` always comes.
   */
  readonly fields?: ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined
  /**
   * Start no list request after this long (Effect's `Clock`): rank what was read and answer with
   * `stopped: true`. The details of the answer are still fetched (one batch request).
   */
  readonly stopAfter?: Duration.Input | undefined
  /**
   * The bound of memory: once this many papers were met in the lists (default 1,000,000), or 16
   * times as many list entries kept, no other list is read; the papers are ranked from what was
   * read, with `stopped: true` and a Warning naming the bound. About 100 bytes a paper met, plus
   * 4 bytes per seed, plus 4 bytes an entry: some 200 MB at the default with one seed.
   */
  readonly maxCandidates?: number | undefined
  /** How many `foundations` to answer: 0 to 100 (default 10). */
  readonly foundations?: number | undefined
  /** How many `derivatives` to answer: 0 to 100 (default 10). */
  readonly derivatives?: number | undefined
}

/**
 * The papers most related to 1 to 20 seeds (any id form the API accepts), ranked from the citation
 * graph: by co-citation (papers that cite a seed and the paper) and bibliographic coupling (papers
 * a seed cites that the paper cites too). Seeds are never among the answers.
 *
 * The score: for each seed, its share: the share of the papers citing it that also cite this one,
 * plus the share of its references that this one cites too. Each count raises it; each share is at
 * most 1, so neither signal outweighs the other because one list is longer (a seed cited 5,000
 * times that cites 30 papers), and every seed has the same say, however well cited. Several seeds'
 * shares combine as the square of the mean of their square roots (a power mean of exponent ½):
 * equal shares score that share, and a paper related to every seed ranks above one with the same
 * counts through a single seed (two seeds: shares ½ and ½ score ½; 1 and 0 score ¼). With one
 * seed the score is its share. Ties go to the larger sum of counts, then to direct links, then to
 * the paperId. The `top` papers are chosen with a bounded heap, never a sort of every candidate.
 *
 * For the map: `similar` links every pair of the map's papers (seeds and answers) that the lists
 * read name together — `coCitation` references lists holding both, `coupling` citations lists
 * holding both, `strength` their sum over the geometric mean of the lists naming each (0 to 1) —
 * each paper keeping its 5 strongest. `foundations` are the papers off the map most cited by its
 * papers, `derivatives` those citing most of them, counted from the same lists (a references list
 * says its owner cites each paper on it, a citations list that each paper on it cites its owner);
 * their details come in the answers' batch. All of it comes from the lists already read, no
 * request more: the lists are kept as integers (4 bytes an entry) and counted once the answers are
 * known, among at most `top + 20` papers. Papers whose lists were not read (those two steps from a
 * seed) are counted only through the lists that name them.
 *
 * Memory: counted as each batch arrives (each paper an integer, its counts in flat typed arrays),
 * at most `maxCandidates` papers met before the reading stops.
 *
 * Requests, never one per paper: one batch for the seeds (their nested lists); the seeds' lists cut
 * at 1,000 paged from the list endpoint (at most `maxPages`); one batch per 500 papers citing a seed
 * (their references) and per 500 papers a seed cites (their citations), a batch carrying at most
 * 100,000 listed ids so that the answer stays under the API's 10 MB; and one batch per 500 for the
 * details of the seeds and the `top` papers. About `1 + 2 × ⌈papers ÷ 500⌉ + 1` plus the pages.
 * A nested list is read to its first 1,000 entries whatever a server sends (a longer one is cut
 * there and reported in `truncated`), so at most `seeds × 2,000 + maxPages × 1,000` papers have
 * their lists read, each list at most 1,000 ids.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { CitationGraph } from "@s2-effect/jobs"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * const program = Effect.gen(function*() {
 *   const answer = yield* CitationGraph.related(["arXiv:1706.03762", "DOI:10.18653/v1/N18-3011"], { top: 10 })
 *   return answer.papers.map((r) => `${r.score.toFixed(3)} ${r.paper.title} (${r.coCitation}, ${r.coupling})`)
 * })
 * const typed: Effect.Effect<ReadonlyArray<string>, unknown, SemanticScholar> = program
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const related: (
  seeds: ReadonlyArray<string>,
  options?: RelatedOptions
) => Effect.Effect<Related, S2Error, SemanticScholar> = internalRelated.related
