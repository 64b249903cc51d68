/**
 * The citation graph of the materialized corpus: papers cite earlier papers, chosen by a copying
 * model (cite what others cited with probability 0.75) which yields preferential attachment and a
 * power-law in-degree: a few papers collect thousands of citations, most collect a handful.
 */
import type { Graph } from "../../Corpus.js"
import { hash, mix32, Rng, unit } from "../prng.js"

export type { Graph }

export const isInfluential = (seed: number, citing: number, cited: number): boolean =>
  unit(hash4(seed, citing, cited, 29)) < 0.12

/** `hash` of four numbers, without the array of its rest parameter: called once per edge. */
const hash4 = (a: number, b: number, c: number, d: number): number => step(step(step(step(0x9e3779b9, a), b), c), d)
const step = (h: number, p: number): number => mix32(h ^ mix32((p | 0) + Math.imul((p / 4294967296) | 0, 0x27d4eb2f)))

/** The share of later papers that cite a landmark paper directly (copying adds more). */
const LANDMARK_CITE_RATE = 0.04

export const buildGraph = (seed: number, size: number, order: Int32Array, landmarks: Int32Array): Graph => {
  const rng = new Rng(hash(seed, size, 31))
  // A stream of its own, so that the landmarks' extra citations leave the main draws unchanged.
  const landmarkRng = new Rng(hash(seed, size, 37))
  const isLandmark = new Uint8Array(size)
  for (const landmark of landmarks) isLandmark[landmark] = 1
  const landmarksSoFar: Array<number> = []
  // Typed arrays, not arrays of numbers: a 200,000-paper graph has about 2.5M edges.
  const refStartByOrder = new Int32Array(size + 1)
  let targets = new Int32Array(Math.max(1024, size * 16))
  let edges = 0
  const unresolvedRefs = new Uint8Array(size)
  // The papers a paper cites, in the order first drawn. A paper cites a dozen or so: a scan of
  // them finds a repeat sooner than a look-up in a table of every paper (a cache miss a draw).
  let seen = new Int32Array(64)
  let seenCount = 0
  let drawnAt = new Int32Array(64)
  const see = (target: number): void => {
    for (let k = 0; k < seenCount; k++) if (seen[k] === target) return
    if (seenCount === seen.length) {
      const grown = new Int32Array(seen.length * 2)
      grown.set(seen)
      seen = grown
    }
    seen[seenCount++] = target
  }
  for (let t = 0; t < size; t++) {
    refStartByOrder[t] = edges
    const citing = order[t]!
    unresolvedRefs[citing] = rng.chance(0.3) ? 1 + rng.int(3) : 0
    if (t === 0) {
      if (isLandmark[citing] === 1) landmarksSoFar.push(citing)
      continue
    }
    const wanted = Math.min(t, 2 + Math.floor(-Math.log(1 - rng.float()) * 12))
    seenCount = 0
    const edgesSoFar = edges
    // The first `wanted` draws are taken whatever they find (fewer papers than drawn cannot be
    // enough yet): drawn first, then read together, so that the reads (each a cache miss in an
    // array of millions of edges) overlap. The same draws in the same order as one at a time.
    if (wanted > drawnAt.length) drawnAt = new Int32Array(2 * wanted)
    for (let k = 0; k < wanted; k++) {
      drawnAt[k] = edgesSoFar > 0 && rng.chance(0.75) ? rng.int(edgesSoFar) : -1 - rng.int(t)
    }
    for (let k = 0; k < wanted; k++) {
      const at = drawnAt[k]!
      drawnAt[k] = at >= 0 ? targets[at]! : order[-1 - at]!
    }
    for (let k = 0; k < wanted; k++) see(drawnAt[k]!)
    for (let k = wanted; k < wanted * 3 && seenCount < wanted; k++) {
      const target = edgesSoFar > 0 && rng.chance(0.75)
        ? targets[rng.int(edgesSoFar)]!
        : order[rng.int(t)]!
      see(target)
    }
    for (const landmark of landmarksSoFar) if (landmarkRng.chance(LANDMARK_CITE_RATE)) see(landmark)
    if (isLandmark[citing] === 1) landmarksSoFar.push(citing)
    if (edges + seenCount > targets.length) {
      const grown = new Int32Array(targets.length * 2 + seenCount)
      grown.set(targets)
      targets = grown
    }
    for (let k = 0; k < seenCount; k++) targets[edges++] = seen[k]!
  }
  refStartByOrder[size] = edges
  return byPaper(seed, size, order, refStartByOrder, targets.subarray(0, edges), unresolvedRefs)
}

/**
 * The graph by paper index from the references drawn in time order (`refStartByOrder` into
 * `targets`): each paper's references sorted, the citation lists newest citing paper first.
 */
const byPaper = (
  seed: number,
  size: number,
  order: Int32Array,
  refStartByOrder: Int32Array,
  targets: Int32Array,
  unresolvedRefs: Uint8Array
): Graph => {
  const edges = targets.length
  const refCount = new Int32Array(size)
  for (let t = 0; t < size; t++) refCount[order[t]!] = refStartByOrder[t + 1]! - refStartByOrder[t]!
  const refStart = new Int32Array(size + 1)
  for (let i = 0; i < size; i++) refStart[i + 1] = refStart[i]! + refCount[i]!
  const refTargets = new Int32Array(edges)
  const citationCount = new Int32Array(size)
  const influentialCount = new Int32Array(size)
  for (let t = 0; t < size; t++) {
    const citing = order[t]!
    const from = refStartByOrder[t]!
    const to = refStartByOrder[t + 1]!
    const at = refStart[citing]!
    sortedInto(targets, from, to, refTargets, at)
    for (let e = at; e < at + to - from; e++) {
      const cited = refTargets[e]!
      citationCount[cited]!++
      if (isInfluential(seed, citing, cited)) influentialCount[cited]!++
    }
  }
  const citeStart = new Int32Array(size + 1)
  for (let j = 0; j < size; j++) citeStart[j + 1] = citeStart[j]! + citationCount[j]!
  const fill = citeStart.slice(0, size)
  const citeSources = new Int32Array(edges)
  // Newest citing papers first, as the live API lists them.
  for (let t = size - 1; t >= 0; t--) {
    const citing = order[t]!
    for (let e = refStart[citing]!; e < refStart[citing + 1]!; e++) {
      const cited = refTargets[e]!
      citeSources[fill[cited]!++] = citing
    }
  }
  return { refStart, refTargets, citeStart, citeSources, citationCount, influentialCount, unresolvedRefs }
}

/**
 * `source[from..to]` sorted ascending into `target` at `at`, by insertion: a paper cites a dozen
 * papers, and a view and a call of the typed-array sort per paper cost more than the sort.
 */
const sortedInto = (source: Int32Array, from: number, to: number, target: Int32Array, at: number): void => {
  for (let k = from; k < to; k++) {
    const x = source[k]!
    let e = at + k - from
    while (e > at && target[e - 1]! > x) {
      target[e] = target[e - 1]!
      e--
    }
    target[e] = x
  }
}
