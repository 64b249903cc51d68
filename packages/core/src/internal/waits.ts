/**
 * The waits channel: where core reports each wait (a retry's, the rate limit's) as a typed event,
 * beside the Warning line it logs for people. A `Context.Reference`, so that reporting needs no
 * service and the default (no listener) costs a lookup.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type * as Public from "../Waits.js"

export const Wait = Data.taggedEnum<Public.Wait>()

export const Listener = Context.Reference<(wait: Public.Wait) => Effect.Effect<void>>(
  "@s2-effect/core/Waits/Listener",
  {
    defaultValue: () => () => Effect.void
  }
)

/** Hands `wait` to the listener of the fiber that waits. */
export const report = (wait: Public.Wait): Effect.Effect<void> =>
  Effect.flatMap(Effect.service(Listener), (listener) => listener(wait))

/** A request's URL without its query: where it went, not what it asked (ids, a search's words). */
export const withoutQuery = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

/**
 * The number of the attempt under way (1 for the first), from the retry around it; 1 outside any
 * retry (`retry: false` still runs under one).
 */
export const currentAttempt: Effect.Effect<number> = Effect.map(
  Effect.service(Schedule.CurrentMetadata),
  (meta) => meta.attempt + 1
)
