/**
 * `s2 related SEED…`: the papers most related to 1 to 20 seeds (`CitationGraph.related`: co-citation
 * and bibliographic coupling from the batch endpoint's nested lists, a handful of requests), as a
 * table, JSON, JSON lines, CSV, or an HTML map to open in a browser.
 *
 * @since 1.1.0
 */
import type { Paper } from "@s2-effect/core"
import { Citable, CitationGraph } from "@s2-effect/jobs"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as ClientCommand from "../ClientCommand.js"
import { badInput, noSeedFound } from "../ExitCode.js"
import * as Ids from "../Ids.js"
import * as Output from "../Output.js"
import * as OutputFlags from "../OutputFlags.js"
import { Printer } from "../Printer.js"
import { citableFormats, isCitable } from "../render/Citations.js"
import * as Json from "../render/Json.js"
import * as MapPage from "../render/Map.js"
import * as Progress from "../render/Progress.js"

/** What `--format` offers: the record formats, the map, and what a user cites (written by `Citable`). */
const formats = ["table", "json", "jsonl", "csv", "html", ...citableFormats] as const

/** The fields of the records: what `record` reads. */
const recordFields = ["title", "year", "authors", "venue", "citationCount", "externalIds"] as const

const names = (paper: Paper): Array<string> =>
  (paper.authors ?? []).map((a) => a.name).filter((n): n is string => typeof n === "string")

/**
 * The record of a related paper in JSON, JSON lines and CSV: the paper's id, title, year, venue,
 * authors and citation count, then the score and its counts.
 *
 * @since 1.1.0
 */
export const record = (related: CitationGraph.RelatedPaper) => ({
  paperId: related.paper.paperId,
  title: related.paper.title ?? null,
  year: related.paper.year ?? null,
  venue: related.paper.venue ?? null,
  authors: names(related.paper),
  citationCount: related.paper.citationCount ?? null,
  score: related.score,
  coCitation: related.coCitation,
  coupling: related.coupling,
  citesSeed: related.citesSeed,
  citedBySeed: related.citedBySeed
})

/** A table's row: the score rounded, the counts, the flags as marks, then the paper. */
const row = (related: CitationGraph.RelatedPaper) => ({
  score: related.score.toFixed(3),
  coCited: related.coCitation,
  coupled: related.coupling,
  cites: related.citesSeed ? "yes" : "",
  citedBy: related.citedBySeed ? "yes" : "",
  year: related.paper.year ?? "",
  title: related.paper.title ?? related.paper.paperId
})

/**
 * The map's lines: its title (the seeds'), the seeds, the papers, the similar pairs among them, the
 * citations among them, and the prior and derivative works beside them.
 *
 * @since 1.1.0
 */
export const mapLines = (answer: CitationGraph.Related): Array<MapPage.MapLine> => [
  {
    type: "title",
    text: `Papers related to ${answer.seeds.map((s) => s.title ?? s.paperId).join("; ")}`
  },
  ...answer.seeds.map((seed) => MapPage.mapPaper(seed, true)),
  ...answer.papers.map((r) =>
    MapPage.mapPaper(r.paper, false, {
      score: r.score,
      coCitation: r.coCitation,
      coupling: r.coupling,
      citesSeed: r.citesSeed,
      citedBySeed: r.citedBySeed
    })
  ),
  ...answer.similar.map((s) => ({
    type: "similar" as const,
    a: s.a,
    b: s.b,
    coCitation: s.coCitation,
    coupling: s.coupling,
    strength: s.strength
  })),
  ...answer.links.map((link) => ({ type: "link" as const, from: link.from, to: link.to })),
  ...answer.foundations.map((w) => ({
    type: "foundation" as const,
    count: w.count,
    paper: MapPage.mapPaper(w.paper, false)
  })),
  ...answer.derivatives.map((w) => ({
    type: "derivative" as const,
    count: w.count,
    paper: MapPage.mapPaper(w.paper, false)
  }))
]

/** What stderr says of the answer: the seeds not found, and the lists the API cut. */
const notes = (answer: CitationGraph.Related): string => {
  const others = answer.seeds.length > 0 ? "; ranking from the others" : ""
  const lines = answer.notFound.map((seed) => `s2: seed ${JSON.stringify(seed)} not found${others}\n`)
  const cut = answer.truncated
  if (cut.length > 0) {
    const seeds = cut.filter((c) => c.seed).length
    lines.push(
      `s2: ${Progress.count(cut.length, "list")} cut at the API's 1,000 entries (${seeds} of a seed; ` +
        `${Progress.grouped(cut.reduce((n, c) => n + c.total - c.read, 0))} entries not read): ` +
        `the counts they feed may be low${seeds > 0 ? "; --max-pages reads more of a seed's list" : ""}\n`
    )
  }
  return lines.join("")
}

