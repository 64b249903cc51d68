/**
 * Turns "fetch the page at this offset / token" into pull-based streams of pages and of records.
 * A page is fetched only when the consumer pulls past the previous one (plus `prefetch` pages
 * ahead when asked); each page is one transport call, so a failed page is retried on its own and
 * the stream resumes from it.
 */
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
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

/**
 * `Stream.paginate` with one page an element: `step` gives the page and the next state, if any.
 * The stream ends after a page without a next state. With `prefetch` of 1 or more, the next page's
 * request goes out as soon as this page's cursor is known, before this page goes downstream: the
 * server answers while the consumer works, instead of after it. More than 1 buffers the pages
 * fetched so far, `prefetch` in all.
 */
const pages = <S, P, E>(
  start: S,
  step: (state: S) => Effect.Effect<readonly [P, Option.Option<S>], E>,
  prefetch: number
): Stream.Stream<P, E> => {
  if (prefetch === 0) {
    return Stream.paginate(start, (state) => Effect.map(step(state), ([page, next]) => [[page], next] as const))
  }
  const fetched = lookAhead(start, step)
  return prefetch === 1 ? fetched : Stream.buffer(fetched, { capacity: prefetch - 1 })
}

/**
 * Each page's fetch forked in the stream's scope the moment its state is known, so an early end of
 * the stream interrupts the request in flight. Started at once, so the request is on its way when
 * the fork returns; the yield lets Node write it to the socket before this page goes downstream.
 */
const lookAhead = <S, P, E>(
  start: S,
  step: (state: S) => Effect.Effect<readonly [P, Option.Option<S>], E>
): Stream.Stream<P, E> =>
  Stream.unwrap(Effect.gen(function*() {
    const scope = yield* Effect.scope
    const fetch = (state: S) =>
      Effect.tap(Effect.forkIn(step(state), scope, { startImmediately: true }), () => Effect.yieldNow)
    return Stream.paginate(yield* fetch(start), (fiber) =>
      Effect.flatMap(Fiber.join(fiber), ([page, next]) =>
        Option.isNone(next)
          ? Effect.succeed([[page], Option.none()] as const)
          : Effect.map(fetch(next.value), (ahead) =>
            [[page], Option.some(ahead)] as const)))
  }))

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
          subject: `the server's cursor ${cursor}`,
          problem: why,
          request: `S2 ${label}, ${endpoint}`,
          advice: "the stream stops here rather than repeat or skip records",
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

/**
 * A `next` past the list's own `total`: the end, whatever the cursor says. A server walking past
 * its total would otherwise be followed to the API's window, 9,999 records of nothing it counted.
 */
const beyondTotal = <P>(page: P, label: string, cursor: string, total: number) =>
  Effect.as(
    Effect.logWarning(
      `S2 ${label}: the server's cursor ${cursor} lies beyond its total of ${total}; the list ends here`
    ),
    [page, Option.none()] as const
  )

/** Fetches with the cursor, or fails with the error a previous page left in its place. */
const follow = <C, A>(
  cursor: C | ProtocolError,
  fetch: (cursor: C) => Effect.Effect<A, S2Error>
): Effect.Effect<A, S2Error> => cursor instanceof ProtocolError ? Effect.fail(cursor) : fetch(cursor)

/**
 * Offset pages. A broken server cannot make the stream endless: `next` must lie past the page just
 * asked for and within the ceiling, or the stream fails with a {@link ProtocolError}; a `next` past
 * the page's own `total` ends the list.
 */
export const offsetPages = <P extends Pick<OffsetPage<unknown>, "next" | "data" | "total">>(
  fetch: (offset: number, limit: number) => Effect.Effect<P, S2Error>,
  paging: OffsetPaging
): Stream.Stream<P, S2Error> =>
  pages(
    paging.offset as number | ProtocolError,
    (state) =>
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
            if (page.total !== undefined && page.total >= 0 && next > page.total) {
              return beyondTotal(page, paging.label, cursor, page.total)
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
        ),
    paging.prefetch
  )

/** How many of the latest bulk tokens a new one is checked against. */
const recentTokens = 8

/**
 * Token pages. A token equal to one of the last few (the one just sent included) would replay
 * pages forever, so it fails the stream with a {@link ProtocolError}; so does a server that does
 * not advance whatever its tokens say (see {@link stallGuard}).
 */
