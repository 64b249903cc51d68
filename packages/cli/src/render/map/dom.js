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

/**
 * How many items (lines read, papers compared, links checked) one step of the page's preparation
 * handles before it lets the browser answer its reader: a 33,000-paper map read in one task took
 * 1.6-4.6 s at load 15 on 2 cores, and no click was answered meanwhile.
 */
const stepItems = 4000

/**
 * Runs `steps` one piece per task (a message to the page itself after each `yield`: no timer, so
 * no clamping), counting them in `data-prepare-steps`, then `done` with what it returned.
 *
 * @template T
 * @param {Generator<void, T, void>} steps
 * @param {(value: T) => void} done
 */
const runInSteps = (steps, done) => {
  const channel = new MessageChannel()
  let count = 0
  channel.port1.onmessage = () => {
    const next = steps.next()
    document.body.dataset["prepareSteps"] = String(++count)
    if (next.done === true) {
      channel.port1.close()
      done(next.value)
    } else channel.port2.postMessage(null)
  }
  channel.port2.postMessage(null)
}

/**
 * `items` sorted by `compare` (stable, as `Array.prototype.sort`): a merge sort that yields after
 * about {@link stepItems} items merged, so that sorting 33,000 papers is many short tasks.
 *
 * @template T
 * @param {Array<T>} items
 * @param {(a: T, b: T) => number} compare
 * @returns {Generator<void, Array<T>, void>}
 */
function* sortedInSteps(items, compare) {
  let from = [...items], to = [...items], merged = 0
  /** @param {number} i @returns {T} */
  const at = (i) => /** @type {T} */ (from[i])
  for (let width = 1; width < from.length; width *= 2) {
    for (let lo = 0; lo < from.length; lo += 2 * width) {
      const mid = Math.min(lo + width, from.length), hi = Math.min(lo + 2 * width, from.length)
      let i = lo, j = mid, k = lo
      // The left run's item first unless the right's is strictly smaller: stable.
      while (i < mid && j < hi) to[k++] = compare(at(j), at(i)) < 0 ? at(j++) : at(i++)
      while (i < mid) to[k++] = at(i++)
      while (j < hi) to[k++] = at(j++)
      merged += hi - lo
      if (merged >= stepItems) {
        merged = 0
        yield
      }
    }
    ;[from, to] = [to, from]
  }
  return from
}
