/**
 * Page envelopes of the paginated endpoints, for users who need totals or checkpoint a harvest.
 *
 * @since 1.0.0
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

/**
 * A page of an offset-paginated list (citations, references, author papers, paper authors,
 * relevance search, author search). `next` is absent on the last page; `total` is absent on
 * lists that do not count, or when the server sent a negative one (and approximate on relevance
 * search).
 *
 * @category models
 * @since 1.0.0
 */
export interface OffsetPage<A> {
  readonly total?: number | undefined
  readonly offset: number
  readonly next?: number | undefined
  readonly data: ReadonlyArray<A>
}

/**
 * A page of bulk search. `token` continues the search; it is `null` on the last page. `total` is
 * approximate, and 0 when unknown (absent, or negative on the wire).
 *
 * @category models
 * @since 1.0.0
 */
export interface TokenPage<A> {
  readonly total: number
  readonly token: string | null
  readonly data: ReadonlyArray<A>
}

/**
 * A field absent on the wire decodes as `value()`; a thunk so that each page gets its own empty
 * array.
 */
const orElse = <S extends Schema.Top>(schema: S, value: () => S["Type"]) =>
  schema.pipe(Schema.withDecodingDefaultType(Effect.sync(value)))

/**
 * A `total` as the server sent it, but a negative one is no count at all: it decodes as unknown
 * (absent on an offset page, 0 on a bulk page) rather than fail a page whose records are sound,
 * or reach a harvest's checkpoint. A total that is not a safe integer still fails to decode.
 */
const unknownIfNegative = SchemaTransformation.transformOptional<number | undefined, number | undefined>({
  decode: Option.filter((total) => total === undefined || total >= 0),
  encode: (total) => total
})

/**
 * The schema of an offset page of `item`. A search without hits has no `data` key on the wire: it
 * decodes as an empty page.
 *
 * @category constructors
 * @since 1.0.0
 */
export const OffsetPage = <A, I>(item: Schema.Codec<A, I>) =>
  Schema.Struct({
    total: Schema.optional(Schema.Int).pipe(Schema.decodeTo(Schema.optional(Schema.Int), unknownIfNegative)),
    offset: orElse(Schema.Int, () => 0),
    next: Schema.optional(Schema.Int),
    data: orElse(Schema.Array(item), (): ReadonlyArray<A> => [])
  })

/**
 * The schema of a bulk-search page of `item`. The last page carries `"token": null` on the wire;
 * an absent token (as the published spec has it) means the same.
 *
 * @category constructors
 * @since 1.0.0
 */
export const TokenPage = <A, I>(item: Schema.Codec<A, I>) =>
  Schema.Struct({
    total: orElse(
      Schema.Int.pipe(Schema.decodeTo(
        Schema.Int,
        SchemaTransformation.transform({ decode: (total) => Math.max(0, total), encode: (total) => total })
      )),
      () => 0
    ),
    token: orElse(Schema.NullOr(Schema.String), () => null),
    data: orElse(Schema.Array(item), (): ReadonlyArray<A> => [])
  })
