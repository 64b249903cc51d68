/**
 * `s2 graph SEED… --out FILE`: a citation-graph walk (`CitationGraph.crawl`) written as JSON lines,
 * CSV, GraphML or an HTML map, with a progress line, checkpoints and `--resume`.
 *
 * Resume design: the walk is deterministic for a given server (breadth first, lists in the
 * server's order), so a resume cuts the file back to its checkpoint, walks again from the seeds and
 * compares the walk's text with the file's: what is there is read, not written. Where they differ
 * (the server's lists or papers changed since the checkpoint) the file is cut and written on from
 * there, with a warning, rather than appending one walk's end to another walk's start (whose edges
 * could name papers the file does not hold). Refusing would cost the same requests again on a
 * fresh start; the rewritten file is the walk a fresh run would write now. Persisting the walk's
 * state instead (the seen sets and the frontier) would mean a second crawler inside the CLI;
 * re-walking repeats requests, which `--cache` answers locally. The lock, the checkpoint file, its
 * settings check and the cutting back are harvest's (`Harvest` of `@s2-effect/jobs`: its
 * lock, checkpoint and `prepare`).
 *
 * @since 1.0.0
 */
import type { Paper } from "@s2-effect/core"
import { excerpt, Fields } from "@s2-effect/core"
import { CitationGraph, Harvest as Job } from "@s2-effect/jobs"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as ClientCommand from "../ClientCommand.js"
import { badInput, fileError, noSeedFound } from "../ExitCode.js"
import * as Harvest from "../Harvest.js"
import * as Ids from "../Ids.js"
import * as OutputFlags from "../OutputFlags.js"
import * as Parse from "../Parse.js"
import { Printer } from "../Printer.js"
import * as Graph from "../render/Graph.js"
import * as MapPage from "../render/Map.js"
import * as Progress from "../render/Progress.js"
import * as SharedFlags from "../SharedFlags.js"
import * as Symlinks from "../Symlinks.js"

/** Fields of each node's paper when `--fields` is omitted (the GraphML and CSV attributes). */
export const graphDefaults = ["title", "year", "citationCount"]

/**
 * Everything that decides the file's content: a resume must have the same. Kept as the harvest
 * checkpoint's `query` (JSON), so that harvest's checkpoint, lock and resume serve the graph too.
 *
 * @since 1.0.0
 */
export interface Settings {
  readonly seeds: ReadonlyArray<string>
  readonly direction: "citations" | "references" | "both"
  readonly depth: number
  readonly perNode: number
  readonly order: "listed" | "mostCited"
  readonly minYear: number | null
  readonly minCitations: number | null
  readonly fields: ReadonlyArray<string> | null
  readonly format: Graph.GraphFormat
}

const flagOf: Record<keyof Settings, string> = {
  seeds: "the seeds",
  direction: "--direction",
  depth: "--depth",
  perNode: "--per-node",
  order: "--order",
  minYear: "--min-year",
  minCitations: "--min-citations",
  fields: "--fields",
  format: "--format"
}

/**
 * The settings in which a checkpoint's walk and this run differ, named as typed:
 * "the checkpoint is for --depth 2; this run has --depth 3" (harvest's wording).
 *
 * @since 1.0.0
 */
export const differences = (saved: Settings, given: Settings): string =>
  Harvest.describeDifferences(
    (Object.keys(flagOf) as Array<keyof Settings>).map((key) => [flagOf[key], saved[key], given[key]] as const)
  )

const specOf = (settings: Settings): Job.Spec => ({
  query: JSON.stringify({ graph: settings }),
  filters: {},
  sort: null,
  fields: null,
  max: null
})

/** On `--resume`, a checkpoint of another walk (or of a harvest) is named before `prepare` refuses it. */
const checkSaved = (out: string, settings: Settings) =>
  Effect.gen(function*() {
    const saved = yield* Harvest.readCheckpoint(out)
    if (Option.isNone(saved) || saved.value.spec.query === specOf(settings).query) return
    let other: Settings | undefined
    try {
      other = (JSON.parse(saved.value.spec.query) as { graph?: Settings }).graph
    } catch {
      other = undefined
    }
    return yield* Effect.fail(badInput(
      other === undefined
        ? `${Job.checkpointPath(out)} is the checkpoint of a harvest, not of a graph; start again with --overwrite`
        : `${Job.checkpointPath(out)} is for another graph: ${
          differences(other, settings)
        }. Resume with the checkpoint's settings, or start again with --overwrite`
    ))
  })

