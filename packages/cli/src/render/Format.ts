/**
 * Output formats: pretty JSON, JSON lines, a terminal table, CSV. A {@link Writer} takes records
 * one at a time, so lists stream (JSON lines print as records arrive; JSON prints an array
 * incrementally; the table and CSV take their columns from their first 1,000 records, then print
 * rows as they come).
 * Table and CSV cells show control characters escaped (Escape.ts); JSON and JSON lines spell them as
 * JSON's `\u` escapes (Json.ts), the same value read back.
 *
 * @since 1.0.0
 */
import { excerpt } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import { CommandError, ExitCode } from "../ExitCode.js"
import { cell, columnSet } from "./Cells.js"
import { visible } from "./Escape.js"
import * as Json from "./Json.js"
import { grouped } from "./Progress.js"
import * as Table from "./Table.js"

/** @since 1.0.0 */
export type Format = "json" | "jsonl" | "table" | "csv"

/**
 * Where a writer prints: the part of the CLI's `Printer` it uses (render/ sits below `Printer`, which
 * hands itself in).
 *
 * @since 1.3.0
 */
export interface Streams {
  /** Writes to standard output. */
  readonly out: (text: string) => Effect.Effect<void>
  /** Writes to standard error. */
  readonly err: (text: string) => Effect.Effect<void>
  /** Whether standard output is a terminal. */
  readonly outIsTTY: boolean
}

/**
 * Takes the records of one command's output.
 *
 * @since 1.0.0
 */
export interface Writer {
  /** Fails only for a record too large to print as text at all. */
  readonly write: (record: unknown) => Effect.Effect<void, CommandError>
  /** Finishes the output (closes the JSON array, prints the table). */
  readonly end: Effect.Effect<void, CommandError>
}

/**
 * Quotes a CSV field when it holds a comma, a quote or a line break (RFC 4180).
 *
 * @since 1.0.0
 */
export const csvField = (text: string): string => /[",\r\n]/.test(text) ? `"${text.replace(/"/g, "\"\"")}"` : text

/**
 * A CSV field of server text: control characters (line breaks and tabs too) escaped as in
 * Escape.ts, so that every record is one CSV line and no cell acts on a terminal, then quoted.
 *
 * @since 1.0.0
 */
export const csvCell = (text: string): string => csvField(visible(text))

const indent = (text: string) => text.split("\n").map((line) => `  ${line}`).join("\n")

/**
 * The text of a record, or a typed error when it would pass the longest string the engine makes
 * (Json.stringify already prints values too deep for `JSON.stringify`).
 */
const printable = (render: () => string): Effect.Effect<string, CommandError> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(render())
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      return Effect.fail(
        new CommandError({
          message: `a record is too large to print (${error.message}); try --format jsonl or fewer --fields`,
          code: ExitCode.decode,
          cause: error
        })
      )
    }
  })

/**
 * A writer of `format` to standard output. `single` is for lookups that answer one record: JSON
 * prints the object rather than an array, and the table is a field/value list. `column` names the
 * one column of records that are plain values (release ids), in tables and CSV.
 *
 * @since 1.0.0
 */
export const makeWriter = (format: Format, printer: Streams, single = false, column = "value"): Writer => {
  if (format === "table" || format === "csv") {
    const writer = format === "csv" ? csvWriter(printer) : tableWriter(printer, single)
    return {
      write: (record) => writer.write(Predicate.isObject(record) ? record : { [column]: record }),
      end: writer.end
    }
  }
  if (format === "jsonl") {
    return {
      write: (record) => Effect.flatMap(printable(() => Json.stringify(record) + "\n"), printer.out),
      end: Effect.void
    }
  }
  if (single) {
    return {
      write: (record) => Effect.flatMap(printable(() => Json.stringify(record, true) + "\n"), printer.out),
      end: Effect.void
    }
  }
  let count = 0
  return {
    write: (record) =>
      Effect.flatMap(
        printable(() => (count === 0 ? "[\n" : ",\n") + indent(Json.stringify(record, true))),
        (text) => Effect.andThen(Effect.sync(() => count++), printer.out(text))
      ),
    end: Effect.suspend(() => printer.out(count === 0 ? "[]\n" : "\n]\n"))
  }
}

/** At most this many late CSV columns are named in warnings: a server's keys are not our memory. */
const maxWarnedColumns = 100

/**
 * A Warning for the columns of a record past the CSV's header, each named once (see {@link csvWriter}).
 */
