/**
 * The HTML map of `s2 related --format html` and `s2 graph --format html`: one self-contained
 * file (no CDN, no network: its Content-Security-Policy allows nothing but its own inline code)
 * that opens from `file://`. Papers are SVG nodes (`data-paper-id`), seeds ringed, sized by
 * citations or score, coloured by year (a legend with a year bar), the seeds and the biggest and
 * best papers labelled ("Vaswani 2017") where a label fits without overlapping another; links are
 * how similar two papers read (`similar` lines: co-citation and coupling, what `s2 related` ranks
 * by; the layout pulls them together) and, switchable, citations; hover shows the title, a click a
 * card; a search box dims what does not match; lists beside the picture read the same papers with
 * their scores and counts, sortable, and the prior and derivative works.
 *
 * The file is a header, one JSON line per paper or link, and a footer, so that `s2 graph` writes
 * it as it walks and a resume appends to it. The lines sit in a `<script type="application/json">`
 * with `<`, `>`, `&` and the line separators escaped, so nothing a server sends can end that
 * element; the page reads them with `JSON.parse` and writes every server string with
 * `textContent` / `setAttribute`, never as markup. The layout is d3-force (inlined, with its
 * license), run a slice per frame; a big map draws its nearest and most cited papers and lists
 * them all, so that the page answers its reader throughout. The page's code is src/render/map/*.js,
 * scripts checked by TypeScript (tsconfig.page.json) and linted, inlined as d3 is.
 *
 * @since 1.1.0
 */
import type { Paper } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import type * as D3Source from "../../scripts/d3-source.mjs"
import type * as PageSource from "../../scripts/map-page-source.mjs"

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
 * How similar two papers of the map are (`s2 related`: `Related.similar`): `coCitation` papers cite
 * both, `coupling` references both share, `strength` in 0..1 orders them. The layout pulls the
 * stronger pairs closer.
 *
 * @since 1.2.0
 */
export interface MapSimilar {
  readonly type: "similar"
  readonly a: string
  readonly b: string
  readonly coCitation: number
  readonly coupling: number
  readonly strength: number
}

/**
 * A paper beside the map, in the list of prior works (`foundation`: cited by `count` of the map's
 * papers) or of derivative works (`derivative`: citing `count` of them).
 *
 * @since 1.2.0
 */
export interface MapWork {
  readonly type: "foundation" | "derivative"
  readonly count: number
  readonly paper: MapPaper
}

/**
 * A line of the map's data: a paper, a citation (`from` cites `to`), a similarity, a prior or
 * derivative work, or the map's title.
 *
 * @since 1.1.0
 */