const keep = (settings: Settings) =>
  settings.minYear === null && settings.minCitations === null ?
    undefined :
    (paper: Paper) =>
      (settings.minYear === null || (paper.year ?? -Infinity) >= settings.minYear) &&
      (settings.minCitations === null || (paper.citationCount ?? -Infinity) >= settings.minCitations)

/** The walk, with the fields the filters read added to the selection. */
const walk = (settings: Settings) =>
  Effect.gen(function*() {
    const wanted = settings.fields === null ? null : [
      ...settings.fields,
      ...(settings.minYear !== null && !settings.fields.includes("year") ? ["year"] : []),
      ...(settings.minCitations !== null && !settings.fields.includes("citationCount") ? ["citationCount"] : [])
    ]
    const fields = wanted === null ? undefined : yield* Fields.select(Fields.paperList, wanted)
    return CitationGraph.crawl(settings.seeds, {
      direction: settings.direction,
      depth: settings.depth,
      perNode: settings.perNode,
      order: settings.order,
      filter: keep(settings),
      fields: fields as ReadonlyArray<Fields.PaperField> | undefined
    })
  })

const encoder = new TextEncoder()

/**
 * The file's text of one element of the walk, and what it counts: `records` is 1 for every element
 * (a `NotFound` or `Skipped` has no text), 0 for the header and footer.
 */
interface Piece {
  readonly bytes: Uint8Array
  readonly records: number
  readonly nodes: number
  readonly edges: number
  readonly skipped: number
}

const textPiece = (text: string): Piece => ({ bytes: encoder.encode(text), records: 0, nodes: 0, edges: 0, skipped: 0 })

const none = new Uint8Array(0)

/** A batch of the walk's elements as pieces of the file; unknown seeds are told on stderr. */
const piecesOf = (
  format: Graph.GraphFormat,
  elements: ReadonlyArray<CitationGraph.Element>,
  printer: Printer["Service"]
) =>
  Effect.gen(function*() {
    const pieces: Array<Piece> = []
    for (const e of elements) {
      if (e._tag === "NotFound") {
        yield* printer.err(`s2: seed ${JSON.stringify(excerpt(e.seed, 200))} not found; walking from the others\n`)
      }
      // A Skipped id was logged at Warning by the walk; it is counted for the summary.
      const text = e._tag === "Node" || e._tag === "Edge" ? encoder.encode(Graph.element(format, e)) : none
      pieces.push({
        bytes: text,
        records: 1,
        nodes: e._tag === "Node" ? 1 : 0,
        edges: e._tag === "Edge" ? 1 : 0,
        skipped: e._tag === "Skipped" ? 1 : 0
      })
    }
    return pieces
  })

const joined = (pieces: ReadonlyArray<Piece>): Uint8Array => {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.bytes.length, 0))
  let at = 0
  for (const p of pieces) {
    out.set(p.bytes, at)
    at += p.bytes.length
  }
  return out
}

/** " and 1 id the server listed skipped", for the lines that sum a walk up. */
const skippedNote = (skipped: number) =>
  skipped === 0 ? "" : `; skipped ${Progress.count(skipped, "id")} the server listed that no request can carry`

/** Writes the walk to stdout: no checkpoint, no resume. */
const toStdout = (settings: Settings) =>
  Effect.gen(function*() {
    const printer = yield* Printer
    let skipped = 0
    let nodes = 0
    yield* printer.out(Graph.header(settings.format))
    yield* (yield* walk(settings)).pipe(
      Stream.groupedWithin(1000, "1 second"),
      Stream.mapEffect((batch) =>
        Effect.flatMap(piecesOf(settings.format, batch, printer), (pieces) => {
          skipped += pieces.reduce((n, p) => n + p.skipped, 0)
          nodes += pieces.reduce((n, p) => n + p.nodes, 0)
          return printer.out(new TextDecoder().decode(joined(pieces)))
        })
      ),
      Stream.runDrain
    )
    yield* printer.out(Graph.footer(settings.format))
    if (skipped > 0) yield* printer.err(`s2: graph${skippedNote(skipped)}\n`)
    // Every seed found is a node: none means none of them exists, as `s2 related` says it.
    if (nodes === 0) return yield* Effect.fail(noSeedFound("walk"))
  })

