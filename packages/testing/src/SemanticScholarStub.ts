/**
 * A stub layer of the `SemanticScholar` service: give the operations your code calls, get a
 * `Layer<SemanticScholar>`, no HTTP at all.
 *
 * - An operation not given dies when called, with a defect that names it and says it is not
 *   stubbed in this test: never a silent empty result.
 * - An operation is given as its answer or as a function of the operation's arguments returning
 *   the answer. Answers are records (build them with `Fixtures`), errors as values
 *   (`new ObjectNotFound({ problem })`, which the operation fails with), or an `Effect` of either.
 * - Streams are given as arrays of records; an error in the array ends the stream with it. Arrays
 *   are served in pages of the call's `limit` from its `offset` (bulk search: 1,000 a page, with
 *   tokens); {@link pages} fixes the pages instead. Stubbing `getPaperCitations` serves
 *   `getPaperCitationsPages` from the same records, and the other way round.
 * - `getPaper` / `getAuthor` also take an array of records, looked up by the id asked for
 *   (`paperId`, `CorpusId:`, `DOI:`, … ; an unknown id fails with `ObjectNotFound`); `getPapers` /
 *   `getAuthors` take such an array or a function answering one record or `null` per id, and
 *   honour `returnNotFound`.
 * - Time and retries work as in the client: `withTimeout` fails a slow answer with `Timeout`, and
 *   `withRetry(policy)` calls the function again after a retryable error, on the `Clock` (so
 *   `TestClock` drives it). By default a stub makes one attempt with no time-out, so the code under
 *   test sees exactly what the stub answers.
 *
 * @example
 * ```ts
 * import { ObjectNotFound } from "@s2-effect/core"
 * import { Fixtures, SemanticScholarStub } from "@s2-effect/testing"
 *
 * const S2 = SemanticScholarStub.layer({
 *   getPaper: (id) => id === "CorpusId:1" ? Fixtures.paper({ title: "One" }) : new ObjectNotFound({ subject: id, problem: "is not stubbed" }),
 *   getPaperCitations: [Fixtures.citation({ citingPaper: { title: "A" } }), Fixtures.citation()]
 * })
 * ```
 * @since 1.0.0
 */
import type { BatchOptions, RetryPolicy, S2Error, SemanticScholar, Service } from "@s2-effect/core"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"
import * as internal from "./internal/stub.js"

/**
 * An answer: the value, an error the operation fails with, or an Effect of either.
 *
 * @category models
 * @since 1.0.0
 */
export type Answer<A> = A | S2Error | Effect.Effect<A | S2Error, S2Error>

/**
 * Pages fixed by the test, see {@link pages}.
 *
 * @category models
 * @since 1.0.0
 */
export interface Pages<A> {
  readonly _tag: "StubPages"
  readonly pages: ReadonlyArray<ReadonlyArray<A>>
  /** Sent as the pages' `total` (default: the number of records). */
  readonly total?: number | undefined
  /** The error the stream fails with after the last page. */
  readonly error?: S2Error | undefined
}

/**
 * The records of a stream: an array (an error in it ends the stream), fixed pages, or an error.
 *
 * @category models
 * @since 1.0.0
 */
export type Records<A> = ReadonlyArray<A | S2Error> | Pages<A> | S2Error

/**
 * The arguments and result of an operation (its last overload).
 *
 * @category models
 * @since 1.0.0
 */
export type Fn<F> = F extends (...args: infer Args) => infer R ? { readonly args: Args; readonly result: R } : never
/**
 * The record of a stream operation (the data of its pages).
 *
 * @category models
 * @since 1.0.0
 */
export type Item<R> = R extends Stream.Stream<infer P, infer _E, infer _R>
  ? P extends { readonly data: ReadonlyArray<infer A> } ? A : P
  : never
/**
 * The element of an Effect of an array.
 *
 * @category models
 * @since 1.0.0
 */
export type Element<R> = R extends Effect.Effect<ReadonlyArray<infer A>, infer _E, infer _R> ? A : never
/**
 * The success of an Effect.
 *
 * @category models
 * @since 1.0.0
 */
export type Success<R> = R extends Effect.Effect<infer A, infer _E, infer _R> ? A : never
/**
 * A value, or a function of the operation's arguments returning it.
 *
 * @category options
 * @since 1.0.0
 */
export type Given<Args extends ReadonlyArray<unknown>, T> = T | ((...args: Args) => T)

/**
 * What each operation can be given, derived from the service: for each operation its answer (or
 * records), or a function of its arguments returning them.
 *
 * @category options
 * @since 1.0.0
 */
export type Handler<K extends keyof Service> = K extends "getPapers" | "getAuthors" ?
    | ReadonlyArray<Element<Fn<Service[K]>["result"]>>
    | S2Error
    | ((
      ids: ReadonlyArray<string>,
      options: BatchOptions<string>
    ) => Answer<ReadonlyArray<Element<Fn<Service[K]>["result"]> | null>>)
  : K extends "getPaper" | "getAuthor" ?
      | Given<Fn<Service[K]>["args"], Answer<Success<Fn<Service[K]>["result"]>>>
      | ReadonlyArray<Success<Fn<Service[K]>["result"]>>
  : Fn<Service[K]>["result"] extends Stream.Stream<infer _A, infer _E, infer _R> ? Given<
      Fn<Service[K]>["args"],
      Records<Item<Fn<Service[K]>["result"]>> | Effect.Effect<Records<Item<Fn<Service[K]>["result"]>>, S2Error>
    >
  : Given<Fn<Service[K]>["args"], Answer<Success<Fn<Service[K]>["result"]>>>

/**
 * The operations given to {@link layer}; any left out die when called.
 *
 * @category options
 * @since 1.0.0
 */
export type Handlers = { readonly [K in keyof Service]?: Handler<K> }

/**
 * Settings of {@link layer}.
 *
 * @category options
 * @since 1.0.0
 */
export interface Options {
  /** Retry policy when the code under test sets none with `withRetry`. Default `false`: one attempt. */
  readonly retry?: RetryPolicy.RetryPolicy | false | undefined
  /** Time-out of each answer when the code sets none with `withTimeout`. Default: none. */
  readonly timeout?: Duration.Input | undefined
}

/**
 * The stub service.
 *
 * @category constructors
 * @since 1.0.0
 */
export const make: (handlers: Handlers, options?: Options) => Service = internal.make

/**
 * The stub as a layer.
 *
 * @category layers
 * @since 1.0.0
 */
export const layer: (handlers: Handlers, options?: Options) => Layer.Layer<SemanticScholar> = internal.layer

/**
 * Records in pages chosen by the test, e.g. to test code that reads `total` or checkpoints per page.
 *
 * @example
 * ```ts
 * import { Fixtures, SemanticScholarStub } from "@s2-effect/testing"
 *
 * const S2 = SemanticScholarStub.layer({
 *   searchPaper: SemanticScholarStub.pages([[Fixtures.paper({ title: "a" })], [Fixtures.paper({ title: "b" })]])
 * })
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const pages = <A>(
  pages: ReadonlyArray<ReadonlyArray<A>>,
  options: { readonly total?: number; readonly error?: S2Error } = {}
): Pages<A> => ({ _tag: "StubPages", pages, ...options })

/**
 * The names of every operation of the service, in the one table the stub is built from.
 *
 * @category constants
 * @since 1.0.0
 */
export const operations: ReadonlyArray<keyof Service> = internal.operations
