/**
 * Records as rows: the columns of a nested JSON record (dotted paths) and the text of one cell,
 * shared by the table and CSV formats. The text is the server's, unescaped: the formats escape it
 * (Escape.ts).
 *
 * @since 1.0.0
 */
import * as Predicate from "effect/Predicate"
import * as Json from "./Json.js"

const isPlainObject = (u: unknown): u is Readonly<Record<string, unknown>> => Predicate.isObject(u) && !Array.isArray(u)

/**
 * How deep nested objects are flattened into dotted columns; an object deeper than this is one
 * column, its cell compact JSON. A server's nesting is not our stack's depth.
 *
 * @since 1.0.0
 */
export const maxColumnDepth = 8

/**
 * The columns of a record: its keys, nested objects flattened into dotted paths (`externalIds.DOI`,
 * `citingPaper.title`) up to {@link maxColumnDepth} keys; arrays stay one column.
 *
 * @since 1.0.0
 */
export const columnsOf = (record: unknown, prefix = ""): Array<string> => {
  if (!isPlainObject(record)) return prefix === "" ? ["value"] : [prefix]
  const columns: Array<string> = []
  const walk = (object: Readonly<Record<string, unknown>>, at: string, depth: number): void => {
    for (const key of Object.keys(object)) {
      const value = object[key]
      const path = at === "" ? key : `${at}.${key}`
      if (depth < maxColumnDepth && isPlainObject(value) && Object.keys(value).length > 0) walk(value, path, depth + 1)
      else columns.push(path)
    }
  }
  walk(record, prefix, prefix === "" ? 1 : prefix.split(".").length + 1)
  return columns
}

/**
 * Adds the columns of `record` that `columns` does not have yet, keeping the order of first sight.
 *
 * @since 1.0.0
 */
export const mergeColumns = (columns: ReadonlyArray<string>, record: unknown): Array<string> => {
  const seen = new Set(columns)
  const merged = [...columns]
  for (const column of columnsOf(record)) {
    // A column whose parent is already a column (`a` then `a.b`) is shown inside the parent.
    if (!seen.has(column) && !hasParent(seen, column)) {
      seen.add(column)
      merged.push(column)
    }
  }
  return merged
}

/**
 * The columns of many records, gathered one record at a time: in order of first sight, a column
 * whose parent is already one shown inside it, at most `max` of them. One set for all, not
 * {@link mergeColumns} per record, which copies the columns each time.
 *
 * @since 1.0.0
 */
export interface ColumnSet {
  readonly columns: ReadonlyArray<string>
  /** Adds the record's columns not there yet; answers those left out for want of room (past `max`). */
  readonly add: (record: unknown) => ReadonlyArray<string>
  /** The record's columns that are not among them. */
  readonly missing: (record: unknown) => ReadonlyArray<string>
}

/**
 * A {@link ColumnSet} holding at most `max` columns.
 *
 * @since 1.0.0
 */
export const columnSet = (max = Number.POSITIVE_INFINITY): ColumnSet => {
  const columns: Array<string> = []
  const seen = new Set<string>()
  const missing = (record: unknown) => columnsOf(record).filter((c) => !seen.has(c) && !hasParent(seen, c))
  return {
    columns,
    add: (record) => {
      const left: Array<string> = []
      for (const column of missing(record)) {
        if (columns.length >= max) left.push(column)
        // A record may name a column and its child (`a` then `a.b`): the child is shown inside `a`.
        else if (!hasParent(seen, column)) {
          seen.add(column)
          columns.push(column)
        }
      }
      return left
    },
    missing
  }
}

const hasParent = (seen: ReadonlySet<string>, column: string): boolean => {
  let dot = column.lastIndexOf(".")
  while (dot > 0) {
    if (seen.has(column.slice(0, dot))) return true
    dot = column.lastIndexOf(".", dot - 1)
  }
  return false
}

const lookup = (record: unknown, path: string): unknown => {
  if (path === "value" && !isPlainObject(record)) return record
  let current: unknown = record
  for (const key of path.split(".")) {
    // Own keys only: a column named `__proto__` or `constructor` is data, not what objects inherit.
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined
    current = current[key]
  }
  return current
}

const itemText = (item: unknown): string => {
  if (item === null || item === undefined) return ""
  if (isPlainObject(item)) {
    const label = item["name"] ?? item["title"] ?? item["text"]
    return typeof label === "string" ? label : Json.stringify(item)
  }
  return typeof item === "string" ? item : Json.stringify(item)
}

/**
 * The text of one cell: strings as they are, numbers and booleans printed, lists joined with `; `
 * (authors by name), other objects as compact JSON, null and absent as empty.
 *
 * @since 1.0.0
 */
export const cell = (record: unknown, column: string): string => {
  const value = lookup(record, column)
  if (value === null || value === undefined) return ""
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (Array.isArray(value)) return value.map(itemText).join("; ")
  return Json.stringify(value)
}
