/**
 * `s2 verify [FILE|-]`: whether each reference of a .bib file (or a list, one per line) is a paper
 * Semantic Scholar knows, and what disagrees, through `Verify.references`. A table (default) with
 * a summary line, one JSON object per entry, or the corrected entries as BibTeX, CSL-JSON or RIS.
 * Exit 0 when every reference is verified, 3 otherwise.
 *
 * @since 1.1.0
 */
import type { Paper } from "@s2-effect/core"
import { excerpt } from "@s2-effect/core"
import { Verify } from "@s2-effect/jobs"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as ClientCommand from "../ClientCommand.js"
import { badInput, CommandError, ExitCode } from "../ExitCode.js"
import * as Output from "../Output.js"
import { Printer } from "../Printer.js"
import { noReferences, readAs, readText, unreadable } from "../References.js"
import { type CitableFormat, citableFormats, isCitable, printItems } from "../render/Citations.js"
import * as Progress from "../render/Progress.js"
import * as Table from "../render/Table.js"
import * as SharedFlags from "../SharedFlags.js"

const formatFlag = Flag.Literals("format", ["table", "jsonl", "json", ...citableFormats]).pipe(
  Flag.withDescription(
    "Output format: table (default: each entry's status and what differs, the paper, then a summary line), " +
      "jsonl / json (one object per entry: key, status, differs, differences, paper, nearest, similarity, notes), " +
      "bibtex (every entry: verified ones as you wrote them, mismatches corrected from Semantic Scholar with your " +
      "values in a % comment, the others kept and marked with a % line, so every \\cite still resolves), or " +
      "csl-json / ris (the verified and corrected entries, your keys kept)"
  ),
  Flag.optional
)

const outFlag = Flag.String("out").pipe(
  Flag.withMetavar("file"),
  Flag.withDescription("Write the bibtex, csl-json or ris output to this file (never through a symbolic link)"),
  Flag.optional
)

const file = Argument.String("file").pipe(
  Argument.withDescription(
    "References: a .bib, RIS or CSL-JSON file, references pasted from a paper, or one per line (DOI, arXiv id, URL, S2 id or title), told by content; - or none for standard input"
  ),
  Argument.optional
)

/** The inputs of a text in whatever form it is (`Verify.read`), or why it cannot be read. */
const inputsOf = (text: string, name: string) => {
  const read = readAs(text, name)
  return Result.isFailure(read) ? Effect.fail(unreadable(name, read.failure)) : Effect.succeed(read.success.inputs)
}

/** The count of each verdict, for the summary line and the progress. */
type Counts = Record<Verify.Status, number>

const noCounts = (): Counts => Object.fromEntries(Verify.Status.literals.map((status) => [status, 0])) as Counts

