/**
 * The Semantic Scholar client as an Effect service. Every operation validates its input (a typed
 * `BadQueryParameters`, nothing sent), describes the request as a plain value, and hands it to the
 * one transport, which adds the base URL and key, paces, times out, retries, logs and decodes.
 *
 * @since 0.1.0
 */
import * as Persistence from "@effect/experimental/Persistence"
import type * as HttpClient from "@effect/platform/HttpClient"
import type { Redacted, Scope } from "effect"
import { Context, Duration, Effect, Function, Layer, Option, RateLimiter, Schema, Stream } from "effect"
import { Author } from "./Author.js"
import { Citation, Reference } from "./Citation.js"
import { Dataset, DatasetDiff, Release } from "./Dataset.js"
import * as Fields from "./Fields.js"
import * as Filters from "./Filters.js"
import * as ResponseCacheHook from "./internal/cache.js"
import { AutocompleteAnswer, MatchAnswer, RecommendationAnswer, SnippetAnswer } from "./internal/envelopes.js"
import * as Lookups from "./internal/lookups.js"
import * as pagination from "./internal/pagination.js"
import * as Req from "./internal/request.js"
import { defaultMaxResponseBytes } from "./internal/response.js"
import * as SharedLimiter from "./internal/sharedLimiter.js"
import * as Transport from "./internal/transport.js"
import { OffsetPage, TokenPage } from "./Page.js"
import { Paper, PaperAuthor } from "./Paper.js"
import * as PaperId from "./PaperId.js"
import * as RateLimitModule from "./RateLimit.js"
import type { RateLimit } from "./RateLimit.js"
import type { CacheOptions } from "./ResponseCache.js"
import type { RetryPolicy } from "./RetryPolicy.js"
import { defaultPolicy } from "./RetryPolicy.js"
import type { S2Error } from "./S2Error.js"
import { BadQueryParameters, Forbidden, ObjectNotFound } from "./S2Error.js"
import type { Autocomplete, SnippetResults } from "./Snippet.js"

/**
 * Settings of the client layer.
 *
 * @category options
 * @since 0.1.0
 */
