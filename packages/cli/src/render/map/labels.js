// @ts-check
/**
 * The papers' short labels (after layout.js): "Vaswani 2017" beside the seeds, the largest and the
 * most related papers, each placed where it overlaps no other label and no labelled paper's node
 * (right of its node, else left, above, below), and left out where none fits; seeds first, and a
 * seed's label only keeps clear of the other labels. Placed again at each
 * step of the layout and each zoom, at the same size on screen.
 */
"use strict"
/* eslint-disable @typescript-eslint/no-unused-vars -- the later parts use what this one defines; TypeScript
   (tsconfig.page.json, noUnusedLocals) checks the parts together and finds what none uses. */

/** At most this many papers are labelled (the best first); the others show their title on hover. */
const maxLabels = 250

/** Whether two boxes overlap. @param {Box} a @param {Box} b */
const overlaps = (a, b) => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]

/**
 * The papers to label, best first: seeds, then those ranked high by size or by score.
 *
 * @param {Array<MapNode>} nodes
 * @param {Look} look
 * @returns {Array<MapNode>}
 */
const labelOrder = (nodes, look) => {
  const bySize = [...nodes].sort((a, b) => look.radius(b.p) - look.radius(a.p))
  const byScore = [...nodes].sort((a, b) => (b.p.score ?? 0) - (a.p.score ?? 0))
  /** @type {Map<MapNode, number>} */
  const rank = new Map()
  bySize.forEach((n, i) => rank.set(n, i))
  if (look.scored) byScore.forEach((n, i) => rank.set(n, Math.min(rank.get(n) ?? i, i)))
  return [...nodes].sort((a, b) => Number(b.p.seed) - Number(a.p.seed) || (rank.get(a) ?? 0) - (rank.get(b) ?? 0))
    .slice(0, maxLabels)
}

/**
 * The labels, drawn into `group`; the function returned places them for `scale` (user units per
 * screen pixel).
 *
 * @param {Element} group
 * @param {Array<MapNode>} nodes
 * @param {Look} look
 * @returns {{ place: (scale: number) => void, reorder: () => void }}
 */
const drawLabels = (group, nodes, look) => {
  let order = labelOrder(nodes, look)
  /** @type {Map<MapNode, { text: Element, w: number, h: number, dy: number, off: boolean, scale: number }>} */
  const made = new Map()
  for (const n of order) {
    const text = makeElement("text", { class: "label", "font-size": 11, x: 0, y: 0 }, labelOf(n.p))
    group.append(text)
    made.set(n, { text, w: 0, h: 0, dy: 0, off: false, scale: 0 })
  }
  // Measured once, at 11 units, all in one layout of the page: a label's box is then its size times the scale.
  for (const m of made.values()) {
    const box = m.text instanceof SVGGraphicsElement ? m.text.getBBox() : { width: 66, height: 13, y: -10 }
    Object.assign(m, { w: box.width, h: box.height, dy: box.y })
  }
  const place = (/** @type {number} */ s) => {
    /** @type {Array<Box>} */
    const taken = order.map((n) => {
      const r = look.radius(n.p), x = n.x ?? 0, y = n.y ?? 0
      return [x - r, y - r, 2 * r, 2 * r]
    })
    order.forEach((n, i) => {
      const m = made.get(n)
      if (m === undefined) return
      const r = look.radius(n.p), x = n.x ?? 0, y = n.y ?? 0, w = m.w * s, h = m.h * s, gap = 3 * s
      /** @type {Array<Box>} */
      const tries = [[x + r + gap, y - h / 2, w, h], [x - r - gap - w, y - h / 2, w, h], [
        x - w / 2,
        y - r - gap - h,
        w,
        h
      ], [
        x - w / 2,
        y + r + gap,
        w,
        h
      ]]
      // A seed's label may cover other papers' nodes (never a label): every seed keeps its name.
      const from = n.p.seed ? order.length : 0
      const fits = tries.find((box) => !taken.some((t, j) => j >= from && j !== i && overlaps(box, t)))
      if (m.off !== (fits === undefined)) m.text.classList.toggle("off", fits === undefined)
      m.off = fits === undefined
      if (fits === undefined) return
      taken.push(fits)
      m.text.setAttribute("x", fits[0].toFixed(1))
      m.text.setAttribute("y", (fits[1] - m.dy * s).toFixed(1))
      if (m.scale === s) return
      m.scale = s
      m.text.setAttribute("font-size", String(11 * s))
      m.text.setAttribute("stroke-width", String(3 * s))
    })
  }
  return {
    place,
    reorder: () => {
      order = labelOrder(order, look)
    }
  }
}
