// @ts-check
/**
 * The map's data (after dom.js): its JSON lines read once, and which of them the picture draws.
 */
"use strict"
/* eslint-disable @typescript-eslint/no-unused-vars -- the later parts use what this one defines; TypeScript
   (tsconfig.page.json, noUnusedLocals) checks the parts together and finds what none uses. */

/**
 * @typedef {object} MapData
 * @property {Map<string, Paper>} papers each paper once, by id
 * @property {Array<Paper>} nodes the same, in the order they came
 * @property {Array<{ from: string, to: string }>} citations each citation between two papers, once
 * @property {Array<Similar>} similar each similar pair of papers, once
 * @property {Array<Work>} foundations prior works: papers cited by many of the map's, most first
 * @property {Array<Work>} derivatives derivative works: papers citing many of the map's, most first
 * @property {string} heading the map's title
 */

/**
 * The links of a list whose ends are both papers of the map, each pair once; in steps.
 *
 * @template L
 * @param {Array<L>} links
 * @param {(l: L) => [string, string]} ends
 * @param {Map<string, Paper>} papers
 * @param {boolean} ordered whether `a → b` and `b → a` differ
 * @returns {Generator<void, Array<L>, void>}
 */
function* onceEach(links, ends, papers, ordered) {
  const seen = new Set()
  /** @type {Array<L>} */
  const out = []
  for (let i = 0; i < links.length; i++) {
    if (i % stepItems === stepItems - 1) yield
    const l = /** @type {L} */ (links[i])
    const [a, b] = ends(l)
    if (!papers.has(a) || !papers.has(b) || a === b) continue
    const key = ordered || a < b ? a + "\u0000" + b : b + "\u0000" + a
    if (seen.has(key)) continue
    seen.add(key)
    out.push(l)
  }
  return out
}

/**
 * The map's data, read a few thousand lines a step (see `runInSteps`).
 *
 * @returns {Generator<void, MapData, void>}
 */
function* readMapData() {
  const text = byId("s2-map-data", HTMLScriptElement).textContent ?? ""
  /** @type {Map<string, Paper>} */
  const papers = new Map()
  /** @type {Array<{ from: string, to: string }>} */
  const links = []
  /** @type {Array<Similar>} */
  const similar = []
  /** @type {{ foundation: Array<Work>, derivative: Array<Work> }} */
  const works = { foundation: [], derivative: [] }
  /** @type {string | null} */
  let title = null
  // Line by line from the text, never split whole: a 33,000-paper map's data is 18 MB.
  for (let at = 0, read = 0; at < text.length; read++) {
    const next = text.indexOf("\n", at), end = next === -1 ? text.length : next
    const line = text.slice(at, end)
    at = end + 1
    if (read % stepItems === stepItems - 1) yield
    if (line.trim() === "") continue
    /** @type {MapLine} */
    const d = JSON.parse(line)
    if (d.type === "paper" && typeof d.paperId === "string" && !papers.has(d.paperId)) papers.set(d.paperId, d)
    else if (d.type === "link") links.push(d)
    else if (d.type === "similar" && Number.isFinite(d.strength)) similar.push(d)
    else if ((d.type === "foundation" || d.type === "derivative") && typeof d.paper?.paperId === "string") {
      works[d.type].push({ count: d.count, p: d.paper })
    } else if (d.type === "title") title = d.text
  }
  const citations = yield* onceEach(links, (l) => [l.from, l.to], papers, true)
  const nodes = [...papers.values()]
  const once = yield* onceEach(similar, (s) => [s.a, s.b], papers, false)
  return {
    papers,
    nodes,
    citations,
    similar: yield* sortedInSteps(once, (x, y) => y.strength - x.strength),
    foundations: works.foundation,
    derivatives: works.derivative,
    heading: title ?? `Citation map: ${grouped(nodes.length)} papers, ${grouped(citations.length)} citations`
  }
}

/**
 * At most this many papers and lines are drawn: an SVG of 33,000 papers and 100,000 citations took
 * seconds a frame to lay out and paint, and the page never answered its reader. The list and the
 * search keep every paper.
 */
const maxDrawn = 800
const maxLines = 2500

/**
 * Which papers the picture draws: all of them, or the seeds, then the nearest (`s2 graph`: by
 * depth), the best scored and the most cited, up to {@link maxDrawn}.
 *
 * @param {Array<Paper>} nodes
 * @returns {Generator<void, Array<Paper>, void>}
 */
function* drawnPapers(nodes) {
  if (nodes.length <= maxDrawn) return nodes
  const sorted = yield* sortedInSteps(
    nodes,
    (a, b) =>
      Number(b.seed) - Number(a.seed) || (a.depth ?? 0) - (b.depth ?? 0) || (b.score ?? 0) - (a.score ?? 0) ||
      (b.citationCount ?? 0) - (a.citationCount ?? 0)
  )
  return sorted.slice(0, maxDrawn)
}

/**
 * The lines between drawn papers, at most {@link maxLines}, the strongest first.
 *
 * @template L
 * @param {Array<L>} links
 * @param {(l: L) => [string, string]} ends
 * @param {Set<string>} drawn
 * @returns {Generator<void, Array<L>, void>}
 */
function* drawnLinks(links, ends, drawn) {
  /** @type {Array<L>} */
  const out = []
  for (let i = 0; i < links.length; i++) {
    if (i % stepItems === stepItems - 1) yield
    const l = /** @type {L} */ (links[i])
    if (out.length >= maxLines) break
    const [a, b] = ends(l)
    if (drawn.has(a) && drawn.has(b)) out.push(l)
  }
  return out
}