/** `notFound` as `not found`. */
const said = (status: string): string => status.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`)

/**
 * `142 verified, 9 mismatch, 14 not found`, in the order `Verify.Status` lists the verdicts; those
 * after the first three (`, 2 unchecked`) only when some have them: a failure of ours is rare news.
 */
export const summaryLine = (counts: Counts): string =>
  Verify.Status.literals.filter((status, i) => i < 3 || counts[status] > 0)
    .map((status) => `${counts[status]} ${said(status)}`).join(", ")

/** Where a run stands, for its progress bar: references done of all, and the verdicts so far. */
const verifyState = (done: number, target: number, startedAt: number, detail: string): Progress.State => ({
  records: done,
  pages: 0,
  target,
  startRecords: 0,
  startedAt,
  now: Date.now(),
  unit: "reference",
  detail
})

/** A paper in a table cell: its title and year. */
const titled = (paper: Paper): string =>
  `${excerpt(paper.title ?? "", 120)}${paper.year == null ? "" : ` (${paper.year})`}`

/** The notes of a row, if any: no empty column, and not the nearest's, which the paper column shows. */
const noteOf = (v: Verify.Verification): { readonly note?: string } => {
  const note = v.notesBesideNearest.join("; ")
  return note.length === 0 ? {} : { note }
}

/** A table row: the entry at a glance (a nearest paper in the paper column, not again in the note). */
const row = (v: Verify.Verification): Record<string, unknown> => ({
  key: v.key,
  // "mismatch: year, venue": what differs, beside the status.
  status: v.status === "notFound"
    ? "not found"
    : v.status === "unchecked"
    ? "unchecked"
    : v.differs.length === 0
    ? v.status
    : `${v.status}: ${v.differs.join(", ")}`,
  paper: v.paper !== undefined
    ? titled(v.paper)
    : v.nearest !== undefined
    ? `nearest (${(v.similarity ?? 0).toFixed(2)}): ${titled(v.nearest)}`
    : "",
  ...noteOf(v)
})

/** Where an entry is, for its stderr line: `@key` for a .bib entry, `line N` for a line. */
const whereOf = (v: Verify.Verification): string => v.entry === undefined ? `line ${v.key}` : `@${v.key}`

/** The stderr line of an entry not written as verified: what was done with it, and why. */
const written = (v: Verify.Verification, format: CitableFormat): string | undefined => {
  const fix = Verify.correction(v)
  const where = whereOf(v)
  const why = excerpt(v.notes.join("; "), 300)
  if (fix._tag === "record") {
    return v.status === "mismatch" ? `s2: ${where}: ${Verify.differ(v)}; written as Semantic Scholar has it` : undefined
  }
  const what = v.status === "notFound"
    ? "not found"
    : v.status === "unchecked"
    ? "not checked"
    : `${Verify.differ(v)}: the paper found, ${JSON.stringify(excerpt(v.paper?.title ?? "", 120))}${
      v.paper?.year == null ? "" : ` (${v.paper.year})`
    }, may be another work; check the entry`
  const done = format === "bibtex" && fix._tag === "written" ? "kept as written, marked" : "left out"
  return `s2: ${where}: ${what}, ${done}${why.length === 0 || v.status === "mismatch" ? "" : `: ${why}`}`
}

/**
 * The entries in a citable format: BibTeX through `Verify.bibtexWriter` (every entry), CSL-JSON and
 * RIS through the writers every command uses (the verified and corrected ones); a stderr line for
 * each entry not verified; to `--out` (whole, at the end) or standard output (as they come). `keys`:
 * every key of the file, which a renamed duplicate never takes.
 */
const writeCitable = <E, R>(
  format: CitableFormat,
  verified: Stream.Stream<Verify.Verification, E, R>,
  out: Option.Option<string>,
  keys: ReadonlyArray<string>
) =>
  Effect.gen(function*() {
    const printer = yield* Printer
    const noted = Stream.tap(verified, (v) => {
      const line = written(v, format)
      return line === undefined ? Effect.void : printer.err(`${line}\n`)
    })
    const chunks: Array<string> = []
    const sink = Option.isNone(out)
      ? (text: string) => printer.out(text)
      : (text: string) => Effect.sync(() => void chunks.push(text))
    if (format === "bibtex") {
      const writer = Verify.bibtexWriter({ keys })
      let first = true
      yield* Stream.runForEach(noted, (v) => {
        const text = (first ? "" : "\n") + writer.write(v)
        first = false
        return sink(text)
      })
    } else {
      const items = Stream.flatMap(noted, (v) => {
        const fix = Verify.correction(v)
        return Stream.fromIterable(fix._tag === "record" ? [fix.item] : [])
      })
      yield* printItems(sink, format, items, keys, printer.err)
    }
    if (Option.isSome(out)) yield* Output.emit(out, chunks.join(""))
  })

/** A JSON object: the verification, its papers as the API sent them. */
const record = (v: Verify.Verification): Record<string, unknown> => ({
  key: v.key,
  status: v.status,
  differs: v.differs,
  paper: v.paper === undefined ? null : Output.toJson(v.paper),
  ...(v.differences === undefined
    ? {}
    : { differences: v.differences.map((d) => ({ field: d.field, given: d.given, record: d.record, why: d.why })) }),
  ...(v.nearest === undefined ? {} : { nearest: Output.toJson(v.nearest) }),
  ...(v.similarity === undefined ? {} : { similarity: v.similarity }),
  notes: v.notes
})

/**
 * `s2 verify [FILE|-]`.
 *
 * @since 1.1.0
 */
export const verify = ClientCommand.make(
  "verify",
  { file, format: formatFlag, out: outFlag },
  "verify",
  function*(o) {
    const printer = yield* Printer
    const format = Option.getOrElse(o.format, () => "table" as const)
    // Refused before any request: --out writes what a user cites, the rest is for a terminal or a pipe.
    if (Option.isSome(o.out) && !isCitable(format)) {
      return yield* Effect.fail(badInput(`--out takes --format bibtex, csl-json or ris; redirect a ${format} (> file)`))
    }
    const { name, text } = yield* readText(o.file)
    const inputs = yield* inputsOf(text, name)
    if (inputs.length === 0) {
      return yield* Effect.fail(noReferences(name))
    }
    const counts = noCounts()
    // A bar on a terminal (never into a pipe), while nothing else is drawn on it: the output goes
    // elsewhere, or is a table still held back to size its columns.
    const quietOut = !printer.outIsTTY || (format === "table" && inputs.length <= Table.sampleSize)
    const progress = quietOut ? yield* SharedFlags.progress() : Progress.silent
    const startedAt = Date.now()
    let done = 0
    const verified = Verify.references(inputs).pipe(
      Stream.tap((v) =>
        Effect.suspend(() => {
          counts[v.status]++
          return progress.update(verifyState(++done, inputs.length, startedAt, summaryLine(counts)))
        })
      ),
      Stream.ensuring(progress.stop)
    )
    if (isCitable(format)) {
      const keys = inputs.flatMap((input) => typeof input !== "string" && "fields" in input ? [input.key] : [])
      yield* writeCitable(format, verified, o.out, keys)
    } else {
      yield* Output.stream(
        { format: Option.some(format), max: Option.none() },
        Stream.map(verified, format === "table" ? row : record)
      )
    }
    if (format === "table") yield* printer.out(summaryLine(counts) + "\n")
    else yield* printer.err(`s2: ${summaryLine(counts)}\n`)
    const not = counts.mismatch + counts.notFound + counts.unchecked
    if (not > 0) {
      return yield* Effect.fail(
        new CommandError({ message: `${not} of ${inputs.length} references not verified`, code: ExitCode.notFound })
      )
    }
  }
).pipe(Command.withDescription(
  "Verify a .bib file or reference list: each entry verified, mismatch (what differs), not found or unchecked; " +
    "exit 3 unless all are verified"
))
