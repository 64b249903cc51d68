/**
 * Automatic batching of single lookups. A `getPaper` / `getAuthor` becomes a `Request`, and one
 * `RequestResolver` per batch endpoint answers every request collected in its window with
 * `POST /…/batch` calls, one per field selection (and per 500 / 1000 ids), each id asked once, each
 * call in its span. With a response cache each lookup reads its own entry first (one answered by the
 * store never reaches a batch call) and stores its answer under its own key before it returns, so a
 * re-run hits however its lookups were grouped. That key is the one of the lookup's own request
 * (`GET /paper/{id}?fields=…`, whose answer has the same shape: the record, or not found), so batched
 * and unbatched lookups share entries, and never meet those of `getPapers`, which holds lists. This module only knows the wire; Effect collects the requests
 * of every fiber.
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Persistable from "effect/persistence/Persistable"
import type * as Persistence from "effect/persistence/Persistence"
import type * as Request from "effect/Request"
import * as RequestResolver from "effect/RequestResolver"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type { S2Error } from "../S2Error.js"
import { DecodeError, ObjectNotFound } from "../S2Error.js"
import type { Listener } from "../Waits.js"
import { decodeStored } from "./cache.js"
import * as Req from "./request.js"
import type { Transport } from "./transport.js"
import * as TransportModule from "./transport.js"
import * as Waits from "./waits.js"

/** A batch endpoint: where it is, how many ids a call takes, and what each position decodes to. */
export interface BatchEndpoint<A, I> {
  /** The operation of the batch endpoint (`getPapers`): each batch call is a span `SemanticScholar.<name>`. */
  readonly name: string
  readonly path: string
  readonly size: number
  readonly schema: Schema.Codec<A, I>
  readonly noun: string
}

/** Positions are how unknown ids are told apart, so an answer of another length is unusable. */
const lengthCheck = (endpoint: { readonly path: string }, ids: ReadonlyArray<string>) =>
<A>(
  answer: Effect.Effect<ReadonlyArray<A>, S2Error>
): Effect.Effect<ReadonlyArray<A>, S2Error> =>
  Effect.filterOrFail(
    answer,
    (entries) => entries.length === ids.length,
    (entries) =>
      new DecodeError({
        subject: endpoint.path,
        problem: `answered ${entries.length} entries for ${ids.length} ids`,
        request: `POST ${endpoint.path}`,
        excerpt: `${entries.length} entries`,
        reason: "length",
        method: "POST",
        url: endpoint.path
      })
  )