/** The map: written whole (to `--out`, or to standard output when it is not a terminal: see {@link refused}). */
const writeMap = (answer: CitationGraph.Related, out: Option.Option<string>) =>
  Effect.gen(function*() {
    const printer = yield* Printer
    yield* Output.emit(out, yield* MapPage.page(mapLines(answer)))
    if (Option.isSome(out)) {
      yield* printer.err(
        `wrote ${out.value} (${Progress.count(answer.seeds.length, "seed")}, ${
          Progress.count(answer.papers.length, "related paper")
        }, ${Progress.count(answer.links.length, "citation")}): open it in a browser\n`
      )
    }
  })

/** The records in `format`, through the writers every command uses (to `--out`, JSON or JSON lines: see {@link refused}). */
const writeRecords = (
  answer: CitationGraph.Related,
  format: "table" | "json" | "jsonl" | "csv",
  out: Option.Option<string>
) =>
  Effect.gen(function*() {
    const records = format === "table" ? answer.papers.map(row) : answer.papers.map(record)
    if (Option.isNone(out)) {
      return yield* Output.many({ format: Option.some(format), max: Option.none() }, records)
    }
    const text = format === "json"
      ? Json.stringify(records, true) + "\n"
      : records.map((r) => Json.stringify(r) + "\n").join("")
    yield* Output.emit(out, text)
  })

/**
 * What `format` and `--out` cannot do together, refused before any request: `--out` takes the
 * formats written whole (html, json, jsonl), and the map is not for a terminal.
 */
const refused = (format: (typeof formats)[number], out: Option.Option<string>) =>
  Effect.gen(function*() {
    if (Option.isNone(out)) {
      if (format === "html") yield* OutputFlags.mapNotOnTerminal
      return
    }
    if (format === "html" || format === "json" || format === "jsonl") return
    return yield* Effect.fail(badInput(
      isCitable(format)
        ? `--out takes --format html, json or jsonl; redirect a ${format} (> file)`
        : `--out takes --format html, json or jsonl; print a ${format} to the terminal`
    ))
  })

/**
 * `s2 related`.
 *
 * @since 1.1.0
 */
export const related = ClientCommand.make(
  "related",
  {
    seeds: Argument.String("seed").pipe(
      Argument.withDescription("Seed papers, 1 to 20: S2 id, DOI, arXiv:…, CorpusId:…, or a doi.org / arxiv.org link"),
      Argument.map(Ids.paperId),
      Argument.variadic()
    ),
    idsFile: Flag.String("ids-file").pipe(
      Flag.withMetavar("file"),
      Flag.withDescription("More seeds, one per line (- for standard input)"),
      Flag.optional
    ),
    top: Flag.Int("top").pipe(
      Flag.withDescription("How many related papers, best first (1 to 500)"),
      Flag.withDefault(20)
    ),
    maxPages: Flag.Int("max-pages").pipe(
      Flag.withDescription("Extra list requests to read a seed's list the API cut at 1,000 (0: none)"),
      Flag.withDefault(10)
    ),
    format: Flag.Literals("format", formats).pipe(
      Flag.withDescription(
        "table, json, jsonl, csv, html (a map to open in a browser), or bibtex, csl-json, ris to cite them; " +
          "default: JSON on a terminal, JSON lines when piped"
      ),
      Flag.optional
    ),
    out: Flag.String("out").pipe(Flag.withMetavar("file"), Flag.withDescription("Write to this file"), Flag.optional)
  },
  "related papers",
  function*(o) {
    const printer = yield* Printer
    const seeds = (yield* Ids.gather(o.seeds, o.idsFile)).map(Ids.paperId)
    if (seeds.length > 20) return yield* Effect.fail(badInput(`give 1 to 20 seeds, not ${seeds.length}`))
    const format = Option.getOrElse(o.format, () => printer.outIsTTY ? "json" as const : "jsonl" as const)
    yield* refused(format, o.out)
    if (format === "html") yield* MapPage.ready
    const answer = yield* CitationGraph.related(seeds, {
      top: o.top,
      maxPages: o.maxPages,
      // What the citable writers read, besides the records' own fields.
      ...(isCitable(format) ? { fields: [...new Set([...recordFields, ...Citable.fields])] } : {})
    })
    yield* printer.err(notes(answer))
    if (answer.seeds.length === 0) return yield* Effect.fail(noSeedFound("rank"))
    if (format === "html") return yield* writeMap(answer, o.out)
    if (isCitable(format)) {
      return yield* Output.citable(format, Stream.fromIterable(answer.papers.map((r) => ({ paper: r.paper }))))
    }
    yield* writeRecords(answer, format, o.out)
  }
).pipe(Command.withDescription(
  "The papers most related to seed papers, by co-citation and bibliographic coupling; a table, records or an HTML map"
))
