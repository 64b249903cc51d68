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

/** How the retries ended when an attempt was cut at the deadline: the attempt's error stands. */
interface DeadlinePassed {
  readonly _tag: "DeadlinePassed"
}

const deadlinePassed: DeadlinePassed = { _tag: "DeadlinePassed" }

const isDeadlinePassed = (error: S2Error): boolean => error._tag === "Timeout" && error.reason === "deadline"

/**
 * `policy`, except that a retry whose wait would end more than `deadline` after the call began is
 * not made: the retries end with a {@link DeadlineReached} (read by {@link retryWithin}).
 */
const bounded = (policy: RetryPolicy, deadline: number, target: Target): RetryPolicy =>
  Schedule.fromStep(Effect.flatMap(Clock.currentTimeMillis, (start) =>
    Effect.map(Schedule.toStep(policy), (step) => {
      let attempts = 0
      return (now: number, error: S2Error) =>
        // The deadline passed during an attempt (its bound came first): the call ends with it.
        isDeadlinePassed(error) ?
          Cause.done<DeadlinePassed>(deadlinePassed) :
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

/** The time-out of one attempt, reading the body included. */
export const timeoutOf =
  (timeout: Duration.Duration, target: Target) => <A>(attempt: Effect.Effect<A, S2Error>): Effect.Effect<A, S2Error> =>
    Effect.timeoutOrElse(attempt, {
      duration: timeout,
      orElse: () =>
        Effect.fail(
          new Timeout({
            problem: `no response within ${Duration.format(timeout)}`,
            request: `${target.method} ${target.url}`,
            timeoutMillis: Duration.toMillis(timeout),
            ...target
          })
        )
    })

/** What bounds one attempt: its time-out, and the deadline when that comes first. */
export type Bound = <A>(attempt: Effect.Effect<A, S2Error>) => Effect.Effect<A, S2Error>

/**
 * The attempt's time-out, or the deadline when it comes first: one timer (a race of two fibers)
 * an attempt, where a time-out inside a deadline's race took two. Only where nothing waits outside
 * the attempt (no pacing): the deadline then falls within an attempt or within a retry's wait,
 * which {@link bounded} refuses to begin.
 */
const nearer = (timeout: Duration.Duration, deadline: number, start: number, target: Target): Bound => {
  const own = timeoutOf(timeout, target)
  const timeoutMillis = Duration.toMillis(timeout)
  return (attempt) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const left = Math.max(0, start + deadline - now)
      return left <= timeoutMillis
        ? Effect.timeoutOrElse(attempt, { duration: left, orElse: () => passed(deadline, target) })
        : own(attempt)
    })
}

/**
 * `attempt` retried by `schedule` (the retry log outside it, so a retry the deadline refuses is not
 * logged as made), the whole within `deadline` when there is one. `attempt` applies the bound it is
 * given (the time-out) to what an attempt's time-out covers; `paced`: something waits outside that
 * (a rate limiter's turn), so the deadline bounds the whole call in a race of its own.
 */
export const retryWithin = <A>(
  attempt: (bound: Bound) => Effect.Effect<A, S2Error>,
  timeout: Duration.Duration,
  policy: RetryPolicy,
  withLog: (policy: RetryPolicy) => RetryPolicy,
  deadline: Duration.Duration | undefined,
  target: Target,
  paced: boolean
): Effect.Effect<A, S2Error> => {
  if (deadline === undefined || !Duration.isFinite(deadline)) {
    return Effect.retry(attempt(timeoutOf(timeout, target)), withLog(policy))
  }
  const millis = Duration.toMillis(deadline)
  const retried = (bound: Bound) =>
    Effect.retryOrElse(
      attempt(bound),
      withLog(bounded(policy, millis, target)),
      (error, out): Effect.Effect<never, S2Error> =>
        Effect.fail(isDeadlineReached(out) ? stopped(error, out, millis, target) : error)
    )
  return paced
    ? Effect.timeoutOrElse(retried(timeoutOf(timeout, target)), {
      duration: deadline,
      orElse: () => passed(millis, target)
    })
    : Effect.flatMap(Clock.currentTimeMillis, (start) => retried(nearer(timeout, millis, start, target)))
}
