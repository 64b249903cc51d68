// @ts-check
/**
 * The page (the last part of the maps' code): reads the data, draws the picture, the legend and
 * the lists, and runs the layout a slice per frame, placing the nodes, lines and labels after each.
 * A slice is a bounded amount of work (layout.js's `sliceWork`), whatever the map's size, so the
 * page answers its reader while it lays out. `data-drawn-millis` and `data-settled-millis` on the
 * body say when it first drew and when the layout came to rest and the lists were full (the tests
 * and the bench wait for them); after each slice `data-layout-slices`, `data-layout-ticks` and
 * `data-layout-most` say how many slices ran, their ticks in all and the most node-steps one took
 * (the tests check the layout's yielding from these, not from a clock).
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

/** @param {MapData} data @returns {Record<View, Array<Entry>>} */
const entriesOf = (data) => {
  const ordered = [...data.nodes].sort((a, b) =>
    Number(b.seed) - Number(a.seed) || (b.score ?? 0) - (a.score ?? 0) || (a.depth ?? 0) - (b.depth ?? 0) ||
    (b.citationCount ?? 0) - (a.citationCount ?? 0)
  )
  return {
    list: ordered.map((p, rank) => ({ p, rank })),
    prior: data.foundations.map((w, rank) => ({ ...w, rank })),
    derivative: data.derivatives.map((w, rank) => ({ ...w, rank }))
  }
}

const showMap = () => {
  const data = readMapData()
  byId("heading", HTMLElement).textContent = data.heading
  document.title = data.heading
  const look = paperLook(data.nodes)
  const shown = drawnPapers(data.nodes)
  const ids = new Set(shown.map((p) => p.paperId))
  const similar = drawnLinks(data.similar, (s) => [s.a, s.b], ids)
  const citations = drawnLinks(data.citations, (c) => [c.from, c.to], ids)
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
  layout.run()
  const svg = byId("map", SVGSVGElement)
  const lists = entriesOf(data)
  /** @type {Map<string, Paper>} */
  const known = new Map([...lists.prior, ...lists.derivative, ...lists.list].map((e) => [e.p.paperId, e.p]))
  /** @type {Map<string, string>} */
  const ranked = new Map()
  for (const view of /** @type {Array<View>} */ (["derivative", "prior", "list"])) {
    for (const e of lists[view]) ranked.set(e.p.paperId, entryCounts(view, e))
  }
  /** @type {(id: string | null) => void} */
  let select = () => {}
  const picture = drawPicture(svg, layout, { similar, citations }, look, (id) => select(id))
  /** @type {Drawn} */
  const drawn = { ...picture.drawn, items: new Map() }
  select = selector(ranked, known, drawn)
  const labels = drawLabels(picture.labels, layout.nodes, look)
  let scale = 1
  const fit = wireView(svg, layout, (s) => {
    scale = s
    labels.place(scale)
  })
  const place = () => {
    placePicture(layout, look, drawn)
    fit()
  }
  const counted = () => {
    document.body.dataset["layoutSlices"] = String(layout.work.slices)
    document.body.dataset["layoutTicks"] = String(layout.work.ticks)
    document.body.dataset["layoutMost"] = String(layout.work.most)
  }
  const settle = () => {
    if (layout.settled()) {
      document.body.dataset["settledMillis"] = String(Math.round(performance.now()))
      return
    }
    layout.run()
    place()
    counted()
    requestAnimationFrame(settle)
  }
  wireControls(look, { ...drawn, nodes: layout.byId }, similar.length > 0, () => {
    labels.reorder()
    layout.reheat()
    place()
    if (document.body.dataset["settledMillis"] !== undefined) {
      delete document.body.dataset["settledMillis"]
      requestAnimationFrame(settle)
    }
  })
  svg.addEventListener("click", () => select(null))
  counted()
  document.body.dataset["drawnMillis"] = String(Math.round(performance.now()))
  drawSide(lists, look.scored, drawn, select)
  requestAnimationFrame(settle)
}

showMap()
