/**
 * Citation edges: who cites a paper (`Citation`, with `citingPaper`) and what a paper cites
 * (`Reference`, with `citedPaper`), with the citation contexts and intents.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { field, keys, raw } from "./internal/record.js"
import { PaperRef } from "./Paper.js"

const edge = {
  contexts: field(Schema.Array(Schema.String)),
  intents: field(Schema.Array(Schema.String)),
  contextsWithIntent: field(Schema.Array(Schema.Struct({
    context: field(Schema.String),
    intents: field(Schema.Array(Schema.String))
  }))),
  isInfluential: field(Schema.Boolean)
}

/**
 * A paper citing the paper asked about.
 *
 * @category models
 * @since 0.1.0
 */
export class Citation extends Schema.Class<Citation>("Citation")({ ...edge, citingPaper: PaperRef }) {
  /** The record as it came over the wire. */
  get raw(): Readonly<Record<string, unknown>> {
    return raw(this)
  }
  /** The fields that came back. */
  keys(): ReadonlyArray<string> {
    return keys(this)
  }
}

/**
 * A paper cited by the paper asked about.
 *
 * @category models
 * @since 0.1.0
 */
export class Reference extends Schema.Class<Reference>("Reference")({ ...edge, citedPaper: PaperRef }) {
  /** The record as it came over the wire. */
  get raw(): Readonly<Record<string, unknown>> {
    return raw(this)
  }
  /** The fields that came back. */
  keys(): ReadonlyArray<string> {
    return keys(this)
  }
}
