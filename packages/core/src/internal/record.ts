import { Schema } from "effect"

/** Optional on the wire (absent when not asked for) and possibly `null`. */
export const field = <S extends Schema.Schema.All>(schema: S) => Schema.optional(Schema.NullOr(schema))

/**
 * The record as it came over the wire. Records are decoded with unknown fields preserved and no
 * transformation of values, so serialising one gives back the JSON object it was decoded from.
 */
export const raw = (record: object): Readonly<Record<string, unknown>> => JSON.parse(JSON.stringify(record))

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
