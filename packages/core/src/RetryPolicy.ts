/**
 * The retry policy: a `Schedule` fed with the failed attempt's {@link S2Error}. Exported so users can
 * reuse it for their own calls, tune it, or replace it.
 *
 * Each cause of failure has its own budget, sized to what it means: a 429 asks the client to slow
 * down, a server that answered but failed is usually back within seconds, nobody at the address is
 * unlikely to appear, and a server that does not answer within the time-out will rarely answer the
 * next time either.
 *
 * @since 1.0.0
 */
import * as EffectCause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import * as Schedule from "effect/Schedule"
import { withRetryLog } from "./internal/retryLog.js"
import * as steps from "./internal/retrySteps.js"
import type { S2Error } from "./S2Error.js"

/**
 * A retry policy: any schedule that takes the error of the failed attempt as input.
 *
 * @category models
 * @since 1.0.0
 */
export type RetryPolicy = Schedule.Schedule<unknown, S2Error>

/**
 * Why an attempt failed, as far as retrying is concerned.
 *
 * - `rateLimited`: HTTP 429.
 * - `serverFailed`: the server answered but failed: 5xx, a connection reset, a body cut short, an
 *   answer that is not valid HTTP.
 * - `unreachable`: nobody answered at the address: connection refused, host not found, or a
 *   transport failure with no sign that a server was there.
 * - `timeout`: no answer within the time-out.
 *
 * @category models
 * @since 1.0.0
 */
export type Cause = "rateLimited" | "serverFailed" | "unreachable" | "timeout"

/**
 * How often and how patiently one cause is retried: at most `times` retries, waiting `base`, then
 * doubling, never more than `cap`.
 *
 * @category models
 * @since 1.0.0
 */
export interface Budget {
  readonly times: number
  readonly base: Duration.Input
  readonly cap: Duration.Input
}

/**
 * The default budgets. With them a wrong `apiUrl` ends in `TransportError` after about 6 s, a hung
 * server in `Timeout` after 3 attempts, and a storm of 503s is ridden out for about 31 s per request.
 *
 * | cause | retries | waits |
 * |---|---|---|
 * | `rateLimited` | 10 | 5 s, doubling to 60 s, or `Retry-After` |
 * | `serverFailed` | 5 | 1, 2, 4, 8, 16 s, or `Retry-After` |
 * | `unreachable` | 2 | 2 s, 4 s |
 * | `timeout` | 2 | 1 s, 2 s |
 *
 * @category constants
 * @since 1.0.0
 */
export const defaultBudgets: { readonly [C in Cause]: Budget } = {
  rateLimited: { times: 10, base: "5 seconds", cap: "60 seconds" },
  serverFailed: { times: 5, base: "1 second", cap: "16 seconds" },
  unreachable: { times: 2, base: "2 seconds", cap: "4 seconds" },
  timeout: { times: 2, base: "1 second", cap: "2 seconds" }
}

/**
 * The cause of a retryable error, or `undefined` for an error no retry can fix.
 *
 * @category constructors
 * @since 1.0.0
 */
export const causeOf: (error: S2Error) => Cause | undefined = steps.causeOf

/**
 * Settings of {@link make}. The defaults are {@link defaultBudgets}, the provider's requirement of
 * exponential back-off, and `Retry-After` honoured.
 *
 * @category options
 * @since 1.0.0
 */
export interface RetryOptions {
  /** Budgets per cause, each merged over the default (and over `times`/`base`/`cap` when given). */
  readonly budgets?: { readonly [C in Cause]?: Partial<Budget> }
  /** How many times to retry after the first attempt, for every cause. */
  readonly times?: number
  /** The first wait, for every cause; each next one doubles. */
  readonly base?: Duration.Input
  /** The longest wait, for every cause. */
  readonly cap?: Duration.Input
  /** Randomise each wait by ±20% so that many clients do not retry in step. Default false. */
  readonly jitter?: boolean
  /** Which errors to retry. Default: the error's `isRetryable` (429, 5xx, time-outs, transport errors). */
  readonly while?: (error: S2Error) => boolean
  /**
   * The longest `Retry-After` worth waiting for. A server asking for more gets its error returned
   * at once (with `retryAfterMillis`), rather than a client asleep for hours. Default 10 minutes.
   */
  readonly maxRetryAfter?: Duration.Input
}

/**
 * What a policy built by {@link make} outputs for each retry: the cause, which retry of how many
 * for that cause, and the wait. The transport's retry log line reads it.
 *
 * @category models
 * @since 1.0.0
 */
export interface RetryStep {
  readonly _tag: "RetryStep"
  readonly cause: Cause
  /** 1 for the first retry of this cause. */
  readonly retry: number
  /** The retries this cause allows. */
  readonly of: number
  readonly waitMillis: number
}

/**
 * @category guards
 * @since 1.0.0
 */
export const isRetryStep: (u: unknown) => u is RetryStep = steps.isRetryStep

