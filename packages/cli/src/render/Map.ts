/**
 * The HTML map of `s2 related --format html` and `s2 graph --format html`: one self-contained
 * file (no CDN, no network: its Content-Security-Policy allows nothing but its own inline code)
 * that opens from `file://`. Papers are SVG nodes (`data-paper-id`), seeds ringed, sized by score
 * or citations, coloured by year; citations are links; hover shows the title, a click a card with
 * authors, year and the Semantic Scholar link; a search box dims what does not match; a list
 * beside the picture reads the same papers.
 *
 * The file is a header, one JSON line per paper or link, and a footer, so that `s2 graph` writes
 * it as it walks and a resume appends to it. The lines sit in a `<script type="application/json">`
 * with `<`, `>`, `&` and the line separators escaped, so nothing a server sends can end that
 * element; the page reads them with `JSON.parse` and writes every server string with
 * `textContent` / `setAttribute`, never as markup. The layout is d3-force (inlined, with its
 * license), run to rest before the first draw.
 *
 * @since 1.1.0
 */
import type { Paper } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import type * as D3Source from "../../scripts/d3-source.mjs"

/**
 * A paper of the map: what the card and the list show, and how the node is drawn.
 *
 * @since 1.1.0
 */
export interface MapPaper {
  readonly type: "paper"
  readonly paperId: string
  readonly title: string | null
  readonly year: number | null
  readonly authors: ReadonlyArray<string>
  readonly authorCount: number
  readonly venue: string | null
  readonly citationCount: number | null
  readonly seed: boolean
  /** `s2 related`: the score and its counts. */
  readonly score?: number
  readonly coCitation?: number
  readonly coupling?: number
  readonly citesSeed?: boolean
  readonly citedBySeed?: boolean
  /** `s2 graph`: steps from the seeds. */
  readonly depth?: number
}

/**
 * A line of the map's data: a paper, a citation (`from` cites `to`), or the map's title.
 *
 * @since 1.1.0
 */
export type MapLine =
  | MapPaper
  | { readonly type: "link"; readonly from: string; readonly to: string }
  | { readonly type: "title"; readonly text: string }

/** At most this many author names per paper: the card says how many more. */
const maxAuthors = 10

const whole = (n: unknown): number | null => typeof n === "number" && Number.isFinite(n) ? n : null

/**
 * The map's paper of a record.
 *
 * @since 1.1.0
 */
export const mapPaper = (paper: Paper, seed: boolean, extra: Partial<MapPaper> = {}): MapPaper => {
  const authors = (paper.authors ?? []).map((a) => a.name).filter((n): n is string => typeof n === "string")
  return {
    type: "paper",
    paperId: paper.paperId,
    title: typeof paper.title === "string" ? paper.title : null,
    year: whole(paper.year),
    authors: authors.slice(0, maxAuthors),
    authorCount: authors.length,
    venue: typeof paper.venue === "string" && paper.venue !== "" ? paper.venue : null,
    citationCount: whole(paper.citationCount),
    seed,
    ...extra
  }
}

/** JSON that cannot end a `<script>` element or be read as markup (and survives a JS parser too). */
const scriptSafe = (json: string): string =>
  json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/**
 * One line of the map's data, with its line end.
 *
 * @since 1.1.0
 */
export const line = (record: MapLine): string => scriptSafe(JSON.stringify(record)) + "\n"

const style = `
*{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#1d2330;background:#fafbfc}
header{display:flex;gap:1em;align-items:center;padding:.5em 1em;border-bottom:1px solid #dde1e6;background:#fff}
header h1{font-size:1.05em;margin:0;flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#search{width:22em;padding:.35em .6em;border:1px solid #b8c0cc;border-radius:4px}
main{display:flex;height:calc(100vh - 3em)}#picture{flex:1;position:relative;min-width:0}
svg{width:100%;height:100%;cursor:grab;display:block}
#list{width:24em;overflow:auto;border-left:1px solid #dde1e6;background:#fff;margin:0;padding:.5em 1em .5em 2.6em}
#list li{padding:.25em 0;cursor:pointer}#list li.hidden{display:none}#list li.seed{font-weight:600}
#list li.selected{background:#fff3c4}.meta{color:#5b6574;font-size:.9em}
circle.node{stroke:#fff;stroke-width:1}circle.node.seed{stroke:#111;stroke-width:3}
circle.node.selected{stroke:#e0a100;stroke-width:4}circle.node:focus{outline:none}.dim{opacity:.12}
line.link{stroke:#8a94a3;stroke-opacity:.45;marker-end:url(#arrow)}
#card{position:absolute;left:1em;bottom:1em;max-width:32em;background:#fff;border:1px solid #b8c0cc;
border-radius:6px;padding:.7em 1em;box-shadow:0 2px 8px rgba(0,0,0,.15)}#card h2{font-size:1em;margin:0 0 .3em}
#legend{position:absolute;right:1em;top:.6em;background:rgba(255,255,255,.85);padding:.3em .6em;font-size:.85em}
`

