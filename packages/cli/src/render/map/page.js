// @ts-check
/**
 * The code of the HTML maps (render/Map.ts puts this file's text into each map after d3-force, the
 * way it puts d3's: scripts/map-page-source.mjs). It reads the papers and citations from the page's
 * JSON lines, lays them out with d3-force, draws them as SVG beside a list, and wires the search
 * box, the card, zoom and drag. Whatever a server sent is written with `textContent` or
 * `setAttribute`, never as markup.
 *
 * A classic script for the browser: tsconfig.page.json checks it (DOM, no Node), eslint lints it.
 */
"use strict"

/** @typedef {import("../Map.js").MapPaper} Paper */
/** @typedef {import("../Map.js").MapLine} MapLine */
/** @typedef {import("d3-force").SimulationNodeDatum & { id: string, p: Paper }} MapNode */
/** @typedef {import("d3-force").SimulationLinkDatum<MapNode>} MapLink */
/** @typedef {{ source: MapNode, target: MapNode }} PlacedLink */
/**
 * @typedef {object} MapData
 * @property {Map<string, Paper>} papers each paper once, by id
 * @property {Array<Paper>} nodes the same, in the order they came
 * @property {Array<MapLink>} edges each citation between two papers of the map, once (`from` cites `to`)
 * @property {string} heading the map's title
 */
/**
 * @typedef {object} Look
 * @property {(p: Paper) => number} radius seeds fixed, the others by score (or citations when unscored)
 * @property {(year: number | null) => string} colour by year, grey when unknown
 * @property {[number, number] | undefined} years the first and last year, when any paper has one
 */
/**
 * @typedef {object} Layout
 * @property {Array<MapNode>} nodes
 * @property {Array<PlacedLink>} links
 * @property {() => boolean} settled whether the layout is at rest
 * @property {(millis: number) => void} run runs the layout for at most that long
 */
/**
 * @typedef {object} Drawn
 * @property {Map<string, Element>} circles each paper's node, by id
 * @property {Map<string, Element>} items each paper's entry in the list, by id
 * @property {Map<Element, PlacedLink>} lines each citation's line
 */

const svgNames = new Set(["svg", "g", "line", "circle", "title", "defs", "marker", "path"])

/**
 * An element with attributes and text, never markup.
 *
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @param {string} [text]
 * @returns {Element}
 */
const makeElement = (name, attrs = {}, text = undefined) => {
  const made = svgNames.has(name)
    ? document.createElementNS("http://www.w3.org/2000/svg", name)
    : document.createElement(name)
  for (const [key, value] of Object.entries(attrs)) made.setAttribute(key, String(value))
  if (text !== undefined) made.textContent = text
  return made
}

/**
 * An element of the page, of the kind the code needs.
 *
 * @template {Element} T
 * @param {string} id
 * @param {{ new(): T, prototype: T }} kind
 * @returns {T}
 */
const byId = (id, kind) => {
  const found = document.getElementById(id)
  if (!(found instanceof kind)) throw new Error(`the map's page has no ${kind.name} #${id}`)
  return found
}

// Folds, not a spread into Math.max: a spread of a graph's 200,000 values overflows the call stack.
/** @param {Array<number>} list @param {number} from */
const most = (list, from) => list.reduce((a, b) => b > a ? b : a, from)
/** @param {Array<number>} list @param {number} from */
const least = (list, from) => list.reduce((a, b) => b < a ? b : a, from)

/**
 * The map's data: its JSON lines, each paper once (the first), the citations between two of them.
 *
 * @returns {MapData}
 */
