/**
 * Output formats: pretty JSON, JSON lines, a terminal table, CSV. A {@link Writer} takes records
 * one at a time, so lists stream (JSON lines and CSV print as records arrive; JSON prints an array
 * incrementally; the table waits for the last record to size its columns).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import type { Service as StdioService } from "../Stdio.js"
import { cell, mergeColumns } from "./Cells.js"
import { renderRecord, renderTable } from "./Table.js"

/** @since 0.1.0 */
export type Format = "json" | "jsonl" | "table" | "csv"

/**
 * Takes the records of one command's output.
 *
 * @since 0.1.0
 */
export interface Writer {
  readonly write: (record: unknown) => Effect.Effect<void>
  /** Finishes the output (closes the JSON array, prints the table). */
  readonly end: Effect.Effect<void>
}

/**
 * Quotes a CSV field when it holds a comma, a quote or a line break (RFC 4180).
 *
 * @since 0.1.0
 */
export const csvField = (text: string): string => /[",\r\n]/.test(text) ? `"${text.replace(/"/g, "\"\"")}"` : text

const indent = (text: string) => text.split("\n").map((line) => `  ${line}`).join("\n")

/**
 * A writer of `format` to standard output. `single` is for lookups that answer one record: JSON
 * prints the object rather than an array, and the table is a field/value list. `column` names the
 * one column of records that are plain values (release ids), in tables and CSV.
 *
 * @since 0.1.0
 */
export const makeWriter = (format: Format, stdio: StdioService, single = false, column = "value"): Writer => {
  if (format === "table" || format === "csv") {
    const writer = makeRecordWriter(format, stdio, single)
    return {
      write: (record) => writer.write(Predicate.isObject(record) ? record : { [column]: record }),
      end: writer.end
    }
  }
  return makeRecordWriter(format, stdio, single)
}

const makeRecordWriter = (format: Format, stdio: StdioService, single: boolean): Writer => {
  switch (format) {
    case "jsonl":
      return { write: (record) => stdio.out(JSON.stringify(record) + "\n"), end: Effect.void }
    case "json": {
      if (single) return { write: (record) => stdio.out(JSON.stringify(record, null, 2) + "\n"), end: Effect.void }
      let count = 0
      return {
        write: (record) =>
          Effect.suspend(() => stdio.out((count++ === 0 ? "[\n" : ",\n") + indent(JSON.stringify(record, null, 2)))),
        end: Effect.suspend(() => stdio.out(count === 0 ? "[]\n" : "\n]\n"))
      }
    }
    case "csv": {
      let header: Array<string> | undefined
      return {
        write: (record) =>
          Effect.suspend(() => {
            const first = header === undefined
            header ??= mergeColumns([], record)
            const columns = header
            const row = columns.map((c) => csvField(cell(record, c))).join(",") + "\r\n"
            return stdio.out(first ? columns.map(csvField).join(",") + "\r\n" + row : row)
          }),
        end: Effect.void
      }
    }
    case "table": {
      const records: Array<unknown> = []
      return {
        write: (record) => Effect.sync(() => void records.push(record)),
        end: Effect.suspend(() => {
          // Piped, a table is as wide as a common terminal.
          const width = stdio.outIsTTY ? Math.max(process.stdout.columns ?? 100, 40) : 100
          if (single && records.length === 1) return stdio.out(renderRecord(records[0], width))
          return records.length === 0 ? stdio.err("(no records)\n") : stdio.out(renderTable(records, width))
        })
      }
    }
  }
}
