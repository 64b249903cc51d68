/**
 * Turns "fetch the page at this offset / token" into pull-based streams of pages and of records.
 * A page is fetched only when the consumer pulls past the previous one (plus `prefetch` pages
 * ahead when asked); each page is one transport call, so a failed page is retried on its own and
 * the stream resumes from it.
 */
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { OffsetPage, TokenPage } from "../Page.js"
import type { S2Error } from "../S2Error.js"
import { ProtocolError } from "../S2Error.js"
import * as Metrics from "./metrics.js"

export interface OffsetPaging {
  /** Offset of the first page. */
  readonly offset: number
  /** Page size asked of the server. */
  readonly limit: number
  /** The server's ceiling: `offset + limit` may not exceed it. */
  readonly ceiling: number
  /** What the stream is, for the debug line that says the ceiling was reached. */
  readonly label: string
  /** The endpoint, e.g. `GET /graph/v1/paper/CorpusId:1/citations`, for protocol errors. */
  readonly endpoint: string
  readonly prefetch: number
}

/** `prefetch` pages fetched ahead of the consumer. */
const ahead = <A, E>(stream: Stream.Stream<A, E>, prefetch: number): Stream.Stream<A, E> =>
  prefetch > 0 ? Stream.buffer(stream, { capacity: prefetch }) : stream

/**
 * `Stream.paginate` with one page an element: `step` gives the page and the next state, if any.
 * The stream ends after a page without a next state.
 */
const pages = <S, P, E>(
  start: S,
  step: (state: S) => Effect.Effect<readonly [P, Option.Option<S>], E>
): Stream.Stream<P, E> =>
  Stream.paginate(start, (state) => Effect.map(step(state), ([page, next]) => [[page], next] as const))

const done = <P>(page: P) => Effect.succeed([page, Option.none()] as const)

/**
 * The page is delivered (its records are sound) and the stream then fails, without another
 * request: the error takes the place of the next cursor.
 */
const brokenCursor = <P>(page: P, label: string, endpoint: string, cursor: string, why: string) =>
  Effect.succeed(
    [
      page,
      Option.some(
        new ProtocolError({
          message: `S2 ${label} (${endpoint}): the server's cursor ${cursor} ${why}; ` +
            "the stream stops here rather than repeat or skip records",
          endpoint,
          cursor,
          reason: "cursor"
        })
      )
    ] as const
  )

/** An empty page that still has a cursor: the end, whatever the cursor says (else it may never come). */
const emptyWithCursor = <P>(page: P, label: string, cursor: string) =>
  Effect.as(
    Effect.logDebug(`S2 ${label}: an empty page with cursor ${cursor} ends the stream`),
    [page, Option.none()] as const
  )

/** Fetches with the cursor, or fails with the error a previous page left in its place. */
const follow = <C, A>(
  cursor: C | ProtocolError,
  fetch: (cursor: C) => Effect.Effect<A, S2Error>
): Effect.Effect<A, S2Error> => cursor instanceof ProtocolError ? Effect.fail(cursor) : fetch(cursor)

/**
 * Offset pages. A broken server cannot make the stream endless: `next` must lie past the page just
 * asked for and within the ceiling, or the stream fails with a {@link ProtocolError}.
 */
export const offsetPages = <P extends Pick<OffsetPage<unknown>, "next" | "data">>(
  fetch: (offset: number, limit: number) => Effect.Effect<P, S2Error>,
  paging: OffsetPaging
): Stream.Stream<P, S2Error> =>
  ahead(
    pages(paging.offset as number | ProtocolError, (state) =>
      follow(state, (offset: number) =>
        Effect.map(fetch(offset, Math.min(paging.limit, paging.ceiling - offset)), (page) =>
          [page, offset] as const)).pipe(
          Effect.flatMap(([page, offset]): Effect.Effect<readonly [P, Option.Option<number | ProtocolError>]> => {
            const next = page.next
            if (next === undefined) {
              return done(page)
            }
            const cursor = `next=${next}`
            if (page.data.length === 0) {
              return emptyWithCursor(page, paging.label, cursor)
            }
            if (!Number.isSafeInteger(next) || next <= offset) {
              return brokenCursor(page, paging.label, paging.endpoint, cursor, `does not advance past offset ${offset}`)
            }
            if (next > paging.ceiling) {
              return brokenCursor(
                page,
                paging.label,
                paging.endpoint,
                cursor,
                `lies beyond the API's window of ${paging.ceiling} results`
              )
            }
            if (next === paging.ceiling) {
              return Effect.as(
                Effect.logDebug(
                  `S2 ${paging.label}: stopped at the server's ceiling of ${paging.ceiling} results (the server has more)`
                ),
                [page, Option.none()] as const
              )
            }
            return Effect.succeed([page, Option.some(next)] as const)
          })
        )),
    paging.prefetch
  )

/** How many of the latest bulk tokens a new one is checked against. */
const recentTokens = 8

/**
 * Token pages. A token equal to one of the last few (the one just sent included) would replay
 * pages forever, so it fails the stream with a {@link ProtocolError}.
 */
export const tokenPages = <A>(
  fetch: (token: string | undefined) => Effect.Effect<TokenPage<A>, S2Error>,
  start: string | undefined,
  prefetch: number,
  endpoint: string
): Stream.Stream<TokenPage<A>, S2Error> =>
  ahead(
    pages(
      { token: start, recent: start === undefined ? [] : [start] } as Cursor | ProtocolError,
      (state) =>
        Effect.flatMap(
          follow(state, ({ recent, token }: Cursor) => Effect.map(fetch(token), (page) => [page, recent] as const)),
          ([page, recent]): Effect.Effect<readonly [TokenPage<A>, Option.Option<Cursor | ProtocolError>]> => {
            const next = page.token
            if (next === undefined || next === null) return done(page)
            const cursor = `token=${excerpt(next)}`
            if (page.data.length === 0) return emptyWithCursor(page, "bulk search", cursor)
            if (recent.includes(next)) {
              return brokenCursor(page, "bulk search", endpoint, cursor, "repeats one already followed")
            }
            return Effect.succeed([page, Option.some({ token: next, recent: [...recent, next].slice(-recentTokens) })])
          }
        )
    ),
    prefetch
  )

interface Cursor {
  readonly token: string | undefined
  readonly recent: ReadonlyArray<string>
}

/** Tokens are opaque and may be long: enough to recognise one in a message. */
const excerpt = (token: string) => token.length <= 40 ? token : `${token.slice(0, 40)}…`

/**
 * The records of a stream of pages, a page's `data` array the stream's chunk (not copied); an empty
 * page emits nothing. Counted in `recordsStreamed`.
 */
export const records = <A, E>(pages: Stream.Stream<{ readonly data: ReadonlyArray<A> }, E>): Stream.Stream<A, E> =>
  pages.pipe(
    Stream.map((page) => {
      Metrics.countRecords(page.data.length)
      return page.data
    }),
    Stream.filter(Arr.isReadonlyArrayNonEmpty),
    Stream.flattenArray
  )