const readMapData = () => {
  const text = byId("s2-map-data", HTMLScriptElement).textContent ?? ""
  /** @type {Map<string, Paper>} */
  const papers = new Map()
  /** @type {Array<{ from: string, to: string }>} */
  const links = []
  /** @type {string | null} */
  let title = null
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue
    /** @type {MapLine} */
    const d = JSON.parse(line)
    if (d.type === "paper" && typeof d.paperId === "string" && !papers.has(d.paperId)) papers.set(d.paperId, d)
    else if (d.type === "link") links.push(d)
    else if (d.type === "title") title = d.text
  }
  const seen = new Set()
  const edges = links.filter((l) => papers.has(l.from) && papers.has(l.to) && l.from !== l.to)
    .filter((l) => {
      const key = l.from + "\u0000" + l.to
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    .map((l) => ({ source: l.from, target: l.to }))
  const nodes = [...papers.values()]
  return {
    papers,
    nodes,
    edges,
    heading: title ?? `Citation map: ${nodes.length} papers, ${edges.length} citations`
  }
}

/**
 * How the papers are drawn: sizes and colours.
 *
 * @param {Array<Paper>} nodes
 * @returns {Look}
 */
const paperLook = (nodes) => {
  const scored = nodes.some((p) => typeof p.score === "number")
  /** @param {Paper} p */
  const weight = (p) => scored ? (p.score ?? 0) : Math.log1p(p.citationCount ?? 0)
  const heaviest = most(nodes.map(weight), 1e-9)
  const years = nodes.flatMap((p) => typeof p.year === "number" ? [p.year] : [])
  const y0 = least(years, Infinity), y1 = most(years, -Infinity)
  return {
    radius: (p) => p.seed ? 11 : 4 + 10 * Math.sqrt(weight(p) / heaviest),
    colour: (year) =>
      typeof year !== "number" ? "#9aa3ae" : `hsl(${220 - 190 * (y1 > y0 ? (year - y0) / (y1 - y0) : 1)},70%,50%)`,
    years: years.length > 0 ? [y0, y1] : undefined
  }
}

/** @param {Look} look */
const drawLegend = (look) => {
  if (look.years === undefined) return
  const [y0, y1] = look.years
  byId("legend", HTMLElement).append(
    makeElement("span", { style: "color:" + look.colour(y0) }, "\u25cf " + y0),
    " \u2192 ",
    makeElement("span", { style: "color:" + look.colour(y1) }, "\u25cf " + y1),
    " \u00b7 ringed: seeds"
  )
}

/**
 * The force layout, stopped: the page runs it a slice at a time.
 *
 * @param {MapData} data
 * @param {Look} look
 * @returns {Layout}
 */
const startLayout = (data, look) => {
  /** @type {typeof import("d3-force")} */
  const d3 = Reflect.get(globalThis, "d3")
  /** @type {Array<MapNode>} */
  const nodes = data.nodes.map((p) => ({ id: p.paperId, p }))
  /** @type {import("d3-force").ForceLink<MapNode, MapLink>} */
  const links = d3.forceLink(data.edges)
  links.id((n) => n.id).distance(70).strength(0.2)
  const sim = d3.forceSimulation(nodes)
    .force("link", links)
    .force("charge", d3.forceManyBody().strength(-140).distanceMax(500))
    .force("x", d3.forceX(0).strength(0.05)).force("y", d3.forceY(0).strength(0.05))
    .force("collide", d3.forceCollide(/** @param {MapNode} n */ (n) => look.radius(n.p) + 1.5))
    .alphaDecay(0.04)
    .stop()
  const settled = () => sim.alpha() < sim.alphaMin()
  return {
    nodes: sim.nodes(),
    // Once the simulation has started, d3 has put the nodes themselves at each link's ends.
    links: /** @type {Array<PlacedLink>} */ (links.links()),
    settled,
    run: (millis) => {
      const end = performance.now() + millis
      while (!settled() && performance.now() < end) sim.tick()
    }
  }
}

/**
 * The picture: an arrow marker, a line per citation and a node per paper (drawn over the lines).
 *
 * @param {SVGSVGElement} svg
 * @param {Layout} layout
 * @param {Look} look
 * @param {Drawn} drawn
 * @param {(id: string | null) => void} select
 */
const drawPicture = (svg, layout, look, drawn, select) => {
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
  const group = makeElement("g")
  svg.append(defs, group)
  for (const link of layout.links) {
    const line = makeElement("line", { class: "link" })
    group.append(line)
    drawn.lines.set(line, link)
  }
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
    group.append(circle)
    drawn.circles.set(p.paperId, circle)
  }
}

