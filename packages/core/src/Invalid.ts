/**
 * The refusal of a check of `Validate` ({@link Invalid}). A leaf module (it imports nothing of this
 * package), so that the checks (`internal/validate.ts`) make it without importing `Validate.ts`,
 * which imports them back; `Validate.ts` re-exports it, and users reach it there
 * (`Validate.Invalid`).
 *
 * @since 1.0.0
 */
import * as Data from "effect/Data"

/**
 * A refusal: the parameter (or option, or flag) and a message that says what is allowed.
 *
 * @category models
 * @since 1.0.0
 */
export class Invalid extends Data.TaggedError("Invalid")<{
  readonly parameter: string
  readonly message: string
  /** The message's parts, where the check gave them (the errors it becomes carry them on). */
  readonly subject?: string
  readonly problem?: string
  readonly advice?: string
}> {}