/**
 * What a map file starts with: the page, up to the opening of its data.
 *
 * @since 1.1.0
 */
export const header = [
  "<!doctype html>",
  "<html lang=\"en\"><head><meta charset=\"utf-8\">",
  // Nothing but the page's own inline code and styles: no request leaves a map, whatever it holds.
  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; " +
  "style-src 'unsafe-inline'; img-src data:\">",
  "<meta name=\"viewport\" content=\"width=device-width\"><title>Citation map</title>",
  `<style>${style}</style></head><body>`,
  "<header><h1 id=\"heading\">Citation map</h1><input id=\"search\" type=\"search\" " +
  "placeholder=\"Search titles, authors, venues\" aria-label=\"Search the papers\"></header>",
  "<main><div id=\"picture\"><svg id=\"map\" role=\"img\" aria-label=\"The papers and the citations between them\">" +
  "</svg><div id=\"legend\"></div><div id=\"card\" hidden></div></div>",
  "<ol id=\"list\" aria-label=\"The papers\"></ol></main>",
  "<script type=\"application/json\" id=\"s2-map-data\">",
  ""
].join("\n")

/** The page's code: reads the data, lays it out with d3-force, draws it, and wires the controls. */
const app = String.raw`
"use strict";
(() => {
  const NS = "http://www.w3.org/2000/svg";
  const lines = document.getElementById("s2-map-data").textContent.split("\n").filter((l) => l.trim() !== "");
  const papers = new Map(); const links = []; const linked = new Set();
  let title = null;
  for (const text of lines) {
    const d = JSON.parse(text);
    if (d.type === "paper" && typeof d.paperId === "string" && !papers.has(d.paperId)) papers.set(d.paperId, d);
    else if (d.type === "link") links.push(d);
    else if (d.type === "title") title = d.text;
  }
  const nodes = [...papers.values()];
  const edges = links.filter((l) => papers.has(l.from) && papers.has(l.to) && l.from !== l.to)
    .filter((l) => { const k = l.from + "\u0000" + l.to; if (linked.has(k)) return false; linked.add(k); return true; })
    .map((l) => ({ source: l.from, target: l.to }));
  const heading = document.getElementById("heading");
  heading.textContent = title ?? ("Citation map: " + nodes.length + " papers, " + edges.length + " citations");
  document.title = heading.textContent;
  const el = (name, attrs, text) => {
    const e = name === "svg" || ["g", "line", "circle", "title", "defs", "marker", "path"].includes(name)
      ? document.createElementNS(NS, name) : document.createElement(name);
    for (const [k, v] of Object.entries(attrs ?? {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const scored = nodes.some((p) => typeof p.score === "number");
  // Folds, not a spread into Math.max: a spread of a graph's 200,000 values overflows the call stack.
  const most = (list, from) => list.reduce((a, b) => b > a ? b : a, from);
  const least = (list, from) => list.reduce((a, b) => b < a ? b : a, from);
  const top = most(nodes.map((p) => scored ? (p.score ?? 0) : Math.log1p(p.citationCount ?? 0)), 1e-9);
  const radius = (p) => p.seed ? 11 : 4 + 10 * Math.sqrt((scored ? (p.score ?? 0) : Math.log1p(p.citationCount ?? 0)) / top);
  const years = nodes.map((p) => p.year).filter((y) => typeof y === "number");
  const y0 = least(years, Infinity), y1 = most(years, -Infinity);
  const colour = (y) => typeof y !== "number" ? "#9aa3ae"
    : "hsl(" + (220 - 190 * (y1 > y0 ? (y - y0) / (y1 - y0) : 1)) + ",70%,50%)";
  const legend = document.getElementById("legend");
  if (years.length > 0) {
    legend.append(el("span", { style: "color:" + colour(y0) }, "\u25cf " + y0), " \u2192 ",
      el("span", { style: "color:" + colour(y1) }, "\u25cf " + y1), " \u00b7 ringed: seeds");
  }
  const sim = d3.forceSimulation(nodes.map((p) => Object.assign({ id: p.paperId }, { p })))
    .force("link", d3.forceLink(edges).id((n) => n.id).distance(70).strength(0.2))
    .force("charge", d3.forceManyBody().strength(-140).distanceMax(500))
    .force("x", d3.forceX(0).strength(0.05)).force("y", d3.forceY(0).strength(0.05))
    .force("collide", d3.forceCollide((n) => radius(n.p) + 1.5)).alphaDecay(0.04).stop();
  // Ticks for at most "slice" ms: the first picture comes after one slice, the rest settle it frame by frame.
  const settled = () => sim.alpha() < sim.alphaMin();
  const run = (slice) => { const end = performance.now() + slice; while (!settled() && performance.now() < end) sim.tick(); };
  run(250);
  const placed = sim.nodes();
  const svg = document.getElementById("map");
  const defs = el("defs");
  const marker = el("marker", { id: "arrow", viewBox: "0 -4 8 8", refX: 8, refY: 0, markerWidth: 6, markerHeight: 6, orient: "auto" });
  marker.append(el("path", { d: "M0,-4L8,0L0,4", fill: "#8a94a3" }));
  defs.append(marker); svg.append(defs);
  const view = el("g"); svg.append(view);
  let box = [0, 0, 0, 0], moved = false;
  const setBox = () => svg.setAttribute("viewBox", box.join(" "));
  // The whole layout in view, but never drawn larger than life: a small map keeps its nodes' sizes.
  const fitBox = () => {
    if (moved) return;
    const xs = placed.map((n) => n.x), ys = placed.map((n) => n.y);
    const fit = (lo, hi, room) => { const w = Math.max(hi - lo + 60, room); return [(lo + hi - w) / 2, w]; };
    const [bx, bw] = fit(least(xs, 0), most(xs, 0), svg.clientWidth || 800);
    const [by, bh] = fit(least(ys, 0), most(ys, 0), svg.clientHeight || 600);
    box = [bx, by, bw, bh]; setBox();
  };
  const lineOf = new Map();
  for (const e of sim.force("link").links()) {
    const l = el("line", { class: "link" });
    view.append(l); lineOf.set(l, e);
  }
  const card = document.getElementById("card");
  const list = document.getElementById("list");
  const circles = new Map(), items = new Map();
  const describe = (p) => [p.year, p.venue, p.citationCount === null ? null : p.citationCount + " citations"]
    .filter((x) => x !== null && x !== undefined).join(" \u00b7 ");
  const counts = (p) => typeof p.score !== "number" ? (typeof p.depth === "number" ? "depth " + p.depth : "")
    : "score " + p.score.toFixed(3) + " \u00b7 co-cited " + p.coCitation + " \u00b7 coupled " + p.coupling +
      (p.citesSeed ? " \u00b7 cites a seed" : "") + (p.citedBySeed ? " \u00b7 cited by a seed" : "");
  const select = (id) => {
    for (const c of circles.values()) c.classList.remove("selected");
    for (const li of items.values()) li.classList.remove("selected");
    const p = papers.get(id);
    if (p === undefined) { card.hidden = true; return; }
    circles.get(id).classList.add("selected"); items.get(id).classList.add("selected");
    items.get(id).scrollIntoView({ block: "nearest" });
    const authors = p.authors.join(", ") + (p.authorCount > p.authors.length ? " and " + (p.authorCount - p.authors.length) + " more" : "");
    const link = el("a", { href: "https://www.semanticscholar.org/paper/" + encodeURIComponent(p.paperId), target: "_blank", rel: "noopener" }, "Semantic Scholar");
    card.replaceChildren(el("h2", { id: "card-title" }, p.title ?? p.paperId), el("div", {}, authors),
      el("div", { class: "meta" }, describe(p)), el("div", { class: "meta" }, (p.seed ? "seed \u00b7 " : "") + counts(p)), link);
    card.hidden = false;
  };
  for (const n of placed) {
    const p = n.p;
    const c = el("circle", { class: "node" + (p.seed ? " seed" : ""), r: radius(p), fill: colour(p.year), "data-paper-id": p.paperId, tabindex: 0 });
    c.append(el("title", {}, (p.title ?? p.paperId) + (p.year === null ? "" : " (" + p.year + ")")));
    c.addEventListener("click", (ev) => { ev.stopPropagation(); select(p.paperId); });
    c.addEventListener("keydown", (ev) => { if (ev.key === "Enter") select(p.paperId); });
    view.append(c); circles.set(p.paperId, c);
  }
  /** Puts every node and link where the layout has them (a link ends at its cited paper's rim, under the arrow). */
  const place = () => {
    for (const n of placed) { const c = circles.get(n.id); c.setAttribute("cx", n.x); c.setAttribute("cy", n.y); }
    for (const [l, e] of lineOf) {
      const r = radius(e.target.p) + 2, dx = e.target.x - e.source.x, dy = e.target.y - e.source.y;
      const len = Math.max(1e-6, Math.hypot(dx, dy));
      l.setAttribute("x1", e.source.x); l.setAttribute("y1", e.source.y);
      l.setAttribute("x2", e.target.x - dx * r / len); l.setAttribute("y2", e.target.y - dy * r / len);
    }
    fitBox();
  };
  place();
  const ordered = [...nodes].sort((a, b) => Number(b.seed) - Number(a.seed) || (b.score ?? 0) - (a.score ?? 0) ||
    (a.depth ?? 0) - (b.depth ?? 0) || (b.citationCount ?? 0) - (a.citationCount ?? 0));
  for (const p of ordered) {
    const li = el("li", { class: p.seed ? "seed" : "", "data-list-id": p.paperId });
    li.append(el("div", {}, p.title ?? p.paperId), el("div", { class: "meta" }, describe(p)));
    li.addEventListener("click", () => select(p.paperId));
    list.append(li); items.set(p.paperId, li);
  }
  document.getElementById("search").addEventListener("input", (ev) => {
    const q = ev.target.value.trim().toLowerCase();
    const hit = (p) => q === "" || [p.title, p.venue, ...p.authors].some((t) => typeof t === "string" && t.toLowerCase().includes(q));
    for (const p of nodes) {
      circles.get(p.paperId).classList.toggle("dim", !hit(p));
      items.get(p.paperId).classList.toggle("hidden", !hit(p));
    }
    for (const [l, e] of lineOf) l.classList.toggle("dim", q !== "" && !(hit(e.source.p) && hit(e.target.p)));
  });
  let drag = null;
  svg.addEventListener("click", () => select(null));
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const k = ev.deltaY > 0 ? 1.15 : 1 / 1.15, r = svg.getBoundingClientRect();
    const fx = (ev.clientX - r.left) / r.width, fy = (ev.clientY - r.top) / r.height;
    moved = true;
    box = [box[0] + box[2] * fx * (1 - k), box[1] + box[3] * fy * (1 - k), box[2] * k, box[3] * k]; setBox();
  }, { passive: false });
  svg.addEventListener("pointerdown", (ev) => { moved = true; drag = { x: ev.clientX, y: ev.clientY, box: box.slice() }; });
  svg.addEventListener("pointermove", (ev) => {
    if (drag === null) return;
    const r = svg.getBoundingClientRect(), s = Math.max(drag.box[2] / r.width, drag.box[3] / r.height);
    box = [drag.box[0] - (ev.clientX - drag.x) * s, drag.box[1] - (ev.clientY - drag.y) * s, drag.box[2], drag.box[3]]; setBox();
  });
  addEventListener("pointerup", () => { drag = null; });
  document.body.dataset.drawnMillis = String(Math.round(performance.now()));
  const settle = () => {
    if (settled()) { document.body.dataset.settledMillis = String(Math.round(performance.now())); return; }
    run(40); place(); requestAnimationFrame(settle);
  };
  requestAnimationFrame(settle);
})();
`