/**
 * Puts every node and line where the layout has them (a line ends at its cited paper's rim, under
 * the arrow).
 *
 * @param {Layout} layout
 * @param {Look} look
 * @param {Drawn} drawn
 */
const placePicture = (layout, look, drawn) => {
  for (const n of layout.nodes) {
    const circle = drawn.circles.get(n.id)
    circle?.setAttribute("cx", String(n.x))
    circle?.setAttribute("cy", String(n.y))
  }
  for (const [line, { source, target }] of drawn.lines) {
    const [sx, sy, tx, ty] = [source.x ?? 0, source.y ?? 0, target.x ?? 0, target.y ?? 0]
    const r = look.radius(target.p) + 2, dx = tx - sx, dy = ty - sy
    const length = Math.max(1e-6, Math.hypot(dx, dy))
    line.setAttribute("x1", String(sx))
    line.setAttribute("y1", String(sy))
    line.setAttribute("x2", String(tx - dx * r / length))
    line.setAttribute("y2", String(ty - dy * r / length))
  }
}

/**
 * The picture's viewBox: the whole layout in view, never drawn larger than life (a small map keeps
 * its nodes' sizes), until the reader zooms with the wheel or drags; from then on, theirs.
 *
 * @param {SVGSVGElement} svg
 * @param {Layout} layout
 * @returns {() => void} fits the view to the layout, unless the reader has moved it
 */
const wireView = (svg, layout) => {
  /** @type {[number, number, number, number]} */
  let box = [0, 0, 0, 0]
  let moved = false
  /** @type {{ x: number, y: number, box: [number, number, number, number] } | null} */
  let drag = null
  /** @param {[number, number, number, number]} next */
  const show = (next) => {
    box = next
    svg.setAttribute("viewBox", box.join(" "))
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
    const width = Math.max(hi - lo + 60, room)
    return [(lo + hi - width) / 2, width]
  }
  return () => {
    if (moved) return
    const xs = layout.nodes.map((n) => n.x ?? 0), ys = layout.nodes.map((n) => n.y ?? 0)
    const [bx, bw] = span(least(xs, 0), most(xs, 0), svg.clientWidth || 800)
    const [by, bh] = span(least(ys, 0), most(ys, 0), svg.clientHeight || 600)
    show([bx, by, bw, bh])
  }
}

/** @param {Paper} p */
const describePaper = (p) =>
  [p.year, p.venue, p.citationCount === null ? null : p.citationCount + " citations"]
    .filter((x) => x !== null && x !== undefined).join(" \u00b7 ")

/** What ranked the paper: `s2 related`'s score and counts, or `s2 graph`'s depth. @param {Paper} p */
const paperCounts = (p) =>
  typeof p.score !== "number"
    ? (typeof p.depth === "number" ? "depth " + p.depth : "")
    : "score " + p.score.toFixed(3) + " \u00b7 co-cited " + p.coCitation + " \u00b7 coupled " + p.coupling +
      (p.citesSeed ? " \u00b7 cites a seed" : "") + (p.citedBySeed ? " \u00b7 cited by a seed" : "")

/** The card of a paper: title, authors, what it is, what ranked it, its page. @param {Paper} p */
const cardOf = (p) => {
  const more = p.authorCount - p.authors.length
  const authors = p.authors.join(", ") + (more > 0 ? " and " + more + " more" : "")
  const page = "https://www.semanticscholar.org/paper/" + encodeURIComponent(p.paperId)
  const ranked = [p.seed ? "seed" : "", paperCounts(p)].filter((s) => s !== "").join(" \u00b7 ")
  return [
    makeElement("h2", { id: "card-title" }, p.title ?? p.paperId),
    makeElement("div", {}, authors),
    makeElement("div", { class: "meta" }, describePaper(p)),
    makeElement("div", { class: "meta" }, ranked),
    makeElement("a", { href: page, target: "_blank", rel: "noopener" }, "Semantic Scholar")
  ]
}

/**
 * Selecting a paper (`null`: none) marks its node and list entry and shows its card.
 *
 * @param {Map<string, Paper>} papers
 * @param {Drawn} drawn
 * @returns {(id: string | null) => void}
 */
