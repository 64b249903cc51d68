// @ts-check
/**
 * The picture (after labels.js): a line per similar pair and per citation (each kind in its own
 * group, shown or hidden by the header's boxes), a node per drawn paper over them, the labels on
 * top; and the view, which fits the layout until the reader zooms or pans.
 */
"use strict"
/* eslint-disable @typescript-eslint/no-unused-vars -- the later parts use what this one defines; TypeScript
   (tsconfig.page.json, noUnusedLocals) checks the parts together and finds what none uses. */

/**
 * @typedef {object} Drawn
 * @property {Map<string, Element>} circles each drawn paper's node, by id
 * @property {Map<string, Array<Element>>} items each paper's entries in the lists, by id
 * @property {Array<[Element, PlacedLink]>} similar each similar pair's line
 * @property {Array<[Element, PlacedLink]>} citations each citation's line (`source` cites `target`)
 * @property {Element} similarGroup
 * @property {Element} citationGroup
 */

/**
 * @param {SVGSVGElement} svg
 * @param {Layout} layout
 * @param {{ similar: Array<Similar>, citations: Array<{ from: string, to: string }> }} lines
 * @param {Look} look
 * @param {(id: string | null) => void} select
 * @returns {{ drawn: Omit<Drawn, "items">, labels: Element }}
 */
const drawPicture = (svg, layout, lines, look, select) => {
  const marker = makeElement("marker", {
    id: "arrow",
    viewBox: "0 -4 8 8",
    refX: 8,
    refY: 0,
    markerWidth: 6,
    markerHeight: 6,
    orient: "auto"
  })
  marker.append(makeElement("path", { d: "M0,-4L8,0L0,4", fill: "#8a94a3" }))
  const defs = makeElement("defs")
  defs.append(marker)
  const similarGroup = makeElement("g", { class: "similar-lines" })
  const citationGroup = makeElement("g", { class: "citation-lines" })
  const nodeGroup = makeElement("g"), labels = makeElement("g")
  svg.append(defs, similarGroup, citationGroup, nodeGroup, labels)
  /** @param {Element} group @param {string} a @param {string} b @param {number} strength @param {Record<string, string | number>} attrs @returns {Array<[Element, PlacedLink]>} */
  const lineOf = (group, a, b, strength, attrs) => {
    const source = layout.byId.get(a), target = layout.byId.get(b)
    if (source === undefined || target === undefined) return []
    const line = makeElement("line", attrs)
    group.append(line)
    return [[line, { source, target, strength }]]
  }
  const similar = lines.similar.flatMap((s) =>
    lineOf(similarGroup, s.a, s.b, s.strength, {
      class: "similar",
      "stroke-width": (0.8 + 4 * s.strength).toFixed(2),
      "stroke-opacity": (0.2 + 0.55 * s.strength).toFixed(2)
    })
  )
  const citations = lines.citations.flatMap((c) => lineOf(citationGroup, c.from, c.to, 0, { class: "link" }))
  /** @type {Map<string, Element>} */
  const circles = new Map()
  for (const { p } of layout.nodes) {
    const circle = makeElement("circle", {
      class: "node" + (p.seed ? " seed" : ""),
      r: look.radius(p),
      fill: look.colour(p.year),
      "data-paper-id": p.paperId,
      tabindex: 0
    })
    circle.append(makeElement("title", {}, (p.title ?? p.paperId) + (p.year === null ? "" : " (" + p.year + ")")))
    circle.addEventListener("click", (ev) => {
      ev.stopPropagation()
      select(p.paperId)
    })
    circle.addEventListener("keydown", (ev) => {
      if (ev instanceof KeyboardEvent && ev.key === "Enter") select(p.paperId)
    })
    nodeGroup.append(circle)
    circles.set(p.paperId, circle)
  }
  return { drawn: { circles, similar, citations, similarGroup, citationGroup }, labels }
}

/** What each element of the picture was last given, so that one left where it was is not touched. */
const placedAt = new WeakMap()

/**
 * Sets `names` of `element` to `values` (rounded to a tenth of a unit, far below a pixel), unless
 * they are what it already has: a tick late in the layout moves few papers, and each attribute
 * set costs the browser a style and paint pass on the element.
 *
 * @param {Element} element
 * @param {Array<string>} names
 * @param {Array<number>} values
 */
