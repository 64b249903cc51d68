/**
 * The file formats of `s2 graph`: JSON lines, CSV (one file, a `type` column), GraphML and an HTML
 * map (Map.ts). Each is a header, one piece of text per node or edge, and a footer, so that a walk
 * is written as it goes and a resume appends to what is there (the footer comes last, when the walk
 * is complete).
 *
 * @since 1.0.0
 */
import { replaceUnsafe } from "@s2-effect/core"
import type { CitationGraph } from "@s2-effect/jobs"
import { csvCell } from "./Format.js"
import * as Json from "./Json.js"
import { toJson } from "./Json.js"
import * as MapPage from "./Map.js"

/**
 * @since 1.0.0
 */
export type GraphFormat = "jsonl" | "csv" | "graphml" | "html"

/**
 * The fields of each paper in an HTML map (Map.ts): what its card shows.
 *
 * @since 1.1.0
 */
export const mapFields = ["title", "year", "citationCount", "authors", "venue"]

/**
 * The columns of the CSV layout: node rows fill `paperId` to `citationCount`, edge rows `from` and
 * `to` (the citing and the cited paperId).
 *
 * @since 1.0.0
 */
export const csvColumns = ["type", "paperId", "depth", "title", "year", "citationCount", "from", "to"] as const

/** How each character XML would read as markup, or change, is written. */
const xmlEscapes: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "\"": "&quot;",
  "'": "&apos;",
  // A parser turns a raw \r (and \r\n) into \n, and a raw tab or line break in an attribute value
  // into a space: as character references they are read back as they were.
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;"
}

/** A character XML may hold but a terminal acts on (core's `replaceUnsafe` list), as a reference. */
const reference = (char: string): string => xmlEscapes[char] ?? `&#x${char.charCodeAt(0).toString(16).toUpperCase()};`

/**
 * Text fit for XML character data and attribute values, read back as it was: the five special
 * characters escaped; the characters core's `replaceUnsafe` lists that XML 1.0 holds (tab, line
 * feed, carriage return, DEL, the C1 controls, bidirectional marks, U+2028/U+2029) written as
 * character references, so that GraphML on a terminal acts on nothing; and the characters XML 1.0
 * cannot hold at all (the other C0 controls, lone surrogates, U+FFFE/U+FFFF) dropped, since a
 * server's title may contain anything and one such character makes the whole file unreadable.
 *
 * @since 1.0.0
 */
export const xmlText = (text: string): string =>
  replaceUnsafe(
    text
      .replace(
        /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
        ""
      )
      .replace(/[&<>"']/g, (c) => xmlEscapes[c]!),
    reference
  )

const graphmlHeader = [
  `<?xml version="1.0" encoding="UTF-8"?>`,
  `<graphml xmlns="http://graphml.graphdrawing.org/xmlns"`,
  `    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`,
  `    xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">`,
  `  <key id="title" for="node" attr.name="title" attr.type="string"/>`,
  `  <key id="year" for="node" attr.name="year" attr.type="int"/>`,
  `  <key id="citationCount" for="node" attr.name="citationCount" attr.type="int"/>`,
  `  <key id="depth" for="node" attr.name="depth" attr.type="int"/>`,
  `  <graph id="citations" edgedefault="directed">`,
  ``
].join("\n")

/**
 * What a file starts with.
 *
 * @since 1.0.0
 */
export const header = (format: GraphFormat): string =>
  format === "jsonl"
    ? ""
    : format === "csv"
    ? csvColumns.join(",") + "\r\n"
    : format === "html"
    ? MapPage.header
    : graphmlHeader

/**
 * What a complete file ends with.
 *
 * @since 1.0.0
 */
export const footer = (format: GraphFormat): string =>
  format === "graphml" ? "  </graph>\n</graphml>\n" : format === "html" ? MapPage.footer() : ""

const whole = (value: unknown): string | undefined =>
  typeof value === "number" && Number.isInteger(value) ? String(value) : undefined

const data = (key: string, value: string | undefined): string =>
  value === undefined ? "" : `<data key="${key}">${xmlText(value)}</data>`

/**
 * The text of one node or edge, with its line ending.
 *
 * @since 1.0.0
 */
export const element = (format: GraphFormat, e: CitationGraph.Node | CitationGraph.Edge): string => {
  if (format === "html") {
    return MapPage.line(
      e._tag === "Node"
        ? MapPage.mapPaper(e.paper, e.depth === 0, { depth: e.depth })
        : { type: "link", from: e.from, to: e.to }
    )
  }
  if (format === "jsonl") {
    return Json.stringify(
      e._tag === "Node"
        ? { type: "node", depth: e.depth, paper: toJson(e.paper) }
        : { type: "edge", from: e.from, to: e.to }
    ) + "\n"
  }
  if (format === "csv") {
    const cells = e._tag === "Node"
      ? [
        "node",
        e.paper.paperId,
        String(e.depth),
        e.paper.title ?? "",
        whole(e.paper.year) ?? "",
        whole(e.paper.citationCount) ?? "",
        "",
        ""
      ]
      : ["edge", "", "", "", "", "", e.from, e.to]
    return cells.map(csvCell).join(",") + "\r\n"
  }
  if (e._tag === "Edge") return `    <edge source="${xmlText(e.from)}" target="${xmlText(e.to)}"/>\n`
  const { paper } = e
  return `    <node id="${xmlText(paper.paperId)}">${data("title", paper.title ?? undefined)}${
    data("year", whole(paper.year))
  }${data("citationCount", whole(paper.citationCount))}${data("depth", String(e.depth))}</node>\n`
}
