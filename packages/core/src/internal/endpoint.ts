/**
 * Endpoints as data, and the few ways of calling one: a descriptor says where an endpoint is, what
 * it answers, its field set with defaults, its page-size limits and result ceiling, and whether it
 * needs a key; the runners below turn a descriptor and validated input into a described request,
 * hand it to the transport inside the operation's span, and page through lists.
 */
import * as Effect from "effect/Effect"
import * as Function from "effect/Function"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Fields from "../Fields.js"
import type * as Filters from "../Filters.js"
import type { PageOptions } from "../Options.js"
import type { OffsetPage, TokenPage } from "../Page.js"
import * as PaperId from "../PaperId.js"
import type { S2Error } from "../S2Error.js"
import { Forbidden } from "../S2Error.js"
import * as Box from "./box.js"
import * as pagination from "./pagination.js"
import * as Req from "./request.js"
import type { Transport } from "./transport.js"
import * as Validate from "./validate.js"

/** What every endpoint is. */
export interface Endpoint {
  /** The operation: its span is `SemanticScholar.<name>`. */
  readonly name: string
  readonly api: Req.Api
  readonly method: "GET" | "POST"
  /** Below the API prefix, with `{id}` where an id goes: what spans show (an id is the caller's business). */
  readonly path: string
  /** The field set: the names known, and what is sent when `fields` is omitted. */
  readonly fields?: Fields.FieldSet | undefined
  /** Answered only with an API key (datasets links and diffs): refused before sending without one. */
  readonly needsKey?: boolean | undefined
}

/** An offset-paginated list: its page schema, page-size limit and the API's result ceiling. */
export interface ListEndpoint<P, I> extends Endpoint {
  readonly page: Schema.Codec<P, I>
  readonly maxLimit: number
  readonly ceiling: number
  /** What the stream is, for debug lines ("citations"). */
  readonly label: string
}

/** A token-paginated list (bulk search). */
export interface TokenEndpoint<P, I> extends Endpoint {
  readonly page: Schema.Codec<P, I>
  readonly label: string
}

/** What the operations share: the transport (and through its config, whether the layer has a key). */
export interface Context {
  readonly transport: Transport
}

/** `GET /graph/v1/paper/{id}/citations`: the route, as spans and protocol errors name it. */
export const route = (endpoint: Endpoint): string => `${endpoint.method} ${Req.prefixes[endpoint.api]}${endpoint.path}`

/**
 * How an id is written in a path: a paper id with its slashes (a DOI's `/` stays a segment
 * separator, as the API expects: see `PaperId.toPath`), an author id as one segment.
 */
const written = { paper: PaperId.toPath, author: encodeURIComponent } as const

/**
 * The path with the (validated) id in place. Spliced, never `String.replace` with the id as the
 * replacement: `$'` in an id is a pattern there, and `..$'/..$'/datasets/…` asked another API.
 */
export const place = (endpoint: Endpoint, id: string, subject: keyof typeof written): string => {
  const at = endpoint.path.indexOf("{id}")
  return `${endpoint.path.slice(0, at)}${written[subject](id)}${endpoint.path.slice(at + "{id}".length)}`
}

const spanOptions = (endpoint: Endpoint) => ({
  attributes: { "s2.endpoint": route(endpoint) },
  kind: "client" as const
})

/** An operation as an `Effect.fn`: it runs in its span, `SemanticScholar.<name>`, with the route. */
export const fn = (endpoint: Endpoint) => Effect.fn(`SemanticScholar.${endpoint.name}`, spanOptions(endpoint))

/**
 * Runs a page of a stream in the operation's span, with the route and the page's own attributes.
 * The span ends on a box, emptied once the page is out ({@link Box}): a tracer is handed the span's
 * exit (`Span.end` is passed it) and may keep it, and with the page in that exit a recording
 * tracer would keep every page of a bulk harvest (Observability.test.ts).
 */
export const traced = <A, E, R>(
  endpoint: Endpoint,
  self: Effect.Effect<A, E, R>,
  attributes: Record<string, unknown> = {}
): Effect.Effect<A, E, R> => {
  const base = spanOptions(endpoint)
  const options = { ...base, attributes: { ...base.attributes, ...attributes } }
  return Effect.map(Effect.withSpan(Effect.map(self, Box.box), `SemanticScholar.${endpoint.name}`, options), Box.unbox)
}

/** Download links and diffs are only served with a key; say so before sending, not after a 403. */
export const requireKey = (context: Context, endpoint: Endpoint): Effect.Effect<void, Forbidden> =>
  endpoint.needsKey !== true || Option.isSome(context.transport.config.apiKey) ? Effect.void : Effect.fail(
    new Forbidden({
      subject: endpoint.name,
      problem: "needs an API key",
      advice:
        "set S2_API_KEY (or pass apiKey to the layer); keys are free at https://www.semanticscholar.org/product/api"
    })
  )

