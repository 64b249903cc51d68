/**
 * The records the citation-graph jobs emit: a walk's elements (`crawl`) and the related papers'
 * answer (`related`). A leaf module (it imports nothing of this package), so that the implementation
 * that makes these records (`internal/crawl.ts`, `internal/related.ts`) imports them without
 * importing `CitationGraph.ts`, which imports it back; `CitationGraph.ts` re-exports each, and users
 * reach them there (`CitationGraph.Edge`).
 *
 * @since 1.0.0
 */
import { Paper } from "@s2-effect/core"
import * as Schema from "effect/Schema"

/**
 * A paper of the walk and its distance from the nearest seed (seeds are depth 0).
 *
 * @category models
 * @since 1.0.0
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
 * @since 1.0.0
 */
export class Edge extends Schema.TaggedClass<Edge>()("Edge", {
  from: Schema.String,
  to: Schema.String
}) {}

/**
 * A seed the batch endpoint did not find, as given. The walk goes on from the other seeds.
 *
 * @category models
 * @since 1.0.0
 */
export class NotFound extends Schema.TaggedClass<NotFound>()("NotFound", {
  seed: Schema.String
}) {}

/**
 * An id the server gave that no request can carry (a control character, a `.` or `..` path
 * segment, an unknown prefix: what the client refuses of a caller, `BadQueryParameters`), left out
 * of the walk with a Warning instead of failing it: in `source` (the `citations` or `references`
 * list `of` a paper, or the `batch` answer for the id `of`), once per id. `reason` says why.
 *
 * @category models
 * @since 1.0.0
 */
export class Skipped extends Schema.TaggedClass<Skipped>()("Skipped", {
  id: Schema.String,
  source: Schema.Literals(["citations", "references", "batch"]),
  of: Schema.String,
  reason: Schema.String
}) {}

/**
 * What a walk emits: match on `_tag`.
 *
 * @category models
 * @since 1.0.0
 */
export type Element = Node | Edge | NotFound | Skipped

/**
 * The schema of {@link Element}, e.g. to write a walk as JSON lines.
 *
 * @category models
 * @since 1.0.0
 */
export const Element = Schema.Union([Node, Edge, NotFound, Skipped])

/**
 * A paper of `CitationGraph.related`, with why it is there. `coCitation`: how many papers citing a seed
 * also cite it; `coupling`: how many papers a seed cites it cites too; `citesSeed` / `citedBySeed`:
 * it cites a seed / a seed cites it. `score` (see `CitationGraph.related`) rises with each count; it is at
 * most 2 (every list of every seed names the paper).
 *
 * @category models
 * @since 1.0.0
 */
export class RelatedPaper extends Schema.Class<RelatedPaper>("RelatedPaper")({
  paper: Paper,
  score: Schema.Number,
  coCitation: Schema.Int,
  coupling: Schema.Int,
  citesSeed: Schema.Boolean,
  citedBySeed: Schema.Boolean
}) {}

/**
 * A list the API cut, so that the counts it feeds may be low: a paper's nested `citations` or
 * `references` hold its first 1,000 entries. `read` of its `total` entries were read; `seed` says
 * whether it is a seed's list (paged from the list endpoint within `maxPages` before it is reported).
 *
 * @category models
 * @since 1.0.0
 */
export class CutList extends Schema.Class<CutList>("CutList")({
  paperId: Schema.String,
  list: Schema.Literals(["citations", "references"]),
  read: Schema.Int,
  total: Schema.Int,
  seed: Schema.Boolean
}) {}

/** Two papers on the map (seeds and answers) linked by how similar the lists read say they are:
 * `coCitation` papers cite both, `coupling` references both share; `strength` in 0..1 orders them. */
export class SimilarLink extends Schema.Class<SimilarLink>("SimilarLink")({
  a: Schema.String,
  b: Schema.String,
  coCitation: Schema.Int,
  coupling: Schema.Int,
  strength: Schema.Number
}) {}
/** A paper and how many of the map's papers it is counted for. */
export class CountedPaper extends Schema.Class<CountedPaper>("CountedPaper")({
  paper: Paper,
  count: Schema.Int
}) {}

/**
 * The answer of `CitationGraph.related`: the seeds found (with `fields`), the seeds not found (as given),
 * the best `papers` (best first), the `links` among seeds and papers (`from` cites `to`, as the
 * lists read name them), how many papers citing a seed (`citing`) and cited by one (`cited`) had
 * their list read, how many papers were ranked (`candidates`), the lists the API cut (`truncated`)
 * and whether the reading stopped early (`stopped`: `stopAfter` passed, or the papers met reached
 * `maxCandidates`). For the map: `similar`, the strongest links between every pair of its papers
 * (seeds and answers) by co-citation and coupling, at most 5 a paper, strongest first;
 * `foundations`, the papers off the map that most of its papers cite ("prior works");
 * `derivatives`, the papers off the map that cite most of its papers ("derivative works"); each
 * counted from the lists read, best first.
 *
 * @category models
 * @since 1.0.0
 */
export class Related extends Schema.Class<Related>("Related")({
  seeds: Schema.Array(Paper),
  notFound: Schema.Array(Schema.String),
  papers: Schema.Array(RelatedPaper),
  links: Schema.Array(Edge),
  citing: Schema.Int,
  cited: Schema.Int,
  candidates: Schema.Int,
  truncated: Schema.Array(CutList),
  stopped: Schema.Boolean,
  similar: Schema.Array(SimilarLink),
  foundations: Schema.Array(CountedPaper),
  derivatives: Schema.Array(CountedPaper)
}) {}
