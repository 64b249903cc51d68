/**
 * The transport's pacing hooks. `make`: over `effect/persistence/RateLimiter` and a store shared by
 * many processes; each request takes the next free slot of `1 / perSecond` in the store and waits
 * for it, so the workers together send evenly spaced requests instead of each bursting at its own
 * pace. `perProcess`: the same fixed windows counted in this process alone (Effect 4 has no
 * in-process rate limiter of its own).
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as RateLimiter from "effect/persistence/RateLimiter"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import type { Shared } from "../RateLimit.js"
import { formatWait } from "../RetryPolicy.js"
import type { InvalidOptions, RateLimiterReason, S2Error } from "../S2Error.js"
import { RateLimiterUnavailable } from "../S2Error.js"
import type { Target } from "./response.js"
import { excerpt } from "./response.js"
import type { Pace } from "./transport.js"
import * as Waits from "./waits.js"

/** The options of a {@link Shared} limit, checked and with their defaults. */
export interface Resolved {
  readonly store: Shared["store"]
  readonly key: string
  readonly perSecond: number
  readonly onStoreError: "fail" | "local"
  readonly storeTimeout: Duration.Duration
  readonly label: string
  /** The longest wait for a slot the store may ask for (`Shared.maxWait`, validated with its default). */
  readonly maxWait: Duration.Duration
}

/** How long a process that lost its store paces itself before asking the store again. */
const localSpell = Duration.seconds(30)

const describe = (cause: unknown): string =>
  cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "unknown failure"

/** What went wrong with the store: the store's own cause when it gave one. */
const storeProblem = (error: RateLimiter.RateLimiterError): string =>
  error.reason._tag === "RateLimitStoreError"
    ? describe(error.reason.cause ?? error.reason.message)
    : describe(error)

const wait = <A>(task: Effect.Effect<A, S2Error>) => (delay: Duration.Duration) =>
  Duration.isZero(delay) ? task : Effect.delay(task, delay)

/** The share of the interval a request leaves later than the pace alone would let it (2%). */
export const margin = 0.02

/**
 * At most `limit` requests in each window of `interval`, counted in this process, shared by every
 * fiber that uses the returned hook. Each request reserves its place at once (the next window with
 * room) and waits for it, so concurrent callers are spread over the windows in the order they came.
 *
 * A request also leaves no sooner than `interval` plus {@link margin} after the `limit`-th request
 * before it left. Both parts are needed against a server that counts the time between arrivals
 * (a token bucket with a burst of one, as the emulator's `--rate-limit`): a timer fires a few
 * milliseconds late and the window does not move with it, so the next request, on time, followed
 * the late one by 990 ms; and two requests on their way take times that differ by milliseconds.
 * Each refusal costs a 5 s back-off. Measured at 1/s against the emulator's 1/s, 40 lookups one
 * after another: 8 refusals of 48 requests paced by the windows alone, none with both.
 */
export const perProcess = (options: {
  readonly limit: number
  readonly interval: Duration.Input
}): Effect.Effect<Pace> =>
  Effect.sync(() => {
    const interval = Duration.toMillis(options.interval)
    let windowStart = Number.NEGATIVE_INFINITY
    let used = 0
    const reserve = (now: number): number => {
      if (now >= windowStart + interval) {
        windowStart = now
        used = 0
      } else if (used >= options.limit) {
        windowStart += interval
        used = 0
      }
      used++
      return Math.max(0, windowStart - now)
    }
    // When the last `limit` requests left, oldest first.
    const departures: Array<number> = []
    const depart = <A>(task: Effect.Effect<A, S2Error>): Effect.Effect<A, S2Error> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const early = departures.length < options.limit ? 0 : departures[0]! + interval * (1 + margin) - now
        if (early > 0) return Effect.delay(depart(task), Duration.millis(early))
        departures.push(now)
        if (departures.length > options.limit) departures.shift()
        return task
      })
    return <A>(task: Effect.Effect<A, S2Error>, target: Target) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const delay = reserve(now)
        const paced = wait(depart(task))(Duration.millis(delay))
        // Up to one interval is the pace itself; more means requests ahead of this one, a wait to show.
        return delay > interval ? Effect.andThen(queued(delay, options.limit, interval, target), paced) : paced
      })
  })

/** Reports a wait for a request's turn to the waits channel. */
const reportWait = (limiter: "process" | "shared", delay: Duration.Duration, target: Target) =>
  Effect.flatMap(Waits.currentAttempt, (attempt) =>
    Waits.report(Waits.Wait.RateLimitWait({
      limiter,
      attempt,
      wait: delay,
      method: target.method,
      url: Waits.withoutQuery(target.url)
    })))

/** The Warning of a request that waits behind others for its turn at this process's pace. */
const queued = (delay: number, limit: number, interval: number, target: Target) =>
  Effect.logWarning(
    `S2 rate limit: ${limit} ${limit === 1 ? "request" : "requests"} per ${
      formatWait(interval)
    } in this process, with requests ahead of this one; waiting ${formatWait(delay)} for its turn`
  ).pipe(Effect.andThen(reportWait("process", Duration.millis(delay), target)))

/** What the slot's store did wrong, and which kind of wrong (the error's `reason`). */
interface Problem {
  readonly why: string
  readonly reason: RateLimiterReason
}

/** A store answer that is not a slot; the message shows a bounded excerpt of it. */
class BadAnswer extends Error {}

/** A store's answer as text, cut to a bounded excerpt (non-finite numbers named, not `null`). */
const shown = (value: unknown): string => {
  let text: string
  try {
    text = typeof value === "string"
      ? JSON.stringify(value)
      : JSON.stringify(value, (_, v) => typeof v === "number" && !Number.isFinite(v) ? String(v) : v) ?? String(value)
  } catch {
    text = typeof value
  }
  return excerpt(text, 80)
}

