// @ts-check
/**
 * The first part of the HTML maps' page code (scripts/map-page-source.mjs joins this folder's
 * files, in the order it names, into one classic script): the types every part shares, and how an
 * element is made. Whatever a server sent is written with `textContent` or `setAttribute`, never
 * as markup.
 *
 * Classic scripts for the browser: tsconfig.page.json checks them together (DOM, no Node), eslint
 * lints them.
 */
"use strict"
/* eslint-disable @typescript-eslint/no-unused-vars -- the later parts use what this one defines; TypeScript
   (tsconfig.page.json, noUnusedLocals) checks the parts together and finds what none uses. */

/** @typedef {import("../Map.js").MapPaper} Paper */
/** @typedef {import("../Map.js").MapLine} MapLine */
/** @typedef {import("../Map.js").MapSimilar} Similar */
/** @typedef {{ count: number, p: Paper }} Work */
/** @typedef {import("d3-force").SimulationNodeDatum & { id: string, p: Paper }} MapNode */
/** @typedef {{ source: MapNode, target: MapNode, strength: number }} PlacedLink */
/** @typedef {[number, number, number, number]} Box x, y, width, height */

const svgNames = new Set(["svg", "g", "line", "circle", "title", "defs", "marker", "path", "text"])

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

/** A count with thousands separators. @param {number} n */
const grouped = (n) => n.toLocaleString("en-US")
