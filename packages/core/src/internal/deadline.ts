/**
 * The deadline of one call: its attempts, the waits between them and its pacing within one bound
 * (`Options.deadline`). Two parts, both needed: a retry whose wait would end past the deadline is
 * not begun (the call ends at once with a `Timeout` whose cause is the last attempt's error, rather
 * than sleeping towards a deadline it cannot meet), and an attempt still running at the deadline
 * is interrupted. Each is logged at Warning.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import * as Schedule from "effect/Schedule"
import type { RetryPolicy } from "../RetryPolicy.js"
import { formatWait } from "../RetryPolicy.js"
import type { S2Error } from "../S2Error.js"
import { Timeout } from "../S2Error.js"
import { pathOf, shortCause } from "./retryLog.js"

interface Target {
  readonly method: string
  readonly url: string
}

/** How the retries ended when the deadline stopped them: the schedule's last output. */
interface DeadlineReached {
  readonly _tag: "DeadlineReached"
  readonly attempts: number
  readonly waitMillis: number
}

const isDeadlineReached = (u: unknown): u is DeadlineReached => Predicate.isTagged(u, "DeadlineReached")

/**
 * `policy`, except that a retry whose wait would end more than `deadline` after the call began is
 * not made: the retries end with a {@link DeadlineReached} (read by {@link retryWithin}).
 */
const bounded = (policy: RetryPolicy, deadline: number, target: Target): RetryPolicy =>
  Schedule.fromStep(Effect.flatMap(Clock.currentTimeMillis, (start) =>
    Effect.map(Schedule.toStep(policy), (step) => {
      let attempts = 0
      return (now: number, error: S2Error) =>
        Effect.flatMap(step(now, error), (next) => {
          attempts++
          const waitMillis = Math.max(0, Duration.toMillis(next[1]))
          if (now + waitMillis - start <= deadline) return Effect.succeed(next)
          const left = Math.max(0, start + deadline - now)
          return Effect.andThen(
            Effect.logWarning(
              `S2 ${target.method} ${pathOf(target.url)}: ${shortCause(error)}, attempt ${attempts} failed; ` +
                `not retrying in ${formatWait(waitMillis)}: the deadline of ${formatWait(deadline)} would pass ` +
                `(${formatWait(left)} left)`
            ),
            Cause.done<DeadlineReached>({ _tag: "DeadlineReached", attempts, waitMillis })
          )
        })
    })))

const deadlineText = (deadline: number) => `the deadline of ${formatWait(deadline)}`

/** The error of retries stopped by the deadline: a `Timeout` whose cause is the last attempt's error. */
const stopped = (error: S2Error, reached: DeadlineReached, deadline: number, target: Target): Timeout =>
  new Timeout({
    problem: `gave up at ${deadlineText(deadline)} after ${reached.attempts} ${
      reached.attempts === 1 ? "attempt" : "attempts"
    }: a retry would wait ${formatWait(reached.waitMillis)}, past it`,
    request: `${target.method} ${target.url}`,
    advice: `the last attempt: ${error.message}`,
    timeoutMillis: deadline,
    reason: "deadline",
    cause: error,
    ...target
  })

/** An attempt (or the pacing before one) still running at the deadline: interrupted. */
const passed = (deadline: number, target: Target) =>
  Effect.andThen(
    Effect.logWarning(
      `S2 ${target.method} ${pathOf(target.url)}: ${deadlineText(deadline)} passed during an attempt; giving up`
    ),
    Effect.fail(
      new Timeout({
        problem: `no complete answer within ${deadlineText(deadline)}, retries and waits included`,
        request: `${target.method} ${target.url}`,
        timeoutMillis: deadline,
        reason: "deadline",
        ...target
      })
    )
  )

/**
 * `attempt` retried by `schedule` (the retry log outside it, so a retry the deadline refuses is not
 * logged as made), the whole within `deadline` when there is one.
 */
export const retryWithin = <A>(
  attempt: Effect.Effect<A, S2Error>,
  policy: RetryPolicy,
  withLog: (policy: RetryPolicy) => RetryPolicy,
  deadline: Duration.Duration | undefined,
  target: Target
): Effect.Effect<A, S2Error> => {
  if (deadline === undefined || !Duration.isFinite(deadline)) return Effect.retry(attempt, withLog(policy))
  const millis = Duration.toMillis(deadline)
  const retried = Effect.retryOrElse(
    attempt,
    withLog(bounded(policy, millis, target)),
    (error, out): Effect.Effect<never, S2Error> =>
      Effect.fail(isDeadlineReached(out) ? stopped(error, out, millis, target) : error)
  )
  return Effect.timeoutOrElse(retried, { duration: deadline, orElse: () => passed(millis, target) })
}