/** The counts a graph keeps in its checkpoint's `years` (harvest's per-year counts, unused here). */
const counted = (cp: Job.Checkpoint) => ({ nodes: cp.years["nodes"] ?? 0, edges: cp.years["edges"] ?? 0 })

/** The first `length` bytes of `file` from `position` (fewer only at its end). */
const readAt = (file: FileSystem.File, position: number, length: number) =>
  Effect.gen(function*() {
    const out = new Uint8Array(length)
    let got = 0
    while (got < length) {
      const n = yield* file.read(out.subarray(got), { position: BigInt(position + got) })
      if (n === 0) break
      got += n
    }
    return out.subarray(0, got)
  })

const sameAt = (old: Uint8Array, at: number, bytes: Uint8Array) => {
  if (at + bytes.length > old.length) return false
  for (let i = 0; i < bytes.length; i++) if (old[at + i] !== bytes[i]) return false
  return true
}

/**
 * The output file as the walk writes it. Every batch of pieces is the walk's text in order; on a
 * resume the file already holds text up to the checkpoint, and `verified` of its bytes are known
 * to be the walk's. A batch whose text is there is read, not written; from the first byte where the
 * file differs (the server's lists or papers changed since the checkpoint: another walk), the file
 * is cut there and written on. So a file always holds one walk's text, the walk of this run: never
 * an edge whose ends are not nodes of the file, and byte for byte a fresh run's file when this run
 * is given the same answers. The checkpoint (its `records`, node and edge counts) always describes
 * the file's bytes; a batch, its writes and its checkpoint are uninterruptible.
 */
const writer = (
  output: FileSystem.File,
  out: string,
  start: Job.Checkpoint,
  printer: Printer["Service"]
) => {
  let current = start
  let verified = 0
  const walked = { records: 0, nodes: 0, edges: 0, skipped: 0 }
  let rewrittenAfter: { readonly nodes: number; readonly edges: number } | undefined
  const add = (p: Piece) => {
    walked.records += p.records
    walked.nodes += p.nodes
    walked.edges += p.edges
    walked.skipped += p.skipped
  }
  const checkpoint = (bytes: number, done: boolean) =>
    Effect.gen(function*() {
      if (done) yield* output.sync.pipe(Effect.mapError((cause) => fileError(`cannot write ${out}`, cause)))
      const next: Job.Checkpoint = {
        ...current,
        bytes,
        records: walked.records,
        pages: current.pages + 1,
        years: { nodes: walked.nodes, edges: walked.edges },
        done,
        updatedAt: new Date().toISOString()
      }
      yield* Harvest.writeCheckpoint(out, next, { sync: done })
      current = next
    })
  /** The walk differs from the file at `verified`: cut there (its checkpoint first), then write on. */
  const diverge = Effect.gen(function*() {
    rewrittenAfter = { nodes: walked.nodes, edges: walked.edges }
    yield* checkpoint(verified, false)
    yield* output.truncate(verified).pipe(Effect.mapError((cause) => fileError(`cannot truncate ${out}`, cause)))
    yield* printer.err(
      `s2: ${out} differs from the walk after ${Progress.count(walked.nodes, "paper")} and ${
        Progress.count(walked.edges, "citation")
      }: the server's answers changed since the checkpoint; rewriting it from there\n`
    )
  })
  const append = (bytes: Uint8Array) =>
    output.writeAll(bytes).pipe(
      Effect.tapError(() => Effect.ignore(output.truncate(current.bytes))),
      Effect.mapError((cause) =>
        fileError(`cannot write ${out} (cut back to its last checkpoint; run again with --resume)`, cause)
      )
    )
  /** The pieces that are already in the file, then the rest appended; `done` with the footer. */
  const put = Effect.fnUntraced(function*(pieces: ReadonlyArray<Piece>, done: boolean) {
    let i = 0
    if (verified < current.bytes) {
      const length = Math.min(pieces.reduce((n, p) => n + p.bytes.length, 0), current.bytes - verified)
      const old = yield* readAt(output, verified, length).pipe(
        Effect.mapError((cause) => fileError(`cannot read ${out}`, cause))
      )
      let at = 0
      for (; i < pieces.length && sameAt(old, at, pieces[i]!.bytes); i++) {
        at += pieces[i]!.bytes.length
        add(pieces[i]!)
      }
      verified += at
      if ((i < pieces.length || done) && verified < current.bytes) yield* diverge
    }
    const rest = pieces.slice(i)
    rest.forEach(add)
    const bytes = joined(rest)
    if (bytes.length === 0 && !done) return
    yield* append(bytes)
    verified = current.bytes + bytes.length
    yield* checkpoint(verified, done)
  }, Effect.uninterruptible)
  return { put, walked, current: () => current, rewrittenAfter: () => rewrittenAfter }
}