export interface Options {
  /** Sent as `x-api-key` to the API root only; never logged. */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /** Replaces the root `https://api.semanticscholar.org`; the API prefixes are added by the client. */
  readonly apiUrl?: string | undefined
  /** Per attempt. Default 30 seconds. */
  readonly timeout?: Duration.DurationInput | undefined
  /** Default `RetryPolicy.defaultPolicy` (a retry budget per cause); `false` makes one attempt. */
  readonly retry?: RetryPolicy | false | undefined
  /**
   * Client-side pacing shared by every fiber using the layer. Default: 1/s with a key, off without.
   * A `RateLimit.Shared` limit is shared with other processes through a store (Redis).
   */
  readonly rateLimit?: RateLimit | RateLimitModule.Shared | false | undefined
  /**
   * Concurrent `getPaper` / `getAuthor` calls from any fiber coalesce into `POST /paper/batch` and
   * `POST /author/batch` calls (`true` for the default window). Default off; {@link withBatching}
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
}

/**
 * How lookups are collected into batches.
 *
 * @category options
 * @since 0.1.0
 */
export interface BatchingOptions {
  /** How long the first lookup waits for others to join its batch. Default 10 milliseconds. */
  readonly window?: Duration.DurationInput | undefined
  /** A batch goes out as soon as this many lookups wait. Default and at most 500 papers / 1000 authors. */
  readonly maxSize?: number | undefined
}

/**
 * The production root of the three APIs.
 *
 * @category constants
 * @since 0.1.0
 */
export const defaultApiUrl = "https://api.semanticscholar.org"

/**
 * `fields` of an operation: known names typed, {@link Fields.unchecked} for newer ones.
 *
 * @category options
 * @since 0.1.0
 */
export interface FieldsOption<F extends string> {
  readonly fields?: ReadonlyArray<F | Fields.Unchecked> | undefined
}

/**
 * Options of batch lookups.
 *
 * @category options
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.1.0
 */
export interface PageOptions {
  /** Page size sent to the server (default 100; at most 1000, 100 for relevance search). */
  readonly limit?: number | undefined
  /** Start at this offset, e.g. to resume from a checkpoint. Default 0. */
  readonly offset?: number | undefined
  /** Pages fetched ahead of the consumer. Default 0: a page is fetched when it is needed. */
  readonly prefetch?: number | undefined
}

/**
 * Options of citations and author papers.
 *
 * @category options
 * @since 0.1.0
 */
export interface DatedPageOptions extends PageOptions {
  readonly publicationDateOrYear?: string | undefined
}

/**
 * Relevance search: ranked, up to 1,000 results.
 *
 * @category options
 * @since 0.1.0
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
 * @since 0.1.0
 */
export interface BulkSearchOptions extends Filters.SearchFilters, FieldsOption<Fields.PaperField> {
  readonly bulk: true
  readonly sort?: Filters.Sort | undefined
  /** Continue a search from a page's `token`, e.g. to resume a harvest. */
  readonly token?: string | undefined
  readonly prefetch?: number | undefined
}

/**
 * @category options
 * @since 0.1.0
 */
export type SearchPaperOptions = RelevanceSearchOptions | BulkSearchOptions

/**
 * Title match: the seven search filters and `fields`.
 *
 * @category options
 * @since 0.1.0
 */
export interface MatchTitleOptions extends Filters.SearchFilters, FieldsOption<Fields.PaperField> {}

/**
 * A field of a snippet: any `snippet.*` path.
 *
 * @category models
 * @since 0.1.0
 */
export type SnippetField = `snippet.${string}`

/**
 * Options of snippet search.
 *
 * @category options
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.1.0
 */
export interface ListRecommendationOptions extends FieldsOption<Fields.PaperField> {
  /** How many papers, 1 to 500. Default 100. */
  readonly limit?: number | undefined
}

/**
 * The operations of the client. Lookups are Effects; paginated and bulk endpoints are pull-based
 * Streams of records, with a `…Pages` form that yields the page envelopes.
 *
 * @category services
 * @since 0.1.0
 */
export interface Service {
  /** GET `/paper/{id}`; every id form of the API is accepted. */
  readonly getPaper: (paperId: string, options?: FieldsOption<Fields.PaperField>) => Effect.Effect<Paper, S2Error>
  /** POST `/paper/batch`, 500 ids a call, results in input order. */
  readonly getPapers: {
    (
      paperIds: ReadonlyArray<string>,
      options: BatchOptions<Fields.PaperField> & { readonly returnNotFound: true }
    ): Effect.Effect<BatchResult<Paper>, S2Error>
    (
      paperIds: ReadonlyArray<string>,
      options?: BatchOptions<Fields.PaperField>
    ): Effect.Effect<ReadonlyArray<Paper>, S2Error>
  }
  /** GET `/author/{id}`. */
  readonly getAuthor: (authorId: string, options?: FieldsOption<Fields.AuthorField>) => Effect.Effect<Author, S2Error>
  /** POST `/author/batch`, 1000 ids a call, results in input order. */
  readonly getAuthors: {
    (
      authorIds: ReadonlyArray<string>,
      options: BatchOptions<Fields.AuthorField> & { readonly returnNotFound: true }
    ): Effect.Effect<BatchResult<Author>, S2Error>
    (
      authorIds: ReadonlyArray<string>,
      options?: BatchOptions<Fields.AuthorField>
    ): Effect.Effect<ReadonlyArray<Author>, S2Error>
  }
  /** GET `/paper/{id}/authors`, page by page. */
  readonly getPaperAuthors: (
    paperId: string,
    options?: FieldsOption<Fields.AuthorField> & PageOptions
  ) => Stream.Stream<PaperAuthor, S2Error>
  readonly getPaperAuthorsPages: (
    paperId: string,
    options?: FieldsOption<Fields.AuthorField> & PageOptions
  ) => Stream.Stream<OffsetPage<PaperAuthor>, S2Error>
  /** GET `/paper/{id}/citations`, page by page. */
  readonly getPaperCitations: (
    paperId: string,
    options?: FieldsOption<Fields.CitationField> & DatedPageOptions
  ) => Stream.Stream<Citation, S2Error>
  readonly getPaperCitationsPages: (
    paperId: string,
    options?: FieldsOption<Fields.CitationField> & DatedPageOptions
  ) => Stream.Stream<OffsetPage<Citation>, S2Error>
  /** GET `/paper/{id}/references`, page by page. */
  readonly getPaperReferences: (
    paperId: string,
    options?: FieldsOption<Fields.CitationField> & PageOptions
  ) => Stream.Stream<Reference, S2Error>
  readonly getPaperReferencesPages: (
    paperId: string,
    options?: FieldsOption<Fields.CitationField> & PageOptions
  ) => Stream.Stream<OffsetPage<Reference>, S2Error>
  /** GET `/author/{id}/papers`, page by page. */
  readonly getAuthorPapers: (
    authorId: string,
    options?: FieldsOption<Fields.PaperField> & DatedPageOptions
  ) => Stream.Stream<Paper, S2Error>
  readonly getAuthorPapersPages: (
    authorId: string,
    options?: FieldsOption<Fields.PaperField> & DatedPageOptions
  ) => Stream.Stream<OffsetPage<Paper>, S2Error>
  /** GET `/author/search`, page by page. */
  readonly searchAuthor: (
    query: string,
    options?: FieldsOption<Fields.AuthorField> & PageOptions
  ) => Stream.Stream<Author, S2Error>
  readonly searchAuthorPages: (
    query: string,
    options?: FieldsOption<Fields.AuthorField> & PageOptions
  ) => Stream.Stream<OffsetPage<Author>, S2Error>
  /** GET `/paper/search` (relevance) or, with `bulk: true`, `/paper/search/bulk`. */
  readonly searchPaper: (query: string, options?: SearchPaperOptions) => Stream.Stream<Paper, S2Error>
  readonly searchPaperPages: {
    (query: string, options: BulkSearchOptions): Stream.Stream<TokenPage<Paper>, S2Error>
    (query: string, options?: RelevanceSearchOptions): Stream.Stream<OffsetPage<Paper>, S2Error>
  }
  /**
   * GET `/paper/search/match`: the one paper whose title best matches, with its `matchScore`
   * (the reference client's `search_paper(match_title=True)`); no match is `ObjectNotFound`.
   */
  readonly matchPaperTitle: (query: string, options?: MatchTitleOptions) => Effect.Effect<Paper, S2Error>
  /**
   * GET `/paper/autocomplete`: title completions for a partial query. The server reads only the
   * first 100 characters, so the client sends no more; an answer without `matches` is empty.
   */
  readonly getAutocomplete: (query: string) => Effect.Effect<ReadonlyArray<Autocomplete>, S2Error>
  /**
   * GET `/snippet/search`: passages of text matching the query, as an array that also carries the
   * answer's `retrievalVersion`.
   */
  readonly searchSnippet: (
    query: string,
    options?: SnippetSearchOptions
  ) => Effect.Effect<SnippetResults, S2Error>
  /** GET `/recommendations/v1/papers/forpaper/{id}`: papers like one paper. */
  readonly getRecommendedPapers: (
    paperId: string,
    options?: RecommendationOptions
  ) => Effect.Effect<ReadonlyArray<Paper>, S2Error>
  /** POST `/recommendations/v1/papers/`: papers like the positive examples and unlike the negative. */
  readonly getRecommendedPapersFromLists: (
    positivePaperIds: ReadonlyArray<string>,
    negativePaperIds?: ReadonlyArray<string>,
    options?: ListRecommendationOptions
  ) => Effect.Effect<ReadonlyArray<Paper>, S2Error>
  /** GET `/datasets/v1/release/`: the release ids (dates), oldest first. */
  readonly getAvailableReleases: () => Effect.Effect<ReadonlyArray<string>, S2Error>
  /** GET `/datasets/v1/release/{id}`: a release (a `YYYY-MM-DD` date or `latest`) and its datasets. */
  readonly getRelease: (releaseId: string) => Effect.Effect<Release, S2Error>
  /**
   * GET `/datasets/v1/release/{id}/dataset/{name}`: a dataset's download links. Needs an API key:
   * without one it fails with `Forbidden` before sending.
   */
  readonly getDatasetDownloadLinks: (releaseId: string, datasetName: string) => Effect.Effect<Dataset, S2Error>
  /**
   * GET `/datasets/v1/diffs/{start}/to/{end}/{name}`: the diffs from one release to a later one
   * (`latest` allowed as the end). Needs an API key.
   */
  readonly getDatasetDiffs: (
    datasetName: string,
    startReleaseId: string,
    endReleaseId: string
  ) => Effect.Effect<DatasetDiff, S2Error>
}

/**
 * The client service.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * const program = Effect.gen(function*() {
 *   const s2 = yield* SemanticScholar
 *   const paper = yield* s2.getPaper("CorpusId:215416146", { fields: ["title", "year"] })
 *   const citing = yield* s2.getPaperCitations(paper.paperId, { fields: ["title"] }).pipe(
 *     Stream.take(5),
 *     Stream.runCollect
 *   )
 *   return { paper, citing }
 * })
 * ```
 * @category services
 * @since 0.1.0
 */
export class SemanticScholar extends Context.Tag("@s2-effect/core/SemanticScholar")<SemanticScholar, Service>() {
  /**
   * The client over whatever `HttpClient` is provided (node and browser packages provide one).
   * Fails with `BadQueryParameters` when an option is out of range.
   */
  static readonly layer = (
    options: Options = {}
  ): Layer.Layer<SemanticScholar, BadQueryParameters, HttpClient.HttpClient> =>
    Layer.scoped(SemanticScholar, make(options))
}

const invalidOption = (parameter: string, message: string) =>
  Effect.fail(new BadQueryParameters({ message, parameter }))

const positiveDuration = (
  parameter: string,
  input: Duration.DurationInput
): Effect.Effect<Duration.Duration, BadQueryParameters> => {
  const duration = Duration.decodeUnknown(input)
  return Option.isSome(duration) && Duration.greaterThan(duration.value, Duration.zero)
    ? Effect.succeed(duration.value)
    : invalidOption(
      parameter,
      `${parameter} ${String(input)} is invalid: give a positive duration such as "30 seconds"`
    )
}

const resolveApiUrl = (apiUrl: string): Effect.Effect<string, BadQueryParameters> => {
  try {
    const url = new URL(apiUrl)
    return url.protocol === "http:" || url.protocol === "https:"
      ? Effect.succeed(apiUrl.replace(/\/+$/, ""))
      : invalidOption("apiUrl", `apiUrl ${JSON.stringify(apiUrl)} must be an http or https URL`)
  } catch {
    return invalidOption(
      "apiUrl",
      `apiUrl ${JSON.stringify(apiUrl)} is not a URL; give the API root such as ${defaultApiUrl}`
    )
  }
}

const sharedLimiter = (shared: RateLimitModule.Shared) => {
  const perSecond = shared.perSecond ?? 1
  if (!Number.isFinite(perSecond) || perSecond <= 0) {
    return invalidOption("rateLimit.perSecond", `rateLimit.perSecond ${perSecond} is invalid: give a number > 0`)
  }
  const key = shared.key ?? "s2-effect"
  if (key.length === 0) return invalidOption("rateLimit.key", "rateLimit.key is empty: give the counter a name")
  return Effect.flatMap(
    positiveDuration("rateLimit.storeTimeout", shared.storeTimeout ?? "2 seconds"),
    (storeTimeout) =>
      SharedLimiter.make({
        store: shared.store,
        key,
        perSecond,
        onStoreError: shared.onStoreError ?? "fail",
        storeTimeout,
        label: shared.label ?? "a shared store"
      })
  )
}

const rateLimiter = (
  rateLimit: RateLimit | RateLimitModule.Shared | false | undefined,
  apiKey: Redacted.Redacted<string> | undefined
): Effect.Effect<Option.Option<Transport.Pace>, BadQueryParameters, Scope.Scope> => {
  const chosen = rateLimit ?? (apiKey === undefined ? false : RateLimitModule.perKey)
  if (chosen === false) return Effect.succeedNone
  if (RateLimitModule.isShared(chosen)) return Effect.asSome(sharedLimiter(chosen))
  if (!Number.isSafeInteger(chosen.requests) || chosen.requests < 1) {
    return invalidOption("rateLimit", `rateLimit.requests ${chosen.requests} is invalid: give a whole number ≥ 1`)
  }
  return Effect.flatMap(
    positiveDuration("rateLimit.per", chosen.per),
    (per) => Effect.asSome(RateLimiter.make({ limit: chosen.requests, interval: per, algorithm: "fixed-window" }))
  )
}

/** The response cache's transport hook, over the store the option names (opened in the scope). */
const responseCache = (cache: CacheOptions, apiUrl: string) =>
  Effect.gen(function*() {
    const timeToLive = yield* positiveDuration("cache.timeToLive", cache.timeToLive ?? "1 day")
    const context = yield* Layer.build(cache.store).pipe(
      Effect.mapError((error) =>
        new BadQueryParameters({
          parameter: "cache.store",
          message: `the cache store could not be opened: ${error instanceof Error ? error.message : String(error)}`
        })
      )
    )
    return yield* ResponseCacheHook.make({
      persistence: Context.get(context, Persistence.ResultPersistence),
      apiUrl,
      timeToLive,
      storeId: cache.storeId ?? "s2-effect"
    })
  })

const paperEndpoint = { path: "/paper/batch", size: 500, schema: Paper, noun: "paper" }
const authorEndpoint = { path: "/author/batch", size: 1000, schema: Author, noun: "author" }

/** The batching windows of lookups; built even when off, so `withBatching` can switch them on. */
const lookupLoaders = (batching: Options["batching"], execute: Transport.Transport["execute"]) =>
  Effect.gen(function*() {
    const given = typeof batching === "object" ? batching : {}
    const maxSize = given.maxSize ?? Number.MAX_SAFE_INTEGER
    if (!Number.isSafeInteger(maxSize) || maxSize < 1) {
      return yield* invalidOption("batching.maxSize", `batching.maxSize ${maxSize} is invalid: give a whole number ≥ 1`)
    }
    const settings: Lookups.Settings = {
      enabled: batching !== undefined && batching !== false,
      window: yield* positiveDuration("batching.window", given.window ?? "10 millis"),
      maxSize
    }
    return {
      settings,
      papers: yield* Lookups.loader(paperEndpoint, execute, settings),
      authors: yield* Lookups.loader(authorEndpoint, execute, settings)
    }
  })

type Loaders = Effect.Effect.Success<ReturnType<typeof lookupLoaders>>

const validateMaxResponseBytes = (max = defaultMaxResponseBytes) =>
  Number.isSafeInteger(max) && max >= 1
    ? Effect.succeed(max)
    : invalidOption("maxResponseBytes", `maxResponseBytes ${max} is invalid: give a whole number of bytes ≥ 1`)

/**
 * Builds the service from its options and an `HttpClient`. The rate limiter, the batching windows
 * and the cache store live in the scope.
 *
 * @since 0.1.0
 */
export const make = (
  options: Options = {}
): Effect.Effect<Service, BadQueryParameters, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function*() {
    const apiUrl = yield* resolveApiUrl(options.apiUrl ?? defaultApiUrl)
    const config: Transport.TransportConfig = {
      apiUrl,
      apiKey: Option.fromNullable(options.apiKey),
      timeout: yield* positiveDuration("timeout", options.timeout ?? "30 seconds"),
      retry: options.retry ?? defaultPolicy,
      rateLimiter: yield* rateLimiter(options.rateLimit, options.apiKey),
      around: options.cache === undefined ? undefined : yield* responseCache(options.cache, apiUrl),
      maxResponseBytes: yield* validateMaxResponseBytes(options.maxResponseBytes)
    }
    const transport = yield* Transport.fromClient(config)
    // Batched lookups are cached one lookup at a time (below), so their batch calls skip the cache.
    const direct = config.around === undefined
      ? transport
      : yield* Transport.fromClient({ ...config, around: undefined })
    return fromTransport(transport, yield* lookupLoaders(options.batching, direct.execute))
  })

