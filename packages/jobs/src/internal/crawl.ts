import type { Paper, S2Error, Service } from "@s2-effect/core"
import { BadQueryParameters, excerpt, SemanticScholar, Validate } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import type * as CitationGraph from "../CitationGraph.js"
import { Edge, Node, NotFound, Skipped } from "../CitationGraphRecords.js"
import { papersById } from "./papersById.js"
import { PendingEdges } from "./pendingEdges.js"

/** The batch endpoint's limit: one POST per this many new ids. */
const BATCH = 500
/** The lists' largest page. */
const MAX_PAGE = 1000

type Element = CitationGraph.Element

/**
 * The walk's memory: ids decided so far (a node, or refused: not found / filtered out), the edges
 * emitted, and what waits for the next batch call. Everything is keyed by the canonical paperId.
 */
interface State {
  readonly s2: Service
  readonly options: CitationGraph.CrawlOptions
  readonly nodes: Set<string>
  readonly refused: Set<string>
  /** Requested id → the paperId the batch answered with, when they differ (merged papers). */
  readonly alias: Map<string, string>
  /** The server's ids no request can carry, each skipped (and warned of) once. */
  readonly skipped: Set<string>
  pendingIds: Array<string>
  readonly pendingSet: Set<string>
  /** The edges waiting for an end, indexed by it; each id decided is told to it. */
  readonly pendingEdges: PendingEdges
  next: Array<string>
}

const invalid = (parameter: string, problem: string) => new BadQueryParameters({ problem, parameter })

const validate = (seeds: ReadonlyArray<string>, o: CitationGraph.CrawlOptions) => {
  if (!["citations", "references", "both"].includes(o.direction)) {
    return invalid("direction", `direction must be citations, references or both, not ${String(o.direction)}`)
  }
  if (!Number.isSafeInteger(o.depth) || o.depth < 0) {
    return invalid("depth", `depth must be a whole number ≥ 0, not ${o.depth}`)
  }
  if (!Number.isSafeInteger(o.perNode) || o.perNode < 1) {
    return invalid("perNode", `perNode must be a whole number ≥ 1, not ${o.perNode}`)
  }
  if (o.order !== undefined && o.order !== "listed" && o.order !== "mostCited") {
    return invalid("order", `order must be listed or mostCited, not ${String(o.order)}`)
  }
  if (seeds.some((s) => typeof s !== "string" || s.trim() === "")) return invalid("seeds", "a seed id is empty")
  return undefined
}

const canonical = (state: State, id: string) => state.alias.get(id) ?? id

/** Batch-fetches ids (≤ 500), returning [requested id, paper | undefined] in request order. */
const fetchBatch = (state: State, ids: ReadonlyArray<string>) => papersById(state.s2, ids, state.options.fields)

/**
 * Why no request can carry `id`, by the client's own check of ids (`Validate.paperId`, which would
 * refuse it as the caller's `BadQueryParameters`); `undefined` when one can. The check's
 * `problem`, without the id it quotes and the forms it advises: "contains a control character".
 */
const unusable = (id: string): string | undefined => {
  const checked = Validate.paperId(id, "id")
  if (Result.isSuccess(checked)) return undefined
  // Every refusal of an id says its problem apart (Validate's refusals in parts).
  return checked.failure.problem ?? "cannot be sent"
}

const where = {
  citations: (of: string) => `among the papers citing ${of}`,
  references: (of: string) => `among the references of ${of}`,
  batch: (of: string) => `as the paperId of ${of}`
} as const

/**
 * The server's id that no request can carry, as a {@link Skipped} and a Warning the first time it
 * is met (answers `undefined` after that): the walk goes on without it, never failing as if the
 * caller had given it.
 */
const skip = (state: State, id: string, source: Skipped["source"], of: string, reason: string) =>
  Effect.suspend(() => {
    if (state.skipped.has(id)) return Effect.undefined
    state.skipped.add(id)
    return Effect.as(
      Effect.logWarning(
        `S2 citation graph: skipped ${excerpt(JSON.stringify(id), 100)}, which the server gave ${
          where[source](excerpt(of, 100))
        }: it ${reason}, so no request can ask for it`
      ),
      new Skipped({ id, source, of, reason })
    )
  })

