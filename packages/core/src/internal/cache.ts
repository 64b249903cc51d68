/**
 * The response cache: a transport hook that answers a request from a `Persistence` store when it
 * can, and stores what the server answered otherwise, through effect's `PersistedCache` (which also
 * makes concurrent identical requests one). The JSON answer is stored, not the decoded record, so a
 * cached answer is decoded exactly like a fresh one; and it is stored only once it has decoded (the
 * cached effect is the fetch and the decoding: a `DecodeError` is an exit that is never kept).
 *
 * Each entry names the request it answers and when it expires, and is checked on read (see
 * {@link guard}): an entry for another request, one that cannot be read, or one past its time is
 * a logged miss, never an answer. The store is guarded: its trouble is logged and read as a miss,
 * never a failed request.
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
import type { DecodeError, S2Error } from "../S2Error.js"
import { ObjectNotFound } from "../S2Error.js"
import { prefixes, type S2Request } from "./request.js"
import type { Around } from "./transport.js"

const result = { success: Schema.Unknown, error: ObjectNotFound }

/** Where an entry is and what it answers: its key in the store, and its request as text (see {@link identify}). */
export interface Identity {
  readonly key: string
  readonly request: string
}

/**
 * A stored answer: its identity, the schemas its exit is written and read with, and the request
 * that fetches and decodes it on a miss (requests with equal keys are the same request, so any one
 * of them will do).
 */
class Entry implements Persistable.Persistable<typeof Schema.Unknown, typeof ObjectNotFound>, Identity {
  constructor(readonly key: string, readonly request: string, readonly fetch: Effect.Effect<unknown, S2Error>) {}
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
 * The format of entries, in their keys and in each entry: entries of another format are never
 * looked up (an upgrade starts afresh rather than warning once per old entry), and an entry of
 * another format found under a key of this one is a miss.
 */
const format = 2

/**
 * A request as text: method, path below the API root, query and body, as sent. An entry holds it
 * and is checked against it on read; it is also what a warning shows. The API key is a header
 * added by the transport, so it is not part of the request.
 */
export const requestText = (request: S2Request): string => {
  const search = new URLSearchParams(request.query.map(([name, value]) => [name, value])).toString()
  const body = request.body === undefined ? "" : ` ${JSON.stringify(request.body)}`
  return `${request.method} ${prefixes[request.api]}${request.path}${search === "" ? "" : `?${search}`}${body}`
}

/**
 * The identity of a request: its key (the format, the API root, API, method, path with its ids,
 * query with fields, filters and paging, and body, hashed so it fits any store, a file name
 * included) and its {@link requestText}. Never the API key.
 */
export const keyOf = (apiUrl: string, request: S2Request): Effect.Effect<Identity> =>
  Effect.promise(() =>
    crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(
        JSON.stringify([format, apiUrl, request.api, request.method, request.path, request.query, request.body ?? null])
      )
    )
  ).pipe(Effect.map((digest) => ({
    key: `${request.api}.${request.method}.${hex(digest)}`,
    request: requestText(request)
  })))

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
 * An entry that cannot be read (a bad encoding, another format, or a file read while another
 * process wrote it) is a miss; any other error means the store itself is in trouble.
 */
const unreadable = (error: Persistence.PersistenceError | Schema.SchemaError) =>
  Schema.isSchemaError(error) || error.cause instanceof SyntaxError

/**
 * What an entry holds: its format, the request it answers ({@link requestText}), when it expires
 * (epoch milliseconds; the store's own expiry is not trusted alone), and the answer: JSON that
 * decoded, or the server's not-found.
 */
const Stored = Schema.Struct({
  format: Schema.Literal(format),
  request: Schema.String,
  expires: Schema.Number,
  answer: Schema.Union([Schema.Struct({ json: Schema.Unknown }), Schema.Struct({ notFound: ObjectNotFound })])
})
type Stored = typeof Stored.Type

const stored = { success: Stored, error: Schema.Never }

/** An entry as the guarded store writes and reads it: under the caller's key, as {@link Stored}, kept `ttl`. */
class Stamped implements Persistable.Persistable<typeof Stored, typeof Schema.Never> {
  constructor(readonly key: string, readonly ttl: Duration.Duration = Duration.zero) {}
  [PrimaryKey.symbol]() {
    return this.key
  }
  get [Persistable.symbol]() {
    return stored
  }
}