/**
 * The store with its fixed-window answers checked: a `[count, ttl]` pair with a count of at least
 * one and a finite ttl of zero or more. Anything else (or a store that throws) is a store failure,
 * never a slot taken at once or a sleep of NaN.
 */
const checked = (store: RateLimiter.RateLimiterStore["Service"]): RateLimiter.RateLimiterStore["Service"] => {
  const bad = (message: string) =>
    Effect.fail(
      new RateLimiter.RateLimiterError({
        reason: new RateLimiter.RateLimitStoreError({ message, cause: new BadAnswer(message) })
      })
    )
  return RateLimiter.RateLimiterStore.of({
    ...store,
    fixedWindow: (options) =>
      Effect.suspend(() => store.fixedWindow(options)).pipe(
        Effect.catchDefect((defect) => bad(`answered something that is not a slot (${describe(defect)})`)),
        Effect.flatMap((answer: unknown) => {
          const ok = Array.isArray(answer) && answer.length === 2 &&
            answer.every((n) => typeof n === "number" && Number.isFinite(n)) && answer[0] >= 1 && answer[1] >= 0
          return ok
            ? Effect.succeed(answer as unknown as readonly [number, number])
            : bad(`answered ${shown(answer)}, not a [count, milliseconds] slot`)
        })
      )
  })
}

/** The store's answer for one request: how long to wait for its slot; fails with what went wrong. */
const slotOf = (limiter: RateLimiter.RateLimiter, options: Resolved) => {
  const problem = (why: string, reason: RateLimiterReason): Problem => ({
    why: `the shared rate limit's store (${options.label}) ${why}`,
    reason
  })
  const { maxWait } = options
  return limiter.consume({
    key: options.key,
    limit: 1,
    window: Duration.millis(1000 / options.perSecond),
    onExceeded: "delay",
    algorithm: "fixed-window"
  }).pipe(
    Effect.mapError((error) =>
      error.reason._tag === "RateLimitStoreError" && error.reason.cause instanceof BadAnswer
        ? problem(error.reason.cause.message, "badAnswer")
        : problem(`failed: ${storeProblem(error)}`, "failed")
    ),
    Effect.timeoutOrElse({
      duration: options.storeTimeout,
      orElse: () => Effect.fail(problem(`did not answer within ${Duration.format(options.storeTimeout)}`, "timeout"))
    }),
    Effect.flatMap(({ delay }) =>
      Duration.isGreaterThan(delay, maxWait)
        ? Effect.fail(problem(
          `asked to wait ${formatWait(Duration.toMillis(delay))}, over the ${
            formatWait(Duration.toMillis(maxWait), "limit")
          } limit (rateLimit.maxWait)`,
          "waitTooLong"
        ))
        : Effect.succeed(delay)
    )
  )
}

/** The Warning of a request that waits for the slot the store gave it, and its report. */
const announce = (options: Resolved, delay: Duration.Duration, target: Target): Effect.Effect<void> =>
  Duration.isZero(delay) ? Effect.void : Effect.logWarning(
    `S2 shared rate limit: ${options.label} gave this request the slot in ${
      formatWait(Duration.toMillis(delay))
    } (${options.perSecond}/s over every worker on the key); waiting`
  ).pipe(Effect.andThen(reportWait("shared", delay, target)))

/** Waits `delay` for the slot, announced, then runs `task`. */
const inSlot = <A>(task: Effect.Effect<A, S2Error>, target: Target, options: Resolved) => (delay: Duration.Duration) =>
  Effect.andThen(announce(options, delay, target), wait(task)(delay))

/**
 * With `onStoreError: "local"`: a store failure switches this process to its own pace for
 * {@link localSpell}, with one warning, after which the store is asked again.
 */
const withFallback = (slot: Effect.Effect<Duration.Duration, Problem>, options: Resolved) =>
  Effect.gen(function*() {
    const local = yield* perProcess({ limit: 1, interval: Duration.millis(1000 / options.perSecond) })
    const localUntil = yield* Ref.make(0)
    const fallBack = <A>(task: Effect.Effect<A, S2Error>, target: Target) => ({ why }: Problem) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.set(localUntil, now + Duration.toMillis(localSpell))).pipe(
        Effect.andThen(Effect.logWarning(
          `${why}: pacing this process alone at ${options.perSecond}/s for ${
            Duration.format(localSpell)
          }, then asking the store again`
        )),
        Effect.andThen(local(task, target))
      )
    const pace: Pace = <A>(task: Effect.Effect<A, S2Error>, target: Target) =>
      Effect.flatMap(Effect.zip(Clock.currentTimeMillis, Ref.get(localUntil)), ([now, until]) =>
        now < until
          ? local(task, target)
          : Effect.matchEffect(slot, { onFailure: fallBack(task, target), onSuccess: inSlot(task, target, options) }))
    return pace
  })

export const make = (options: Resolved): Effect.Effect<Pace, InvalidOptions, Scope.Scope> =>
  Effect.gen(function*() {
    const store = Context.get(yield* Layer.build(options.store), RateLimiter.RateLimiterStore)
    const limiter = yield* Effect.provideService(RateLimiter.make, RateLimiter.RateLimiterStore, checked(store))
    const slot = slotOf(limiter, options)
    if (options.onStoreError === "local") return yield* withFallback(slot, options)
    const shared: Pace = (task, target) =>
      slot.pipe(
        Effect.mapError(({ reason, why }) =>
          new RateLimiterUnavailable({ problem: why, advice: "no request was sent", store: options.label, reason })
        ),
        Effect.flatMap(inSlot(task, target, options))
      )
    return shared
  })