/** The layout library's text once read (the bundle has it built in; see scripts/d3-source.mjs). */
let d3Text: string | undefined

/** Set by scripts/bundle.mjs (esbuild `define`) in the published bundle. */
declare const S2_D3_FORCE_SOURCE: string | undefined

/** Where the sources read d3 from; a variable, so that the bundle leaves it out. */
const d3Loader = "../../scripts/d3-source.mjs"

/**
 * Makes the layout library ready for {@link footer}: built into the published `s2`, read from
 * node_modules when `s2` runs from its sources.
 *
 * @since 1.1.0
 */
export const ready: Effect.Effect<void> = Effect.suspend(() => {
  if (d3Text !== undefined) return Effect.void
  if (typeof S2_D3_FORCE_SOURCE === "string") {
    d3Text = S2_D3_FORCE_SOURCE
    return Effect.void
  }
  return Effect.promise(() => import(d3Loader) as Promise<typeof D3Source>).pipe(
    Effect.map((loader) => {
      d3Text = loader.d3ForceSource()
    })
  )
})

/**
 * What a map file ends with: the end of its data, the layout library and the page's code. Needs
 * {@link ready} first.
 *
 * @since 1.1.0
 */
export const footer = (): string => {
  if (d3Text === undefined) throw new Error("Map.footer before Map.ready: the layout library is not loaded")
  return `</script>\n<script>\n${d3Text}\n</script>\n<script>${app}</script>\n</body></html>\n`
}

/**
 * A whole map: header, lines, footer.
 *
 * @since 1.1.0
 */
export const page = (lines: ReadonlyArray<MapLine>): Effect.Effect<string> =>
  Effect.map(ready, () => header + lines.map(line).join("") + footer())
