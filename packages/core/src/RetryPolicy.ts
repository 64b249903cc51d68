/**
 * The retry policy: a `Schedule` fed with the failed attempt's {@link S2Error}. Exported so users can
 * reuse it for their own calls, tune it, or replace it.
 *
 * @since 0.1.0
 */
import { Duration, Function, Schedule } from "effect"
import type { S2Error } from "./S2Error.js"
import { isRetryable, retryAfterMillis } from "./S2Error.js"

/**
 * A retry policy: any schedule that takes the error of the failed attempt as input.
 *
 * @category models
 * @since 0.1.0
 */
export type RetryPolicy = Schedule.Schedule<unknown, S2Error>

/**
 * Settings of {@link make}. The defaults are the provider's requirement of exponential back-off
 * and the reference client's figures.
 *
 * @category options
 * @since 0.1.0
 */
export interface RetryOptions {
  /** How many times to retry after the first attempt. Default 10. */
  readonly times?: number
  /** The first wait; each next one doubles. Default 5 seconds. */
  readonly base?: Duration.DurationInput
  /** The longest wait. Default 60 seconds. */
  readonly cap?: Duration.DurationInput
  /** Randomise each wait by ±20% so that many clients do not retry in step. Default false. */
  readonly jitter?: boolean
  /** Which errors to retry. Default {@link isRetryable}: 429, 5xx, time-outs, transport errors. */
  readonly while?: (error: S2Error) => boolean
  /**
   * The longest `Retry-After` worth waiting for. A server asking for more gets its error returned
   * at once (with `retryAfterMillis`), rather than a client asleep for hours. Default 10 minutes.
   */
  readonly maxRetryAfter?: Duration.DurationInput
}

/**
 * Builds a retry policy: waits of `base`, doubling, capped at `cap`, at most `times` retries, and
 * never shorter than the server's `Retry-After`.
 *
 * @example
 * ```ts
 * import { RetryPolicy } from "@s2-effect/core"
 *
 * // three quick retries, for an interactive tool
 * const policy = RetryPolicy.make({ times: 3, base: "500 millis", cap: "2 seconds", jitter: true })
 * ```
 * @category constructors
 * @since 0.1.0
 */
export const make = (options: RetryOptions = {}): RetryPolicy => {
  const cap = Duration.decode(options.cap ?? "60 seconds")
  const maxRetryAfter = Duration.toMillis(options.maxRetryAfter ?? "10 minutes")
  const retryable = options.while ?? isRetryable
  const waits = Schedule.exponential(options.base ?? "5 seconds", 2).pipe(
    options.jitter === true ? Schedule.jittered : Function.identity,
    // Capped after jitter, so no wait exceeds the cap.
    Schedule.modifyDelay((_, delay) => Duration.min(delay, cap)),
    Schedule.intersect(Schedule.recurs(options.times ?? 10))
  )
  return Schedule.intersect(waits, Schedule.identity<S2Error>()).pipe(
    Schedule.whileInput((error: S2Error) => retryable(error) && (retryAfterMillis(error) ?? 0) <= maxRetryAfter),
    Schedule.modifyDelay(([, error], delay) => Duration.max(delay, Duration.millis(retryAfterMillis(error) ?? 0)))
  )
}

/**
 * The default policy: retry 429, 5xx, time-outs and transport errors up to 10 times, waiting 5 s,
 * 10 s, 20 s, 40 s, then 60 s each time, or longer when the server's `Retry-After` says so.
 *
 * @category constants
 * @since 0.1.0
 */
export const defaultPolicy: RetryPolicy = make()
