/**
 * Turns "fetch the page at this offset / token" into pull-based streams of pages and of records.
 * A page is fetched only when the consumer pulls past the previous one (plus `prefetch` pages
 * ahead when asked); each page is one transport call, so a failed page is retried on its own and
 * the stream resumes from it.
 */
import { Chunk, Effect, Option, Stream } from "effect"
import type { OffsetPage, TokenPage } from "../Page.js"
import type { S2Error } from "../S2Error.js"

export interface OffsetPaging {
  /** Offset of the first page. */
  readonly offset: number
  /** Page size asked of the server. */
  readonly limit: number
  /** The server's ceiling: `offset + limit` may not exceed it. */
  readonly ceiling: number
  /** What the stream is, for the debug line that says the ceiling was reached. */
  readonly label: string
  readonly prefetch: number
}

const ahead = <A, E>(stream: Stream.Stream<A, E>, prefetch: number) =>
  prefetch > 0 ? Stream.buffer(stream, { capacity: prefetch }) : stream

export const offsetPages = <P extends Pick<OffsetPage<unknown>, "next">>(
  fetch: (offset: number, limit: number) => Effect.Effect<P, S2Error>,
  paging: OffsetPaging
): Stream.Stream<P, S2Error> =>
  ahead(
    Stream.paginateEffect(paging.offset, (offset) =>
      fetch(offset, Math.min(paging.limit, paging.ceiling - offset)).pipe(
        Effect.flatMap((page) => {
          if (page.next === undefined) return Effect.succeed([page, Option.none()] as const)
          if (page.next >= paging.ceiling) {
            return Effect.as(
              Effect.logDebug(
                `S2 ${paging.label}: stopped at the server's ceiling of ${paging.ceiling} results (the server has more)`
              ),
              [page, Option.none()] as const
            )
          }
          return Effect.succeed([page, Option.some(page.next)] as const)
        })
      )),
    paging.prefetch
  )

export const tokenPages = <A>(
  fetch: (token: string | undefined) => Effect.Effect<TokenPage<A>, S2Error>,
  start: string | undefined,
  prefetch: number
): Stream.Stream<TokenPage<A>, S2Error> =>
  ahead(
    Stream.paginateEffect(start, (token) =>
      Effect.map(fetch(token), (page) => [page, Option.fromNullable(page.token)] as const)),
    prefetch
  )

/** The records of a stream of pages, chunk by page, without copying. */
export const records = <A, E>(pages: Stream.Stream<{ readonly data: ReadonlyArray<A> }, E>): Stream.Stream<A, E> =>
  Stream.mapConcatChunk(pages, (page) => Chunk.unsafeFromArray(page.data))