/**
 * Writes the walk into `out` from a prepared checkpoint, a batch (at most 1000 elements or a
 * second's worth) at a time through {@link writer}: Ctrl-C lands between batches.
 */
const toFile = (out: string, settings: Settings, start: Job.Checkpoint, progress: Progress.Reporter) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const printer = yield* Printer
    const startedAt = Date.now()
    // Read and append: a resume reads what the file holds to compare it with the walk.
    const output = yield* fs.open(out, { flag: "a+", ...(Symlinks.noFollow ? { noFollow: true } : {}) }).pipe(
      Effect.mapError((cause) => fileError(`cannot open ${out}`, cause))
    )
    const file = writer(output, out, start, printer)
    const startNodes = counted(start).nodes
    const report = Effect.suspend(() =>
      progress.update({
        records: file.walked.nodes,
        pages: file.current().pages,
        target: 0,
        startRecords: startNodes,
        startedAt,
        now: Date.now()
      })
    )
    yield* file.put([textPiece(Graph.header(settings.format))], false)
    yield* (yield* walk(settings)).pipe(
      Stream.groupedWithin(1000, "1 second"),
      Stream.mapEffect((batch) =>
        Effect.flatMap(
          piecesOf(settings.format, batch, printer),
          (pieces) => Effect.andThen(file.put(pieces, false), report)
        )
      ),
      Stream.runDrain
    )
    yield* file.put([textPiece(Graph.footer(settings.format))], true)
    return {
      checkpoint: file.current(),
      startNodes,
      skipped: file.walked.skipped,
      rewrittenAfter: file.rewrittenAfter(),
      elapsedMillis: Date.now() - startedAt
    }
  }).pipe(Effect.scoped)

const settingsOf = (o: {
  readonly seeds: ReadonlyArray<string>
  readonly direction: Settings["direction"]
  readonly depth: number
  readonly perNode: number
  readonly order: Settings["order"]
  readonly minYear: Option.Option<number>
  readonly minCitations: Option.Option<number>
  readonly fields: Option.Option<string>
  readonly format: Graph.GraphFormat
}) =>
  Effect.gen(function*() {
    if (o.seeds.length === 0) return yield* Effect.fail(badInput("give at least one seed paper id"))
    // Refused before the output is created, not by the walk after it.
    if (o.depth < 0) return yield* Effect.fail(badInput(`--depth ${o.depth} is invalid: give 0 or more`))
    if (o.perNode < 1) return yield* Effect.fail(badInput(`--per-node ${o.perNode} is invalid: give 1 or more`))
    const given = Option.getOrUndefined(o.fields)
    // The CSV and GraphML layouts have fixed columns (Graph.ts): a selection would be dropped unread.
    if (given !== undefined && o.format !== "jsonl") {
      return yield* Effect.fail(badInput(
        `--fields applies to --format jsonl only: a ${o.format} file has the fields ${
          (o.format === "html" ? Graph.mapFields : graphDefaults).join(", ")
        } of each paper (with its paperId and depth); leave --fields out, or use --format jsonl`
      ))
    }
    const fields = given?.trim() === "all"
      ? null
      : given === undefined
      ? (o.format === "html" ? Graph.mapFields : graphDefaults)
      : Parse.splitList(given)
    if (o.format === "html") yield* MapPage.ready
    // Checked before anything touches the output.
    if (fields !== null) yield* Fields.select(Fields.paperList, fields)
    const settings: Settings = {
      seeds: o.seeds,
      direction: o.direction,
      depth: o.depth,
      perNode: o.perNode,
      order: o.order,
      minYear: Option.getOrNull(o.minYear),
      minCitations: Option.getOrNull(o.minCitations),
      fields,
      format: o.format
    }
    return settings
  })

/**
 * `s2 graph`.
 *
 * @since 1.0.0
 */
