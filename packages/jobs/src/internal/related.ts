/**
 * Related papers around seeds (`CitationGraph.related`): co-citation and bibliographic coupling
 * counted from the nested `citations.paperId` / `references.paperId` lists of the batch endpoint,
 * so that thousands of papers cost a handful of requests, never one per paper.
 *
 * The reading, in requests: the seeds (one batch: their lists and the sizes of their neighbours'
 * lists), the seeds' lists the API cut at its nested cap paged whole from the list endpoints
 * (within `maxPages`), the references of the papers citing a seed and the citations of the papers a
 * seed cites (batches packed by count and by the size of the lists they carry), then the details of
 * the seeds and the best papers (one batch per 500).
 */
import type { Fields, PaperRef, S2Error, Service } from "@s2-effect/core"
import { BadQueryParameters, DecodeError, Decoder, excerpt, Paper, SemanticScholar, Validate } from "@s2-effect/core"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import type * as CitationGraph from "../CitationGraph.js"
import { CountedPaper, CutList, Edge, Related, RelatedPaper } from "../CitationGraphRecords.js"
import { papersById } from "./papersById.js"
import { Tally } from "./relatedTally.js"

/** The batch endpoint's limit. */
const BATCH = 500
/**
 * A nested list holds a paper's first 1,000 entries (the list endpoints serve the rest). We read no
 * more of one than that, whatever a server sends: so the papers whose lists are read after the
 * seeds' are at most seeds × 2 × 1,000 plus the `maxPages` × 1,000 records of the seeds' pages, each
 * list read holds at most 1,000 ids, and the requests and memory they take are bounded.
 */
export const NESTED_CAP = 1000
/** A list endpoint's largest page, and the most of a list it serves. */
const PAGE = 1000
const LIST_WINDOW = 9999
/**
 * Nested entries one batch may carry: about 55 bytes each (`{"paperId":"…40 hex…"},`), so 100,000
 * make some 5.5 MB, within the 10 MB over which the API refuses an answer.
 */
const ENTRIES_PER_BATCH = 100_000
const MAX_SEEDS = 20
const MAX_TOP = 500
const MAX_AROUND = 100
const SKIPPED_KEPT = 1000

/** Defaults of {@link CitationGraph.RelatedOptions}. */
export const defaults = {
  top: 20,
  maxPages: 10,
  maxCandidates: 1_000_000,
  around: 10,
  fields: ["title", "year", "authors", "venue", "citationCount", "externalIds"]
} as const satisfies {
  readonly top: number
  readonly maxPages: number
  readonly maxCandidates: number
  readonly around: number
  readonly fields: ReadonlyArray<Fields.PaperField>
}

type Which = "citations" | "references"

/**
 * A paper's list as read: the ids listed (no nulls, each once), how many entries the server sent,
 * the size the paper reports, and whether the server sent more than {@link NESTED_CAP} (the rest
 * not read).
 */
interface Listed {
  readonly ids: Set<string>
  readonly entries: number
  readonly total: number | undefined
  readonly over: boolean
}

/** What the reading learnt. Keys are the paperIds as the seeds' lists name them. */
interface State {
  readonly s2: Service
  readonly deadline: number | undefined
  readonly seeds: Map<string, { readonly citations: Listed; readonly references: Listed }>
  readonly notFound: Array<string>
  /** The paperIds the server gave seeds that no request can carry: those seeds are left out. */
  readonly unusableSeeds: Array<string>
  /** The size of each neighbour's other list (its references for a citer, citations for a cited paper). */
  readonly citerSizes: Map<string, number | undefined>
  readonly citedSizes: Map<string, number | undefined>
  /** The counts, made once the seeds' lists are read. */
  tally: Tally | undefined
  readonly maxCandidates: number
  readonly truncated: Array<CutList>
  /**
   * Ids in the server's lists that no request can carry, left out: the first {@link SKIPPED_KEPT}
   * distinct ones (then only counted, so that a server's list of them cannot grow memory).
   */
  readonly skipped: Set<string>
  skippedOver: number
  pagesLeft: number
  stopped: boolean
}

const invalid = (parameter: string, problem: string) => new BadQueryParameters({ problem, parameter })