const placeElement = (element, names, values) => {
  const text = values.map((v) => v.toFixed(1))
  const was = placedAt.get(element)
  if (was !== undefined && text.every((t, i) => t === was[i])) return
  placedAt.set(element, text)
  text.forEach((t, i) => element.setAttribute(/** @type {string} */ (names[i]), t))
}

const centre = ["cx", "cy"], ends = ["x1", "y1", "x2", "y2"]

/**
 * Puts every node and shown line where the layout has them (a citation ends at its cited paper's
 * rim, under the arrow); only those that moved.
 *
 * @param {Layout} layout
 * @param {Look} look
 * @param {Omit<Drawn, "items">} drawn
 */
const placePicture = (layout, look, drawn) => {
  for (const n of layout.nodes) {
    const circle = drawn.circles.get(n.id)
    if (circle !== undefined) placeElement(circle, centre, [n.x ?? 0, n.y ?? 0])
  }
  if (!drawn.similarGroup.classList.contains("off")) {
    for (const [line, { source, target }] of drawn.similar) {
      placeElement(line, ends, [source.x ?? 0, source.y ?? 0, target.x ?? 0, target.y ?? 0])
    }
  }
  if (drawn.citationGroup.classList.contains("off")) return
  for (const [line, { source, target }] of drawn.citations) {
    const [sx, sy, tx, ty] = [source.x ?? 0, source.y ?? 0, target.x ?? 0, target.y ?? 0]
    const r = look.radius(target.p) + 2, dx = tx - sx, dy = ty - sy
    const length = Math.max(1e-6, Math.hypot(dx, dy))
    placeElement(line, ends, [sx, sy, tx - dx * r / length, ty - dy * r / length])
  }
}

/**
 * The picture's viewBox: the whole layout in view, a small map drawn at most 1.67 times its size,
 * until the reader zooms with the wheel or drags; from then on, theirs.
 * `changed` hears the scale (user units per screen pixel) after each change.
 *
 * @param {SVGSVGElement} svg
 * @param {Layout} layout
 * @param {(scale: number) => void} changed
 * @returns {() => void} fits the view to the layout, unless the reader has moved it
 */
const wireView = (svg, layout, changed) => {
  /** @type {Box} */
  let box = [0, 0, 0, 0]
  let moved = false
  /** @type {{ x: number, y: number, box: Box } | null} */
  let drag = null
  // Read when the window's size changes, not at each step: reading it after the step's changes
  // made the browser lay the whole picture out again at once, every frame.
  let room = { width: svg.clientWidth || 800, height: svg.clientHeight || 600 }
  addEventListener("resize", () => {
    room = { width: svg.clientWidth || 800, height: svg.clientHeight || 600 }
  })
  const scale = () => Math.max(box[2] / room.width, box[3] / room.height)
  /** @param {Box} next */
  const show = (next) => {
    box = next
    svg.setAttribute("viewBox", box.join(" "))
    changed(scale())
  }
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault()
    const k = ev.deltaY > 0 ? 1.15 : 1 / 1.15, r = svg.getBoundingClientRect()
    const fx = (ev.clientX - r.left) / r.width, fy = (ev.clientY - r.top) / r.height
    moved = true
    show([box[0] + box[2] * fx * (1 - k), box[1] + box[3] * fy * (1 - k), box[2] * k, box[3] * k])
  }, { passive: false })
  svg.addEventListener("pointerdown", (ev) => {
    moved = true
    drag = { x: ev.clientX, y: ev.clientY, box }
  })
  svg.addEventListener("pointermove", (ev) => {
    if (drag === null) return
    const r = svg.getBoundingClientRect(), s = Math.max(drag.box[2] / r.width, drag.box[3] / r.height)
    show([drag.box[0] - (ev.clientX - drag.x) * s, drag.box[1] - (ev.clientY - drag.y) * s, drag.box[2], drag.box[3]])
  })
  addEventListener("pointerup", () => {
    drag = null
  })
  /** @param {number} lo @param {number} hi @param {number} room @returns {[number, number]} */
  const span = (lo, hi, room) => {
    const width = Math.max(hi - lo + 120, room * 0.6)
    return [(lo + hi - width) / 2, width]
  }
  return () => {
    if (moved) return changed(scale())
    const xs = layout.nodes.map((n) => n.x ?? 0), ys = layout.nodes.map((n) => n.y ?? 0)
    const [bx, bw] = span(least(xs, 0), most(xs, 0), room.width)
    const [by, bh] = span(least(ys, 0), most(ys, 0), room.height)
    show([bx, by, bw, bh])
  }
}