/** The `fields` parameter of an endpoint: the caller's selection checked, or the set's defaults. */
export const fieldsParam = (
  endpoint: Endpoint,
  fields: ReadonlyArray<string | Fields.Unchecked> | Fields.Selection | undefined
): Effect.Effect<Filters.QueryParam, S2Error> =>
  endpoint.fields === undefined
    ? Effect.die(new Error(`${endpoint.name} has no field set`))
    : Effect.map(Fields.render(endpoint.fields, fields), (value): Filters.QueryParam => ["fields", value])

/** One call: the request described, refused without a key where one is needed, else sent. */
export const call = <A, I>(
  context: Context,
  endpoint: Endpoint,
  request: Req.S2Request,
  schema: Schema.Codec<A, I>
): Effect.Effect<A, S2Error> =>
  Effect.andThen(requireKey(context, endpoint), context.transport.execute(request, schema))

/** Page size, start and look-ahead of a list, checked against the endpoint's limits. */
export const paging = <P, I>(endpoint: ListEndpoint<P, I>, options: PageOptions) =>
  Effect.gen(function*() {
    const limit = yield* Validate.inputEffect(
      Validate.limit(options.limit ?? Math.min(100, endpoint.maxLimit), endpoint.maxLimit)
    )
    const offset = options.offset ?? 0
    if (!Number.isSafeInteger(offset) || offset < 0 || offset >= endpoint.ceiling) {
      return yield* Validate.inputEffect(Validate.refuse(
        "offset",
        `offset ${offset} is out of range: give a whole number from 0 to ${endpoint.ceiling - 1}`
      ))
    }
    const prefetch = yield* prefetchOf(options.prefetch)
    return { limit, offset, prefetch }
  })

/** Pages fetched ahead of the consumer: a whole number ≥ 0. */
export const prefetchOf = (prefetch = 0) => Validate.inputEffect(Validate.wholeNumber("prefetch", prefetch, { min: 0 }))

/**
 * An offset list: validated once when the stream starts, then one call per page, each in the
 * operation's span with its page number.
 */
export const offsetList = <A, P extends OffsetPage<A>, I>(
  context: Context,
  endpoint: ListEndpoint<P, I>,
  request: Effect.Effect<{ readonly path: string; readonly query: ReadonlyArray<Filters.QueryParam> }, S2Error>,
  options: PageOptions
): Stream.Stream<P, S2Error> =>
  Stream.unwrap(Effect.gen(function*() {
    const { path, query } = yield* request
    const settings = yield* paging(endpoint, options)
    let page = 0
    return pagination.offsetPages(
      (offset, limit) =>
        traced(
          endpoint,
          context.transport.execute(
            Req.get(endpoint.api, path, [...query, ["offset", String(offset)], ["limit", String(limit)]]),
            endpoint.page
          ),
          { "s2.page": ++page, "s2.offset": offset }
        ),
      // Protocol errors name the list asked for, id included: it is the caller's own.
      { ...settings, ceiling: endpoint.ceiling, label: endpoint.label, endpoint: route({ ...endpoint, path }) }
    )
  }))

/**
 * A token list: one call per page, from `token` when resuming; with `wire`, its records are the
 * answer's checked objects.
 */
export const tokenList = <A, I>(
  context: Context,
  endpoint: TokenEndpoint<TokenPage<A>, I>,
  request: Effect.Effect<ReadonlyArray<Filters.QueryParam>, S2Error>,
  options: {
    readonly token?: string | undefined
    readonly prefetch?: number | undefined
    readonly wire?: boolean | undefined
  }
): Stream.Stream<TokenPage<A>, S2Error> =>
  Stream.unwrap(Effect.gen(function*() {
    const query = yield* request
    const prefetch = yield* prefetchOf(options.prefetch)
    const records = options.wire === true ? "wire" : "class"
    let page = 0
    return pagination.tokenPages(
      (token) =>
        traced(
          endpoint,
          context.transport.execute(
            Req.get(endpoint.api, endpoint.path, token === undefined ? query : [...query, ["token", token]]),
            endpoint.page,
            records
          ),
          { "s2.page": ++page }
        ),
      options.token,
      prefetch,
      route(endpoint)
    )
  }))

type PageFunctions = Record<
  string,
  (...args: never) => Stream.Stream<{ readonly data: ReadonlyArray<unknown> }, unknown>
>

/** `getPaperCitations` from `getPaperCitationsPages`, and so on: every record stream from its pages. */
export type RecordsOf<T extends PageFunctions> = {
  readonly [K in keyof T as K extends `${infer Name}Pages` ? Name : never]: T[K] extends
    (...args: infer Args) => Stream.Stream<{ readonly data: ReadonlyArray<infer A> }, infer E> ?
    (...args: Args) => Stream.Stream<A, E>
    : never
}

/** The one place where `X` is derived from `XPages`. */
export const recordsOf = <T extends PageFunctions>(pages: T): RecordsOf<T> =>
  Object.fromEntries(
    Object.entries(pages).map((
      [name, pagesOf]
    ) => [name.slice(0, -"Pages".length), Function.flow(pagesOf, pagination.records)])
  ) as RecordsOf<T>
