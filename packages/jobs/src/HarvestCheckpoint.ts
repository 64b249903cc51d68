/**
 * The checkpoint of a harvest (`Harvest` runs it), `<out>.checkpoint.json`: what is harvested
 * ({@link Spec}), where the harvest stands ({@link Synced}), and the file's content
 * ({@link Checkpoint}). `Harvest` re-exports them.
 *
 * @since 1.2.0
 */
import { Filters } from "@s2-effect/core"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/**
 * The search's `total`. A checkpoint written before the client read a negative total as unknown
 * holds the server's (`-5`) as it was: it still resumes, the total read as 0 (unknown).
 */
const Total = Schema.Int.pipe(
  Schema.decodeTo(
    Count,
    SchemaTransformation.transform({ decode: (total) => Math.max(0, total), encode: (total) => total })
  )
)

/**
 * What is harvested: the query, the search's filters (core's `Filters.SearchFilters`), the order,
 * the fields (`null`: the client's default) and `max` records (`null`: all). A resume must use the same.
 *
 * @category schemas
 * @since 1.2.0
 */
export const Spec = Schema.Struct({
  query: Schema.String,
  filters: Filters.SearchFilters,
  sort: Schema.NullOr(Schema.Literals(Filters.sorts)),
  /** `null`: the client's default fields. */
  fields: Schema.NullOr(Schema.Array(Schema.String)),
  /** Stop after this many records; `null` for all. */
  max: Schema.NullOr(Count)
})

const position = {
  /** Size of the output file after the last complete page. */
  bytes: Count,
  /** Continues the search; `null` before the first page and after the last. */
  token: Schema.NullOr(Schema.String),
  records: Count,
  pages: Count,
  /** The search's `total` as last reported (0 before the first page, and when unknown). */
  total: Total,
  /** Records per `year` (`unknown` for none), for a summary chart. */
  years: Schema.Record(Schema.String, Count)
}

/**
 * Where a harvest stands: the output's size after its last whole page, the token that continues
 * the search (`null` before the first page and after the last), the counts, the search's `total`
 * (0 when unknown) and the records per `year` (`unknown` for none).
 *
 * @category schemas
 * @since 1.2.0
 */
export const Synced = Schema.Struct(position)

/**
 * The checkpoint file's content: the {@link Spec}, where the harvest stands ({@link Synced}),
 * whether it is `done`, and `synced`, the last state whose output was flushed to disk.
 *
 * @category schemas
 * @since 1.2.0
 */
export const Checkpoint = Schema.Struct({
  version: Schema.Literal(1),
  spec: Spec,
  ...position,
  /** The last page was written (or `max` was reached). */
  done: Schema.Boolean,
  updatedAt: Schema.String,
  /**
   * The last state whose output bytes were flushed to disk before this checkpoint was written: what
   * a resume falls back to when an operating-system crash left the output shorter than `bytes`.
   */
  synced: Schema.optional(Synced)
})

/**
 * @category models
 * @since 1.2.0
 */
export type Spec = typeof Spec.Type

/**
 * @category models
 * @since 1.2.0
 */
export type Synced = typeof Synced.Type

/**
 * @category models
 * @since 1.2.0
 */
export type Checkpoint = typeof Checkpoint.Type