const validate = (seeds: ReadonlyArray<string>, options: CitationGraph.RelatedOptions) => {
  const { maxCandidates = defaults.maxCandidates, maxPages = defaults.maxPages, top = defaults.top } = options
  if (seeds.length < 1 || seeds.length > MAX_SEEDS) {
    return invalid("seeds", `give 1 to ${MAX_SEEDS} seed papers, not ${seeds.length}`)
  }
  if (seeds.some((s) => typeof s !== "string" || s.trim() === "")) return invalid("seeds", "a seed id is empty")
  if (!Number.isSafeInteger(top) || top < 1 || top > MAX_TOP) {
    return invalid("top", `top must be a whole number from 1 to ${MAX_TOP}, not ${top}`)
  }
  if (!Number.isSafeInteger(maxPages) || maxPages < 0) {
    return invalid("maxPages", `maxPages must be a whole number ≥ 0, not ${maxPages}`)
  }
  if (!Number.isSafeInteger(maxCandidates) || maxCandidates < 1) {
    return invalid("maxCandidates", `maxCandidates must be a whole number ≥ 1, not ${maxCandidates}`)
  }
  for (const name of ["foundations", "derivatives"] as const) {
    const n = options[name] ?? defaults.around
    if (!Number.isSafeInteger(n) || n < 0 || n > MAX_AROUND) {
      return invalid(name, `${name} must be a whole number from 0 to ${MAX_AROUND}, not ${n}`)
    }
  }
  return undefined
}

/** Whether the reading may start another request: false once `stopAfter` has passed. */
const mayRead = (state: State) =>
  Effect.map(Clock.currentTimeMillis, (now) => {
    if (state.deadline !== undefined && now >= state.deadline) state.stopped = true
    return !state.stopped
  })

/**
 * Whether an id from the server's lists can go into a request (the batch endpoint would refuse
 * the whole call for one that cannot: a control character, a `..` segment); else it is `skipped`.
 */
const usable = (state: State, id: string | null | undefined): id is string => {
  if (typeof id !== "string" || id === "") return false
  if (Result.isSuccess(Validate.paperId(id))) return true
  if (state.skipped.size < SKIPPED_KEPT) state.skipped.add(id)
  else if (!state.skipped.has(id)) state.skippedOver++
  return false
}

/** The entries of a nested list that are read: its first {@link NESTED_CAP}. */
const nested = (refs: ReadonlyArray<PaperRef> | null | undefined): ReadonlyArray<PaperRef> =>
  (refs ?? []).slice(0, NESTED_CAP)

/** The usable ids of a nested list's entries read, each once, and how many entries it had. */
const listed = (
  state: State,
  refs: ReadonlyArray<PaperRef> | null | undefined,
  total: number | null | undefined
): Listed => {
  const ids = new Set<string>()
  for (const ref of nested(refs)) if (usable(state, ref.paperId)) ids.add(ref.paperId)
  const entries = refs?.length ?? 0
  return { ids, entries, total: total ?? undefined, over: entries > NESTED_CAP }
}

/** A nested list cut: longer than we read, or as long as the cap and shorter than the paper says it is. */
const isCut = (list: Listed) => list.over || (list.entries >= NESTED_CAP && (list.total ?? Infinity) > list.entries)

const cut = (paperId: string, which: Which, list: Listed, seed: boolean) =>
  new CutList({ paperId, list: which, read: list.ids.size, total: Math.max(list.total ?? 0, list.entries), seed })

/** The fields the seeds are read with: both lists, and the size of each neighbour's list we read next. */
const seedFields: ReadonlyArray<Fields.PaperField> = [
  "citationCount",
  "referenceCount",
  "citations.referenceCount",
  "references.citationCount"
]