/** One call of a batch endpoint: the entries in the order of `ids`, `null` where unknown. */
export const ask = <A, I>(endpoint: BatchEndpoint<A, I>, execute: Transport["execute"]) => {
  const answer = Schema.Array(Schema.NullOr(endpoint.schema))
  return (fields: string, ids: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<A | null>, S2Error> =>
    execute(Req.post("graph", endpoint.path, [["fields", fields]], { ids }), answer).pipe(lengthCheck(endpoint, ids))
}

/** The answer of a batch call for lookups: JSON entries, each decoded by its own caller. */
const entries = Schema.Array(Schema.Unknown)

/**
 * The entries of one batch call for lookups, as JSON. The call skips the response cache: its
 * lookups are stored one by one (see {@link loader}).
 */
const askRaw = (endpoint: BatchEndpoint<unknown, unknown>, execute: Transport["execute"]) =>
(
  fields: string,
  ids: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<unknown>, S2Error> =>
  execute({ ...Req.post("graph", endpoint.path, [["fields", fields]], { ids }), cache: false }, entries).pipe(
    lengthCheck(endpoint, ids)
  )

/**
 * One lookup: a validated id, the rendered `fields` value, and its key and request in the response
 * cache (those of the lookup's own `GET` request, which its entry is checked against on read;
 * empty without a cache). Its answer is the JSON entry, stored as is once it has decoded, so a
 * cached answer is decoded exactly like a fresh one. (The persisted name stays "Lookup": stored
 * entries keep their keys.)
 */
export class LookupRequest extends Persistable.Class<{
  payload: { readonly id: string; readonly fields: string; readonly key: string; readonly request: string }
  requestError: S2Error
}>()("Lookup", {
  primaryKey: (lookup) => lookup.key,
  success: Schema.Unknown,
  error: ObjectNotFound
}) {}

/** The calls one batch of requests needs: per field selection, chunks of distinct ids. */
const calls = (entries: ReadonlyArray<Request.Entry<LookupRequest>>, size: number) => {
  const byFields = new Map<string, Map<string, Array<Request.Entry<LookupRequest>>>>()
  for (const entry of entries) {
    const { fields, id } = entry.request
    let byId = byFields.get(fields)
    if (byId === undefined) byFields.set(fields, byId = new Map())
    const waiting = byId.get(id)
    if (waiting === undefined) byId.set(id, [entry])
    else waiting.push(entry)
  }
  return [...byFields].flatMap(([fields, byId]) => {
    const ids = [...byId.keys()]
    return Array.from({ length: Math.ceil(ids.length / size) }, (_, i) => ({
      fields,
      ids: ids.slice(i * size, i * size + size),
      byId
    }))
  })
}

/**
 * A listener that hands each wait to the listener of every lookup in `batch`, each listener once:
 * a batch call's retries and waits are those of every caller it answers, not only of the one whose
 * fiber it runs in.
 */
const listenersOf = (batch: ReadonlyArray<Request.Entry<LookupRequest>>): Listener => {
  const listeners = new Set(batch.map((entry) => Context.get(entry.context, Waits.Listener)))
  return (wait) => Effect.forEach(listeners, (listener) => listener(wait), { discard: true })
}

/**
 * Answers lookups with batch calls: each caller gets what `decode` makes of its entry, or
 * `ObjectNotFound` for a `null`, or the `DecodeError` of an entry that is not a record. Entries are
 * decoded before any caller gets them, so the response cache keeps only entries that decoded.
 */
export const resolver = (
  endpoint: BatchEndpoint<unknown, unknown>,
  execute: Transport["execute"],
  decode: (json: unknown) => Effect.Effect<unknown, S2Error>
): RequestResolver.RequestResolver<LookupRequest> => {
  const call = askRaw(endpoint, execute)
  const notFound = (id: string) =>
    Exit.fail(
      new ObjectNotFound({
        subject: `${endpoint.noun} ${id}`,
        problem: "not found (null in the answer)",
        request: `POST ${endpoint.path}`,
        method: "POST",
        url: endpoint.path
      })
    )
  return RequestResolver.make<LookupRequest>((batch) =>
    Effect.forEach(
      calls(batch, endpoint.size),
      ({ byId, fields, ids }) =>
        call(fields, ids).pipe(
          Effect.matchCauseEffect({
            onFailure: (cause) =>
              Effect.sync(() => {
                for (const id of ids) {
                  for (const entry of byId.get(id) ?? []) entry.completeUnsafe(Exit.failCause(cause))
                }
              }),
            onSuccess: (answer) =>
              Effect.flatMap(
                Effect.forEach(ids, (id, i) => {
                  const entry = answer[i] ?? null
                  return entry === null ? Effect.succeed(notFound(id)) : Effect.exit(decode(entry))
                }),
                // Every entry of the call completed in one pass, as its decoding is done.
                (exits) =>
                  Effect.sync(() =>
                    ids.forEach((id, i) => {
                      for (const waiting of byId.get(id) ?? []) waiting.completeUnsafe(exits[i]!)
                    })
                  )
              )
          })
        ),
      // The limiter paces the calls; a batch with several field selections sends them together.
      // A batch runs with the context of the lookup that opened it: the layer's time-out and
      // retry apply to it, not that one caller's overrides; its waits go to every caller's listener.
      { concurrency: "unbounded", discard: true }
    ).pipe(
      Effect.provideService(TransportModule.CurrentOverrides, {}),
      Effect.provideService(Waits.Listener, listenersOf(batch))
    )
  )
}

/** The batching settings of a layer, resolved. */
export interface Settings {
  /** Whether lookups batch when no scope says otherwise. */
  readonly enabled: boolean
  readonly window: Duration.Duration
  readonly maxSize: number
}

/** The response cache as the batching window uses it. */
export interface Cache {
  /** A store that never fails: trouble is logged and read as a miss. */
  readonly persistence: Persistence.Persistence["Service"]
  readonly storeId: string
  readonly timeToLive: (exit: Exit.Exit<unknown, unknown>) => Duration.Duration
  /** The key and request text of a request, as the response cache makes them for every other request. */
  readonly keyOf: (request: Req.S2Request) => Effect.Effect<{ readonly key: string; readonly request: string }>
}

/**
 * A lookup through the batching window: the record of an id, with the rendered `fields`, and the
 * request the lookup stands for unbatched (the response cache keys its answer by that request).
 */
export type Loader<A> = (id: string, fields: string, request: Req.S2Request) => Effect.Effect<A, S2Error>

/**
 * The batching window of a batch endpoint: lookups from any fiber wait up to `window` (or until
 * `maxSize` are waiting) and go out together. The store of a cache is opened in the scope.
 */
export const loader = <A, I>(
  endpoint: BatchEndpoint<A, I> & { readonly route: string },
  transport: Pick<Transport, "execute" | "decode">,
  settings: Settings,
  cache: Cache | undefined
): Effect.Effect<Loader<A>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const target = { method: "POST", url: endpoint.path }
    const decode = (json: unknown) => transport.decode(endpoint.schema, json, target)
    // The resolver decodes each entry. Without a cache its callers get the record; with one, the
    // store keeps the JSON of an entry that decoded, and each caller decodes it (see `answer`).
    const decodeEntry = cache === undefined
      ? decode
      : (json: unknown) => Effect.as(decode(json), json)
    const batches = resolver(endpoint as BatchEndpoint<unknown, unknown>, transport.execute, decodeEntry).pipe(
      RequestResolver.withSpan(`SemanticScholar.${endpoint.name}`, {
        attributes: { "s2.endpoint": endpoint.route },
        kind: "client"
      }),
      RequestResolver.setDelay(settings.window),
      RequestResolver.batchN(Math.min(settings.maxSize, endpoint.size))
    )
    // The store is read and written here, around the batch, not by `RequestResolver.persisted`:
    // that one completes a batch's lookups first and writes their answers afterwards, in the
    // batch's own fiber, which nobody waits for, so a program that ends once its lookups have
    // answered (a CLI) would lose them (packages/bench/NOTES.md, for Effect upstream). Here a
    // lookup returns once its answer is stored.
    const store = cache === undefined
      ? undefined
      : yield* cache.persistence.make({ storeId: cache.storeId, timeToLive: cache.timeToLive })
    const fetched = (lookup: LookupRequest) => Effect.request(lookup, batches)
    const answer = (lookup: LookupRequest, retried: boolean): Effect.Effect<A, S2Error> =>
      store === undefined
        ? Effect.map(fetched(lookup), (record) => record as A)
        : Effect.gen(function*() {
          // The store is guarded (see `cache.ts`): its trouble is a logged miss, never an error here.
          const found = yield* Effect.orDie(store.get(lookup))
          const exit = found ?? (yield* Effect.exit(fetched(lookup)))
          // Kept only when it may be reused: a record that decoded, or `ObjectNotFound`.
          if (found === undefined) yield* Effect.orDie(store.set(lookup, exit as Exit.Exit<unknown, ObjectNotFound>))
          const json = yield* (exit as Exit.Exit<unknown, S2Error>)
          // JSON, from the store or a batch call: decoded here, with the key hidden as in any
          // answer the transport decodes. A stored entry that does not decode is a logged miss.
          return yield* decodeStored(lookup.request, decode(json), {
            retried,
            drop: store.remove(lookup),
            again: Effect.suspend(() =>
              answer(
                new LookupRequest({ id: lookup.id, fields: lookup.fields, key: lookup.key, request: lookup.request }),
                true
              )
            )
          })
        })
    return (id, fields, request) =>
      Effect.flatMap(
        cache === undefined ? Effect.succeed({ key: "", request: "" }) : cache.keyOf(request),
        ({ key, request }) => answer(new LookupRequest({ id, fields, key, request }), false)
      )
  })

/** Batching switched on or off for a scope of work (`withBatching`); unset follows the layer. */
export const BatchingOverride = Context.Reference<{ readonly enabled?: boolean }>(
  "@s2-effect/core/BatchingOverride",
  { defaultValue: () => ({}) }
)
