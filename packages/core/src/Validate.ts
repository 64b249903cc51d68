/**
 * The checks of input that can never succeed, shared by the client, the Node datasets code and the
 * `s2` command: whole numbers and ranges, durations, dates and date ranges, enums, list sizes, ids,
 * release ids and dataset names. Each answers a `Result` whose failure is an {@link Invalid} (the
 * parameter and a message that says what is allowed); the caller turns it into its own error:
 * {@link asInput} for an operation's argument, {@link asOption} for a setting.
 *
 * @example
 * ```ts
 * import { Result } from "effect"
 * import { Validate } from "@s2-effect/core"
 *
 * Validate.wholeNumber("concurrency", 0, { min: 1 }) // Failure: "concurrency 0 is invalid: give a whole number ≥ 1"
 * Result.mapError(Validate.paperId("ISBN:123"), Validate.asInput) // Failure(BadQueryParameters)
 * ```
 * @since 1.0.0
 */
import type * as Result from "effect/Result"
import * as internal from "./internal/validate.js"
import type { Invalid } from "./Invalid.js"

export { Invalid } from "./Invalid.js"

/**
 * The answer of a check: the value, or an {@link Invalid}.
 *
 * @category models
 * @since 1.0.0
 */
export type Check<A> = Result.Result<A, Invalid>

/**
 * A refusal as `BadQueryParameters` (an operation's input; nothing was sent).
 *
 * @category conversions
 * @since 1.0.0
 */
export const asInput = internal.asInput

/**
 * A refusal as `InvalidOptions` (a setting of the client).
 *
 * @category conversions
 * @since 1.0.0
 */
export const asOption = internal.asOption

/**
 * A whole number from `min` to `max` (inclusive; no `max`, no upper bound).
 *
 * @category numbers
 * @since 1.0.0
 */
export const wholeNumber = internal.wholeNumber

/**
 * A number > 0, fractions allowed.
 *
 * @category numbers
 * @since 1.0.0
 */
export const positiveNumber = internal.positiveNumber

/**
 * A duration > 0, in any form `Duration` reads.
 *
 * @category numbers
 * @since 1.0.0
 */
export const positiveDuration = internal.positiveDuration

/**
 * One of a fixed set of values.
 *
 * @category enums
 * @since 1.0.0
 */
export const oneOf = internal.oneOf

/**
 * Values of an enum, comma-joined; `{ name }` entries pass unchecked.
 *
 * @category enums
 * @since 1.0.0
 */
export const enumList = internal.enumList

/**
 * A list of `min` to `max` items.
 *
 * @category lists
 * @since 1.0.0
 */
export const listSize = internal.listSize

/**
 * A year, a range of years, or an open range.
 *
 * @category dates
 * @since 1.0.0
 */
export const yearRange = internal.yearRange

/**
 * A date (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`) or a range `<start>:<end>` with either end open.
 *
 * @category dates
 * @since 1.0.0
 */
export const dateRange = internal.dateRange

/**
 * A paper id in any form the API accepts.
 *
 * @category ids
 * @since 1.0.0
 */
export const paperId = internal.paperId

/**
 * An author id.
 *
 * @category ids
 * @since 1.0.0
 */
export const authorId = internal.authorId

/**
 * A release: a `YYYY-MM-DD` date, or `latest` where allowed.
 *
 * @category datasets
 * @since 1.0.0
 */
export const releaseId = internal.releaseId

/**
 * A dataset name as the API spells them.
 *
 * @category datasets
 * @since 1.0.0
 */
export const datasetName = internal.datasetName
