/**
 * The response cache: a transport hook that answers a request from an `@effect/experimental`
 * `ResultPersistence` store when it can, and stores what the server answered otherwise. The JSON
 * answer is stored, not the decoded record, so a cached answer is decoded exactly like a fresh one.
 */
import type * as Persistence from "@effect/experimental/Persistence"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as PrimaryKey from "effect/PrimaryKey"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type { S2Error } from "../S2Error.js"
import { ObjectNotFound } from "../S2Error.js"
import type { S2Request } from "./request.js"
import type { Around } from "./transport.js"

const result = { success: Schema.Unknown, failure: ObjectNotFound }

/** A stored answer: its key, and the schemas its exit is written and read with. */
class Entry
  implements Persistence.ResultPersistence.Key<never, typeof ObjectNotFound.Encoded, ObjectNotFound, unknown, unknown>
{
  constructor(readonly key: string) {}
  [PrimaryKey.symbol]() {
    return this.key
  }
  // On the prototype, so Schema builds the exit schema once for every entry.
  get [Schema.symbolWithResult]() {
    return result
  }
}

const hex = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("")

/**
 * The key of a request: the API root, API, method, path (with its ids), query (fields, filters,
 * paging) and body, hashed so it fits any store (a file name included). The API key is a header
 * added by the transport, so it is not part of the request and cannot reach a key.
 */
export const keyOf = (apiUrl: string, request: S2Request): Effect.Effect<string> =>
  Effect.promise(() =>
    crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(
        JSON.stringify([apiUrl, request.api, request.method, request.path, request.query, request.body ?? null])
      )
    )
  ).pipe(Effect.map((digest) => `${request.api}.${request.method}.${hex(digest)}`))

/** Answers that may be reused: records and pages, and `ObjectNotFound`; every other error is asked again. */
const reusable = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isSuccess(exit) ||
  Option.exists(Exit.causeOption(exit), (cause) => cause._tag === "Fail" && cause.error instanceof ObjectNotFound)

/** Dataset download links are pre-signed and expire, so the Datasets API is never cached. */
const cacheable = (request: S2Request) => request.api !== "datasets"

/**
 * After the store itself fails (a full disk, Redis gone), it is left alone this long: store trouble
 * never fails a request, and a dead server costs one time-out, not one per request.
 */
const pause = Duration.seconds(30)

const explain = (error: Persistence.PersistenceError) =>
  error.reason === "BackingError"
    ? `${error.method}: ${error.cause instanceof Error ? error.cause.message : String(error.cause)}`
    : `${error.method}: ${error.message}`

/**
 * The hook: reads and writes entries of `storeId` in the given persistence, for `timeToLive`.
 * Lives in the layer's scope.
 */
export const make = (options: {
  readonly persistence: Persistence.ResultPersistence
  readonly apiUrl: string
  readonly timeToLive: Duration.Duration
  readonly storeId: string
}): Effect.Effect<Around, never, Scope.Scope> =>
  Effect.map(
    options.persistence.make({
      storeId: options.storeId,
      timeToLive: (_key, exit) => reusable(exit) ? options.timeToLive : Duration.zero
    }),
    (store): Around => {
      let resumeAt = 0
      /** A store operation, or `fallback` when the store is paused or fails (logged). */
      const guarded = <A>(use: Effect.Effect<A, Persistence.PersistenceError>, fallback: A) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          now < resumeAt ? Effect.succeed(fallback) : use.pipe(
            Effect.catchAll((error) =>
              Effect.gen(function*() {
                // An unreadable entry (a bad encoding, or a file read while another process wrote
                // it) is a miss; a failing store is paused.
                const paused = error.reason === "BackingError" && !(error.cause instanceof SyntaxError)
                if (paused) resumeAt = (yield* Clock.currentTimeMillis) + Duration.toMillis(pause)
                yield* Effect.logWarning(
                  `S2 cache: ${explain(error)}; asking the server instead${
                    paused ? `, and leaving the cache alone for ${Duration.format(pause)}` : ""
                  }`
                )
                return fallback
              })
            )
          ))
      return (request, fetch) =>
        !cacheable(request) ? fetch : Effect.gen(function*() {
          const entry = new Entry(yield* keyOf(options.apiUrl, request))
          const hit = yield* guarded(store.get(entry), Option.none())
          if (Option.isSome(hit)) {
            yield* Effect.logDebug(`S2 cache hit: ${request.method} ${request.path}`)
            return yield* hit.value
          }
          const exit: Exit.Exit<unknown, S2Error> = yield* Effect.exit(fetch)
          // Only `ObjectNotFound` failures reach the store: the others get a time to live of zero.
          yield* guarded(store.set(entry, exit as Exit.Exit<unknown, ObjectNotFound>), undefined)
          return yield* exit
        })
    }
  )