/** The request a key answers: keys of this cache ({@link Entry}, a batched lookup) carry it; others are never stored. */
const requestOf = (key: Persistable.Any): string | undefined => {
  const request = (key as Partial<Identity>).request
  return typeof request === "string" && request !== "" ? request : undefined
}

/** The entry for an answer that may be kept (a success, or only `ObjectNotFound`), else `undefined`. */
const toStored = (exit: Exit.Exit<unknown, unknown>, request: string, expires: number): Stored | undefined => {
  if (Exit.isSuccess(exit)) return { format, request, expires, answer: { json: exit.value } }
  const [first] = exit.cause.reasons
  return reusable(exit) && first?._tag === "Fail" && first.error instanceof ObjectNotFound
    ? { format, request, expires, answer: { notFound: first.error } }
    : undefined
}

const fromStored = ({ answer }: Stored): Exit.Exit<unknown, ObjectNotFound> =>
  "json" in answer ? Exit.succeed(answer.json) : Exit.fail(answer.notFound)

/** An entry read: its answer when it is for `request` and not past its time; a miss otherwise. */
const check = (entry: Stored, request: string) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    entry.request !== request
      ? Effect.as(
        Effect.logWarning(
          `S2 cache: the entry for ${request} holds the answer to another request (${entry.request}); asking the server instead`
        ),
        undefined
      )
      : now < entry.expires
      ? Effect.succeed(fromStored(entry))
      : Effect.undefined)

/**
 * A `Persistence` for this cache's entries whose stores never fail and never answer the wrong
 * request: each answer is written as {@link Stored}, and read back only for the request it names
 * and before it expires (an entry for another request is a miss, logged with both requests). An
 * operation that fails is logged and gives `fallback`, and after a failure of the store itself
 * every store it made is left alone for {@link pause}.
 */
export const guard = (
  persistence: Persistence.Persistence["Service"],
  holdsKey: (text: string) => boolean = () => false
): Persistence.Persistence["Service"] => {
  let resumeAt = 0
  const guarded = <A, E extends Persistence.PersistenceError | Schema.SchemaError, R>(
    use: Effect.Effect<A, E, R>,
    fallback: A,
    what = "S2 cache"
  ): Effect.Effect<A, never, R> =>
    Effect.flatMap(
      Clock.currentTimeMillis,
      (now) =>
        now < resumeAt ? Effect.succeed(fallback) : Effect.catch(use, (error) =>
          Effect.gen(function*() {
            const paused = !unreadable(error)
            if (paused) resumeAt = (yield* Clock.currentTimeMillis) + Duration.toMillis(pause)
            yield* Effect.logWarning(
              `${what}: ${explain(error)}; asking the server instead${
                paused ? `, and leaving the cache alone for ${Duration.format(pause)}` : ""
              }`
            )
            return fallback
          }))
    )
  return Persistence.Persistence.of({
    make: (options) =>
      Effect.map(
        persistence.make({ storeId: options.storeId, timeToLive: (_, key) => (key as Stamped).ttl }),
        (store): Persistence.PersistenceStore => {
          const timeToLive = options.timeToLive ?? (() => Duration.infinity)
          const get = (key: Persistable.Any): Effect.Effect<Exit.Exit<unknown, unknown> | undefined> => {
            const request = requestOf(key)
            if (request === undefined) return Effect.undefined
            const what = `S2 cache: the entry for ${request} cannot be read`
            return Effect.flatMap(
              guarded(store.get(new Stamped(PrimaryKey.value(key))), undefined, what),
              (exit) => exit === undefined || Exit.isFailure(exit) ? Effect.undefined : check(exit.value, request)
            )
          }
          const set = (key: Persistable.Any, exit: Exit.Exit<unknown, unknown>): Effect.Effect<void> => {
            const request = requestOf(key)
            const ttl = Duration.fromInputUnsafe(timeToLive(exit, key))
            if (request === undefined || !Duration.isGreaterThan(ttl, Duration.zero)) return Effect.void
            return Effect.flatMap(Clock.currentTimeMillis, (now) => {
              const entry = toStored(exit, request, now + Duration.toMillis(ttl))
              if (entry === undefined) return Effect.void
              // A server that echoed the key (in any spelling) would have it written to disk and
              // served to a client with another key: such an answer is used once, never kept.
              if (holdsKey(JSON.stringify(entry))) {
                return Effect.logWarning(`S2 cache: the answer to ${request} holds the API key; not stored`)
              }
              return guarded(store.set(new Stamped(PrimaryKey.value(key), ttl), Exit.succeed(entry)), undefined)
            })
          }
          return {
            get,
            // One by one, so that each entry is checked, and each that cannot be read is logged.
            getMany: (keys) => Effect.forEach(keys, get, { concurrency: "unbounded" }),
            set,
            setMany: (entries) =>
              Effect.forEach(entries, ([key, exit]) => set(key, exit), { concurrency: "unbounded", discard: true }),
            remove: (key) => guarded(store.remove(new Stamped(PrimaryKey.value(key))), undefined),
            clear: guarded(store.clear, undefined)
          } as Persistence.PersistenceStore
        }
      )
  })
}

