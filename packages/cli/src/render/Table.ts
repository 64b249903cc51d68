/**
 * Plain-text tables for the terminal: a header, a rule, and rows, with columns of prose (titles,
 * names, abstracts) narrowed, cells cut with `…`, so that the table fits the terminal's width.
 * Identifiers are never cut: a cut id cannot be looked up. Prose gets the room first: when the ids
 * would leave a prose column narrower than it reads (30 characters), id columns (those of nested
 * objects first) are left out, the rightmost first, and the layout names them (the CLI says so on stderr). Cells show control characters escaped
 * (Escape.ts) and line breaks as spaces, so a cell is always one line of its row.
 *
 * A table's {@link Layout} (columns and widths) is computed from a sample of its first records;
 * later records are printed in it as they arrive, so a long table streams in bounded memory.
 *
 * @since 1.0.0
 */
import { cell, columnSet, mergeColumns } from "./Cells.js"
import { hasControls, visibleChar } from "./Escape.js"

/**
 * The records a table's columns and widths are computed from; later ones are printed as they come.
 *
 * @since 1.0.0
 */
export const sampleSize = 1000

/**
 * The most columns a table shows: a record with thousands of fields is a table nobody can read
 * (CSV and JSON have them all).
 *
 * @since 1.0.0
 */
export const maxColumns = 100

/** The widest a prose column starts; an id column is padded to at most this, then printed whole. */
const maxProseWidth = 60
const maxIdWidth = 100
/**
 * The narrowest a title is cut to, and other prose (venue, authors, a note), before columns are
 * left out to make room.
 */
const readableTitle = 30
const readableProse = 16
/** Columns this narrow (a year, a count, `via`) cost too little to be worth leaving out. */
const narrowColumn = 12
/** The narrowest a prose column is ever cut to, when only it and the columns kept are left. */
const minProse = 8
/** The widest a field name is in a record's field/value list. */
const maxNameWidth = 40