const autocompleteLength = 100

const isReleaseDate = (id: string) => /^\d{4}-\d{2}-\d{2}$/.test(id) && Filters.isDate(id)

const validatePrefetch = (prefetch = 0) =>
  Number.isSafeInteger(prefetch) && prefetch >= 0
    ? Effect.succeed(prefetch)
    : invalidOption("prefetch", `prefetch ${prefetch} is invalid: give a whole number ≥ 0`)

// Page schemas are built once: the compiled decoder is cached per schema.
const bulkPage = TokenPage(Paper)
const pages = {
  paperAuthors: OffsetPage(PaperAuthor),
  citations: OffsetPage(Citation),
  references: OffsetPage(Reference),
  papers: OffsetPage(Paper),
  authors: OffsetPage(Author)
}

const listCeiling = 9999
const relevanceCeiling = 1000

const chunksOf = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size))

const fromTransport = (transport: Transport.Transport, loaders: Loaders): Service => {
  const { execute } = transport
  const batched = Effect.map(Lookups.BatchingOverride, (scope) => scope.enabled ?? loaders.settings.enabled)

  /**
   * A lookup through the batching window. With a cache, each lookup is its own entry (keyed as a
   * batch of one id), so a re-run is answered from the cache however its lookups were grouped.
   */
  const batchedLookup = <A, I>(
    endpoint: Lookups.BatchEndpoint<A, I>,
    loader: Lookups.Loader<A>,
    id: string,
    fields: string
  ): Effect.Effect<A, S2Error> => {
    const lookup = Effect.request(Lookups.Lookup<A>(id, fields), loader)
    const around = transport.config.around
    if (around === undefined) return lookup
    const entry = Req.post("graph", endpoint.path, [["fields", fields]], { ids: [id] })
    return Effect.flatMap(
      around(entry, lookup),
      (json) => Transport.decode(endpoint.schema, json, { method: "POST", url: endpoint.path })
    )
  }

  const fieldsParam = (set: Fields.FieldSet, fields: ReadonlyArray<string | Fields.Unchecked> | undefined) =>
    Effect.map(Fields.render(set, fields), (value): Filters.QueryParam => ["fields", value])

  const batch = <A, I>(
    kind: Lookups.BatchEndpoint<A, I> & {
      readonly fields: Fields.FieldSet
      readonly validate: typeof PaperId.validatePaperId
    }
  ) => {
    const call = Lookups.ask(kind, execute)
    return (
      ids: ReadonlyArray<string>,
      options: BatchOptions<string> = {}
    ): Effect.Effect<ReadonlyArray<A> | BatchResult<A>, S2Error> =>
      Effect.gen(function*() {
        yield* PaperId.validateIds(ids, kind.validate, `${kind.noun}Ids`)
        const concurrency = options.concurrency ?? 1
        if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
          return yield* invalidOption("concurrency", `concurrency ${concurrency} is invalid: give a whole number ≥ 1`)
        }
        const [, fields] = yield* fieldsParam(kind.fields, options.fields)
        const answers = yield* Effect.forEach(chunksOf(ids, kind.size), (chunk) => call(fields, chunk), {
          concurrency
        })
        const found: Array<A> = []
        const notFound: Array<string> = []
        answers.flat().forEach((entry, i) => entry === null ? notFound.push(ids[i] ?? "") : found.push(entry))
        if (found.length === 0) {
          return yield* invalidOption(
            `${kind.noun}Ids`,
            `none of the ${ids.length} ${kind.noun} id(s) was found (first: ${JSON.stringify(ids[0])})`
          )
        }
        return options.returnNotFound === true ? { found, notFound } : found
      })
  }

  const pageOptions = (options: PageOptions, max: number, ceiling: number) =>
    Effect.gen(function*() {
      const limit = yield* Filters.validateLimit(options.limit ?? Math.min(100, max), max)
      const offset = options.offset ?? 0
      if (!Number.isSafeInteger(offset) || offset < 0 || offset >= ceiling) {
        return yield* invalidOption(
          "offset",
          `offset ${offset} is out of range: give a whole number from 0 to ${ceiling - 1}`
        )
      }
      const prefetch = yield* validatePrefetch(options.prefetch)
      return { limit, offset, prefetch }
    })

  /** One offset-paginated list: validated once, then one transport call per page. */
  const offsetList = <A, P extends OffsetPage<A>, I>(spec: {
    readonly label: string
    readonly path: Effect.Effect<string, BadQueryParameters>
    readonly query: Effect.Effect<ReadonlyArray<Filters.QueryParam>, BadQueryParameters>
    readonly options: PageOptions
    readonly max: number
    readonly ceiling: number
    readonly page: Schema.Schema<P, I>
  }): Stream.Stream<P, S2Error> =>
    Stream.unwrap(Effect.gen(function*() {
      const path = yield* spec.path
      const query = yield* spec.query
      const paging = yield* pageOptions(spec.options, spec.max, spec.ceiling)
      const schema = spec.page
      return pagination.offsetPages(
        (offset, limit) =>
          execute(Req.get("graph", path, [...query, ["offset", String(offset)], ["limit", String(limit)]]), schema),
        { ...paging, ceiling: spec.ceiling, label: spec.label, endpoint: `GET ${Req.prefixes.graph}${path}` }
      )
    }))

  const paperPath = (paperId: string, suffix = "") =>
    Effect.map(PaperId.validatePaperId(paperId), (id) => `/paper/${PaperId.toPath(id)}${suffix}`)
  const authorPath = (authorId: string, suffix = "") =>
    Effect.map(PaperId.validateAuthorId(authorId), (id) => `/author/${PaperId.toPath(id)}${suffix}`)

  const dated = (options: DatedPageOptions) =>
    options.publicationDateOrYear === undefined
      ? Effect.succeed<ReadonlyArray<Filters.QueryParam>>([])
      : Effect.map(
        Filters.validatePublicationDateOrYear(options.publicationDateOrYear),
        (value): ReadonlyArray<Filters.QueryParam> => [["publicationDateOrYear", value]]
      )

  const query = (text: string, allowEmpty: boolean) =>
    !allowEmpty && text.trim().length === 0
      ? invalidOption("query", "query is empty: give the words to search for")
      : Effect.succeed<Filters.QueryParam>(["query", text])

  const getPaperAuthorsPages: Service["getPaperAuthorsPages"] = (paperId, options = {}) =>
    offsetList({
      label: "paper authors",
      path: paperPath(paperId, "/authors"),
      query: Effect.map(fieldsParam(Fields.byOperation.getPaperAuthors, options.fields), (f) => [f]),
      options,
      max: 1000,
      ceiling: listCeiling,
      page: pages.paperAuthors
    })

  const getPaperCitationsPages: Service["getPaperCitationsPages"] = (paperId, options = {}) =>
    offsetList({
      label: "citations",
      path: paperPath(paperId, "/citations"),
      query: Effect.map(
        Effect.all([fieldsParam(Fields.byOperation.getPaperCitations, options.fields), dated(options)]),
        ([f, d]) => [f, ...d]
      ),
      options,
      max: 1000,
      ceiling: listCeiling,
      page: pages.citations
    })

  const getPaperReferencesPages: Service["getPaperReferencesPages"] = (paperId, options = {}) =>
    offsetList({
      label: "references",
      path: paperPath(paperId, "/references"),
      query: Effect.map(fieldsParam(Fields.byOperation.getPaperReferences, options.fields), (f) => [f]),
      options,
      max: 1000,
      ceiling: listCeiling,
      page: pages.references
    })

  const getAuthorPapersPages: Service["getAuthorPapersPages"] = (authorId, options = {}) =>
    offsetList({
      label: "author papers",
      path: authorPath(authorId, "/papers"),
      query: Effect.map(
        Effect.all([fieldsParam(Fields.byOperation.getAuthorPapers, options.fields), dated(options)]),
        ([f, d]) => [f, ...d]
      ),
      options,
      max: 1000,
      ceiling: listCeiling,
      page: pages.papers
    })

  const searchAuthorPages: Service["searchAuthorPages"] = (text, options = {}) =>
    offsetList({
      label: "author search",
      path: Effect.succeed("/author/search"),
      query: Effect.all([query(text, false), fieldsParam(Fields.byOperation.searchAuthor, options.fields)]),
      options,
      max: 1000,
      ceiling: listCeiling,
      page: pages.authors
    })

  const searchQuery = (text: string, options: SearchPaperOptions) =>
    Effect.gen(function*() {
      const params: Array<Filters.QueryParam> = [yield* query(text, options.bulk === true)]
      params.push(...yield* Filters.render(options))
      if (options.bulk === true) {
        if (options.sort !== undefined) params.push(["sort", yield* Filters.validateSort(options.sort)])
      } else if ("sort" in options && options.sort !== undefined) {
        return yield* invalidOption("sort", "sort is only allowed with bulk: true (relevance search is ranked)")
      }
      const set = options.bulk === true ? Fields.byOperation.searchPaperBulk : Fields.byOperation.searchPaper
      params.push(yield* fieldsParam(set, options.fields))
      return params
    })

  const bulkPages = (text: string, options: BulkSearchOptions): Stream.Stream<TokenPage<Paper>, S2Error> =>
    Stream.unwrap(Effect.gen(function*() {
      const params = yield* searchQuery(text, options)
      const prefetch = yield* validatePrefetch(options.prefetch)
      const schema = bulkPage
      return pagination.tokenPages(
        (token) =>
          execute(
            Req.get("graph", "/paper/search/bulk", token === undefined ? params : [...params, ["token", token]]),
            schema
          ),
        options.token,
        prefetch,
        `GET ${Req.prefixes.graph}/paper/search/bulk`
      )
    }))

  const relevancePages = (text: string, options: RelevanceSearchOptions) =>
    offsetList({
      label: "relevance search",
      path: Effect.succeed("/paper/search"),
      query: searchQuery(text, options),
      options,
      max: 100,
      ceiling: relevanceCeiling,
      page: pages.papers
    })

  function searchPaperPages(query: string, options: BulkSearchOptions): Stream.Stream<TokenPage<Paper>, S2Error>
  function searchPaperPages(query: string, options?: RelevanceSearchOptions): Stream.Stream<OffsetPage<Paper>, S2Error>
  function searchPaperPages(
    query: string,
    options: SearchPaperOptions = {}
  ): Stream.Stream<TokenPage<Paper> | OffsetPage<Paper>, S2Error> {
    return options.bulk === true ? bulkPages(query, options) : relevancePages(query, options)
  }

  const paperBatch = batch({
    ...paperEndpoint,
    fields: Fields.byOperation.getPapers,
    validate: PaperId.validatePaperId
  })
  function getPapers(
    ids: ReadonlyArray<string>,
    options: BatchOptions<Fields.PaperField> & { readonly returnNotFound: true }
  ): Effect.Effect<BatchResult<Paper>, S2Error>
  function getPapers(
    ids: ReadonlyArray<string>,
    options?: BatchOptions<Fields.PaperField>
  ): Effect.Effect<ReadonlyArray<Paper>, S2Error>
  function getPapers(ids: ReadonlyArray<string>, options?: BatchOptions<Fields.PaperField>) {
    return paperBatch(ids, options)
  }

  const authorBatch = batch({
    ...authorEndpoint,
    fields: Fields.byOperation.getAuthors,
    validate: PaperId.validateAuthorId
  })
  function getAuthors(
    ids: ReadonlyArray<string>,
    options: BatchOptions<Fields.AuthorField> & { readonly returnNotFound: true }
  ): Effect.Effect<BatchResult<Author>, S2Error>
  function getAuthors(
    ids: ReadonlyArray<string>,
    options?: BatchOptions<Fields.AuthorField>
  ): Effect.Effect<ReadonlyArray<Author>, S2Error>
  function getAuthors(ids: ReadonlyArray<string>, options?: BatchOptions<Fields.AuthorField>) {
    return authorBatch(ids, options)
  }

  const matchPaperTitle: Service["matchPaperTitle"] = (text, options = {}) =>
    Effect.gen(function*() {
      const params = [yield* query(text, false), ...yield* Filters.render(options)]
      params.push(yield* fieldsParam(Fields.byOperation.matchPaperTitle, options.fields))
      const answer = yield* execute(Req.get("graph", "/paper/search/match", params), MatchAnswer)
      const [best] = answer.data
      return best ?? (yield* new ObjectNotFound({ message: `no paper title matches ${JSON.stringify(text)}` }))
    })

  const getAutocomplete: Service["getAutocomplete"] = (text) =>
    Effect.gen(function*() {
      const param = yield* query(text, false)
      // The server reads the first 100 characters; sending more would only lengthen the URL.
      const cut: Filters.QueryParam = ["query", Array.from(param[1]).slice(0, autocompleteLength).join("")]
      const answer = yield* execute(Req.get("graph", "/paper/autocomplete", [cut]), AutocompleteAnswer)
      return answer.matches
    })

  const searchSnippet: Service["searchSnippet"] = (text, options = {}) =>
    Effect.gen(function*() {
      const params: Array<Filters.QueryParam> = [yield* query(text, false)]
      params.push(["limit", String(yield* Filters.validateLimit(options.limit ?? 10, 1000))])
      if (options.fields !== undefined) {
        const wrong = options.fields.filter((f) => !/^snippet\.[A-Za-z]/.test(f))
        if (options.fields.length === 0 || wrong.length > 0) {
          return yield* invalidOption(
            "fields",
            `snippet fields must be snippet.* paths such as snippet.text (score and paper always come back); got ${
              wrong.map((f) => JSON.stringify(f)).join(", ") || "an empty list"
            }`
          )
        }
        params.push(["fields", options.fields.join(",")])
      }
      if (options.paperIds !== undefined) {
        if (options.paperIds.length > 100) {
          return yield* invalidOption("paperIds", `paperIds has ${options.paperIds.length} ids: give at most 100`)
        }
        const ids = yield* PaperId.validateIds(options.paperIds, PaperId.validatePaperId, "paperIds")
        // One comma-joined value on the wire: an id with a comma would be read as two.
        const split = ids.findIndex((id) => id.includes(","))
        if (split >= 0) {
          return yield* invalidOption(
            "paperIds",
            `paperIds[${split}] contains a comma, which the API would read as two ids`
          )
        }
        params.push(["paperIds", ids.join(",")])
      }
      if (options.authors !== undefined) {
        if (options.authors.length === 0 || options.authors.length > 10) {
          return yield* invalidOption("authors", `authors has ${options.authors.length} names: give 1 to 10`)
        }
        if (options.authors.some((a) => a.trim() === "" || a.includes(","))) {
          return yield* invalidOption("authors", "authors must be non-empty names without commas")
        }
        params.push(["authors", options.authors.join(",")])
      }
      if (options.insertedBefore !== undefined) {
        if (options.insertedBefore.includes(":")) {
          return yield* invalidOption(
            "insertedBefore",
            "insertedBefore is one date (YYYY, YYYY-MM or YYYY-MM-DD), not a range"
          )
        }
        params.push([
          "insertedBefore",
          yield* Filters.validatePublicationDateOrYear(options.insertedBefore, "insertedBefore")
        ])
      }
      const { fieldsOfStudy, minCitationCount, publicationDateOrYear, venue, year } = options
      params.push(...yield* Filters.render({ fieldsOfStudy, minCitationCount, publicationDateOrYear, venue, year }))
      const answer = yield* execute(Req.get("graph", "/snippet/search", params), SnippetAnswer)
      const results: SnippetResults = Object.assign([...answer.data], { retrievalVersion: answer.retrievalVersion })
      return results
    })

  const recommendationQuery = (options: ListRecommendationOptions) =>
    Effect.gen(function*() {
      const fields = yield* fieldsParam(Fields.byOperation.getRecommendedPapers, options.fields)
      const limit = yield* Filters.validateLimit(options.limit ?? 100, 500)
      return [fields, ["limit", String(limit)]] satisfies ReadonlyArray<Filters.QueryParam>
    })

  const getRecommendedPapers: Service["getRecommendedPapers"] = (paperId, options = {}) =>
    Effect.gen(function*() {
      const id = yield* PaperId.validatePaperId(paperId)
      const poolFrom = options.poolFrom ?? "recent"
      if (poolFrom !== "recent" && poolFrom !== "all-cs") {
        return yield* invalidOption(
          "poolFrom",
          `poolFrom ${JSON.stringify(poolFrom)} is invalid: give "recent" or "all-cs"`
        )
      }
      const params = [...yield* recommendationQuery(options), ["from", poolFrom] as const]
      const path = `/papers/forpaper/${PaperId.toPath(id)}`
      const answer = yield* execute(Req.get("recommendations", path, params), RecommendationAnswer)
      return answer.recommendedPapers
    })

  const getRecommendedPapersFromLists: Service["getRecommendedPapersFromLists"] = (
    positivePaperIds,
    negativePaperIds,
    options = {}
  ) =>
    Effect.gen(function*() {
      if (positivePaperIds.length === 0) {
        return yield* invalidOption(
          "positivePaperIds",
          "positivePaperIds is empty: give at least one paper to find papers like it (the API needs a positive example)"
        )
      }
      const positive = yield* PaperId.validateIds(positivePaperIds, PaperId.validatePaperId, "positivePaperIds")
      const negative = negativePaperIds === undefined || negativePaperIds.length === 0
        ? undefined
        : yield* PaperId.validateIds(negativePaperIds, PaperId.validatePaperId, "negativePaperIds")
      const body = negative === undefined
        ? { positivePaperIds: positive }
        : { positivePaperIds: positive, negativePaperIds: negative }
      const params = yield* recommendationQuery(options)
      const answer = yield* execute(Req.post("recommendations", "/papers/", params, body), RecommendationAnswer)
      return answer.recommendedPapers
    })

  const releaseId = (id: string, parameter: string) =>
    id === "latest" || isReleaseDate(id)
      ? Effect.succeed(id)
      : invalidOption(
        parameter,
        `${parameter} ${JSON.stringify(id)} is invalid: give a release date (YYYY-MM-DD) or "latest"`
      )

  const datasetName = (name: string) =>
    /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)
      ? Effect.succeed(name)
      : invalidOption(
        "datasetName",
        `datasetName ${JSON.stringify(name)} is invalid: give a dataset name such as papers, abstracts or s2orc_v2`
      )

  /** Download links and diffs are only served with a key; say so before sending, not after a 403. */
  const requireKey = (operation: string) =>
    Option.isSome(transport.config.apiKey) ? Effect.void : Effect.fail(
      new Forbidden({
        message:
          `${operation} needs an API key: set S2_API_KEY (or pass apiKey to the layer); keys are free at https://www.semanticscholar.org/product/api`
      })
    )

  const getDatasetDownloadLinks: Service["getDatasetDownloadLinks"] = (release, name) =>
    Effect.gen(function*() {
      const id = yield* releaseId(release, "releaseId")
      const dataset = yield* datasetName(name)
      yield* requireKey("getDatasetDownloadLinks")
      return yield* execute(Req.get("datasets", `/release/${id}/dataset/${dataset}`), Dataset)
    })

  const getDatasetDiffs: Service["getDatasetDiffs"] = (name, start, end) =>
    Effect.gen(function*() {
      const dataset = yield* datasetName(name)
      const from = isReleaseDate(start)
        ? start
        : yield* invalidOption(
          "startReleaseId",
          `startReleaseId ${JSON.stringify(start)} is invalid: give a release date (YYYY-MM-DD)`
        )
      const to = yield* releaseId(end, "endReleaseId")
      if (to !== "latest" && to < from) {
        return yield* invalidOption("endReleaseId", `endReleaseId ${to} is before startReleaseId ${from}`)
      }
      yield* requireKey("getDatasetDiffs")
      return yield* execute(Req.get("datasets", `/diffs/${from}/to/${to}/${dataset}`), DatasetDiff)
    })

  return {
    getAvailableReleases: () => execute(Req.get("datasets", "/release/"), Schema.Array(Schema.String)),
    getRelease: (release) =>
      Effect.flatMap(releaseId(release, "releaseId"), (id) => execute(Req.get("datasets", `/release/${id}`), Release)),
    getDatasetDownloadLinks,
    getDatasetDiffs,
    matchPaperTitle,
    getAutocomplete,
    searchSnippet,
    getRecommendedPapers,
    getRecommendedPapersFromLists,
    getPaper: (paperId, options = {}) =>
      Effect.gen(function*() {
        const id = yield* PaperId.validatePaperId(paperId)
        const fields = yield* fieldsParam(Fields.byOperation.getPaper, options.fields)
        return yield* (yield* batched)
          ? batchedLookup(paperEndpoint, loaders.papers, id, fields[1])
          : execute(Req.get("graph", `/paper/${PaperId.toPath(id)}`, [fields]), Paper)
      }),
    getPapers,
    getAuthor: (authorId, options = {}) =>
      Effect.gen(function*() {
        const id = yield* PaperId.validateAuthorId(authorId)
        const fields = yield* fieldsParam(Fields.byOperation.getAuthor, options.fields)
        return yield* (yield* batched)
          ? batchedLookup(authorEndpoint, loaders.authors, id, fields[1])
          : execute(Req.get("graph", `/author/${PaperId.toPath(id)}`, [fields]), Author)
      }),
    getAuthors,
    getPaperAuthorsPages,
    getPaperAuthors: Function.flow(getPaperAuthorsPages, pagination.records),
    getPaperCitationsPages,
    getPaperCitations: Function.flow(getPaperCitationsPages, pagination.records),
    getPaperReferencesPages,
    getPaperReferences: Function.flow(getPaperReferencesPages, pagination.records),
    getAuthorPapersPages,
    getAuthorPapers: Function.flow(getAuthorPapersPages, pagination.records),
    searchAuthorPages,
    searchAuthor: Function.flow(searchAuthorPages, pagination.records),
    searchPaperPages,
    searchPaper: (query, options = {}) =>
      pagination.records<Paper, S2Error>(
        options.bulk === true ? bulkPages(query, options) : relevancePages(query, options)
      )
  }
}

