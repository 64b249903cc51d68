/**
 * The options of the client: those of its layer (`SemanticScholar.layer`) and those of each
 * operation. Every option is checked before anything is sent.
 *
 * @since 1.0.0
 */
import type * as Duration from "effect/Duration"
import type * as HttpClient from "effect/http/HttpClient"
import type * as Redacted from "effect/Redacted"
import type * as Fields from "./Fields.js"
import type * as Filters from "./Filters.js"
import type * as RateLimitModule from "./RateLimit.js"
import type { RateLimit } from "./RateLimit.js"
import type { CacheOptions } from "./ResponseCache.js"
import type { RetryPolicy } from "./RetryPolicy.js"

/**
 * Settings of the client layer.
 *
 * @category options
 * @since 1.0.0
 */
export interface Options {
  /** Sent as `x-api-key` to the API root only; never logged. */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /**
   * Replaces the root `https://api.semanticscholar.org`; the API prefixes are added by the client.
   * An http(s) URL without a user name or password (refused: messages name the URL).
   */
  readonly apiUrl?: string | undefined
  /** Per attempt. Default 30 seconds. */
  readonly timeout?: Duration.Input | undefined
  /**
   * The longest one call may take, its retries, their waits and its pacing included: a retry whose
   * wait would end past it is not begun, and an attempt still running at it is interrupted; either
   * way the call fails with `Timeout` (`reason: "deadline"`, the last attempt's error as `cause`).
   * Each page of a stream is one call. Default 15 minutes: longer than every retry budget of the
   * default policy, yet a server asking for long `Retry-After` waits gets one of them, not ten.
   * `false` for none.
   */
  readonly deadline?: Duration.Input | false | undefined
  /** Default `RetryPolicy.defaultPolicy` (a retry budget per cause); `false` makes one attempt. */
  readonly retry?: RetryPolicy | false | undefined
  /**
   * Client-side pacing shared by every fiber using the layer. Default: 1/s with a key, off without.
   * A `RateLimit.Shared` limit is shared with other processes through a store (Redis).
   */
  readonly rateLimit?: RateLimit | RateLimitModule.Shared | false | undefined
  /**
   * Concurrent `getPaper` / `getAuthor` calls from any fiber coalesce into `POST /paper/batch` and
   * `POST /author/batch` calls (`true` for the default window). Default off; `withBatching`
   * switches it for a scope of work. See docs/scaling.md for what a batch answers differently.
   */
  readonly batching?: boolean | BatchingOptions | undefined
  /** Keep answers in a store and reuse them for a time to live (see `ResponseCache`). Default off. */
  readonly cache?: CacheOptions | undefined
  /**
   * The largest response body read, in bytes; a larger one fails with `ProtocolError` as soon as it
   * passes the bound, without being held in memory. Default 32 MB (the API refuses answers over 10 MB).
   */
  readonly maxResponseBytes?: number | undefined
  /**
   * Wraps the `HttpClient` the layer is given, e.g. to go through a proxy or add a header. It sees
   * every request, `x-api-key` included: do not send them to another host.
   */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

/**
 * How lookups are collected into batches.
 *
 * @category options
 * @since 1.0.0
 */
export interface BatchingOptions {
  /** How long the first lookup waits for others to join its batch. Default 10 milliseconds. */
  readonly window?: Duration.Input | undefined
  /** A batch goes out as soon as this many lookups wait. Default and at most 500 papers / 1000 authors. */
  readonly maxSize?: number | undefined
}

/**
 * The production root of the three APIs.
 *
 * @category constants
 * @since 1.0.0
 */
export const defaultApiUrl = "https://api.semanticscholar.org"

/**
 * `fields` of an operation: known names typed, {@link Fields.unchecked} for newer ones.
 *
 * @category options
 * @since 1.0.0
 */
export interface FieldsOption<F extends string> {
  readonly fields?: ReadonlyArray<F | Fields.Unchecked> | Fields.Selection | undefined
}

/**
 * Options of batch lookups.
 *
 * @category options
 * @since 1.0.0
 */
export interface BatchOptions<F extends string> extends FieldsOption<F> {
  /** Also return the ids whose position came back `null`. */
  readonly returnNotFound?: boolean | undefined
  /** How many batch calls run at once when the ids need several. Default 1. */
  readonly concurrency?: number | undefined
}

/**
 * The answer of a batch lookup with `returnNotFound: true`.
 *
 * @category models
 * @since 1.0.0
 */
export interface BatchResult<A> {
  readonly found: ReadonlyArray<A>
  /** The ids, as given, whose position came back `null`. */
  readonly notFound: ReadonlyArray<string>
}

/**
 * Options of the paginated lists.
 *
 * @category options
 * @since 1.0.0
 */
export interface PageOptions {
  /** Page size sent to the server (default 100; at most 1000, 100 for relevance search). */
  readonly limit?: number | undefined
  /** Start at this offset, e.g. to resume from a checkpoint. Default 0. */
  readonly offset?: number | undefined
  /**
   * Pages fetched ahead of the consumer. Default 0: a page is fetched when it is needed. With 1 or
   * more, the next page's request goes out as soon as a page's cursor is known, before the page
   * reaches the consumer, so the server answers while the consumer works.
   */
  readonly prefetch?: number | undefined
}

/**
 * Options of citations and author papers.
 *
 * @category options
 * @since 1.0.0
 */
export interface DatedPageOptions extends PageOptions {
  readonly publicationDateOrYear?: string | undefined
}

/**
 * Relevance search: ranked, up to 1,000 results.
 *
 * @category options
 * @since 1.0.0
 */
export interface RelevanceSearchOptions extends Filters.SearchFilters, FieldsOption<Fields.PaperField>, PageOptions {
  readonly bulk?: false | undefined
  /** Only bulk search sorts. */
  readonly sort?: never
}

/**
 * Bulk search: up to 10,000,000 results, 1,000 a page, token paging; `limit` is ignored.
 *
 * @category options
 * @since 1.0.0
 */
export interface BulkSearchOptions
  extends Filters.SearchFilters, FieldsOption<Fields.PaperField>, Pick<PageOptions, "prefetch">
{
  readonly bulk: true
  readonly sort?: Filters.Sort | undefined
  /** Continue a search from a page's `token`, e.g. to resume a harvest. */
  readonly token?: string | undefined
  /**
   * Records as they came over the wire: each checked against the `Paper` schema exactly as a
   * `Paper` is (a record that is not one fails the stream with the same `DecodeError`), but handed
   * over as the parsed object itself, typed {@link PaperWire}: no class, no `raw` or `keys()` (its
   * own keys are the fields that came back), and `JSON.stringify` gives its wire JSON. For a
   * harvest that writes its records out: a `Paper` costs a class prototype per record, about a
   * fifth of such a harvest's CPU. The objects may be shared with the response cache: read them,
   * do not change them.
   *
   * @since 1.3.0
   */
  readonly wire?: boolean | undefined
}

/**
 * @category options
 * @since 1.0.0
 */
export type SearchPaperOptions = RelevanceSearchOptions | BulkSearchOptions

/**
 * Title match: the seven search filters and `fields`.
 *
 * @category options
 * @since 1.0.0
 */
export interface MatchTitleOptions extends Filters.SearchFilters, FieldsOption<Fields.PaperField> {}

/**
 * A field of a snippet: any `snippet.*` path.
 *
 * @category models
 * @since 1.0.0
 */
export type SnippetField = `snippet.${string}`

/**
 * Options of snippet search.
 *
 * @category options
 * @since 1.0.0
 */
export interface SnippetSearchOptions {
  /** Only snippets from these papers (at most 100 ids, any id form). */
  readonly paperIds?: ReadonlyArray<string> | undefined
  /** Author names, fuzzy, all must match (at most 10). */
  readonly authors?: ReadonlyArray<string> | undefined
  readonly minCitationCount?: number | undefined
  /** Only snippets inserted before this date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`). */
  readonly insertedBefore?: string | undefined
  readonly year?: number | string | undefined
  readonly venue?: ReadonlyArray<string> | undefined
  readonly fieldsOfStudy?: ReadonlyArray<Filters.FieldOfStudy | Fields.Unchecked> | undefined
  readonly publicationDateOrYear?: string | undefined
  /** `snippet.*` paths; `score` and `paper` always come back. */
  readonly fields?: ReadonlyArray<SnippetField> | undefined
  /** How many snippets, 1 to 1000. Default 10. */
  readonly limit?: number | undefined
}

/**
 * Options of recommendations for one paper.
 *
 * @category options
 * @since 1.0.0
 */
export interface RecommendationOptions extends FieldsOption<Fields.PaperField> {
  /** How many papers, 1 to 500. Default 100. */
  readonly limit?: number | undefined
  /** The pool to recommend from: recent papers (default) or all of computer science. */
  readonly poolFrom?: "recent" | "all-cs" | undefined
}

/**
 * Options of recommendations from example lists.
 *
 * @category options
 * @since 1.0.0
 */
export interface ListRecommendationOptions extends FieldsOption<Fields.PaperField> {
  /** How many papers, 1 to 500. Default 100. */
  readonly limit?: number | undefined
}
