// @ts-check
/**
 * Beside the picture (after picture.js): a paper's card, the lists (the map's papers; prior works;
 * derivative works) with their counts, the tabs between them, their order, and the search box.
 */
"use strict"
/* eslint-disable @typescript-eslint/no-unused-vars -- the later parts use what this one defines; TypeScript
   (tsconfig.page.json, noUnusedLocals) checks the parts together and finds what none uses. */

/** An entry of a list: a paper, and what its list counts of it. @typedef {{ p: Paper, count?: number, rank: number }} Entry */
/** The lists: the map's papers, prior works, derivative works. @typedef {"list" | "prior" | "derivative"} View */

/** @param {Paper} p */
const describePaper = (p) =>
  [p.year, p.venue, p.citationCount === null ? null : grouped(p.citationCount) + " citations"]
    .filter((x) => x !== null && x !== undefined).join(" \u00b7 ")

/** What ranked a paper: `s2 related`'s score and counts, `s2 graph`'s depth, or a work's count. @param {View} view @param {Entry} e */
const entryCounts = (view, e) => {
  const p = e.p
  if (view === "prior") return "cited by " + e.count + " of the map's papers"
  if (view === "derivative") return "cites " + e.count + " of the map's papers"
  if (typeof p.score !== "number" || p.seed) {
    return p.seed
      ? "seed"
      : typeof p.depth === "number"
      ? "depth " + p.depth
      : ""
  }
  return "score " + p.score.toFixed(3) + " \u00b7 co-cited " + p.coCitation + " \u00b7 coupled " + p.coupling +
    (p.citesSeed ? " \u00b7 cites a seed" : "") + (p.citedBySeed ? " \u00b7 cited by a seed" : "")
}

/** The card of a paper: title, authors, what it is, what ranked it, its page. @param {Paper} p @param {string} ranked */
const cardOf = (p, ranked) => {
  const more = p.authorCount - p.authors.length
  const authors = p.authors.join(", ") + (more > 0 ? " and " + more + " more" : "")
  const page = "https://www.semanticscholar.org/paper/" + encodeURIComponent(p.paperId)
  return [
    makeElement("h2", { id: "card-title" }, p.title ?? p.paperId),
    makeElement("div", {}, authors),
    makeElement("div", { class: "meta" }, describePaper(p)),
    makeElement("div", { class: "meta" }, ranked),
    makeElement("a", { href: page, target: "_blank", rel: "noopener" }, "Semantic Scholar")
  ]
}

/**
 * Selecting a paper (`null`: none) marks its node and list entries and shows its card.
 *
 * @param {Map<string, string>} ranked what each paper's card says ranked it, by id
 * @param {Map<string, Paper>} known every paper of the page, by id
 * @param {Drawn} drawn
 * @returns {(id: string | null) => void}
 */
const selector = (ranked, known, drawn) => {
  const card = byId("card", HTMLElement)
  /** @type {Array<Element>} */
  let marked = []
  return (id) => {
    for (const e of marked) e.classList.remove("selected")
    const p = id === null ? undefined : known.get(id)
    if (p === undefined) {
      card.hidden = true
      return
    }
    const items = drawn.items.get(p.paperId) ?? []
    const circle = drawn.circles.get(p.paperId)
    marked = circle === undefined ? items : [circle, ...items]
    for (const e of marked) e.classList.add("selected")
    items.find((item) => item.parentElement instanceof HTMLElement && !item.parentElement.hidden)
      ?.scrollIntoView({ block: "nearest" })
    card.replaceChildren(...cardOf(p, ranked.get(p.paperId) ?? ""))
    card.hidden = false
  }
}

/** The orders the lists offer: [value, name, key (higher first)]. @type {Array<[string, string, (e: Entry) => number, boolean]>} */
const orders = [
  ["rank", "rank", (e) => -e.rank, false],
  ["score", "score", (e) => e.p.seed ? Infinity : e.p.score ?? -Infinity, true],
  ["coCitation", "co-citation", (e) => e.p.seed ? Infinity : e.p.coCitation ?? -Infinity, true],
  ["coupling", "coupling", (e) => e.p.seed ? Infinity : e.p.coupling ?? -Infinity, true],
  ["citations", "citations", (e) => e.p.citationCount ?? -Infinity, false],
  ["newest", "year, newest first", (e) => e.p.year ?? -Infinity, false],
  ["oldest", "year, oldest first", (e) => -(e.p.year ?? Infinity), false]
]

