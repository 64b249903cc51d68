/**
 * Schema decoding at the speed a bulk read needs. The client decodes every record it receives
 * with a decoder compiled once per schema from the schema's own AST (a tenth of the CPU of
 * Schema's parser, a fifth of its JIT compiler's); this module offers the same to code that
 * decodes many values with its own schema, such as the dataset file readers of `@s2-effect/node`.
 * The Schema stays the reference: what the compiled decoder declines goes to Schema's decoder,
 * which gives the error.
 *
 * @since 1.0.0
 */
import type * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as internal from "./internal/decode.js"

/**
 * Options of {@link decodeUnknownResult}: Schema's parse options, which are honoured, and `"preserve"`.
 *
 * @category options
 * @since 1.0.0
 */
export interface DecodeOptions {
  /**
   * What becomes of keys the schema does not name: dropped (`"ignore"`, the default, as with
   * Schema), refused (`"error"`, as with Schema) or kept (`"preserve"`, as the client's records
   * keep every field the server sent).
   */
  readonly onExcessProperty?: "ignore" | "preserve" | "error" | undefined
  /** Schema's: report the first issue (the default) or all of them. */
  readonly errors?: "first" | "all" | undefined
  /** Schema's: skip filters. Every value then goes through Schema's decoder. */
  readonly disableChecks?: boolean | undefined
}

/**
 * The same results as Schema's `decodeUnknownResult(schema, options)`, faster on the values it
 * accepts. Build it once per schema and apply it to each value; it is compiled at the first value,
 * so a decoder declared at a module's top level costs nothing to a program that never uses it.
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Decoder } from "@s2-effect/core"
 *
 * const Row = Schema.Struct({ corpusid: Schema.Number, abstract: Schema.NullOr(Schema.String) })
 * const decode = Decoder.decodeUnknownResult(Row)
 * decode(JSON.parse("{\"corpusid\":1,\"abstract\":null,\"other\":2}")) // Result.succeed({ corpusid: 1, abstract: null })
 * ```
 * @category decoding
 * @since 1.0.0
 */
export const decodeUnknownResult: <A, I>(
  schema: Schema.Codec<A, I>,
  options?: DecodeOptions
) => (u: unknown) => Result.Result<A, Schema.SchemaError> = internal.decodeUnknownResult
