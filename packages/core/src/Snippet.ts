/**
 * Snippet search results: passages of text from papers that match a query, with where they come
 * from and how well they match.
 *
 * @since 1.0.0
 */
import * as Schema from "effect/Schema"
import { field, record } from "./internal/record.js"

const Span = Schema.Struct({ start: Schema.Int, end: Schema.Int })

/**
 * @category models
 * @since 1.0.0
 */
export const SnippetText = Schema.Struct({
  text: field(Schema.String),
  /** `title`, `abstract` or `body`. */
  snippetKind: field(Schema.String),
  section: field(Schema.String),
  snippetOffset: field(Span),
  annotations: field(Schema.Struct({
    sentences: field(Schema.Array(Span)),
    refMentions: field(Schema.Array(Schema.Struct({
      start: Schema.Int,
      end: Schema.Int,
      matchedPaperCorpusId: field(Schema.String)
    })))
  }))
})

/**
 * @category models
 * @since 1.0.0
 */
export const SnippetPaper = Schema.Struct({
  /** A string on this endpoint (an integer elsewhere). */
  corpusId: field(Schema.String),
  title: field(Schema.String),
  authors: field(Schema.Array(Schema.String)),
  openAccessInfo: field(Schema.Struct({
    license: field(Schema.String),
    status: field(Schema.String),
    disclaimer: field(Schema.String)
  }))
})

/**
 * One snippet: the passage, its score, and the paper it is from (`score` and `paper` always come
 * back; `fields` selects what of `snippet` does).
 *
 * @category models
 * @since 1.0.0
 */
export class Snippet extends record<Snippet>("Snippet")({
  snippet: field(SnippetText),
  score: Schema.Number,
  paper: SnippetPaper
}) {}

/**
 * A paper suggested by autocomplete: its id, title, and a short "authors, year" line.
 *
 * @category models
 * @since 1.0.0
 */
export class Autocomplete extends record<Autocomplete>("Autocomplete")({
  id: Schema.String,
  title: field(Schema.String),
  authorsYear: field(Schema.String)
}) {}

/**
 * The answer of snippet search: the snippets, as an array, with the `retrievalVersion` of the index
 * that served them (absent when the server does not say).
 *
 * @category models
 * @since 1.0.0
 */
export interface SnippetResults extends ReadonlyArray<Snippet> {
  readonly retrievalVersion: string | undefined
}
