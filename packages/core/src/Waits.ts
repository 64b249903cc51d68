/**
 * The client's waits as typed events: each failed attempt it is about to retry ({@link Wait}
 * `Retry`) and each wait for a request's turn at the rate limit (`RateLimitWait`), with the cause,
 * the attempt, the wait as a `Duration` and the request. Every wait is also logged at Warning, for
 * people; a program that shows waits (a progress line, an MCP progress notification) listens here,
 * so that it sees them whatever the log level and parses no log line.
 *
 * The listener is a `Context.Reference`: the default does nothing, and one provided around an
 * Effect or a Stream hears the waits of every request made inside it (batched lookups included:
 * a batch call's waits reach the listener of each lookup it answers).
 *
 * @example
 * ```ts
 * import { Duration, Effect } from "effect"
 * import { SemanticScholar, Waits } from "@s2-effect/core"
 *
 * const program = SemanticScholar.use((s2) => s2.getPaper("CorpusId:13756489")).pipe(
 *   Waits.listen((wait) =>
 *     Effect.sync(() => console.error(`${wait._tag} of ${wait.url}: ${Duration.format(wait.wait)}`))
 *   )
 * )
 * ```
 * @since 1.0.0
 */
import type * as Context from "effect/Context"
import type * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Function from "effect/Function"
import * as Stream from "effect/Stream"
import * as internal from "./internal/waits.js"
import type { S2Error } from "./S2Error.js"

/**
 * One wait of the client, reported as it begins (the Warning line is logged at the same moment).
 *
 * - `Retry`: an attempt failed and the retry policy will try again after `wait`. `error` is the
 *   attempt's error, `cause` the same in short as the log line says it (the status, `429`, `503`;
 *   else `time-out`, `connection refused`, …), `attempt` which attempt failed (1 for the first).
 * - `RateLimitWait`: a request waits `wait` for its turn: at this process's pace behind requests
 *   ahead of it (`limiter: "process"`; the pace's own spacing of one request after another is not
 *   reported), or for the slot a shared limit's store gave it (`limiter: "shared"`). `attempt` is
 *   the attempt that waits.
 *
 * Both name the request by `method` and `url`, without the query (never the key either).
 *
 * @category models
 * @since 1.0.0
 */
export type Wait = Data.TaggedEnum<{
  Retry: {
    readonly error: S2Error
    readonly cause: string
    readonly attempt: number
    readonly wait: Duration.Duration
    readonly method: string
    readonly url: string
  }
  RateLimitWait: {
    readonly limiter: "process" | "shared"
    readonly attempt: number
    readonly wait: Duration.Duration
    readonly method: string
    readonly url: string
  }
}>

/**
 * The constructors and matchers of {@link Wait}: `Wait.Retry({...})`, `Wait.$is("Retry")`,
 * `Wait.$match(wait, { Retry: …, RateLimitWait: … })`.
 *
 * @category constructors
 * @since 1.0.0
 */
export const Wait: Data.TaggedEnum.Constructor<Wait> = internal.Wait

/**
 * What hears the waits: a function of each {@link Wait}. It runs in the waiting fiber before the
 * wait begins, so it should be quick (offer to a queue, set a note).
 *
 * @category models
 * @since 1.0.0
 */
export type Listener = (wait: Wait) => Effect.Effect<void>

/**
 * The listener of the current fiber. The default does nothing.
 *
 * @category references
 * @since 1.0.0
 */
export const CurrentListener: Context.Reference<Listener> = internal.Listener

/**
 * Reports a wait to the current listener. The client calls it; another implementation of the
 * service (a stub, a wrapper with its own waits) can too.
 *
 * @category utils
 * @since 1.0.0
 */
export const report: (wait: Wait) => Effect.Effect<void> = internal.report

/**
 * Listens to the waits of every request made by an Effect or a Stream, data-first or in a pipe.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar, Waits } from "@s2-effect/core"
 *
 * const retries: Array<string> = []
 * const program = SemanticScholar.use((s2) => s2.getPaper("CorpusId:13756489")).pipe(
 *   Waits.listen((wait) =>
 *     Effect.sync(() => {
 *       if (wait._tag === "Retry") retries.push(`${wait.cause}, attempt ${wait.attempt}`)
 *     })
 *   )
 * )
 * ```
 * @category combinators
 * @since 1.0.0
 */
export const listen: {
  (listener: Listener): <Self extends Listened>(self: Self) => Self
  <Self extends Listened>(self: Self, listener: Listener): Self
} = Function.dual(
  2,
  <Self extends Listened>(self: Self, listener: Listener): Self =>
    (Stream.isStream(self)
      ? Stream.provideService(self, internal.Listener, listener)
      : Effect.provideService(self as Effect.Effect<unknown, unknown, unknown>, internal.Listener, listener)) as Self
)

/**
 * What {@link listen} applies to.
 *
 * @category models
 * @since 1.0.0
 */
export type Listened = Effect.Effect<unknown, unknown, unknown> | Stream.Stream<unknown, unknown, unknown>