/** Whitespace as `\s` matches it (and `String.prototype.trim` removes it). */
const isSpace = (code: number): boolean =>
  code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x1680 ||
  (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f ||
  code === 0x205f || code === 0x3000 || code === 0xfeff

/** Whitespace other than single spaces between words. */
const looseSpace = /\s\s|[^\S ]|^\s|\s$/

/**
 * A cell as one line: whitespace runs as one space, trimmed, control characters escaped. With a
 * `limit`, no further than what shows `limit` characters and says that there is more: a 20 MB
 * abstract is not cleaned whole to print 60 characters of it.
 */
const clean = (text: string, limit = Number.POSITIVE_INFINITY): string => {
  if (!looseSpace.test(text) && !hasControls(text)) return text
  let out = ""
  let count = 0
  let space = false
  for (const char of text) {
    if (isSpace(char.charCodeAt(0))) {
      space = count > 0
      continue
    }
    if (space) {
      out += " "
      count++
      space = false
    }
    const shown = visibleChar(char)
    out += shown
    count += shown === char ? 1 : shown.length
    if (count > limit) break
  }
  return out
}

/** Code points in `text`, counting no further than `cap`. */
const lengthUpTo = (text: string, cap: number): number => {
  let n = 0
  for (const _ of text) if (++n >= cap) return cap
  return n
}

const cut = (text: string, width: number): string => {
  if (text.length <= width) return text
  let count = 0
  let keep = 0
  let index = 0
  for (const char of text) {
    if (++count === width) keep = index
    if (count > width) return text.slice(0, keep) + "…"
    index += char.length
  }
  return text
}

/** A year at the end of a cell, as `s2 verify` writes a paper: `Attention Is All You Need (2017)`. */
const yearAtEnd = /\s(\(\d{4}\))$/
/** The narrowest cell that keeps its year when cut: a few characters of title, `…`, ` (2017)`. */
const minYearKept = 16

/**
 * A prose cell at most `width` characters: cut with `…`, except that a year at its end is kept
 * (`On the representation lear… (2024)`), since which year is what tells two papers apart.
 */
const proseCell = (text: string, width: number): string => {
  const shown = clean(text, width)
  if (lengthUpTo(shown, width + 1) <= width) return shown
  const year = width >= minYearKept ? yearAtEnd.exec(text) : null
  if (year === null) return cut(shown, width)
  const tail = ` ${year[1]}`
  const room = width - tail.length
  return cut(clean(text.slice(0, year.index), room), room) + tail
}

const pad = (text: string, width: number): string => {
  const length = lengthUpTo(text, width)
  return length >= width ? text : text + " ".repeat(width - length)
}

/**
 * Whether a column holds identifiers (paperId, authors.authorId, externalIds.DOI, url, …).
 *
 * @since 1.0.0
 */
export const isIdColumn = (column: string): boolean => {
  const last = column.slice(column.lastIndexOf(".") + 1)
  return column.startsWith("externalIds.") || column.includes(".externalIds.") || last === "id" ||
    last.endsWith("Id") || /^(url|doi)$/i.test(last)
}

/**
 * Column widths: each starts at its natural width (prose at most 60) and the widest column above
 * its floor loses a character until the table fits. The floor of a prose column is 8; that of an
 * id column its longest value (only its header may be cut). When that is still too wide, the
 * table is wider than the terminal: better than ids that cannot be looked up.
 */
/** The longest value of column `h` among `records`, as shown (ids to 100 characters, prose to 60). */
const longestCell = (records: ReadonlyArray<unknown>, h: string, id: boolean): number => {
  const cap = id ? maxIdWidth : maxProseWidth
  let max = 0
  for (const record of records) max = Math.max(max, lengthUpTo(clean(cell(record, h), cap), cap))
  return max
}

/** A column's width before fitting: its label or longest value; an open table's prose, 60. */
const naturalWidth = (
  records: ReadonlyArray<unknown>,
  h: string,
  label: string,
  id: boolean,
  open: boolean
): number =>
  open && !id
    ? maxProseWidth
    : Math.max(lengthUpTo(clean(label, maxIdWidth), maxProseWidth), longestCell(records, h, id))

/**
 * The header each column shows: a narrow column of a nested object (`citingPaper.year`,
 * `paper.citationCount`) by its last name (`year`) when no other column ends in that name, so that
 * a 4-character year does not take 16 columns from the titles. Ids and prose keep their full names.
 */
const labels = (
  records: ReadonlyArray<unknown>,
  all: ReadonlyArray<string>,
  ids: ReadonlyArray<boolean>
): Array<string> => {
  const last = all.map((h) => h.slice(h.lastIndexOf(".") + 1))
  const count = new Map<string, number>()
  for (const name of last) count.set(name, (count.get(name) ?? 0) + 1)
  return all.map((h, k) =>
    h.includes(".") && !ids[k] && count.get(last[k]!) === 1 && last[k] !== "" &&
      longestCell(records, h, false) <= narrowColumn
      ? last[k]!
      : h
  )
}

const fit = (natural: ReadonlyArray<number>, floors: ReadonlyArray<number>, columns: number): Array<number> => {
  const widths = natural.map((w, k) => Math.max(Math.min(w, maxProseWidth), floors[k] ?? 0))
  const gaps = 2 * Math.max(0, widths.length - 1)
  let total = widths.reduce((a, b) => a + b, 0) + gaps
  while (total > columns) {
    let widest = -1
    for (let k = 0; k < widths.length; k++) {
      const w = widths[k] ?? 0
      if (w > (floors[k] ?? 0) && (widest < 0 || w > (widths[widest] ?? 0))) widest = k
    }
    if (widest < 0) break
    widths[widest] = (widths[widest] ?? 0) - 1
    total--
  }
  return widths
}

/**
 * How a table is printed: its header (and rule), and the line of any record in its columns.
 *
 * @since 1.0.0
 */
export interface Layout {
  readonly columns: ReadonlyArray<string>
  /**
   * The id columns left out so that prose stays readable (`externalIds.MAG`, `url`…),
   * in the records' order; `--format jsonl` or `csv` has them.
   */
  readonly dropped: ReadonlyArray<string>
  /** The header and the rule, each ending in a line break; empty when there are no columns. */
  readonly head: string
  /** The line of one record, ending in a line break. */
  readonly row: (record: unknown) => string
  /** Whether the sample has more columns than {@link maxColumns}, left out. */
  readonly truncated: boolean
  /** Whether `record` has a column the table does not show. */
  readonly leavesOut: (record: unknown) => boolean
}

const isTitle = (column: string): boolean => column === "title" || column.endsWith(".title")

/**
 * The columns that may be left out for room, in the order they go: ids of nested objects
 * (`externalIds.MAG`, `authors.authorId`, `openAccessPdf.url`), then top-level ids, then prose
 * other than titles, each the rightmost first; never the first column, a title or a narrow column,
 * and a table's first id only as {@link keptColumns} says.
 */
const droppable = (
  headers: ReadonlyArray<string>,
  ids: ReadonlyArray<boolean>,
  natural: ReadonlyArray<number>
): Array<number> => {
  const firstId = ids.indexOf(true)
  const candidates = headers.map((_, k) => k)
    .filter((k) => k > 0 && k !== firstId && !isTitle(headers[k]!) && natural[k]! > narrowColumn)
    .reverse()
  return [
    ...candidates.filter((k) => ids[k] === true && headers[k]!.includes(".")),
    ...candidates.filter((k) => ids[k] === true && !headers[k]!.includes(".")),
    ...candidates.filter((k) => ids[k] !== true)
  ]
}

/** The width a prose column keeps while columns can still be left out for it. */
const readableWidth = (column: string, natural: number): number =>
  Math.min(natural, isTitle(column) ? readableTitle : readableProse)

/**
 * Which columns to keep so that every prose column can be at least {@link readableWidth} wide
 * (or its natural width): id and nested columns go, in {@link droppable}'s order, until the
 * floors fit in `columns`. A table that fits keeps them all.
 */
const keptColumns = (
  headers: ReadonlyArray<string>,
  ids: ReadonlyArray<boolean>,
  natural: ReadonlyArray<number>,
  idFloors: ReadonlyArray<number>,
  columns: number
): Set<number> => {
  const kept = new Set(headers.map((_, k) => k))
  const floor = (k: number) => ids[k] ? idFloors[k]! : readableWidth(headers[k]!, natural[k]!)
  const need = () => [...kept].reduce((sum, k) => sum + floor(k) + 2, -2)
  for (const k of droppable(headers, ids, natural)) {
    if (need() <= columns) break
    kept.delete(k)
  }
  // A nested id after the row's own first column (`paper.paperId` beside `s2 resolve`'s input) goes
  // too when even other prose at 8 characters would leave a title unreadable beside it.
  const firstId = ids.indexOf(true)
  const tight = () =>
    [...kept].reduce(
      (sum, k) => sum + 2 + (ids[k] ? idFloors[k]! : isTitle(headers[k]!) ? floor(k) : Math.min(natural[k]!, minProse)),
      -2
    )
  if (firstId > 0 && headers[firstId]!.includes(".") && kept.has(firstId) && tight() > columns) kept.delete(firstId)
  return kept
}

/**
 * The layout of a table of `records` at most `columns` characters wide (when possible). With
 * `open`, `records` are a sample (see {@link sampleSize}) of a table that goes on: its prose
 * columns take the room there is, as later values may be longer.
 *
 * @since 1.0.0
 */
export const layout = (records: ReadonlyArray<unknown>, columns: number, open = false): Layout => {
  const shown = columnSet(maxColumns)
  let truncated = false
  for (const record of records) if (shown.add(record).length > 0) truncated = true
  const all = shown.columns
  const allIds = all.map(isIdColumn)
  const allLabels = labels(records, all, allIds)
  const allNatural = all.map((h, k) => naturalWidth(records, h, allLabels[k]!, allIds[k]!, open))
  const idFloors = all.map((h, k) => allIds[k] ? Math.max(longestCell(records, h, true), 2) : 0)
  // An id column's header is kept whole too while columns can still be left out for room.
  const kept = keptColumns(all, allIds, allNatural, allNatural, columns)
  const headers = all.filter((_, k) => kept.has(k))
  const dropped = all.filter((_, k) => !kept.has(k))
  const ids = headers.map(isIdColumn)
  const names = headers.map((h) => clean(allLabels[all.indexOf(h)]!, maxIdWidth))
  const natural = headers.map((h) => allNatural[all.indexOf(h)]!)
  const floorsAt = (prose: "readable" | "titles" | "any", idHeaders: boolean) =>
    headers.map((h, k) =>
      ids[k]
        ? (idHeaders ? natural[k]! : idFloors[all.indexOf(h)]!)
        : prose === "readable" || (prose === "titles" && isTitle(h))
        ? readableWidth(h, natural[k]!)
        : Math.min(natural[k]!, minProse)
    )
  // Prose keeps a readable width and ids their headers when the columns kept allow it; failing that
  // (nothing more can be left out), other prose goes down to 8 before titles do (a title is what
  // tells the reader which paper a row is), then the ids' headers are cut.
  const fits = (widths: ReadonlyArray<number>) => widths.reduce((a, b) => a + b + 2, -2) <= columns
  const widths = [
    floorsAt("readable", true),
    floorsAt("titles", true),
    floorsAt("any", true),
    floorsAt("any", false)
  ]
    .map((floors) => fit(natural, floors, columns))
    .find(fits) ?? fit(natural, floorsAt("any", false), columns)
  const line = (cells: ReadonlyArray<string>, cutIds: boolean) =>
    cells.map((c, k) => pad(ids[k] && !cutIds ? c : cut(c, widths[k] ?? 0), widths[k] ?? 0)).join("  ").trimEnd() +
    "\n"
  return {
    columns: headers,
    dropped,
    head: headers.length === 0 ? "" : line(names, true) + widths.map((w) => "─".repeat(w)).join("  ") + "\n",
    row: (record) =>
      headers.length === 0
        ? ""
        : line(headers.map((h, k) => ids[k] ? clean(cell(record, h)) : proseCell(cell(record, h), widths[k]!)), false),
    truncated,
    leavesOut: (record) => shown.missing(record).length > 0
  }
}

/**
 * Renders records as a table at most `columns` characters wide (when possible).
 *
 * @since 1.0.0
 */
export const renderTable = (records: ReadonlyArray<unknown>, columns: number): string => {
  const table = layout(records, columns)
  if (table.columns.length === 0) return ""
  let text = table.head
  for (const record of records) text += table.row(record)
  return text
}

/**
 * Renders one record as a two-column table of field and value.
 *
 * @since 1.0.0
 */
export const renderRecord = (record: unknown, columns: number): string => {
  const headers = mergeColumns([], record)
  const names = headers.map((h) => clean(h, maxNameWidth))
  let nameWidth = 0
  for (const name of names) nameWidth = Math.max(nameWidth, lengthUpTo(name, maxNameWidth))
  const valueWidth = Math.max(20, columns - nameWidth - 2)
  let text = ""
  for (let k = 0; k < headers.length; k++) {
    const h = headers[k] ?? ""
    const id = isIdColumn(h)
    const value = clean(cell(record, h), id ? undefined : valueWidth)
    text += `${pad(cut(names[k] ?? "", nameWidth), nameWidth)}  ${id ? value : cut(value, valueWidth)}`
      .trimEnd() + "\n"
  }
  return text
}