/** The seeds: one batch (≤ 20 ids), each paper once whatever id form named it. */
const readSeeds = Effect.fnUntraced(function*(state: State, seeds: ReadonlyArray<string>) {
  for (const [given, paper] of yield* papersById(state.s2, [...new Set(seeds)], seedFields)) {
    if (paper === undefined) {
      state.notFound.push(given)
      continue
    }
    if (state.seeds.has(paper.paperId)) continue
    const checked = Validate.paperId(paper.paperId, "id")
    if (Result.isFailure(checked)) {
      yield* Effect.logWarning(
        `related papers: seed ${JSON.stringify(given)} left out: the server named it ${
          JSON.stringify(paper.paperId)
        }, which no request can carry`
      )
      state.unusableSeeds.push(paper.paperId)
      continue
    }
    state.seeds.set(paper.paperId, {
      citations: listed(state, paper.citations, paper.citationCount),
      references: listed(state, paper.references, paper.referenceCount)
    })
    for (const ref of nested(paper.citations)) {
      if (usable(state, ref.paperId)) state.citerSizes.set(ref.paperId, ref.referenceCount ?? undefined)
    }
    for (const ref of nested(paper.references)) {
      if (usable(state, ref.paperId)) state.citedSizes.set(ref.paperId, ref.citationCount ?? undefined)
    }
  }
})

/**
 * A seed's list that the nested cap cut, read again from its list endpoint within the pages left
 * (the order of a nested list and of the endpoint's pages is the API's, so the whole list is read
 * and merged). What the pages cannot reach stays cut.
 */
const pageSeedList = Effect.fnUntraced(function*(state: State, seed: string, which: Which, list: Listed) {
  const want = Math.min(list.total ?? LIST_WINDOW, LIST_WINDOW)
  const pages = Math.min(state.pagesLeft, Math.ceil(want / PAGE))
  if (pages > 0 && (yield* mayRead(state))) {
    state.pagesLeft -= pages
    const records = which === "citations"
      ? Stream.map(
        state.s2.getPaperCitations(seed, { limit: PAGE, fields: ["paperId", "referenceCount"] }),
        (c) => c.citingPaper
      )
      : Stream.map(
        state.s2.getPaperReferences(seed, { limit: PAGE, fields: ["paperId", "citationCount"] }),
        (r) => r.citedPaper
      )
    const read = yield* Stream.runCollect(Stream.take(records, pages * PAGE))
    const sizes = which === "citations" ? state.citerSizes : state.citedSizes
    for (const ref of read) {
      if (!usable(state, ref.paperId)) continue
      list.ids.add(ref.paperId)
      if (!sizes.has(ref.paperId)) {
        sizes.set(ref.paperId, (which === "citations" ? ref.referenceCount : ref.citationCount) ?? undefined)
      }
    }
    // Whole when it has the entries the paper reports, or (no count) when it ended before the pages did.
    if (list.total === undefined ? read.length < pages * PAGE : read.length >= list.total) return
  }
  state.truncated.push(cut(seed, which, list, true))
})

/** Packs ids into batch calls: 500 ids at most, and at most {@link ENTRIES_PER_BATCH} nested entries. */
export const pack = (
  ids: ReadonlyArray<string>,
  size: (id: string) => number | undefined
): Array<Array<string>> => {
  const calls: Array<Array<string>> = []
  let current: Array<string> = []
  let entries = 0
  for (const id of ids) {
    const weight = Math.min(Math.max(size(id) ?? NESTED_CAP, 0), NESTED_CAP)
    if (current.length === BATCH || (current.length > 0 && entries + weight > ENTRIES_PER_BATCH)) {
      calls.push(current)
      current = []
      entries = 0
    }
    current.push(id)
    entries += weight
  }
  if (current.length > 0) calls.push(current)
  return calls
}

/** One list of each neighbour: the references of the papers citing a seed, or the citations of those it cites. */
const readNeighbours = Effect.fnUntraced(function*(state: State, tally: Tally, which: Which) {
  const sizes = which === "references" ? state.citerSizes : state.citedSizes
  // A seed's own lists are known already.
  const ids = [...sizes.keys()].filter((id) => !state.seeds.has(id))
  const fields: ReadonlyArray<Fields.PaperField> = which === "references"
    ? ["referenceCount", "references.paperId"]
    : ["citationCount", "citations.paperId"]
  for (const call of pack(ids, (id) => sizes.get(id))) {
    if (!(yield* mayRead(state)) || full(state, tally)) return
    for (const [id, paper] of yield* papersById(state.s2, call, fields)) {
      if (paper === undefined) continue
      // Counted as it arrives; once the bound is met, the rest of the batch is not.
      if (full(state, tally)) return
      const list = which === "references"
        ? listed(state, paper.references, paper.referenceCount)
        : listed(state, paper.citations, paper.citationCount)
      tally.add(id, which, list.ids, true)
      if (isCut(list)) state.truncated.push(cut(id, which, list, false))
    }
  }
})