const lateColumns = (warned: Set<string>) => (record: number, columns: ReadonlyArray<string>): Effect.Effect<void> => {
  if (warned.size > maxWarnedColumns) return Effect.void
  const fresh = columns.filter((c) => !warned.has(c))
  if (fresh.length === 0) return Effect.void
  const named = fresh.slice(0, maxWarnedColumns + 1 - warned.size)
  for (const column of named) warned.add(column)
  const more = fresh.length - named.length
  return Effect.logWarning(
    `--format csv: record ${grouped(record)} has ${named.length === 1 ? "a column" : "columns"} ${
      named.map(visible).join(", ")
    }${more > 0 ? ` and ${grouped(more)} more` : ""} that the header (the columns of the first ${
      grouped(Table.sampleSize)
    } records) does not have: left out of the CSV${
      warned.size > maxWarnedColumns ? "; later new columns are left out without a word" : ""
    } (--format jsonl keeps every field)`
  )
}

/**
 * CSV: its header is every column of its first Table.sampleSize records (buffered until then, as
 * the table's), then each further record is printed as it arrives, in bounded memory. A later
 * record with a column the header does not have is printed without it, and a Warning names it.
 */
const csvWriter = (printer: Streams): Writer => {
  const sample: Array<unknown> = []
  const columns = columnSet()
  let started = false
  let count = 0
  const warn = lateColumns(new Set())
  const row = (record: unknown) => columns.columns.map((c) => csvCell(cell(record, c))).join(",") + "\r\n"
  const start = printable(() => {
    started = true
    for (const record of sample) columns.add(record)
    let text = columns.columns.length === 0 ? "" : columns.columns.map(csvCell).join(",") + "\r\n"
    for (const record of sample) text += row(record)
    sample.length = 0
    return text
  })
  return {
    write: (record) =>
      Effect.suspend(() => {
        count++
        if (started) {
          const line = Effect.flatMap(printable(() => row(record)), printer.out)
          return Effect.andThen(warn(count, columns.missing(record)), line)
        }
        sample.push(record)
        return sample.length < Table.sampleSize ? Effect.void : Effect.flatMap(start, printer.out)
      }),
    end: Effect.suspend(() => started || sample.length === 0 ? Effect.void : Effect.flatMap(start, printer.out))
  }
}

const rows = (table: Table.Layout, records: ReadonlyArray<unknown>): string => {
  let text = table.head
  for (const record of records) text += table.row(record)
  return text
}

/**
 * The table: buffered up to Table.sampleSize records, which size its columns; past that, printed
 * a row at a time as records arrive. Says on stderr when columns were left out.
 */
const tableWriter = (printer: Streams, single: boolean): Writer => {
  // Piped, a table is as wide as a common terminal.
  const width = printer.outIsTTY ? Math.max(process.stdout.columns ?? 100, 40) : 100
  const sample: Array<unknown> = []
  let streaming: Table.Layout | undefined
  let leftOut = false
  const note = (table: Table.Layout) =>
    Effect.andThen(
      table.dropped.length === 0 ? Effect.void : printer.err(
        `s2: to keep the titles readable in ${width} columns, the table leaves out ${
          visible(excerpt(table.dropped.join(", "), 200))
        } (--format jsonl or csv has every field)\n`
      ),
      table.truncated || leftOut
        ? printer.err(
          `s2: the table shows at most ${Table.maxColumns} columns, those of its first ${
            grouped(Table.sampleSize)
          } records; some were left out (--format jsonl has every field)\n`
        )
        : Effect.void
    )
  return {
    write: (record) =>
      Effect.suspend(() => {
        if (streaming !== undefined) {
          const table = streaming
          leftOut ||= table.leavesOut(record)
          return Effect.flatMap(printable(() => table.row(record)), printer.out)
        }
        sample.push(record)
        if (single || sample.length < Table.sampleSize) return Effect.void
        return Effect.flatMap(
          printable(() => {
            const table = Table.layout(sample, width, true)
            const text = rows(table, sample)
            streaming = table
            sample.length = 0
            return text
          }),
          printer.out
        )
      }),
    end: Effect.suspend(() => {
      if (streaming !== undefined) return note(streaming)
      if (sample.length === 0) return printer.err("(no records)\n")
      if (single && sample.length === 1) {
        return Effect.flatMap(printable(() => Table.renderRecord(sample[0], width)), printer.out)
      }
      let table: Table.Layout | undefined
      return printable(() => rows(table = Table.layout(sample, width), sample)).pipe(
        Effect.flatMap(printer.out),
        Effect.andThen(Effect.suspend(() => table === undefined ? Effect.void : note(table)))
      )
    })
  }
}
