/**
 * Citation edges: who cites a paper (`Citation`, with `citingPaper`) and what a paper cites
 * (`Reference`, with `citedPaper`), with the citation contexts and intents.
 *
 * @since 1.0.0
 */
import * as Schema from "effect/Schema"
import { field, record } from "./internal/record.js"
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
 * @since 1.0.0
 */
export class Citation extends record<Citation>("Citation")({ ...edge, citingPaper: PaperRef }) {}

/**
 * A paper cited by the paper asked about.
 *
 * @category models
 * @since 1.0.0
 */
export class Reference extends record<Reference>("Reference")({ ...edge, citedPaper: PaperRef }) {}
