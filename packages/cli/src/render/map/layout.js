// @ts-check
/**
 * The layout (after look.js): d3-force over the drawn papers, pulled together along the links that
 * rank them (similarity when the map has it, else citations), run a slice per frame. A slice is a
 * fixed amount of work, not of time: {@link sliceWork} node-steps (ticks times drawn papers), so
 * the layout of a map always takes the same number of slices, each as short on a fast machine as
 * the map's size allows, and the page's reader is answered between any two of them whatever the
 * machine's load (the tests check the counts; the bench times them).
 */
"use strict"
/* eslint-disable @typescript-eslint/no-unused-vars -- the later parts use what this one defines; TypeScript
   (tsconfig.page.json, noUnusedLocals) checks the parts together and finds what none uses. */

/**
 * @typedef {object} Layout
 * @property {Array<MapNode>} nodes
 * @property {Map<string, MapNode>} byId
 * @property {() => boolean} settled whether the layout is at rest
 * @property {() => void} run runs one slice of the layout: at most {@link sliceWork} node-steps
 * @property {() => void} reheat sets it moving again (after the sizes change)
 * @property {{ slices: number, ticks: number, most: number }} work slices run, ticks in all, and
 *   the most node-steps one slice took
 */

/**
 * The node-steps (a tick of d3-force moves every drawn paper once) of one slice, at least one
 * tick: 4 ticks of a 500-paper map, 3 of an 800-paper one. A tick of 500 papers takes about a
 * millisecond on an idle machine, so a slice takes a few ms there (6,000 node-steps took 136-558
 * ms a slice at load 14-18 on 2 cores, with the drawing) and the layout (about 170 ticks from
 * alpha 1 to rest) some 45-60 slices, one per frame.
 */
const sliceWork = 2400

/**
 * @param {Array<Paper>} papers the drawn papers
 * @param {Array<{ a: string, b: string, strength: number }>} pulls what pulls two papers together
 * @param {Look} look
 * @returns {Layout}
 */
const startLayout = (papers, pulls, look) => {
  /** @type {typeof import("d3-force")} */
  const d3 = Reflect.get(globalThis, "d3")
  /** @type {Array<MapNode>} */
  const nodes = papers.map((p) => ({ id: p.paperId, p }))
  const byId = new Map(nodes.map((n) => [n.id, n]))
  /** @type {Map<string, number>} */
  const degree = new Map()
  for (const { a, b } of pulls) for (const id of [a, b]) degree.set(id, (degree.get(id) ?? 0) + 1)
  /** @type {Array<import("d3-force").SimulationLinkDatum<MapNode> & { strength: number }>} */
  const links = pulls.map((l) => ({ source: l.a, target: l.b, strength: l.strength }))
  /** @param {string | number | MapNode} end */
  const idOf = (end) => typeof end === "object" ? end.id : String(end)
  /** @type {import("d3-force").ForceLink<MapNode, import("d3-force").SimulationLinkDatum<MapNode> & { strength: number }>} */
  const force = d3.forceLink(links)
  // Stronger pairs closer and pulled harder; d3's own damping by the busier end keeps hubs stable.
  force.id((n) => n.id).distance((l) => 30 + 80 * (1 - l.strength))
    .strength((l) =>
      (0.25 + 0.75 * l.strength) / Math.min(degree.get(idOf(l.source)) ?? 1, degree.get(idOf(l.target)) ?? 1)
    )
  const sim = d3.forceSimulation(nodes)
    .force("link", force)
    .force("charge", d3.forceManyBody().strength(-120).distanceMax(400).theta(1.2))
    .force("x", d3.forceX(0).strength(0.06)).force("y", d3.forceY(0).strength(0.06))
    .force("collide", d3.forceCollide(/** @param {MapNode} n */ (n) => look.radius(n.p) + 2))
    .alphaDecay(0.04)
    .stop()
  const settled = () => sim.alpha() < sim.alphaMin()
  const perSlice = Math.max(1, Math.floor(sliceWork / Math.max(1, nodes.length)))
  const work = { slices: 0, ticks: 0, most: 0 }
  return {
    nodes,
    byId,
    settled,
    work,
    run: () => {
      let ticks = 0
      for (; ticks < perSlice && !settled(); ticks++) sim.tick()
      work.slices += 1
      work.ticks += ticks
      work.most = Math.max(work.most, ticks * nodes.length)
    },
    reheat: () => {
      sim.force("collide", d3.forceCollide(/** @param {MapNode} n */ (n) => look.radius(n.p) + 2))
      sim.alpha(Math.max(sim.alpha(), 0.3))
    }
  }
}
