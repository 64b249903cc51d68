/**
 * Automatic batching of single lookups. A `getPaper` / `getAuthor` becomes a `Request`; the
 * resolver answers every request collected in one batching window with `POST /…/batch` calls, one
 * per field selection (and per 500 / 1000 ids), each id asked once. `@effect/experimental`'s
 * `dataLoader` does the collecting across fibers; this module only knows the wire.
 */
import * as DataLoader from "@effect/experimental/RequestResolver"
import type * as Arr from "effect/Array"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Request from "effect/Request"
import * as RequestResolver from "effect/RequestResolver"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type { S2Error } from "../S2Error.js"
import { DecodeError, ObjectNotFound } from "../S2Error.js"
import * as Req from "./request.js"
import type { Transport } from "./transport.js"

/** A batch endpoint: where it is, how many ids a call takes, and what each position decodes to. */
export interface BatchEndpoint<A, I> {
  readonly path: string
  readonly size: number
  readonly schema: Schema.Schema<A, I>
  readonly noun: string
}

/**
 * One call of a batch endpoint: the entries in the order of `ids`, `null` where unknown. Positions
 * are how unknown ids are told apart, so an answer of another length is unusable.
 */
export const ask = <A, I>(endpoint: BatchEndpoint<A, I>, execute: Transport["execute"]) => {
  const answer = Schema.Array(Schema.NullOr(endpoint.schema))
  return (fields: string, ids: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<A | null>, S2Error> =>
    execute(Req.post("graph", endpoint.path, [["fields", fields]], { ids }), answer).pipe(
      Effect.filterOrFail(
        (entries) => entries.length === ids.length,
        (entries) =>
          new DecodeError({
            message: `${endpoint.path} answered ${entries.length} entries for ${ids.length} ids`,
            excerpt: `${entries.length} entries`,
            method: "POST",
            url: endpoint.path
          })
      )
    )
}

/** One lookup: a validated id and the rendered `fields` value. */
export interface Lookup<A> extends Request.Request<A, S2Error> {
  readonly _tag: "Lookup"
  readonly id: string
  readonly fields: string
}

const makeLookup = Request.tagged<Lookup<unknown>>("Lookup")

export const Lookup = <A>(id: string, fields: string): Lookup<A> => makeLookup({ id, fields }) as Lookup<A>

/** The calls one batch of requests needs: per field selection, chunks of distinct ids. */
const calls = <A>(requests: ReadonlyArray<Lookup<A>>, size: number) => {
  const byFields = new Map<string, Map<string, Array<Lookup<A>>>>()
  for (const request of requests) {
    let byId = byFields.get(request.fields)
    if (byId === undefined) byFields.set(request.fields, byId = new Map())
    const waiting = byId.get(request.id)
    if (waiting === undefined) byId.set(request.id, [request])
    else waiting.push(request)
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

/** Answers lookups with batch calls: each caller gets its record, or `ObjectNotFound` for a `null`. */
export const resolver = <A, I>(
  endpoint: BatchEndpoint<A, I>,
  execute: Transport["execute"]
): RequestResolver.RequestResolver<Lookup<A>> => {
  const call = ask(endpoint, execute)
  return RequestResolver.makeBatched((requests: Arr.NonEmptyArray<Lookup<A>>) =>
    Effect.forEach(
      calls(requests, endpoint.size),
      ({ byId, fields, ids }) =>
        call(fields, ids).pipe(
          Effect.matchCauseEffect({
            onFailure: (cause) =>
              Effect.forEach(ids.flatMap((id) => byId.get(id) ?? []), (r) => Request.failCause(r, cause), {
                discard: true
              }),
            onSuccess: (entries) =>
              Effect.forEach(ids, (id, i) => {
                const entry = entries[i] ?? null
                const complete = entry === null
                  ? (r: Lookup<A>) =>
                    Request.fail(
                      r,
                      new ObjectNotFound({
                        message: `${endpoint.noun} ${id} not found (null in the answer of POST ${endpoint.path})`,
                        method: "POST",
                        url: endpoint.path
                      })
                    )
                  : (r: Lookup<A>) => Request.succeed(r, entry)
                return Effect.forEach(byId.get(id) ?? [], complete, { discard: true })
              }, { discard: true })
          })
        ),
      // The limiter paces the calls; a batch with several field selections sends them together.
      { concurrency: "unbounded", discard: true }
    )
  )
}

/** The resolver behind a batching window. */
export type Loader<A> = RequestResolver.RequestResolver<Lookup<A>>

/** The batching settings of a layer, resolved. */
export interface Settings {
  /** Whether lookups batch when no scope says otherwise. */
  readonly enabled: boolean
  readonly window: Duration.Duration
  readonly maxSize: number
}

/**
 * The resolver behind a batching window: requests from any fiber wait up to `window` (or until
 * `maxSize` are waiting) and go out together. Lives in the layer's scope.
 */
export const loader = <A, I>(
  endpoint: BatchEndpoint<A, I>,
  execute: Transport["execute"],
  settings: Settings
): Effect.Effect<RequestResolver.RequestResolver<Lookup<A>>, never, Scope.Scope> =>
  DataLoader.dataLoader(resolver(endpoint, execute), {
    window: settings.window,
    maxBatchSize: Math.min(settings.maxSize, endpoint.size)
  })

/** Batching switched on or off for a scope of work (`withBatching`); unset follows the layer. */
export class BatchingOverride extends Context.Reference<BatchingOverride>()("@s2-effect/core/BatchingOverride", {
  defaultValue: (): { readonly enabled?: boolean } => ({})
}) {}
