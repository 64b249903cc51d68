/**
 * Every retry is visible: a policy wrapped here logs one Warning line per retry, before the wait,
 * with the operation, the status or cause, which attempt of how many failed, and the wait. The line
 * never holds the key (it is built from the method, the path and the error's kind only). The same
 * retry goes to the waits channel (`Waits`) as a typed `Retry`, for whatever shows waits to a user.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type { Cause, RetryPolicy } from "../RetryPolicy.js"
import type { S2Error } from "../S2Error.js"
import * as Metrics from "./metrics.js"
import { causeOf, formatWait, isRetryStep } from "./retrySteps.js"
import { reasonLabel } from "./transportCause.js"
import * as Waits from "./waits.js"

/** A short name for what went wrong: the status when there is one, else the transport's reason. */
export const shortCause = (error: S2Error): string => {
  if (error._tag === "Timeout") return "time-out"
  if (error._tag === "TransportError" && error.reason !== undefined) return reasonLabel[error.reason]
  if (error.status !== undefined && error.status > 0) return String(error.status)
  return error._tag
}

/** How each retry budget's cause reads in the log. */
const causeText: { readonly [C in Cause]: string } = {
  rateLimited: "rate limited",
  serverFailed: "server failed",
  unreachable: "nobody there",
  timeout: "no answer"
}

/** The path of a request's URL, for log lines (the query holds nothing the reader needs there). */
export const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}

/** The Warning line of one retry: the operation, the cause, which attempt of how many, and the wait. */
const retryLine = (
  target: { readonly method: string; readonly url: string },
  error: S2Error,
  out: unknown,
  attempt: number,
  wait: number
): string => {
  const counted = isRetryStep(out)
    ? ` (${causeText[out.cause]}), attempt ${out.retry} of ${out.of + 1}`
    : `, attempt ${attempt}`
  return `S2 ${target.method} ${pathOf(target.url)}: ${shortCause(error)}${counted} failed; retrying in ${
    formatWait(wait)
  }`
}

/**
 * Wraps `policy` so that each retry it decides on is logged once at Warning level, counted, and
 * reported to the waits channel.
 * When the policy is done, its end passes through unlogged: no retry follows.
 */
export const withRetryLog = (
  policy: RetryPolicy,
  target: { readonly method: string; readonly url: string }
): RetryPolicy =>
  Schedule.fromStep(Effect.map(Schedule.toStep(policy), (step) => {
    let attempt = 0
    return (now: number, error: S2Error) =>
      Effect.flatMap(step(now, error), (next) => {
        const [out, delay] = next
        attempt++
        const wait = Math.max(0, Duration.toMillis(delay))
        const retry = Waits.Wait.Retry({
          error,
          cause: shortCause(error),
          attempt,
          wait: Duration.millis(wait),
          method: target.method,
          url: Waits.withoutQuery(target.url)
        })
        return Effect.withFiber((fiber) => {
          Metrics.countRetry(isRetryStep(out) ? out.cause : causeOf(error) ?? error._tag, fiber.context)
          return Effect.logWarning(retryLine(target, error, out, attempt, wait)).pipe(
            Effect.andThen(Waits.report(retry)),
            Effect.as(next)
          )
        })
      })
  }))