/** The overrides in force with `change` applied: the one place the three helpers below merge them. */
const overridden = (change: {
  readonly timeout?: Duration.DurationInput | undefined
  readonly retry?: RetryPolicy | false | undefined
}) =>
  Effect.gen(function*() {
    const current = yield* Transport.Overrides
    const timeout = change.timeout === undefined ? {} : { timeout: yield* positiveDuration("timeout", change.timeout) }
    const retry = change.retry === undefined ? {} : { retry: change.retry }
    return { ...current, ...timeout, ...retry }
  })

/**
 * Overrides the per-attempt time-out for every request made by an effect (or a scope of work).
 * A non-positive time-out fails with `BadQueryParameters` before any request.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar, withTimeout } from "@s2-effect/core"
 *
 * const quick = SemanticScholar.pipe(
 *   Effect.flatMap((s2) => s2.getPaper("CorpusId:1")),
 *   withTimeout("5 seconds")
 * )
 * ```
 * @category combinators
 * @since 0.1.0
 */
export const withTimeout: {
  (
    timeout: Duration.DurationInput
  ): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | BadQueryParameters, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, timeout: Duration.DurationInput): Effect.Effect<A, E | BadQueryParameters, R>
} = Function.dual(
  2,
  <A, E, R>(self: Effect.Effect<A, E, R>, timeout: Duration.DurationInput) =>
    Effect.flatMap(overridden({ timeout }), (value) => Effect.provideService(self, Transport.Overrides, value))
)

