import { Schema } from "effect"

/** Optional on the wire (absent when not asked for) and possibly `null`. */
export const field = <S extends Schema.Schema.All>(schema: S) => Schema.optional(Schema.NullOr(schema))

/**
 * The record as it came over the wire — the record itself, not a copy. Records are decoded with
 * unknown fields preserved, in the wire's order, and no transformation of values: their own keys
 * are the wire object's and their values its values (nested records likewise), so the record
 * already is the JSON it was decoded from, and `JSON.stringify` of it gives the wire text back.
 * Copying it here (it once was `JSON.parse(JSON.stringify(record))`) cost a bulk harvest a third
 * of its CPU.
 */
export const raw = (record: object): Readonly<Record<string, unknown>> => record as Readonly<Record<string, unknown>>

/** The fields that came back, including those this client does not know. */
export const keys = (record: object): ReadonlyArray<string> => Object.keys(record)

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
