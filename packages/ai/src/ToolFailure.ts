/**
 * A tool's failure, the typed error the model reads ({@link ToolFailure}), and its kinds. A leaf
 * module (it imports only `internal/answerParts.ts` of this package), so that the handlers that fail
 * with it import it without importing `AssistantTools.ts`, which imports them back;
 * `AssistantTools.ts` re-exports each, and users reach them there (`AssistantTools.ToolFailure`).
 *
 * @since 1.0.0
 */
import * as Schema from "effect/Schema"
import { optional } from "./internal/answerParts.js"

/**
 * The kinds of {@link ToolFailure}.
 *
 * @category models
 * @since 1.0.0
 */
export const FailureKind = Schema.Literals([
  "notFound",
  "badParameter",
  "rateLimited",
  "timeout",
  "forbidden",
  "serverError",
  "unreachable",
  "badAnswer",
  "stateUnavailable"
])
/**
 * @category models
 * @since 1.0.0
 */
export type FailureKind = typeof FailureKind.Type

/**
 * Marks a {@link ToolFailure}.
 *
 * @category symbols
 * @since 1.0.0
 */
export const ToolFailureTypeId: unique symbol = Symbol.for("@s2-effect/ai/AssistantTools/ToolFailure")

/**
 * @category symbols
 * @since 1.0.0
 */
export type ToolFailureTypeId = typeof ToolFailureTypeId

/**
 * A tool's failure: what went wrong in a word (`kind`), one line for the model (`message`, at most
 * 300 characters, starting with the kind in words) and, when rate limited, the wait in seconds.
 *
 * @category errors
 * @since 1.0.0
 */
export class ToolFailure extends Schema.TaggedError<ToolFailure>()("ToolFailure", {
  kind: FailureKind,
  message: Schema.String,
  retryAfterSeconds: optional(Schema.Number)
}) {
  /** @since 1.0.0 */
  readonly [ToolFailureTypeId]: ToolFailureTypeId = ToolFailureTypeId
}
