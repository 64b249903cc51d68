import * as Schema from "effect/Schema"
import type { WireRecord } from "../Paper.js"
import { wireOf } from "./decode.js"

/** Optional on the wire (absent when not asked for) and possibly `null`. */
export const field = <S extends Schema.Top>(schema: S) => Schema.optional(Schema.NullOr(schema))

/**
 * The record as it came over the wire — the record itself, not a copy. Records are decoded with
 * unknown fields preserved, in the wire's order, and no transformation of values: their own keys
 * are the wire object's and their values its values (nested records likewise), so the record
 * already is the JSON it was decoded from, and `JSON.stringify` of it gives the wire text back.
 * Copying it here (`JSON.parse(JSON.stringify(record))`) would cost a bulk harvest a third of its
 * CPU.
 *
 * The exception: a field named like a member of the record (`raw`, `keys`, `toString`, `then`,
 * `__proto__`…) is withheld from it, so data never shadows its API; such a record (and any record
 * holding one) keeps the wire object beside it, which `raw` and `JSON.stringify` give.
 */
export const raw = (record: object): Readonly<Record<string, unknown>> =>
  (wireOf(record) ?? record) as Readonly<Record<string, unknown>>

/** The fields that came back, including those this client does not know (and those withheld). */
export const keys = (record: object): ReadonlyArray<string> => Object.keys(raw(record))

/** The fields of an author, shared by authors listed on a paper and authors looked up. */
export const authorSummary = {
  externalIds: field(Schema.Struct({
    DBLP: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
    ORCID: Schema.optional(Schema.NullOr(Schema.String))
  })),
  url: field(Schema.String),
  name: field(Schema.String),
  affiliations: field(Schema.Array(Schema.String)),
  homepage: field(Schema.String),
  paperCount: field(Schema.Int),
  citationCount: field(Schema.Int),
  hIndex: field(Schema.Int)
}

/** The record class {@link record} makes: a `Schema.Class` whose instances are {@link WireRecord}s. */
export type RecordClass<Self, Fields extends Schema.Struct.Fields> = Schema.Class<
  Self,
  Schema.Struct<Fields>,
  WireRecord
>

/**
 * `Schema.Class` with {@link WireRecord}'s members: `class Paper extends record<Paper>("Paper")({…}) {}`.
 */
export const record =
  <Self>(identifier: string) => <Fields extends Schema.Struct.Fields>(fields: Fields): RecordClass<Self, Fields> => {
    const Base = Schema.Class<Self>(identifier)(fields) as unknown as RecordClass<Self, Fields>
    Object.defineProperties(Base.prototype, members)
    return Base
  }

/** The members once, as property descriptors to put on each record class's prototype. */
class Members implements WireRecord {
  get raw(): Readonly<Record<string, unknown>> {
    return raw(this)
  }
  keys(): ReadonlyArray<string> {
    return keys(this)
  }
}

const { constructor: _, ...members } = Object.getOwnPropertyDescriptors(Members.prototype)