export type MapLine =
  | MapPaper
  | { readonly type: "link"; readonly from: string; readonly to: string }
  | MapSimilar
  | MapWork
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
header{display:flex;gap:.8em;align-items:center;padding:.5em 1em;border-bottom:1px solid #dde1e6;background:#fff;
font-size:.9em}header h1{font-size:1.15em;margin:0;flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
header label{white-space:nowrap}header label[hidden]{display:none}
#search{width:18em;padding:.35em .6em;border:1px solid #b8c0cc;border-radius:4px}
main{display:flex;height:calc(100vh - 3em)}#picture{flex:1;position:relative;min-width:0}
svg{width:100%;height:100%;cursor:grab;display:block}
#side{width:27em;display:flex;flex-direction:column;border-left:1px solid #dde1e6;background:#fff}
#tabs{display:flex;border-bottom:1px solid #dde1e6}#tabs button{flex:1;border:0;background:none;padding:.5em .3em;
cursor:pointer;font:inherit;font-size:.9em;border-bottom:3px solid transparent}
#tabs button[aria-selected=true]{border-bottom-color:#3566c8;font-weight:600}
.sort{padding:.3em 1em;font-size:.85em;color:#5b6574}
#side ol{flex:1;overflow:auto;margin:0;padding:.3em 1em .5em 2.6em}#side ol[hidden]{display:none}
#side li{padding:.25em 0;cursor:pointer}#side li.hidden{display:none}#side li.seed{font-weight:600}
#side li.selected{background:#fff3c4}.meta{color:#5b6574;font-size:.9em;font-weight:400}
.counts{color:#2a5b9c;font-size:.85em;font-weight:400}
circle.node{stroke:#fff;stroke-width:1}circle.node.seed{stroke:#111;stroke-width:3}
circle.node.selected{stroke:#e0a100;stroke-width:4}circle.node:focus{outline:none}.dim{opacity:.12}
line.link{stroke:#8a94a3;stroke-opacity:.5;marker-end:url(#arrow)}line.similar{stroke:#6d8fc7;stroke-linecap:round}
g.off{display:none}text.label{pointer-events:none;fill:#1d2330;paint-order:stroke;stroke:#fff;stroke-linejoin:round}
text.label.off{display:none}
#card{position:absolute;left:1em;bottom:1em;max-width:32em;background:#fff;border:1px solid #b8c0cc;
border-radius:6px;padding:.7em 1em;box-shadow:0 2px 8px rgba(0,0,0,.15)}#card h2{font-size:1em;margin:0 0 .3em}
#legend{position:absolute;right:1em;top:.6em;width:17em;background:rgba(255,255,255,.9);padding:.4em .7em;
font-size:.8em;border:1px solid #dde1e6;border-radius:4px}#legend .bar{height:.7em;border-radius:2px;margin-top:.2em}
#legend .ticks{position:relative;height:1.3em;margin:0 .8em}#legend .bar{margin:.2em .8em 0}#legend .ticks span{position:absolute;transform:translateX(-50%)}
#legend .key{display:flex;align-items:center;gap:.4em;margin-top:.2em}#legend svg{width:2.2em;height:1em;flex:none}
#legend .note{margin-top:.3em;color:#8a4b00}
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
  "<header><h1 id=\"heading\">Citation map</h1>" +
  "<label id=\"size-control\">Size by <select id=\"size-by\"><option value=\"citations\">citations</option>" +
  "<option value=\"score\">score</option></select></label>" +
  "<label id=\"similar-control\"><input type=\"checkbox\" id=\"show-similar\" checked> similarity</label>" +
  "<label><input type=\"checkbox\" id=\"show-citations\"> citations</label>" +
  "<input id=\"search\" type=\"search\" placeholder=\"Search titles, authors, venues\" aria-label=\"Search the papers\">" +
  "</header>",
  "<main><div id=\"picture\"><svg id=\"map\" role=\"img\" aria-label=\"The papers and the links between them\">" +
  "</svg><div id=\"legend\"></div><div id=\"card\" hidden></div></div>",
  "<aside id=\"side\"><div id=\"tabs\" role=\"tablist\"></div>" +
  "<label class=\"sort\">Sort by <select id=\"sort\"></select></label>" +
  "<ol id=\"list\" aria-label=\"The papers\"></ol><ol id=\"prior\" aria-label=\"Prior works\" hidden></ol>" +
  "<ol id=\"derivative\" aria-label=\"Derivative works\" hidden></ol></aside></main>",
  "<script type=\"application/json\" id=\"s2-map-data\">",
  ""
].join("\n")

/** The layout library's text and the page's code once read (the bundle has both built in). */
let scripts: { readonly d3: string; readonly page: string } | undefined

/** Set by scripts/bundle.mjs (esbuild `define`) in the published bundle. */
declare const S2_D3_FORCE_SOURCE: string | undefined
declare const S2_MAP_PAGE_SOURCE: string | undefined

/** Where the sources read them from; variables, so that the bundle leaves them out. */
const d3Loader = "../../scripts/d3-source.mjs"
const pageLoader = "../../scripts/map-page-source.mjs"

/**
 * Makes the layout library and the page's code (src/render/map/page.js) ready for {@link footer}:
 * built into the published `s2`, read from the sources when `s2` runs from them.
 *
 * @since 1.1.0
 */
export const ready: Effect.Effect<void> = Effect.suspend(() => {
  if (scripts !== undefined) return Effect.void
  if (typeof S2_D3_FORCE_SOURCE === "string" && typeof S2_MAP_PAGE_SOURCE === "string") {
    scripts = { d3: S2_D3_FORCE_SOURCE, page: S2_MAP_PAGE_SOURCE }
    return Effect.void
  }
  return Effect.promise(() =>
    Promise.all([import(d3Loader) as Promise<typeof D3Source>, import(pageLoader) as Promise<typeof PageSource>])
  ).pipe(
    Effect.map(([d3, page]) => {
      scripts = { d3: d3.d3ForceSource(), page: page.mapPageSource() }
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
  if (scripts === undefined) throw new Error("Map.footer before Map.ready: the map's scripts are not loaded")
  return `</script>\n<script>\n${scripts.d3}\n</script>\n<script>\n${scripts.page}</script>\n</body></html>\n`
}

/**
 * A whole map: header, lines, footer.
 *
 * @since 1.1.0
 */
export const page = (lines: ReadonlyArray<MapLine>): Effect.Effect<string> =>
  Effect.map(ready, () => header + lines.map(line).join("") + footer())
