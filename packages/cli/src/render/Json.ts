/**
 * JSON text of any JSON value. `JSON.stringify` recurses on the native stack: a value nested a few
 * thousand levels deep throws a `RangeError` (and pretty-printed, a deep value's indentation alone
 * can pass the longest string V8 makes). Such a value is written by a loop instead, compact: the
 * same JSON value, on one line.
 *
 * `JSON.stringify` escapes only U+0000–U+001F and lone surrogates: DEL, the C1 controls (U+009B is
 * a CSI), the bidirectional overrides and U+2028/U+2029 it writes raw, and a terminal acts on them.
 * The text here spells those as `\u` escapes too, the same on a terminal as piped or in a file.
 *
 * @since 1.0.0
 */
import { replaceUnsafe } from "@s2-effect/core"
import * as Predicate from "effect/Predicate"
import { unicodeEscape } from "./Escape.js"

interface Frame {
  readonly close: "]" | "}"
  readonly values: ReadonlyArray<unknown>
  /** The keys of an object's `values`; undefined for an array. */
  readonly keys: ReadonlyArray<string> | undefined
  index: number
}

const isSkipped = (value: unknown): boolean =>
  value === undefined || typeof value === "function" || typeof value === "symbol"

/** JSON.stringify's output for `value`, without recursion: objects by a stack of frames. */
const compact = (root: unknown): string => {
  const out: Array<string> = []
  const stack: Array<Frame> = []
  const enter = (value: unknown): void => {
    if (Array.isArray(value)) {
      out.push("[")
      stack.push({ close: "]", values: value, keys: undefined, index: 0 })
    } else if (value !== null && typeof value === "object") {
      const keys = Object.keys(value).filter((key) => !isSkipped((value as Record<string, unknown>)[key]))
      out.push("{")
      stack.push({ close: "}", values: keys.map((key) => (value as Record<string, unknown>)[key]), keys, index: 0 })
    } else {
      // A scalar: JSON.stringify does not recurse on it. In an array, what it skips is null.
      out.push(isSkipped(value) ? "null" : JSON.stringify(value))
    }
  }
  enter(root)
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    if (top.index >= top.values.length) {
      out.push(top.close)
      stack.pop()
      continue
    }
    const k = top.index++
    if (k > 0) out.push(",")
    if (top.keys !== undefined) out.push(JSON.stringify(top.keys[k]) + ":")
    enter(top.values[k])
  }
  return out.join("")
}

/**
 * `json` with each character core's `replaceUnsafe` lists as a `\u` escape. Outside strings JSON
 * text has none of them but the line feeds of pretty printing, which stay; inside a string the
 * escape reads back as the same character, so the JSON value is unchanged.
 */
const escaped = (json: string): string => replaceUnsafe(json, (char) => char === "\n" ? char : unicodeEscape(char))

const unescaped = (value: unknown, pretty: boolean): string => {
  try {
    return JSON.stringify(value, null, pretty ? 2 : undefined) ?? "null"
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
  }
  return compact(value)
}

/**
 * The JSON text of `value` (indented by two spaces when `pretty`), as `JSON.stringify` writes it
 * but for the characters a terminal acts on, escaped (see above); compact when it is too deep for
 * `JSON.stringify`. Throws a `RangeError` only when the text would pass the longest string the
 * engine can make.
 *
 * @since 1.0.0
 */
export const stringify = (value: unknown, pretty = false): string => escaped(unescaped(value, pretty))

/**
 * The JSON of a record: its wire form when it has one.
 *
 * @since 1.0.0
 */
export const toJson = (record: unknown): unknown =>
  Predicate.hasProperty(record, "raw") && Predicate.isObject(record.raw) ? record.raw : record