/**
 * The answer to a request from the cache: on a miss, fetched and decoded (and kept only if it
 * decoded); on a hit, the stored JSON decoded. A stored answer this version cannot decode (written
 * by another version, or edited) is a logged miss: the entry is dropped and the server asked.
 */
const cached = <A>(
  cache: PersistedCache.PersistedCache<Entry>,
  identity: Identity,
  fetch: Effect.Effect<unknown, S2Error>,
  decode: (json: unknown) => Effect.Effect<A, DecodeError>,
  retried = false
): Effect.Effect<A, S2Error> =>
  Effect.suspend(() => {
    // What the miss decoded, for the caller that asked: an answer is decoded once.
    let fresh: { readonly value: A } | undefined
    const entry = new Entry(
      identity.key,
      identity.request,
      Effect.flatMap(fetch, (json) => Effect.as(Effect.map(decode(json), (value) => void (fresh = { value })), json))
    )
    // The store is guarded, so its errors never come here.
    return Effect.flatMap(cache.get(entry) as Effect.Effect<unknown, S2Error>, (json) =>
      fresh !== undefined ? Effect.succeed(fresh.value) : Effect.andThen(
        Effect.logDebug(`S2 cache hit: ${identity.request}`),
        decodeStored(identity.request, decode(json), {
          retried,
          drop: cache.invalidate(entry),
          again: Effect.suspend(() =>
            cached(cache, identity, fetch, decode, true)
          )
        })
      ))
  })

/**
 * A stored answer decoded. One this version cannot decode (written by another version, or edited)
 * is a logged miss: the entry is dropped and the server asked `again`, once (`retried` says it was).
 * Used for every kind of entry: a response's and a batched lookup's.
 */
export const decodeStored = <A>(
  request: string,
  decoded: Effect.Effect<A, DecodeError>,
  options: {
    readonly retried: boolean
    readonly drop: Effect.Effect<unknown, unknown>
    readonly again: Effect.Effect<A, S2Error>
  }
): Effect.Effect<A, S2Error> =>
  Effect.catchTag(decoded, "DecodeError", (error) =>
    options.retried ? Effect.fail(error) : Effect.logWarning(
      `S2 cache: the entry for ${request} does not decode (${error.message}); asking the server instead`
    ).pipe(Effect.andThen(Effect.ignore(options.drop)), Effect.andThen(options.again)))

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
      // The error type of an entry is what is stored (`ObjectNotFound`); other errors, a
      // `DecodeError` among them, pass through unstored.
      (entry: Entry) => entry.fetch as Effect.Effect<unknown, ObjectNotFound>,
      {
        storeId: options.storeId,
        timeToLive: timeToLiveOf(options.timeToLive),
        // In memory only while asked: concurrent identical requests share one answer, and answers
        // (pages of a harvest) are not held beside the store.
        inMemoryTTL: () => Duration.zero
      }
    ).pipe(Effect.provideService(Persistence.Persistence, options.persistence))
    const around: Around = (request, fetch, decode) =>
      !cacheable(request)
        ? Effect.flatMap(fetch, decode)
        : Effect.flatMap(keyOf(options.apiUrl, request), (identity) => cached(cache, identity, fetch, decode))
    return around
  })
