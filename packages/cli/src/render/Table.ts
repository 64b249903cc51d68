/**
 * Plain-text tables for the terminal: a header, a rule, and rows, with columns narrowed (cells cut
 * with `…`) so that the table fits the terminal's width.
 *
 * @since 0.1.0
 */
import { cell, mergeColumns } from "./Cells.js"

const clean = (text: string): string => text.replace(/\s+/g, " ").trim()

const cut = (text: string, width: number): string =>
  [...text].length <= width ? text : [...text].slice(0, Math.max(0, width - 1)).join("") + "…"

const pad = (text: string, width: number): string => text + " ".repeat(Math.max(0, width - [...text].length))

const fit = (natural: ReadonlyArray<number>, columns: number): Array<number> => {
  const widths = natural.map((w) => Math.min(w, 60))
  const gaps = 2 * Math.max(0, widths.length - 1)
  let total = widths.reduce((a, b) => a + b, 0) + gaps
  while (total > columns) {
    const widest = Math.max(...widths)
    if (widest <= 6) break
    const k = widths.indexOf(widest)
    widths[k] = widest - 1
    total--
  }
  return widths
}

/**
 * Renders records as a table at most `columns` characters wide (when possible).
 *
 * @since 0.1.0
 */
export const renderTable = (records: ReadonlyArray<unknown>, columns: number): string => {
  const headers = records.reduce<Array<string>>((acc, record) => mergeColumns(acc, record), [])
  if (headers.length === 0) return ""
  const rows = records.map((record) => headers.map((h) => clean(cell(record, h))))
  const natural = headers.map((h, k) => Math.max([...h].length, ...rows.map((row) => [...(row[k] ?? "")].length)))
  const widths = fit(natural, columns)
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, k) => pad(cut(c, widths[k] ?? 0), widths[k] ?? 0)).join("  ").trimEnd()
  return [line(headers), widths.map((w) => "─".repeat(w)).join("  "), ...rows.map(line)].join("\n") + "\n"
}

/**
 * Renders one record as a two-column table of field and value.
 *
 * @since 0.1.0
 */
export const renderRecord = (record: unknown, columns: number): string => {
  const headers = mergeColumns([], record)
  const nameWidth = Math.max(...headers.map((h) => h.length))
  const valueWidth = Math.max(20, columns - nameWidth - 2)
  return headers.map((h) => `${pad(h, nameWidth)}  ${cut(clean(cell(record, h)), valueWidth)}`.trimEnd()).join("\n") +
    "\n"
}
