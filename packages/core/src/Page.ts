import * as Schema from "effect/Schema"
/**
 * Page envelopes of the paginated endpoints, for users who need totals or checkpoint a harvest.
 *
 * @since 0.1.0
 */

/**
 * A page of an offset-paginated list (citations, references, author papers, paper authors,
 * relevance search, author search). `next` is absent on the last page; `total` is absent on
 * lists that do not count (and approximate on relevance search).
 *
 * @category models
 * @since 0.1.0
 */
export interface OffsetPage<A> {
  readonly total?: number | undefined
  readonly offset: number
  readonly next?: number | undefined
  readonly data: ReadonlyArray<A>
}

/**
 * A page of bulk search. `token` continues the search; it is `null` on the last page.
 *
 * @category models
 * @since 0.1.0
 */
export interface TokenPage<A> {
  readonly total: number
  readonly token: string | null
  readonly data: ReadonlyArray<A>
}

const emptyData = () => []

/**
 * The schema of an offset page of `item`. A search without hits has no `data` key on the wire: it
 * decodes as an empty page.
 *
 * @category constructors
 * @since 0.1.0
 */
export const OffsetPage = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Struct({
    total: Schema.optional(Schema.Int),
    offset: Schema.optionalWith(Schema.Int, { default: () => 0 }),
    next: Schema.optional(Schema.Int),
    data: Schema.optionalWith(Schema.Array(item), { default: emptyData })
  })

/**
 * The schema of a bulk-search page of `item`. The last page carries `"token": null` on the wire;
 * an absent token (as the published spec has it) means the same.
 *
 * @category constructors
 * @since 0.1.0
 */
export const TokenPage = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Struct({
    total: Schema.optionalWith(Schema.Int, { default: () => 0 }),
    token: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
    data: Schema.optionalWith(Schema.Array(item), { default: emptyData })
  })