/**
 * Overrides the retry policy for every request made by an effect; `false` makes one attempt each.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar, withRetry } from "@s2-effect/core"
 *
 * const once = SemanticScholar.pipe(
 *   Effect.flatMap((s2) => s2.getPaper("CorpusId:1")),
 *   withRetry(false)
 * )
 * ```
 * @category combinators
 * @since 0.1.0
 */
export const withRetry: {
  (retry: RetryPolicy | false): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, retry: RetryPolicy | false): Effect.Effect<A, E, R>
} = Function.dual(
  2,
  <A, E, R>(self: Effect.Effect<A, E, R>, retry: RetryPolicy | false) =>
    Effect.flatMap(
      Effect.orDie(overridden({ retry })), // no time-out to check: cannot fail
      (value) => Effect.provideService(self, Transport.Overrides, value)
    )
)

/**
 * The same overrides for a Stream, e.g. a harvest that should fail fast.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { SemanticScholar, withStreamOverrides } from "@s2-effect/core"
 *
 * const harvest = Stream.unwrap(Effect.map(SemanticScholar, (s2) => s2.searchPaper("graph", { bulk: true })))
 * const failFast = withStreamOverrides(harvest, { retry: false, timeout: "10 seconds" })
 * ```
 * @category combinators
 * @since 0.1.0
 */
