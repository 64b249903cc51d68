// @ts-check
/**
 * The page (the last part of the maps' code): reads the data a few thousand lines a task
 * (`data-prepare-steps` counts them), draws the picture, the legend and the lists, and runs the
 * layout a slice per task, placing the nodes, lines and labels in the next animation frame (at most
 * once a frame, only what moved). A slice is a bounded amount of work (layout.js's `sliceWork`),
 * whatever the map's size, so the page answers its reader while it reads and lays out.
 * `data-drawn-millis` and `data-settled-millis` on the body say when it first drew and when the
 * layout came to rest and the lists were full (the tests and the bench wait for them); after each
 * slice `data-layout-slices`, `data-layout-ticks` and `data-layout-most` say how many slices ran,
 * their ticks in all and the most node-steps one took, and after each drawing `data-picture-draws`
 * and `data-picture-slices` how many drawings and of which slice (the tests check the page's
 * yielding from these, not from a clock).
 */
"use strict"

/**
 * The header's controls: size by citations or score, and which links are shown; `changed` after each.
 *
 * @param {Look} look
 * @param {Omit<Drawn, "items"> & { nodes: Map<string, MapNode> }} drawn
 * @param {boolean} similar whether the map has similar pairs
 * @param {() => void} changed
 */
const wireControls = (look, drawn, similar, changed) => {
  const size = byId("size-by", HTMLSelectElement)
  byId("size-control", HTMLElement).hidden = !look.scored
  size.addEventListener("change", () => {
    const by = size.value === "score" ? "score" : "citations"
    look.sizeBy(by)
    for (const [id, circle] of drawn.circles) {
      const n = drawn.nodes.get(id)
      if (n !== undefined) circle.setAttribute("r", String(look.radius(n.p)))
    }
    byId("size-key", HTMLElement).textContent = "size: " + by
    changed()
  })
  const showSimilar = byId("show-similar", HTMLInputElement), showCitations = byId("show-citations", HTMLInputElement)
  byId("similar-control", HTMLElement).hidden = !similar
  showSimilar.checked = similar
  // Citations are the map's only links when it has no similar pairs (`s2 graph`); else a second kind.
  showCitations.checked = !similar
  const apply = () => {
    drawn.similarGroup.classList.toggle("off", !showSimilar.checked)
    drawn.citationGroup.classList.toggle("off", !showCitations.checked)
    changed()
  }
  showSimilar.addEventListener("change", apply)
  showCitations.addEventListener("change", apply)
  apply()
}

/**
 * The lists' entries: the map's papers (seeds, best scored, nearest, most cited first), prior and
 * derivative works; sorted in steps.
 *
 * @param {MapData} data
 * @returns {Generator<void, Record<View, Array<Entry>>, void>}
 */
function* entriesOf(data) {
  const ordered = yield* sortedInSteps(
    data.nodes,
    (a, b) =>
      Number(b.seed) - Number(a.seed) || (b.score ?? 0) - (a.score ?? 0) || (a.depth ?? 0) - (b.depth ?? 0) ||
      (b.citationCount ?? 0) - (a.citationCount ?? 0)
  )
  return {
    list: ordered.map((p, rank) => ({ p, rank })),
    prior: data.foundations.map((w, rank) => ({ ...w, rank })),
    derivative: data.derivatives.map((w, rank) => ({ ...w, rank }))
  }
}

/**
 * Everything the page draws, read and ordered a step at a time (`runInSteps`): the reader's input
 * is answered between two steps, even on a 33,000-paper map.
 */
