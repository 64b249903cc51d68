/**
 * Walking the citation graph from seed papers ("snowballing" for a literature review): breadth
 * first, each paper once, each edge once, in a handful of requests. Paper details come through the
 * batch endpoint (one POST per 500 new papers), neighbours through the paginated citation and
 * reference lists (one GET per page), so the walk stays within the client's rate limit and retry
 * policy like any other call.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import type * as Stream from "effect/Stream"
import type * as Fields from "./Fields.js"
import * as internal from "./internal/crawl.js"
import { Paper } from "./Paper.js"
import type { S2Error } from "./S2Error.js"
import type { SemanticScholar } from "./SemanticScholar.js"

/**
 * A paper of the walk and its distance from the nearest seed (seeds are depth 0).
 *
 * @category models
 * @since 0.1.0
 */
export class Node extends Schema.TaggedClass<Node>()("Node", {
  paper: Paper,
  depth: Schema.Number
}) {}

/**
 * A citation between two papers of the walk: `from` (the citing paperId) cites `to` (the cited
 * paperId). Both ends are always `Node`s emitted before the edge.
 *
 * @category models
 * @since 0.1.0
 */
export class Edge extends Schema.TaggedClass<Edge>()("Edge", {
  from: Schema.String,
  to: Schema.String
}) {}

/**
 * A seed the batch endpoint did not find, as given. The walk goes on from the other seeds.
 *
 * @category models
 * @since 0.1.0
 */
export class NotFound extends Schema.TaggedClass<NotFound>()("NotFound", {
  seed: Schema.String
}) {}

/**
 * What a walk emits: match on `_tag`.
 *
 * @category models
 * @since 0.1.0
 */
export type Element = Node | Edge | NotFound

/**
 * The schema of {@link Element}, e.g. to write a walk as JSON lines.
 *
 * @category models
 * @since 0.1.0
 */
export const Element = Schema.Union([Node, Edge, NotFound])

/**
 * Options of {@link crawl}.
 *
 * @category options
 * @since 0.1.0
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
 *
 * Requests: one batch POST per 500 new papers of a level (the seeds are level 0), one GET per page
 * of each expanded paper's list (a page of `min(perNode, 1000)` records), nothing else. Memory:
 * the ids of the papers and edges seen, plus one level's frontier. Pulled: nothing is fetched before
 * the consumer asks. Invalid options fail with `BadQueryParameters` before any request.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { CitationGraph, SemanticScholar } from "@s2-effect/core"
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
 * @since 0.1.0
 */
export const crawl: (
  seeds: ReadonlyArray<string>,
  options: CrawlOptions
) => Stream.Stream<Element, S2Error, SemanticScholar> = internal.crawl
