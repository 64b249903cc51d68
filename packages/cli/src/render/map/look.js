// @ts-check
/**
 * How the papers look (after data.js): their size (by citations or by score, the reader's choice),
 * their colour (by year), their short label, and the legend that says so.
 */
"use strict"
/* eslint-disable @typescript-eslint/no-unused-vars -- the later parts use what this one defines; TypeScript
   (tsconfig.page.json, noUnusedLocals) checks the parts together and finds what none uses. */

/**
 * @typedef {object} Look
 * @property {(p: Paper) => number} radius by the chosen weight; seeds at least mid-sized
 * @property {(year: number | null) => string} colour by year, grey when unknown
 * @property {[number, number] | undefined} years the first and last year, when any paper has one
 * @property {boolean} scored whether the papers have scores (`s2 related`)
 * @property {(by: "citations" | "score") => void} sizeBy chooses the weight
 */

/** @param {number} t in 0..1 */
const hue = (t) => `hsl(${220 - 190 * t},70%,50%)`

/**
 * @param {Array<Paper>} nodes
 * @returns {Look}
 */
const paperLook = (nodes) => {
  const scored = nodes.some((p) => typeof p.score === "number" && !p.seed)
  /** @type {Record<"citations" | "score", (p: Paper) => number>} */
  const weights = {
    citations: (p) => Math.log1p(Math.max(0, p.citationCount ?? 0)),
    score: (p) => p.seed ? range.score[1] : Math.max(0, p.score ?? 0)
  }
  // From the least to the most of the map, not from zero: the papers of a map are often all well
  // cited, and sized from zero they looked the same.
  /** @param {Array<number>} ws @returns {[number, number]} */
  const span = (ws) => [least(ws, Infinity), most(ws, -Infinity)]
  const range = {
    citations: span(nodes.map(weights.citations)),
    score: span(nodes.filter((p) => !p.seed).map(weights.score))
  }
  /** @type {"citations" | "score"} */
  let by = "citations"
  const years = nodes.flatMap((p) => typeof p.year === "number" ? [p.year] : [])
  const y0 = least(years, Infinity), y1 = most(years, -Infinity)
  return {
    radius: (p) => {
      const [lo, hi] = range[by]
      const r = 4 + 16 * (hi > lo ? (weights[by](p) - lo) / (hi - lo) : 0.5)
      return p.seed ? Math.max(r, 10) : r
    },
    colour: (year) => typeof year !== "number" ? "#9aa3ae" : hue(y1 > y0 ? (year - y0) / (y1 - y0) : 1),
    years: years.length > 0 ? [y0, y1] : undefined,
    scored,
    sizeBy: (next) => {
      by = next
    }
  }
}

/**
 * A paper's short label, as people name papers: the first author's family name and the year
 * ("Vaswani 2017"), or the title's first words when no author is known.
 *
 * @param {Paper} p
 */
const labelOf = (p) => {
  const first = p.authors[0]?.trim().split(/\s+/).pop()?.replace(/[.,;]+$/, (_) => "")
  const name = first !== undefined && first !== "" ? first : (p.title ?? p.paperId).split(/\s+/).slice(0, 3).join(" ")
  const short = name.length > 24 ? name.slice(0, 23) + "\u2026" : name
  return typeof p.year === "number" ? short + " " + p.year : short
}

/**
 * Year ticks for the legend's bar: the first and last, and round years between, each at least a
 * fifth of the bar from the next (4-digit years on a 155-pixel bar overlap when closer: "19481960").
 * @param {number} y0 @param {number} y1
 */
const yearTicks = (y0, y1) => {
  if (y1 <= y0) return [y0]
  const step = [1, 2, 5, 10, 20, 25, 50, 100].find((s) => (y1 - y0) / s <= 4) ?? 200
  const gap = Math.max(0.8 * step, (y1 - y0) / 5)
  const ticks = [y0]
  for (let y = Math.ceil((y0 + 1) / step) * step; y < y1; y += step) {
    if (y - y0 >= gap && y1 - y >= gap) ticks.push(y)
  }
  return [...ticks, y1]
}

/** A small picture for the legend's keys. @param {Array<Element>} parts */
const keyPicture = (...parts) => {
  const svg = makeElement("svg", { viewBox: "0 0 22 10", "aria-hidden": "true" })
  svg.append(...parts)
  return svg
}

/**
 * The legend: the year gradient with its ticks, what a ring, a size and each kind of line mean,
 * and a note when the picture draws only some of the papers.
 *
 * @param {Look} look
 * @param {{ similar: boolean, undated: boolean, drawn: number, all: number }} shown
 */
const drawLegend = (look, shown) => {
  const legend = byId("legend", HTMLElement)
  if (look.years !== undefined) {
    const [y0, y1] = look.years
    const stops = [0, 0.25, 0.5, 0.75, 1].map(hue).join(",")
    const ticks = makeElement("div", { class: "ticks" })
    for (const y of yearTicks(y0, y1)) {
      ticks.append(makeElement("span", { style: `left:${y1 > y0 ? 100 * (y - y0) / (y1 - y0) : 50}%` }, String(y)))
    }
    legend.append(
      makeElement("div", {}, "Colour: year published"),
      makeElement("div", { class: "bar", style: `background:linear-gradient(to right,${stops})` }),
      ticks
    )
  }
  /** @param {Element} picture @param {string} text @param {string} [id] */
  const key = (picture, text, id = "") => {
    const row = makeElement("div", { class: "key" })
    row.append(picture, makeElement("span", id === "" ? {} : { id }, text))
    return row
  }
  const circle = (/** @type {Record<string, string | number>} */ attrs) => makeElement("circle", { cy: 5, ...attrs })
  const line = (/** @type {Record<string, string | number>} */ attrs) =>
    makeElement("line", { x1: 1, y1: 5, x2: 21, y2: 5, ...attrs })
  legend.append(
    ...(shown.undated ? [key(keyPicture(circle({ cx: 11, r: 4, fill: look.colour(null) })), "year not known")] : []),
    key(keyPicture(circle({ cx: 11, r: 4, fill: "#fff", stroke: "#111", "stroke-width": 2 })), "seed (ringed)"),
    key(
      keyPicture(circle({ cx: 4, r: 2, fill: "#8a94a3" }), circle({ cx: 15, r: 4.5, fill: "#8a94a3" })),
      "size: citations",
      "size-key"
    ),
    ...(shown.similar
      ? [key(keyPicture(line({ class: "similar", "stroke-width": 2.5 })), "similar: co-cited, or sharing references")]
      : []),
    key(keyPicture(line({ stroke: "#8a94a3", "stroke-width": 1.5 })), "citation: arrow to the cited paper")
  )
  if (shown.drawn < shown.all) {
    legend.append(
      makeElement(
        "div",
        { class: "note", id: "drawn-note" },
        `Drawn: ${grouped(shown.drawn)} of ${grouped(shown.all)} papers (the seeds, the nearest, the most cited); ` +
          "the list and the search hold them all."
      )
    )
  }
}
