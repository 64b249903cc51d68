/** How fixtures become records: decoded through the client's schemas, ids derived from the other fields. */
import { Decoder } from "@s2-effect/core"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type * as Fixtures from "../Fixtures.js"

/**
 * The decoded value with its keys in the order of the input, as the client's decoder leaves
 * records from the wire (Schema's own decoder puts unknown keys first).
 */
const inInputOrder = (input: unknown, decoded: unknown): unknown => {
  if (Array.isArray(input) && Array.isArray(decoded)) return decoded.map((item, i) => inInputOrder(input[i], item))
  if (typeof input !== "object" || input === null || typeof decoded !== "object" || decoded === null) return decoded
  const source = decoded as Record<string, unknown>
  const out = Object.create(Object.getPrototypeOf(decoded)) as Record<string, unknown>
  for (const key of Object.keys(input)) {
    if (key in source) out[key] = inInputOrder((input as Record<string, unknown>)[key], source[key])
  }
  for (const key of Object.keys(source)) if (!(key in out)) out[key] = source[key]
  return out
}

/**
 * The client's own decoder (Effect 4's Schema has no `onExcessProperty: "preserve"`): unknown fields
 * kept as on records from the API. A value the schema refuses throws its `SchemaError`.
 */
export const decoder = <A, I>(schema: Schema.Codec<A, I>) => {
  const decode = Decoder.decodeUnknownResult(schema, { onExcessProperty: "preserve" })
  return (input: unknown): A => {
    const result = decode(input)
    if (Result.isFailure(result)) throw result.failure
    return inInputOrder(input, result.success) as A
  }
}

/** A stable id from the other fields (FNV-1a, five rounds for 40 hex digits). */
const digest = (input: unknown): string => {
  const text = JSON.stringify(input) ?? ""
  let out = ""
  for (let round = 0; round < 5; round++) {
    let h = 0x811c9dc5 ^ round
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
    out += (h >>> 0).toString(16).padStart(8, "0")
  }
  return out
}

/** The record with `key` first, filled from the digest of the rest when absent. */
export const withId = (key: string, fields: Fixtures.Extra, make: (hex: string) => unknown): Fixtures.Extra => ({
  [key]: key in fields ? fields[key] : make(digest(fields)),
  ...fields
})

export const paperRefWire = (fields: Fixtures.PaperRefInput = {}) => withId("paperId", fields, (hex) => hex)

export const numericId = (hex: string) => String(parseInt(hex.slice(0, 8), 16))
