/**
 * The response cache: a transport hook that answers a request from a `Persistence` store when it
 * can, and stores what the server answered otherwise, through effect's `PersistedCache` (which also
 * makes concurrent identical requests one). The JSON answer is stored, not the decoded record, so a
 * cached answer is decoded exactly like a fresh one. The store is guarded: its trouble is logged and
 * read as a miss, never a failed request.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Equal from "effect/Equal"
import * as Exit from "effect/Exit"
import * as Hash from "effect/Hash"
import * as Persistable from "effect/persistence/Persistable"
import * as PersistedCache from "effect/persistence/PersistedCache"
import * as Persistence from "effect/persistence/Persistence"
import * as PrimaryKey from "effect/PrimaryKey"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type { S2Error } from "../S2Error.js"
import { ObjectNotFound } from "../S2Error.js"
import type { S2Request } from "./request.js"
import type { Around } from "./transport.js"

const result = { success: Schema.Unknown, error: ObjectNotFound }

/**
 * A stored answer: its key, the schemas its exit is written and read with, and the request that
 * fetches it on a miss (requests with equal keys are the same request, so any one of them will do).
 */
class Entry implements Persistable.Persistable<typeof Schema.Unknown, typeof ObjectNotFound> {
  constructor(readonly key: string, readonly fetch: Effect.Effect<unknown, S2Error>) {}
  [PrimaryKey.symbol]() {
    return this.key
  }
  get [Persistable.symbol]() {
    return result
  }
  [Equal.symbol](that: unknown) {
    return that instanceof Entry && that.key === this.key
  }
  [Hash.symbol]() {
    return Hash.string(this.key)
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
  (exit.cause.reasons.length > 0 &&
    exit.cause.reasons.every((r) => r._tag === "Fail" && r.error instanceof ObjectNotFound))

/** How long an answer is kept: `timeToLive` when it may be reused, else not at all. */
export const timeToLiveOf = (timeToLive: Duration.Duration) => (exit: Exit.Exit<unknown, unknown>) =>
  reusable(exit) ? timeToLive : Duration.zero

/** Dataset download links are pre-signed and expire, so the Datasets API is never cached. */
const cacheable = (request: S2Request) => request.api !== "datasets" && request.cache !== false

/**
 * After the store itself fails (a full disk, Redis gone), it is left alone this long: store trouble
 * never fails a request, and a dead server costs one time-out, not one per request.
 */
const pause = Duration.seconds(30)

/** The error and the errors it wraps, outermost first: the innermost says what the store said. */
const explain = (error: unknown): string => {
  const messages: Array<string> = []
  for (let e: unknown = error; e !== undefined && messages.length < 5; e = (e as { cause?: unknown }).cause) {
    if (e instanceof Error || (typeof e === "object" && e !== null && "message" in e)) {
      const message = String((e as { message: unknown }).message)
      if (message !== "" && !messages.includes(message)) messages.push(message)
    } else {
      messages.push(String(e))
    }
    if (typeof e !== "object" || e === null) break
  }
  return messages.join(": ")
}

/**
 * An entry that cannot be read (a bad encoding, or a file read while another process wrote it) is
 * a miss; any other error means the store itself is in trouble.
 */
const unreadable = (error: Persistence.PersistenceError | Schema.SchemaError) =>
  Schema.isSchemaError(error) || error.cause instanceof SyntaxError

/**
 * A `Persistence` whose stores never fail: an operation that fails is logged and gives `fallback`,
 * and after a failure of the store itself every store it made is left alone for {@link pause}.
 */
export const guard = (persistence: Persistence.Persistence["Service"]): Persistence.Persistence["Service"] => {
  let resumeAt = 0
  const guarded = <A, E extends Persistence.PersistenceError | Schema.SchemaError, R>(
    use: Effect.Effect<A, E, R>,
    fallback: A
  ): Effect.Effect<A, never, R> =>
    Effect.flatMap(
      Clock.currentTimeMillis,
      (now) =>
        now < resumeAt ? Effect.succeed(fallback) : Effect.catch(use, (error) =>
          Effect.gen(function*() {
            const paused = !unreadable(error)
            if (paused) resumeAt = (yield* Clock.currentTimeMillis) + Duration.toMillis(pause)
            yield* Effect.logWarning(
              `S2 cache: ${explain(error)}; asking the server instead${
                paused ? `, and leaving the cache alone for ${Duration.format(pause)}` : ""
              }`
            )
            return fallback
          }))
    )
  return Persistence.Persistence.of({
    make: (options) =>
      Effect.map(persistence.make(options), (store): Persistence.PersistenceStore => ({
        get: (key) => guarded(store.get(key), undefined),
        getMany: (keys) => {
          const all = Array.from(keys)
          return guarded(store.getMany(all), all.map(() => undefined))
        },
        set: (key, value) => guarded(store.set(key, value), undefined),
        setMany: (entries) => guarded(store.setMany(entries), undefined),
        remove: (key) => guarded(store.remove(key), undefined),
        clear: guarded(store.clear, undefined)
      }))
  })
}

/**
 * The hook: reads and writes entries of `storeId` in the (guarded) persistence, for `timeToLive`.
 * Lives in the layer's scope.
 */
export const make = (options: {
  readonly persistence: Persistence.Persistence["Service"]
  readonly apiUrl: string
  readonly timeToLive: Duration.Duration
  readonly storeId: string
}): Effect.Effect<Around, never, Scope.Scope> =>
  Effect.gen(function*() {
    const cache = yield* PersistedCache.make(
      // The error type of an entry is what is stored (`ObjectNotFound`); other errors pass through unstored.
      (entry: Entry) => entry.fetch as Effect.Effect<unknown, ObjectNotFound>,
      {
        storeId: options.storeId,
        timeToLive: timeToLiveOf(options.timeToLive),
        // In memory only while asked: concurrent identical requests share one answer, and answers
        // (pages of a harvest) are not held beside the store.
        inMemoryTTL: () => Duration.zero
      }
    ).pipe(Effect.provideService(Persistence.Persistence, options.persistence))
    return (request, fetch) =>
      !cacheable(request) ? fetch : Effect.flatMap(keyOf(options.apiUrl, request), (key) => {
        let asked = false
        const entry = new Entry(
          key,
          Effect.suspend(() => {
            asked = true
            return fetch
          })
        )
        // The store is guarded, so its errors never come here.
        return (cache.get(entry) as Effect.Effect<unknown, S2Error>).pipe(
          Effect.tap(() => asked ? Effect.void : Effect.logDebug(`S2 cache hit: ${request.method} ${request.path}`))
        )
      })
  })
