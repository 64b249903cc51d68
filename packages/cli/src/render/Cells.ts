import * as Predicate from "effect/Predicate"
/**
 * Records as rows: the columns of a nested JSON record (dotted paths) and the text of one cell,
 * shared by the table and CSV formats.
 *
 * @since 0.1.0
 */

const isPlainObject = (u: unknown): u is Readonly<Record<string, unknown>> => Predicate.isObject(u) && !Array.isArray(u)

/**
 * The columns of a record: its keys, nested objects flattened into dotted paths (`externalIds.DOI`,
 * `citingPaper.title`); arrays stay one column.
 *
 * @since 0.1.0
 */
export const columnsOf = (record: unknown, prefix = ""): Array<string> => {
  if (!isPlainObject(record)) return prefix === "" ? ["value"] : [prefix]
  const columns: Array<string> = []
  for (const [key, value] of Object.entries(record)) {
    const path = prefix === "" ? key : `${prefix}.${key}`
    if (isPlainObject(value) && Object.keys(value).length > 0) columns.push(...columnsOf(value, path))
    else columns.push(path)
  }
  return columns
}

/**
 * Adds the columns of `record` that `columns` does not have yet, keeping the order of first sight.
 *
 * @since 0.1.0
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
    if (!isPlainObject(current)) return undefined
    current = current[key]
  }
  return current
}

const itemText = (item: unknown): string => {
  if (item === null || item === undefined) return ""
  if (isPlainObject(item)) {
    const label = item["name"] ?? item["title"] ?? item["text"]
    return typeof label === "string" ? label : JSON.stringify(item)
  }
  return typeof item === "string" ? item : JSON.stringify(item)
}

/**
 * The text of one cell: strings as they are, numbers and booleans printed, lists joined with `; `
 * (authors by name), other objects as compact JSON, null and absent as empty.
 *
 * @since 0.1.0
 */
export const cell = (record: unknown, column: string): string => {
  const value = lookup(record, column)
  if (value === null || value === undefined) return ""
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (Array.isArray(value)) return value.map(itemText).join("; ")
  return JSON.stringify(value)
}