export const tokenPages = <A>(
  fetch: (token: string | undefined) => Effect.Effect<TokenPage<A>, S2Error>,
  start: string | undefined,
  prefetch: number,
  endpoint: string
): Stream.Stream<TokenPage<A>, S2Error> =>
  Stream.suspend(() => {
    // Per run of the stream: a stream value run twice starts from nothing each time.
    const stalled = stallGuard(endpoint)
    return pages(
      { token: start, recent: start === undefined ? [] : [start] } as Cursor | ProtocolError,
      (state) =>
        Effect.flatMap(
          follow(state, ({ recent, token }: Cursor) => Effect.map(fetch(token), (page) => [page, recent] as const)),
          ([page, recent]): Effect.Effect<
            readonly [TokenPage<A>, Option.Option<Cursor | ProtocolError>],
            ProtocolError
          > => {
            const stall = stalled(page)
            if (stall !== undefined) return Effect.fail(stall)
            const next = page.token
            if (next === undefined || next === null) return done(page)
            const cursor = `token=${excerpt(next)}`
            if (page.data.length === 0) return emptyWithCursor(page, "bulk search", cursor)
            if (recent.includes(next)) {
              return brokenCursor(page, "bulk search", endpoint, cursor, "repeats one already followed")
            }
            return Effect.succeed([
              page,
              Option.some({ token: next, recent: [...recent, next].slice(-recentTokens) })
            ])
          }
        ),
      prefetch
    )
  })

/**
 * How many pages' fingerprints a bulk stream keeps: 32 KB or so, whatever the harvest's length. A
 * page repeating one older than that is not recognised, but the bound on records still ends the
 * stream when the server's total is sound.
 */
const rememberedPages = 4096

/**
 * The most records a bulk stream takes for a search whose largest reported total is `total`. The
 * live API's total is approximate, and the corpus grows while a long harvest runs (a paper whose
 * sort key changes may even come twice), so the bound is generous: twice the total plus ten pages.
 * A total of 0 (none sent, or a negative one: `Page.ts`) says nothing and bounds nothing.
 */
const recordBound = (total: number) => 2 * total + 10_000

/**
 * Fails a bulk stream, before delivering the page, when the server plainly does not advance,
 * whatever its tokens: a page with the same records as an earlier one (a correct server never
 * serves a record twice in one order, so never a whole page again), or more records than
 * {@link recordBound} allows. Pages are recognised by a 53-bit hash of their first and last records' ids, in a set
 * of at most {@link rememberedPages}: memory stays bounded on a harvest of ten million records.
 */
const stallGuard = (endpoint: string) => {
  const seen = new Map<number, number>()
  let pageNumber = 0
  let records = 0
  let largestTotal = 0
  return (page: TokenPage<unknown>): ProtocolError | undefined => {
    pageNumber++
    records += page.data.length
    largestTotal = Math.max(largestTotal, page.total)
    if (largestTotal > 0 && records > recordBound(largestTotal)) {
      return stall(
        endpoint,
        `the server has sent ${records} records for a search it said has ${largestTotal} (at most ${
          recordBound(largestTotal)
        } are taken)`
      )
    }
    const print = fingerprint(page.data)
    if (print === undefined) return undefined
    const earlier = seen.get(print)
    if (earlier !== undefined) {
      return stall(endpoint, `page ${pageNumber} has the same ${page.data.length} records as page ${earlier}`)
    }
    seen.set(print, pageNumber)
    // A Map iterates in insertion order: the first key is the oldest page.
    if (seen.size > rememberedPages) seen.delete(seen.keys().next().value!)
    return undefined
  }
}

const stall = (endpoint: string, what: string) =>
  new ProtocolError({
    subject: "S2 bulk search",
    problem: `is not advancing: ${what}, whatever its tokens say`,
    request: endpoint,
    advice: "the stream stops here rather than run on without end",
    endpoint,
    reason: "stalled"
  })

/**
 * A 53-bit hash (cyrb53) of a page's length and its first and last record ids; `undefined` for an
 * empty page or one whose first or last record has no `paperId` (nothing to recognise it by). The
 * ends suffice: a correct server never serves a record twice, so no two of its pages share a first
 * id, while hashing every id cost a harvest several percent of its speed.
 */
const fingerprint = (data: ReadonlyArray<unknown>): number | undefined => {
  if (data.length === 0) return undefined
  const first = idOf(data[0])
  const last = idOf(data[data.length - 1])
  if (first === undefined || last === undefined) return undefined
  let h1 = 0xdeadbeef ^ data.length
  let h2 = 0x41c6ce57 ^ data.length
  // Each id closed by a separator no id contains: ["ab", "c"] and ["a", "bc"] differ.
  const text = `${first}\u001f${last}\u001f`
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ code, 2654435761)
    h2 = Math.imul(h2 ^ code, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

const idOf = (record: unknown): string | undefined => {
  const id = typeof record === "object" && record !== null
    ? (record as { readonly paperId?: unknown }).paperId
    : undefined
  return typeof id === "string" ? id : undefined
}

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