/** Admits a fetched paper as a node (or an alias of one); answers the node it became, if new. */
const admit = (state: State, requested: string, paper: Paper, depth: number): Node | undefined => {
  const id = paper.paperId
  if (id !== requested) state.alias.set(requested, id)
  state.pendingEdges.decide(requested)
  state.pendingEdges.decide(id)
  if (state.nodes.has(id)) return undefined
  state.nodes.add(id)
  return new Node({ paper, depth })
}

/** The seeds: one batch call per 500, each paper once whatever id form named it. */
const seedsStep = Effect.fnUntraced(function*(state: State, seeds: ReadonlyArray<string>) {
  const out: Array<Element> = []
  const unique = [...new Set(seeds)]
  for (let at = 0; at < unique.length; at += BATCH) {
    for (const [id, paper] of yield* fetchBatch(state, unique.slice(at, at + BATCH))) {
      if (paper === undefined) {
        out.push(new NotFound({ seed: id }))
        continue
      }
      const reason = unusable(paper.paperId)
      if (reason !== undefined) {
        refuse(state, id)
        const skipped = yield* skip(state, paper.paperId, "batch", id, reason)
        if (skipped !== undefined) out.push(skipped)
        continue
      }
      const node = admit(state, id, paper, 0)
      if (node !== undefined) {
        out.push(node)
        state.next.push(node.paper.paperId)
      }
    }
  }
  return out
})

/** Emits the pending edges whose ends are both decided nodes; drops those touching a refused id. */
const settleEdges = (state: State, out: Array<Element>) => {
  const settled = state.pendingEdges.settle({
    canonical: (id) => canonical(state, id),
    isNode: (id) => state.nodes.has(id),
    isRefused: (id) => state.refused.has(id)
  })
  for (const [from, to] of settled) out.push(new Edge({ from, to }))
}

/** Refuses `ids` (not found, filtered out, or no request can carry the paperId the server gave). */
const refuse = (state: State, ...ids: ReadonlyArray<string>) => {
  for (const id of ids) {
    state.refused.add(id)
    state.pendingEdges.decide(id)
  }
}

/** Fetches pending ids in batches of 500 (all of them when `all`), then settles edges. */
const flush = Effect.fnUntraced(function*(state: State, depth: number, all: boolean) {
  const out: Array<Element> = []
  while (state.pendingIds.length >= BATCH || (all && state.pendingIds.length > 0)) {
    const ids = state.pendingIds.slice(0, BATCH)
    state.pendingIds = state.pendingIds.slice(BATCH)
    for (const [id, paper] of yield* fetchBatch(state, ids)) {
      state.pendingSet.delete(id)
      const reason = paper === undefined ? undefined : unusable(paper.paperId)
      if (paper !== undefined && reason !== undefined) {
        refuse(state, id)
        const skipped = yield* skip(state, paper.paperId, "batch", id, reason)
        if (skipped !== undefined) out.push(skipped)
        continue
      }
      const filter = state.options.filter
      // An id merged into a paper already walked names that node: the filter judged it (or it is a seed).
      const walked = paper !== undefined && state.nodes.has(paper.paperId)
      if (paper === undefined || (!walked && filter !== undefined && !filter(paper))) {
        refuse(state, ...(paper !== undefined && paper.paperId !== id ? [id, paper.paperId] : [id]))
        continue
      }
      const node = admit(state, id, paper, depth)
      if (node !== undefined) {
        out.push(node)
        state.next.push(node.paper.paperId)
      }
    }
  }
  settleEdges(state, out)
  return out
})

/** A listed neighbour: its id (null when the graph could not resolve it) and citation count. */
interface Listed {
  readonly id: string | null
  readonly cited: number
}

/** The neighbours of one list: the ids to walk, and those no request can carry with the reason. */
interface Neighbours {
  readonly ids: Array<string>
  readonly unusable: Array<readonly [string, string]>
}

/**
 * The `perNode` distinct neighbour ids of one list. The API cannot sort these lists: `listed` takes
 * the first ones; `mostCited` reads the first max(perNode, 1000) (one page at most sizes) and ranks them.
 */