function* prepare() {
  const data = yield* readMapData()
  const shown = yield* drawnPapers(data.nodes)
  const ids = new Set(shown.map((p) => p.paperId))
  const similar = yield* drawnLinks(data.similar, (s) => [s.a, s.b], ids)
  const citations = yield* drawnLinks(data.citations, (c) => [c.from, c.to], ids)
  const lists = yield* entriesOf(data)
  /** @type {Map<string, Paper>} */
  const known = new Map()
  /** @type {Map<string, string>} */
  const ranked = new Map()
  let done = 0
  // The later list's paper wins in each: a paper of the map over the same one as a work.
  for (const view of /** @type {Array<View>} */ (["prior", "derivative", "list"])) {
    for (const e of lists[view]) {
      if (++done % stepItems === 0) yield
      known.set(e.p.paperId, e.p)
    }
  }
  for (const view of /** @type {Array<View>} */ (["derivative", "prior", "list"])) {
    for (const e of lists[view]) {
      if (++done % stepItems === 0) yield
      ranked.set(e.p.paperId, entryCounts(view, e))
    }
  }
  return { data, shown, similar, citations, lists, known, ranked }
}

/**
 * Draws what {@link prepare} made ready, a part a step (the picture, its labels, the lists), then
 * lays it out: a slice of the layout per task (a message to the page itself), and the picture
 * placed in the next animation frame, at most once per frame and only where a slice moved it, so
 * that no task holds both.
 *
 * @param {ReturnType<typeof prepare> extends Generator<void, infer T, void> ? T : never} ready
 * @returns {Generator<void, void, void>}
 */
function* showMap({ data, shown, similar, citations, lists, known, ranked }) {
  byId("heading", HTMLElement).textContent = data.heading
  document.title = data.heading
  const look = paperLook(data.nodes)
  drawLegend(look, {
    similar: similar.length > 0,
    undated: data.nodes.some((p) => typeof p.year !== "number"),
    drawn: shown.length,
    all: data.nodes.length
  })
  const layout = startLayout(
    shown,
    similar.length > 0 ? similar : citations.map((c) => ({ a: c.from, b: c.to, strength: 0.5 })),
    look
  )
  yield
  layout.run()
  yield
  const svg = byId("map", SVGSVGElement)
  /** @type {(id: string | null) => void} */
  let select = () => {}
  const picture = drawPicture(svg, layout, { similar, citations }, look, (id) => select(id))
  /** @type {Drawn} */
  const drawn = { ...picture.drawn, items: new Map() }
  select = selector(ranked, known, drawn)
  svg.addEventListener("click", () => select(null))
  yield
  const labels = drawLabels(picture.labels, layout.nodes, look)
  yield
  let scale = 1
  const fit = wireView(svg, layout, (s) => {
    scale = s
    labels.place(scale)
  })
  const body = document.body.dataset
  let draws = 0
  const place = () => {
    placePicture(layout, look, drawn)
    fit()
    body["pictureDraws"] = String(++draws)
    body["pictureSlices"] = String(layout.work.slices)
  }
  const counted = () => {
    body["layoutSlices"] = String(layout.work.slices)
    body["layoutTicks"] = String(layout.work.ticks)
    body["layoutMost"] = String(layout.work.most)
  }
  const slices = new MessageChannel()
  const frame = () => {
    if (String(layout.work.slices) !== body["pictureSlices"]) place()
    if (layout.settled()) {
      body["settledMillis"] = String(Math.round(performance.now()))
      return
    }
    slices.port2.postMessage(null)
  }
  slices.port1.onmessage = () => {
    layout.run()
    counted()
    requestAnimationFrame(frame)
  }
  wireControls(look, { ...drawn, nodes: layout.byId }, similar.length > 0, () => {
    labels.reorder()
    layout.reheat()
    place()
    if (body["settledMillis"] !== undefined) {
      delete body["settledMillis"]
      requestAnimationFrame(frame)
    }
  })
  counted()
  body["drawnMillis"] = String(Math.round(performance.now()))
  yield
  drawSide(lists, look.scored, drawn, select)
  requestAnimationFrame(frame)
}

runInSteps(
  (function*() {
    yield* showMap(yield* prepare())
  })(),
  () => {}
)
