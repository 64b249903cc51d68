/**
 * Schema decoding at the speed a bulk read needs. The client decodes every record it receives
 * with a decoder compiled once per schema from the schema's own AST (a fraction of the CPU of
 * Schema's general parser); this module offers the same to code that decodes many values with
 * its own schema, such as the dataset file readers of `@s2-effect/node`. The Schema stays the
 * reference: what the compiled decoder declines goes to Schema's decoder, which gives the error.
 *
 * @since 0.1.0
 */
import type * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import type * as Schema from "effect/Schema"
import * as internal from "./internal/decode.js"

/**
 * Options of {@link decodeUnknownEither}.
 *
 * @category options
 * @since 0.1.0
 */
export interface DecodeOptions {
  /**
   * What becomes of keys the schema does not name: dropped (`"ignore"`, the default, as with
   * Schema) or kept (`"preserve"`, as the client's records keep every field the server sent).
   */
  readonly onExcessProperty?: "ignore" | "preserve" | undefined
}

/**
 * The same results as Schema's `decodeUnknownEither(schema, options)`, faster on the values it
 * accepts. Build it once per schema and apply it to each value.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Decoder } from "@s2-effect/core"
 *
 * const Row = Schema.Struct({ corpusid: Schema.Number, abstract: Schema.NullOr(Schema.String) })
 * const decode = Decoder.decodeUnknownEither(Row)
 * decode(JSON.parse("{\"corpusid\":1,\"abstract\":null,\"other\":2}")) // Either.right({ corpusid: 1, abstract: null })
 * ```
 * @category decoding
 * @since 0.1.0
 */
export const decodeUnknownEither: <A, I>(
  schema: Schema.Schema<A, I>,
  options?: DecodeOptions
) => (u: unknown) => Either.Either<A, ParseResult.ParseError> = internal.decodeUnknownEither