const neighbours = (
  state: State,
  parent: string,
  which: "citations" | "references"
): Effect.Effect<Neighbours, S2Error> => {
  const { perNode } = state.options
  const ranked = state.options.order === "mostCited"
  const page = ranked
    ? { fields: ["paperId" as const, "citationCount" as const], limit: MAX_PAGE }
    : { fields: ["paperId" as const], limit: Math.min(perNode, MAX_PAGE) }
  const listed: Stream.Stream<Listed, S2Error> = which === "citations"
    ? Stream.map(state.s2.getPaperCitations(parent, page), (c) => ({
      id: c.citingPaper.paperId,
      cited: c.citingPaper.citationCount ?? 0
    }))
    : Stream.map(state.s2.getPaperReferences(parent, page), (r) => ({
      id: r.citedPaper.paperId,
      cited: r.citedPaper.citationCount ?? 0
    }))
  const seen = new Set<string>()
  const distinct = (entry: Listed): entry is Listed & { readonly id: string } => {
    const id = entry.id
    if (typeof id !== "string" || id === "" || id === parent || seen.has(id)) return false
    seen.add(id)
    return true
  }
  // Records are counted before unusable ones (null, repeated, the paper itself) are dropped: topping
  // them up would take another page per list, past the request budget. So a list may give fewer.
  return listed.pipe(
    Stream.take(ranked ? Math.max(perNode, MAX_PAGE) : perNode),
    Stream.filter(distinct),
    Stream.runCollect,
    Effect.map((all) => {
      const result: Neighbours = { ids: [], unusable: [] }
      // Array.prototype.sort is stable: equal counts keep the list's order.
      for (const { id } of (ranked ? all.sort((a, b) => b.cited - a.cited) : all).slice(0, perNode)) {
        const reason = unusable(id)
        if (reason === undefined) result.ids.push(id)
        else result.unusable.push([id, reason])
      }
      return result
    })
  )
}

/** Expands one paper: its lists become pending ids and edges; a full batch is fetched at once. */
const expand = Effect.fnUntraced(function*(state: State, parent: string, depth: number) {
  const { direction } = state.options
  const out: Array<Element> = []
  for (const which of ["citations", "references"] as const) {
    if (direction !== "both" && direction !== which) continue
    const listed = yield* neighbours(state, parent, which)
    for (const [id, reason] of listed.unusable) {
      const skipped = yield* skip(state, id, which, parent, reason)
      if (skipped !== undefined) out.push(skipped)
    }
    for (const id of listed.ids) {
      const known = canonical(state, id)
      if (state.refused.has(known)) continue
      if (which === "citations") state.pendingEdges.add(known, parent)
      else state.pendingEdges.add(parent, known)
      if (!state.nodes.has(known) && !state.pendingSet.has(known)) {
        state.pendingSet.add(known)
        state.pendingIds.push(known)
      }
    }
  }
  out.push(...yield* flush(state, depth + 1, false))
  return out
})

/** Level `depth` expanded, then the level it found, until the depth limit or an empty frontier. */
const level = (state: State, depth: number): Stream.Stream<Element, S2Error> =>
  Stream.suspend(() => {
    if (depth >= state.options.depth || state.next.length === 0) return Stream.empty
    const frontier = state.next
    state.next = []
    return Stream.fromIterable(frontier).pipe(
      Stream.mapEffect((parent) => expand(state, parent, depth)),
      Stream.concat(Stream.fromEffect(flush(state, depth + 1, true))),
      Stream.flattenIterable,
      Stream.concat(level(state, depth + 1))
    )
  })

/** @internal */
export const crawl = (
  seeds: ReadonlyArray<string>,
  options: CitationGraph.CrawlOptions
): Stream.Stream<Element, S2Error, SemanticScholar> =>
  Stream.unwrap(Effect.gen(function*() {
    const bad = validate(seeds, options)
    if (bad !== undefined) return yield* Effect.fail(bad)
    const state: State = {
      s2: yield* SemanticScholar,
      options,
      nodes: new Set(),
      refused: new Set(),
      alias: new Map(),
      skipped: new Set(),
      pendingIds: [],
      pendingSet: new Set(),
      pendingEdges: new PendingEdges(),
      next: []
    }
    return Stream.fromEffect(seedsStep(state, seeds)).pipe(
      Stream.flattenIterable,
      Stream.concat(level(state, 0))
    )
  }))
