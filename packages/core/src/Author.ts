/**
 * Author records. Every field but the id is optional (absent when not asked for) and may be `null`;
 * unknown fields are kept.
 *
 * @since 1.0.0
 */
import * as Schema from "effect/Schema"
import { authorSummary, field, record } from "./internal/record.js"
import { PaperRef } from "./Paper.js"

/**
 * An author.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * const hIndex = SemanticScholar.pipe(
 *   Effect.flatMap((s2) => s2.getAuthor("1741101", { fields: ["name", "hIndex"] })),
 *   Effect.map((author) => author.hIndex)
 * )
 * ```
 * @category models
 * @since 1.0.0
 */
export class Author extends record<Author>("Author")({
  authorId: Schema.String,
  ...authorSummary,
  papers: field(Schema.Array(PaperRef))
}) {}