const resolve = (options: RetryOptions) => {
  const shared: Partial<Budget> = {
    ...(options.times === undefined ? {} : { times: options.times }),
    ...(options.base === undefined ? {} : { base: options.base }),
    ...(options.cap === undefined ? {} : { cap: options.cap })
  }
  const budget = (cause: Cause) => {
    const merged = { ...defaultBudgets[cause], ...shared, ...options.budgets?.[cause] }
    return { times: merged.times, base: Duration.toMillis(merged.base), cap: Duration.toMillis(merged.cap) }
  }
  return {
    rateLimited: budget("rateLimited"),
    serverFailed: budget("serverFailed"),
    unreachable: budget("unreachable"),
    timeout: budget("timeout")
  }
}

/**
 * A wait or a limit as people read it, in at most two units: `500 ms`, `1.5 s`, `45 s`,
 * `10 min 1 s`, `2 h 5 min`, `3650 days`. `"limit"` writes the units in full as an adjective
 * (`10 minute`, for "over the 10 minute limit"). Every message and log line of the client and
 * the CLI that states a wait uses it.
 *
 * @category utils
 * @since 1.0.0
 */
export const formatWait: (millis: number, style?: "wait" | "limit") => string = steps.formatWait

/** The Warning line of a `Retry-After` over the limit: the error is returned at once. */
const logTooLong = (error: S2Error, asked: number, limit: number) =>
  Effect.logWarning(
    `S2${error.method === undefined ? "" : ` ${error.method} ${error.url}`}: the server asked to wait ${
      formatWait(asked)
    }, over the ${formatWait(limit, "limit")} limit (maxRetryAfter); not retrying`
  )

/**
 * Builds a retry policy: one `Schedule` over the budget table, counting retries per cause. Waits
 * are `base`, doubling, capped at `cap`, and never shorter than the server's `Retry-After`.
 *
 * @example
 * ```ts
 * import { RetryPolicy } from "@s2-effect/core"
 *
 * // three quick retries of anything, for an interactive tool
 * const policy = RetryPolicy.make({ times: 3, base: "500 millis", cap: "2 seconds", jitter: true })
 * // the defaults, but a long harvest rides out longer server trouble
 * const patient = RetryPolicy.make({ budgets: { serverFailed: { times: 8, cap: "60 seconds" } } })
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const make = (options: RetryOptions = {}): RetryPolicy => {
  const budgets = resolve(options)
  const maxRetryAfter = Duration.toMillis(options.maxRetryAfter ?? "10 minutes")
  const retryable = options.while ?? ((error: S2Error) => error.isRetryable)
  const jitter = options.jitter === true
    ? Random.nextBetween(0.8, 1.2)
    : Effect.succeed(1)
  // The counts live in the step's closure: each retried call builds its own step, so its own counts.
  return Schedule.fromStep(Effect.sync(() => {
    const counts: { [C in Cause]?: number } = {}
    return (_now: number, error: S2Error) => {
      const cause = causeOf(error)
      const asked = error.retryAfter === undefined ? 0 : Duration.toMillis(error.retryAfter)
      if (cause === undefined || !retryable(error)) return EffectCause.done(undefined)
      if (asked > maxRetryAfter) {
        return Effect.andThen(logTooLong(error, asked, maxRetryAfter), EffectCause.done(undefined))
      }
      const budget = budgets[cause]
      const retry = (counts[cause] ?? 0) + 1
      if (retry > budget.times) return EffectCause.done(undefined)
      counts[cause] = retry
      return Effect.map(jitter, (factor): [RetryStep, Duration.Duration] => {
        // Capped after jitter, so no wait exceeds the cap; then raised to what the server asked.
        const scheduled = Math.min(budget.base * 2 ** (retry - 1) * factor, budget.cap)
        const waitMillis = Math.max(scheduled, asked)
        return [{ _tag: "RetryStep", cause, retry, of: budget.times, waitMillis }, Duration.millis(waitMillis)]
      })
    }
  }))
}

/**
 * The default policy: {@link defaultBudgets}, `Retry-After` honoured up to 10 minutes.
 *
 * @category constants
 * @since 1.0.0
 */
export const defaultPolicy: RetryPolicy = make()

/**
 * A policy whose retries are visible as the client's own are: each retry it decides on is logged
 * once at Warning (`S2 GET /path: 503 (server failed), attempt 1 of 6 failed; retrying in 5 s`),
 * counted in the retries metric, and reported as a `Retry` on the waits channel (`Waits`), before
 * its wait. For a retry loop of one's own around requests the client does not send itself (a
 * file host, say); the client's requests are reported already. `target` names the request in the
 * line and the report: its method, and its URL, of which only the path is logged and no query is
 * reported.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import type { S2Error } from "@s2-effect/core"
 * import { RetryPolicy } from "@s2-effect/core"
 *
 * declare const fetchFile: Effect.Effect<Uint8Array, S2Error>
 *
 * // Retried by the default budgets, each retry a Warning line and a `Retry` on the waits channel.
 * const program = Effect.retry(
 *   fetchFile,
 *   RetryPolicy.logged(RetryPolicy.defaultPolicy, { method: "GET", url: "https://files.example.org/part-0.jsonl.gz" })
 * )
 * ```
 * @category combinators
 * @since 1.1.0
 */
export const logged = (
  policy: RetryPolicy,
  target: { readonly method: string; readonly url: string }
): RetryPolicy => withRetryLog(policy, target)