/** Whether the papers met have reached `maxCandidates` (or the lists kept their bound): the reading stops. */
const full = (state: State, tally: Tally) => {
  if (tally.full) state.stopped = true
  return tally.full
}

/**
 * The counts begin: the seeds as integers, each paper on a seed's list as a neighbour, and the
 * seeds' own lists kept (counted as well when the seed is a neighbour of a seed: a seed citing
 * another is one of the papers citing a seed, and its list is read already).
 */
const startTally = (state: State) => {
  const tally = new Tally([...state.seeds.keys()], state.maxCandidates)
  ;[...state.seeds.values()].forEach((lists, i) => {
    lists.citations.ids.forEach((id) => tally.neighbour(id, "citations", i))
    lists.references.ids.forEach((id) => tally.neighbour(id, "references", i))
  })
  for (const [id, lists] of state.seeds) {
    const at = tally.index.get(id)!
    tally.add(id, "references", lists.references.ids, tally.citersOf.has(at))
    tally.add(id, "citations", lists.citations.ids, tally.citedOf.has(at))
  }
  return tally
}

const decodePaper = Decoder.decodeUnknownResult(Paper, { onExcessProperty: "preserve" })

/** The paper without the references asked for only to find the links (its own record: nothing else copied). */
const withoutReferences = (paper: Paper): Paper => {
  const { references: _, ...rest } = paper.raw
  return Result.getOrElse(decodePaper(rest), () => paper)
}

/**
 * The details of the seeds and the best papers (one batch per 500), with their references, which
 * give the links among them. A paper the batch does not know keeps its bare id.
 */
const details = Effect.fnUntraced(function*(
  state: State,
  ids: ReadonlyArray<string>,
  fields: ReadonlyArray<Fields.PaperField | Fields.Unchecked>
) {
  const asked = fields.some((f) => (typeof f === "string" ? f : f.name).split(".")[0] === "references")
  const withRefs = asked ? fields : [...fields, "references.paperId" as const]
  const papers = new Map<string, Paper>()
  const references = new Map<string, Set<string>>()
  for (let at = 0; at < ids.length; at += BATCH) {
    for (const [id, paper] of yield* papersById(state.s2, ids.slice(at, at + BATCH), withRefs)) {
      if (paper === undefined) {
        papers.set(id, new Paper({ paperId: id }))
        continue
      }
      references.set(id, listed(state, paper.references, undefined).ids)
      papers.set(id, asked ? paper : withoutReferences(paper))
    }
  }
  return { papers, references }
})

/** The citations among the shown papers that the lists read name, each once, citing paper first. */
const linksAmong = (state: State, shown: ReadonlyArray<string>, references: Map<string, Set<string>>) => {
  const inside = new Set(shown)
  const seen = new Set<string>()
  const links: Array<Edge> = []
  const add = (from: string, to: string) => {
    const key = `${from}\u0000${to}`
    if (from === to || !inside.has(from) || !inside.has(to) || seen.has(key)) return
    seen.add(key)
    links.push(new Edge({ from, to }))
  }
  for (const [seed, lists] of state.seeds) {
    lists.references.ids.forEach((to) => add(seed, to))
    lists.citations.ids.forEach((from) => add(from, seed))
  }
  for (const from of shown) references.get(from)?.forEach((to) => add(from, to))
  return links
}