export const withStreamOverrides = <A, E, R>(
  self: Stream.Stream<A, E, R>,
  overrides: { readonly timeout?: Duration.DurationInput; readonly retry?: RetryPolicy | false }
): Stream.Stream<A, E | BadQueryParameters, R> =>
  Stream.unwrap(Effect.map(overridden(overrides), (value) => Stream.provideService(self, Transport.Overrides, value)))

/**
 * Switches automatic batching of `getPaper` / `getAuthor` on or off for every lookup made by an
 * effect (or a scope of work), whatever the layer's `batching` option says; the window and size
 * are the layer's. Batched lookups run with the layer's time-out and retry policy.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar, withBatching } from "@s2-effect/core"
 *
 * const titles = (ids: ReadonlyArray<string>) =>
 *   SemanticScholar.pipe(
 *     Effect.flatMap((s2) =>
 *       Effect.forEach(ids, (id) => s2.getPaper(id, { fields: ["title"] }), { concurrency: "unbounded" })
 *     ),
 *     withBatching(true)
 *   )
 * ```
 * @category combinators
 * @since 0.1.0
 */
export const withBatching: {
  (enabled: boolean): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, enabled: boolean): Effect.Effect<A, E, R>
} = Function.dual(
  2,
  <A, E, R>(self: Effect.Effect<A, E, R>, enabled: boolean) =>
    Effect.provideService(self, Lookups.BatchingOverride, { enabled })
)
