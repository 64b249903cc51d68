/**
 * Plain-text tables for the terminal: a header, a rule, and rows, with columns of prose (titles,
 * names, abstracts) narrowed, cells cut with `…`, so that the table fits the terminal's width.
 * Identifiers are never cut: a cut id cannot be looked up.
 *
 * @since 0.1.0
 */
import { cell, mergeColumns } from "./Cells.js"

const clean = (text: string): string => text.replace(/\s+/g, " ").trim()

const cut = (text: string, width: number): string =>
  [...text].length <= width ? text : [...text].slice(0, Math.max(0, width - 1)).join("") + "…"

const pad = (text: string, width: number): string => text + " ".repeat(Math.max(0, width - [...text].length))

/**
 * Whether a column holds identifiers (paperId, authors.authorId, externalIds.DOI, url, …).
 *
 * @since 0.1.0
 */
export const isIdColumn = (column: string): boolean => {
  const last = column.slice(column.lastIndexOf(".") + 1)
  return column.startsWith("externalIds.") || last === "id" || last.endsWith("Id") || /^(url|doi)$/i.test(last)
}

/**
 * Column widths: each starts at its natural width (prose at most 60) and the widest column above
 * its floor loses a character until the table fits. The floor of a prose column is 8; that of an
 * id column its longest value (only its header may be cut). When that is still too wide, the
 * table is wider than the terminal: better than ids that cannot be looked up.
 */
const fit = (natural: ReadonlyArray<number>, floors: ReadonlyArray<number>, columns: number): Array<number> => {
  const widths = natural.map((w, k) => Math.max(Math.min(w, 60), floors[k] ?? 0))
  const gaps = 2 * Math.max(0, widths.length - 1)
  let total = widths.reduce((a, b) => a + b, 0) + gaps
  while (total > columns) {
    const slack = widths.map((w, k) => w > (floors[k] ?? 0) ? w : 0)
    const widest = Math.max(...slack)
    if (widest === 0) break
    widths[slack.indexOf(widest)] = widest - 1
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
  const longest = headers.map((_, k) => Math.max(0, ...rows.map((row) => [...(row[k] ?? "")].length)))
  const natural = headers.map((h, k) => Math.max([...h].length, longest[k] ?? 0))
  const floors = headers.map((h, k) => isIdColumn(h) ? Math.max(longest[k] ?? 0, 2) : Math.min(natural[k] ?? 0, 8))
  const widths = fit(natural, floors, columns)
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
  return headers.map((h) =>
    `${pad(h, nameWidth)}  ${isIdColumn(h) ? clean(cell(record, h)) : cut(clean(cell(record, h)), valueWidth)}`
      .trimEnd()
  ).join("\n") +
    "\n"
}