const selector = (papers, drawn) => {
  const card = byId("card", HTMLElement)
  return (id) => {
    for (const circle of drawn.circles.values()) circle.classList.remove("selected")
    for (const item of drawn.items.values()) item.classList.remove("selected")
    const p = id === null ? undefined : papers.get(id)
    if (p === undefined) {
      card.hidden = true
      return
    }
    drawn.circles.get(p.paperId)?.classList.add("selected")
    const item = drawn.items.get(p.paperId)
    item?.classList.add("selected")
    item?.scrollIntoView({ block: "nearest" })
    card.replaceChildren(...cardOf(p))
    card.hidden = false
  }
}

/**
 * The list beside the picture: seeds first, then by score, depth and citations.
 *
 * @param {Array<Paper>} nodes
 * @param {Drawn} drawn
 * @param {(id: string | null) => void} select
 */
const drawList = (nodes, drawn, select) => {
  const list = byId("list", HTMLOListElement)
  const ordered = [...nodes].sort((a, b) =>
    Number(b.seed) - Number(a.seed) || (b.score ?? 0) - (a.score ?? 0) || (a.depth ?? 0) - (b.depth ?? 0) ||
    (b.citationCount ?? 0) - (a.citationCount ?? 0)
  )
  for (const p of ordered) {
    const item = makeElement("li", { class: p.seed ? "seed" : "", "data-list-id": p.paperId })
    item.append(makeElement("div", {}, p.title ?? p.paperId), makeElement("div", { class: "meta" }, describePaper(p)))
    item.addEventListener("click", () => select(p.paperId))
    list.append(item)
    drawn.items.set(p.paperId, item)
  }
}

/**
 * The search box: what does not match its words in a title, an author or a venue is dimmed in the
 * picture and hidden in the list.
 *
 * @param {Array<Paper>} nodes
 * @param {Drawn} drawn
 */
const wireSearch = (nodes, drawn) => {
  const search = byId("search", HTMLInputElement)
  search.addEventListener("input", () => {
    const q = search.value.trim().toLowerCase()
    /** @param {Paper} p */
    const hit = (p) =>
      q === "" || [p.title, p.venue, ...p.authors].some((t) => typeof t === "string" && t.toLowerCase().includes(q))
    for (const p of nodes) {
      drawn.circles.get(p.paperId)?.classList.toggle("dim", !hit(p))
      drawn.items.get(p.paperId)?.classList.toggle("hidden", !hit(p))
    }
    for (const [line, { source, target }] of drawn.lines) {
      line.classList.toggle("dim", q !== "" && !(hit(source.p) && hit(target.p)))
    }
  })
}

/**
 * The page: the first picture after a quarter of a second of layout, then the layout settles a
 * slice per frame. `data-drawn-millis` and `data-settled-millis` on the body say when (the tests
 * and the bench wait for them).
 */
const showMap = () => {
  const data = readMapData()
  byId("heading", HTMLElement).textContent = data.heading
  document.title = data.heading
  const look = paperLook(data.nodes)
  drawLegend(look)
  const layout = startLayout(data, look)
  layout.run(250)
  const svg = byId("map", SVGSVGElement)
  /** @type {Drawn} */
  const drawn = { circles: new Map(), items: new Map(), lines: new Map() }
  const select = selector(data.papers, drawn)
  drawPicture(svg, layout, look, drawn, select)
  const fit = wireView(svg, layout)
  const place = () => {
    placePicture(layout, look, drawn)
    fit()
  }
  place()
  drawList(data.nodes, drawn, select)
  wireSearch(data.nodes, drawn)
  svg.addEventListener("click", () => select(null))
  document.body.dataset["drawnMillis"] = String(Math.round(performance.now()))
  const settle = () => {
    if (layout.settled()) {
      document.body.dataset["settledMillis"] = String(Math.round(performance.now()))
      return
    }
    layout.run(40)
    place()
    requestAnimationFrame(settle)
  }
  requestAnimationFrame(settle)
}

showMap()