/** How many entries a list shows at first, and adds each time its reader scrolls near its end. */
const listPage = 500

/**
 * A list that shows its entries a page at a time, more as its reader scrolls: a map of 33,000
 * papers listed them all at once and its page spent minutes building and laying out the list.
 *
 * @param {HTMLOListElement} list
 * @param {(e: Entry) => Element} itemOf
 * @returns {(entries: Array<Entry>) => void} shows these entries, in this order
 */
const pagedList = (list, itemOf) => {
  /** @type {Array<Entry>} */
  let order = []
  let shown = 0
  const more = () => {
    const next = order.slice(shown, shown + listPage)
    shown += next.length
    list.append(...next.map(itemOf))
  }
  list.addEventListener("scroll", () => {
    if (shown < order.length && list.scrollTop + list.clientHeight > list.scrollHeight - 600) more()
  })
  return (entries) => {
    order = entries
    shown = 0
    list.replaceChildren()
    more()
  }
}

/**
 * The lists, their tabs, their order ("Sort by": seeds first where the order is a paper's own
 * counts, ties in rank order) and the search box, which keeps what matches its words in a title,
 * an author or a venue in the lists and dims the rest in the picture.
 *
 * @param {Record<View, Array<Entry>>} lists
 * @param {boolean} scored
 * @param {Drawn} drawn
 * @param {(id: string | null) => void} select
 */
const drawSide = (lists, scored, drawn, select) => {
  /** @type {Array<[View, string]>} */
  const views = [["list", scored ? "Related" : "Papers"], ["prior", "Prior works"], ["derivative", "Derivative works"]]
  const tabs = byId("tabs", HTMLElement)
  for (const [view, name] of views) {
    if (view !== "list" && lists[view].length === 0) continue
    const tab = makeElement("button", {
      type: "button",
      role: "tab",
      "data-view": view,
      "aria-selected": String(view === "list")
    }, `${name} (${grouped(lists[view].length)})`)
    tab.addEventListener("click", () => {
      for (const [other] of views) byId(other, HTMLOListElement).hidden = other !== view
      for (const t of tabs.children) t.setAttribute("aria-selected", String(t === tab))
    })
    tabs.append(tab)
  }
  /** @type {Map<Entry, Element>} */
  const made = new Map()
  /** @param {View} view @returns {(e: Entry) => Element} */
  const itemOf = (view) => (e) => {
    const known = made.get(e)
    if (known !== undefined) return known
    const item = makeElement("li", { class: e.p.seed && view === "list" ? "seed" : "", "data-list-id": e.p.paperId })
    item.append(
      makeElement("div", {}, e.p.title ?? e.p.paperId),
      makeElement("div", { class: "meta" }, describePaper(e.p)),
      makeElement("div", { class: "counts" }, entryCounts(view, e))
    )
    item.addEventListener("click", () => select(e.p.paperId))
    drawn.items.set(e.p.paperId, [...(drawn.items.get(e.p.paperId) ?? []), item])
    made.set(e, item)
    return item
  }
  const shows = views.map((
    [view]
  ) => /** @type {const} */ ([view, pagedList(byId(view, HTMLOListElement), itemOf(view))]))
  const sort = byId("sort", HTMLSelectElement), search = byId("search", HTMLInputElement)
  for (const [value, name, , needsScore] of orders) {
    if (!needsScore || scored) sort.append(makeElement("option", { value }, name))
  }
  const apply = () => {
    const key = orders.find(([value]) => value === sort.value)?.[2] ?? ((e) => -e.rank)
    const q = search.value.trim().toLowerCase()
    /** @param {Paper} p */
    const hit = (p) =>
      q === "" || [p.title, p.venue, ...p.authors].some((t) => typeof t === "string" && t.toLowerCase().includes(q))
    for (const [view, show] of shows) {
      show(lists[view].filter((e) => hit(e.p)).sort((a, b) => key(b) - key(a) || a.rank - b.rank))
    }
    for (const e of lists.list) drawn.circles.get(e.p.paperId)?.classList.toggle("dim", !hit(e.p))
    for (const [line, { source, target }] of [...drawn.similar, ...drawn.citations]) {
      line.classList.toggle("dim", q !== "" && !(hit(source.p) && hit(target.p)))
    }
  }
  sort.addEventListener("change", apply)
  search.addEventListener("input", apply)
  apply()
}