/** @internal */
export const related = (
  seeds: ReadonlyArray<string>,
  options: CitationGraph.RelatedOptions = {}
): Effect.Effect<Related, S2Error, SemanticScholar> =>
  Effect.gen(function*() {
    const bad = validate(seeds, options)
    if (bad !== undefined) return yield* Effect.fail(bad)
    const stopAfter = options.stopAfter === undefined ? undefined : Duration.fromInputUnsafe(options.stopAfter)
    const state: State = {
      s2: yield* SemanticScholar,
      deadline: stopAfter === undefined ? undefined : (yield* Clock.currentTimeMillis) + Duration.toMillis(stopAfter),
      seeds: new Map(),
      notFound: [],
      unusableSeeds: [],
      citerSizes: new Map(),
      citedSizes: new Map(),
      tally: undefined,
      maxCandidates: options.maxCandidates ?? defaults.maxCandidates,
      truncated: [],
      skipped: new Set(),
      skippedOver: 0,
      pagesLeft: options.maxPages ?? defaults.maxPages,
      stopped: false
    }
    return yield* read(state, seeds, options)
  }).pipe(Effect.withSpan("CitationGraph.related", { attributes: { "s2.seeds": seeds.length } }))

/** The Warnings of what was left out: ids no request can carry, and the lists not read past `maxCandidates`. */
const warnings = Effect.fnUntraced(function*(state: State, tally: Tally) {
  if (state.skipped.size > 0) {
    const n = state.skipped.size + state.skippedOver
    yield* Effect.logWarning(
      `related papers: ${n} id(s) in the server's lists left out, since no request can carry them ` +
        `(first: ${JSON.stringify([...state.skipped][0])})`
    )
  }
  if (tally.full) {
    yield* Effect.logWarning(
      `related papers: stopped reading lists at ${tally.candidates} papers met (maxCandidates ${state.maxCandidates}` +
        `${tally.candidates < state.maxCandidates ? `, or ${tally.entries} list entries kept` : ""}): ` +
        `ranked from the lists read so far`
    )
  }
})

const read = Effect.fnUntraced(function*(
  state: State,
  seeds: ReadonlyArray<string>,
  options: CitationGraph.RelatedOptions
) {
  yield* readSeeds(state, seeds)
  if (state.seeds.size === 0 && state.unusableSeeds.length > 0) {
    return yield* Effect.fail(
      new DecodeError({
        subject: "related papers",
        problem: `the server named every seed found with an id no request can carry (first: ${
          JSON.stringify(state.unusableSeeds[0])
        })`,
        excerpt: excerpt(JSON.stringify(state.unusableSeeds[0]), 100)
      })
    )
  }
  for (const [id, lists] of state.seeds) {
    for (const which of ["citations", "references"] as const) {
      if (isCut(lists[which])) yield* pageSeedList(state, id, which, lists[which])
    }
  }
  const tally = startTally(state)
  yield* readNeighbours(state, tally, "references")
  yield* readNeighbours(state, tally, "citations")
  yield* warnings(state, tally)
  const best = tally.rank(options.top ?? defaults.top)
  const onMap = [...Array.from({ length: tally.k }, (_, i) => i), ...best.map((b) => b.at)]
  const { derivatives, foundations } = tally.around(onMap, {
    foundations: options.foundations ?? defaults.around,
    derivatives: options.derivatives ?? defaults.around
  })
  const shown = onMap.map((at) => tally.ids[at]!)
  const asked = [...new Set([...shown, ...foundations.map((f) => f.id), ...derivatives.map((d) => d.id)])]
  const found = asked.length === 0
    ? { papers: new Map<string, Paper>(), references: new Map<string, Set<string>>() }
    : yield* details(state, asked, options.fields ?? defaults.fields)
  const paper = (id: string) => found.papers.get(id) ?? new Paper({ paperId: id })
  const counted = (list: ReadonlyArray<{ readonly id: string; readonly count: number }>) =>
    list.map(({ count, id }) => new CountedPaper({ paper: paper(id), count }))
  return new Related({
    seeds: [...state.seeds.keys()].map(paper),
    notFound: state.notFound,
    papers: best.map(({ at, ...counts }) => new RelatedPaper({ paper: paper(tally.ids[at]!), ...counts })),
    links: linksAmong(state, shown, found.references),
    citing: tally.citing,
    cited: tally.cited,
    candidates: tally.candidates,
    truncated: state.truncated,
    stopped: state.stopped,
    similar: tally.similar(onMap),
    foundations: counted(foundations),
    derivatives: counted(derivatives)
  })
})

export { score } from "./relatedTally.js"