export const graph = ClientCommand.make(
  "graph",
  {
    seeds: Argument.String("seed").pipe(
      Argument.withDescription("Seed paper ids (S2 id, DOI:…, arXiv:…, CorpusId:…, or a DOI or arXiv link)"),
      Argument.map(Ids.paperId),
      Argument.variadic()
    ),
    direction: Flag.Literals("direction", ["citations", "references", "both"] as const).pipe(
      Flag.withDescription("Follow the papers citing each paper, those it cites, or both"),
      Flag.withDefault("citations" as const)
    ),
    depth: Flag.Int("depth").pipe(
      Flag.withDescription("Steps from the seeds (0: the seeds only)"),
      Flag.withDefault(1)
    ),
    perNode: Flag.Int("per-node").pipe(
      Flag.withDescription("At most N neighbours from each list of each paper"),
      Flag.withDefault(50)
    ),
    order: Flag.Literals("order", ["listed", "mostCited"] as const).pipe(
      Flag.withDescription("Which neighbours --per-node keeps: the first listed, or the most cited"),
      Flag.withDefault("listed" as const)
    ),
    minYear: Flag.Int("min-year").pipe(
      Flag.withDescription("Keep papers from year Y on (seeds always)"),
      Flag.optional
    ),
    minCitations: Flag.Int("min-citations").pipe(
      Flag.withDescription("Keep papers cited at least N times (seeds always)"),
      Flag.optional
    ),
    fields: OutputFlags.fieldsFlag,
    format: Flag.Literals("format", ["jsonl", "csv", "graphml", "html"] as const).pipe(
      Flag.withDescription(
        "jsonl: node and edge lines; csv: one table with a type column; graphml: for Gephi, Cytoscape; " +
          "html: a map to open in a browser"
      ),
      Flag.withDefault("jsonl" as const)
    ),
    out: Flag.String("out").pipe(Flag.withMetavar("file"), Flag.withDescription("The output file"), Flag.optional),
    ...Harvest.resumeFlags("the walk")
  },
  "graph",
  function*(o) {
    const settings = yield* settingsOf(o)
    if (Option.isNone(o.out)) {
      if (o.resume) {
        return yield* Effect.fail(badInput("--resume needs --out: a walk to standard output has no checkpoint"))
      }
      if (settings.format === "html") yield* OutputFlags.mapNotOnTerminal
      return yield* toStdout(settings)
    }
    const out = o.out.value
    const printer = yield* Printer
    yield* Harvest.lock(out)
    if (o.resume) yield* checkSaved(out, settings)
    const start = yield* Harvest.prepare(out, specOf(settings), { resume: o.resume, overwrite: o.overwrite })
    if (start.done) {
      const { edges, nodes } = counted(start)
      return yield* printer.out(
        `${out} is complete: ${Progress.count(nodes, "paper")}, ${Progress.count(edges, "citation")}; nothing to do\n`
      )
    }
    const progress = yield* SharedFlags.progress("graph")
    const result = yield* toFile(out, settings, start, progress).pipe(
      Effect.ensuring(progress.stop),
      // What the file holds is what its checkpoint counts (each batch and its checkpoint are written
      // together); a checkpoint that cannot be read back still leaves the way to go on.
      Effect.onInterrupt(() =>
        Harvest.readCheckpoint(out).pipe(
          Effect.map(Option.match({
            onNone: () => "",
            onSome: (cp) => {
              const { edges, nodes } = counted(cp)
              return `: ${Progress.count(nodes, "paper")}, ${Progress.count(edges, "citation")} saved to ${out}`
            }
          })),
          Effect.orElseSucceed(() => ""),
          Effect.flatMap((saved) =>
            printer.err(`\ns2: graph interrupted${saved}; run the same command with --resume to go on\n`)
          )
        )
      )
    )
    const { edges, nodes } = counted(result.checkpoint)
    if (nodes === 0) return yield* Effect.fail(noSeedFound("walk"))
    const rewritten = result.rewrittenAfter === undefined ?
      "" :
      `, rewritten after ${
        Progress.grouped(result.rewrittenAfter.nodes)
      } papers (the server's answers changed since the checkpoint)`
    yield* printer.out(
      `wrote ${Progress.count(nodes, "paper")} and ${Progress.count(edges, "citation")} into ${out} in ${
        (result.elapsedMillis / 1000).toFixed(1)
      } s${result.startNodes > 0 ? `, resumed at ${Progress.grouped(result.startNodes)} papers` : ""}${rewritten}${
        skippedNote(result.skipped)
      }\n`
    )
  }
).pipe(
  Command.withDescription(
    "Walk the citation graph from seed papers into JSON lines, CSV, GraphML or an HTML map, with --resume"
  )
)
