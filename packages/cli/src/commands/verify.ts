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
import type { Citable } from "@s2-effect/jobs"
import { Verify } from "@s2-effect/jobs"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as ClientCommand from "../ClientCommand.js"
import { CommandError, ExitCode } from "../ExitCode.js"
import { Printer } from "../Printer.js"
import * as Output from "../render/Output.js"
import * as Progress from "../render/Progress.js"
import * as Table from "../render/Table.js"
import * as SharedFlags from "../SharedFlags.js"
import { citableFormats, isCitable, noReferences, printItems, readAs, readText, unreadable } from "./resolve.js"

const formatFlag = Flag.Literals("format", ["table", "jsonl", "json", ...citableFormats]).pipe(
  Flag.withDescription(
    "Output format: table (default: each entry's status and what differs, the paper, then a summary line), " +
      "jsonl / json (one object per entry: key, status, differs, paper, nearest, similarity, notes), or " +
      "bibtex / csl-json / ris (the verified entries, and the mismatched ones whose title and authors agree, " +
      "as Semantic Scholar has them, your keys and your own fields kept)"
  ),
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

/** `142 verified, 9 mismatch, 14 not found`: every verdict, in the order `Verify.Status` lists them. */
export const summaryLine = (counts: Counts): string =>
  Verify.Status.literals.map((status) => `${counts[status]} ${said(status)}`).join(", ")

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

/**
 * The fields of a .bib entry that say what the work is and where it appeared: replaced by Semantic
 * Scholar's in a corrected entry. The others (note, keywords, abstract, file, editor, series…) are
 * the user's own, and kept.
 */
const replaced = new Set([
  "author",
  "title",
  "year",
  "month",
  "date",
  "journal",
  "journaltitle",
  "booktitle",
  "volume",
  "number",
  "issue",
  "pages",
  "doi",
  "url",
  "eprint",
  "archiveprefix",
  "eprinttype",
  "primaryclass",
  "howpublished",
  "publisher",
  "issn",
  "isbn"
])

/** The user's own fields of an entry: those not in {@link replaced}. */
export const ownFields = (fields: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(fields).filter(([name]) => !replaced.has(name.toLowerCase())))

/** Where an entry is, for its stderr line: `@key` for a .bib entry, `line N` for a line. */
const whereOf = (input: Verify.Input | undefined, v: Verify.Verification): string =>
  input !== undefined && typeof input !== "string" && "fields" in input ? `@${v.key}` : `line ${v.key}`

/**
 * What a corrected entry may correct: the same work cited with a wrong year, venue or id. A title or
 * first author that differs may be another work (a typo in a DOI names some other paper): written
 * under the user's key, it would cite that work in their place.
 */
const correctable: ReadonlySet<Verify.Field> = new Set(["year", "venue", "doi", "eprint"])

/**
 * The corrected entry of a verified reference, or of a mismatched one whose differences are all
 * {@link correctable}, with a stderr line for a mismatch (what was corrected, or why it was left out)
 * and for a reference not found (left out).
 */
const corrected = (input: Verify.Input | undefined, v: Verify.Verification) =>
  Effect.gen(function*() {
    const printer = yield* Printer
    const where = whereOf(input, v)
    if (v.paper === undefined) {
      yield* printer.err(`s2: ${where}: not found, left out: ${excerpt(v.notes.join("; "), 300)}\n`)
      return []
    }
    if (v.status === "mismatch" && !v.differs.every((field) => correctable.has(field))) {
      yield* printer.err(
        `s2: ${where}: ${Verify.differ(v.differs)}, left out: the paper found, ${
          JSON.stringify(excerpt(v.paper.title ?? "", 120))
        }${v.paper.year == null ? "" : ` (${v.paper.year})`}, may be another work; check the entry\n`
      )
      return []
    }
    if (v.status === "mismatch") {
      yield* printer.err(`s2: ${where}: ${Verify.differ(v.differs)}; written as Semantic Scholar has it\n`)
    }
    const entry = input !== undefined && typeof input !== "string" && "fields" in input ? input : undefined
    const item: Citable.Item = entry === undefined
      ? { paper: v.paper }
      : { paper: v.paper, key: entry.key, extra: ownFields(entry.fields) }
    return [item]
  })

/** A JSON object: the verification, its papers as the API sent them. */
const record = (v: Verify.Verification): Record<string, unknown> => ({
  key: v.key,
  status: v.status,
  differs: v.differs,
  paper: v.paper === undefined ? null : Output.toJson(v.paper),
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
  { file, format: formatFlag },
  "verify",
  function*(o) {
    const printer = yield* Printer
    const { name, text } = yield* readText(o.file)
    const inputs = yield* inputsOf(text, name)
    if (inputs.length === 0) {
      return yield* Effect.fail(noReferences(name))
    }
    const format = Option.getOrElse(o.format, () => "table" as const)
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
      const items = verified.pipe(
        Stream.zipWithIndex,
        Stream.mapEffect(([v, i]) => corrected(inputs[i], v)),
        Stream.flattenIterable
      )
      yield* printItems(format, items)
    } else {
      yield* Output.stream(
        { format: Option.some(format), max: Option.none() },
        Stream.map(verified, format === "table" ? row : record)
      )
    }
    if (format === "table") yield* printer.out(summaryLine(counts) + "\n")
    else yield* printer.err(`s2: ${summaryLine(counts)}\n`)
    const not = counts.mismatch + counts.notFound
    if (not > 0) {
      return yield* Effect.fail(
        new CommandError({ message: `${not} of ${inputs.length} references not verified`, code: ExitCode.notFound })
      )
    }
  }
).pipe(Command.withDescription(
  "Verify a .bib file or reference list: each entry verified, mismatch (what differs) or not found; exit 3 unless all are verified"
))
