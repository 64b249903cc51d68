/**
 * The Semantic Scholar client as an Effect service: the operations' signatures, the tag, and the
 * layers. Every operation validates its input (a typed `BadQueryParameters`, nothing sent),
 * describes the request as a plain value, and hands it to the one transport, which adds the base
 * URL and key, paces, times out, retries, logs and decodes. The endpoints themselves are data, in
 * `internal/graph.ts`, `internal/recommendations.ts` and `internal/datasets.ts`.
 *
 * @since 1.0.0
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Function from "effect/Function"
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { Author } from "./Author.js"
import type { Citation, Reference } from "./Citation.js"
import type { Dataset, DatasetDiff, Release } from "./Dataset.js"
import type * as Fields from "./Fields.js"
import * as internal from "./internal/client.js"
import * as Lookups from "./internal/lookups.js"
import * as internalResponse from "./internal/response.js"
import * as Transport from "./internal/transport.js"
import * as Validate from "./internal/validate.js"
import type {
  BatchOptions,
  BatchResult,
  BulkSearchOptions,
  DatedPageOptions,
  FieldsOption,
  ListRecommendationOptions,
  MatchTitleOptions,
  Options,
  PageOptions,
  RecommendationOptions,
  RelevanceSearchOptions,
  SearchPaperOptions,
  SnippetSearchOptions
} from "./Options.js"
import type { Apply, Overridable, Overridden, Overrides } from "./Overrides.js"
import type { OffsetPage, TokenPage } from "./Page.js"
import type { Paper, PaperAuthor, PaperWire } from "./Paper.js"
import type { RetryPolicy } from "./RetryPolicy.js"
import type { InvalidOptions, S2Error } from "./S2Error.js"
import type { Autocomplete, SnippetResults } from "./Snippet.js"

/**
 * The operations of the client. Lookups are Effects; paginated and bulk endpoints are pull-based
 * Streams of records, with a `…Pages` form that yields the page envelopes.
 *
 * @category services
 * @since 1.0.0
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
  readonly searchPaper: {
    (query: string, options: BulkSearchOptions & { readonly wire: true }): Stream.Stream<PaperWire, S2Error>
    (query: string, options?: SearchPaperOptions): Stream.Stream<Paper, S2Error>
  }
  readonly searchPaperPages: {
    (query: string, options: BulkSearchOptions & { readonly wire: true }): Stream.Stream<TokenPage<PaperWire>, S2Error>
    (query: string, options: BulkSearchOptions): Stream.Stream<TokenPage<Paper>, S2Error>
    (query: string, options?: RelevanceSearchOptions): Stream.Stream<OffsetPage<Paper>, S2Error>
  }
  /**
   * GET `/paper/search/match`: the one paper whose title best matches, with its `matchScore`
   * (the reference client's `search_paper(match_title=True)`); no match is `ObjectNotFound`.
   * The endpoint's answer, unchecked: the live API is lenient (a fragment of a title gets the whole
   * title, a title with one word changed gets another paper), so its paper is not the paper of
   * `query` until checked: `TitleMatch.compare(query, paper.title).same` of `@s2-effect/jobs` (with
   * `title` among the fields), else `TitleMatch.describeNearest` says why not, as `Resolve.references`,
   * `s2 match` and the assistant tools do.
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
 * @since 1.0.0
 */
export class SemanticScholar extends Context.Service<SemanticScholar, Service>()("@s2-effect/core/SemanticScholar") {
  /** {@link make}, as a static of the service. */
  static readonly make = (options?: Options) => make(options)
  /** {@link layer}, as a static of the service. */
  static readonly layer = (options?: Options) => layer(options)
  /** {@link config}, as a static of the service. */
  static readonly config = <O extends Pick<Options, "apiKey" | "apiUrl">>(options: Configured<O>) => config(options)
  /** {@link layerConfig}, as a static of the service. */
  static readonly layerConfig = (options?: Configured<Options>) => layerConfig(options)
}

/**
 * Builds the service from its options and an `HttpClient`. The rate limiter, the batching windows
 * and the cache store live in the scope. An option out of range fails with `InvalidOptions`.
 *
 * @category constructors
 * @since 1.0.0
 */
export const make: (options?: Options) => Effect.Effect<Service, InvalidOptions, HttpClient.HttpClient | Scope.Scope> =
  internal.make

/**
 * The client over whatever `HttpClient` is provided (the node and browser packages provide one).
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import * as FetchHttpClient from "effect/http/FetchHttpClient"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * const client = SemanticScholar.layer({ timeout: "10 seconds" }).pipe(Layer.provide(FetchHttpClient.layer))
 * ```
 * @category layers
 * @since 1.0.0
 */
export const layer = (options: Options = {}): Layer.Layer<SemanticScholar, InvalidOptions, HttpClient.HttpClient> =>
  Layer.effect(SemanticScholar, make(options))

/**
 * The key from `S2_API_KEY` (trimmed; empty or unset means no key), kept `Redacted`.
 *
 * @category config
 * @since 1.0.0
 */
export const apiKeyConfig: Config.Config<Redacted.Redacted<string> | undefined> = Config.String("S2_API_KEY").pipe(
  Config.option,
  Config.map((key) =>
    Option.getOrUndefined(
      Option.map(Option.filter(Option.map(key, (k) => k.trim()), (k) => k.length > 0), Redacted.make)
    )
  )
)

/**
 * A function hiding `key` in a text, as the client hides it in its errors and logs: every place
 * the key shows, as it is, JSON-escaped, in any letter case, percent-encoded or as HTML character
 * references (mixed or nested), base64- or base64url-encoded (alone, or inside a longer encoded text
 * such as Basic credentials), becomes `<redacted>`. Where the key was found only once decoded,
 * the text comes back decoded. No key (`undefined` or empty) leaves texts as they are. For tools
 * that write what a server answered (a recorder, a log): apply it to each string, not to text
 * made of them, such as a JSON document, which a decoded answer would no longer parse as.
 *
 * @category redaction
 * @since 1.1.0
 */
export const redactKey = (key: Redacted.Redacted<string> | string | undefined): (text: string) => string =>
  internalResponse.redactKey(Redacted.isRedacted(key) ? Redacted.value(key) : key)

/**
 * The API root from `S2_API_URL` (trimmed; empty or unset means the production root).
 *
 * @category config
 * @since 1.0.0
 */
export const apiUrlConfig: Config.Config<string | undefined> = Config.String("S2_API_URL").pipe(
  Config.option,
  Config.map((url) => Option.getOrUndefined(Option.filter(Option.map(url, (u) => u.trim()), (u) => u.length > 0)))
)

/**
 * Options where each may be given as a value or as a `Config` of it.
 *
 * @category config
 * @since 1.0.0
 */
export type Configured<O> = { readonly [K in keyof O]?: O[K] | Config.Config<O[K]> }

/** Each option as a `Config`. */
const configs = <O>(options: Configured<O>): Config.Config<Partial<O>> =>
  Config.all(
    Object.fromEntries(
      Object.entries(options).map(([name, value]) => [name, Config.isConfig(value) ? value : Config.succeed(value)])
    ) as Record<string, Config.Config<unknown>>
  ) as Config.Config<Partial<O>>

/**
 * The layer's options read through Effect `Config`: each option a value or a `Config`; `apiKey`
 * defaults to {@link apiKeyConfig} (`S2_API_KEY`) and `apiUrl` to {@link apiUrlConfig}
 * (`S2_API_URL`). The one place the environment is read: `layerConfig`, the Node layer and the CLI
 * build on it.
 *
 * @category config
 * @since 1.0.0
 */
export const config = <O extends Pick<Options, "apiKey" | "apiUrl">>(options: Configured<O>): Config.Config<O> =>
  Config.map(
    Config.all({
      options: configs(options),
      apiKey: apiKeyConfig,
      apiUrl: apiUrlConfig
    }),
    ({ apiKey, apiUrl, options }): O => {
      const given = options as O
      const key = given.apiKey ?? apiKey
      const url = given.apiUrl ?? apiUrl
      return { ...given, ...(key === undefined ? {} : { apiKey: key }), ...(url === undefined ? {} : { apiUrl: url }) }
    }
  )

/**
 * The client configured through Effect `Config` (see {@link config}), so any `ConfigProvider` works.
 *
 * @example
 * ```ts
 * import { Config, Layer } from "effect"
 * import * as FetchHttpClient from "effect/http/FetchHttpClient"
 * import { SemanticScholar } from "@s2-effect/core"
 *
 * const client = SemanticScholar.layerConfig({ timeout: Config.Duration("S2_TIMEOUT"), retry: false }).pipe(
 *   Layer.provide(FetchHttpClient.layer)
 * )
 * ```
 * @category layers
 * @since 1.0.0
 */
export const layerConfig = (
  options: Configured<Options> = {}
): Layer.Layer<SemanticScholar, InvalidOptions | Config.ConfigError, HttpClient.HttpClient> =>
  Layer.effect(SemanticScholar, Effect.flatMap(config(options), make))

// ---------------------------------------------------------------------------------------------
// per-call overrides of the layer's settings (their models: the Overrides module)

/** Provides a reference's value (checked lazily, when the Effect or Stream runs) to an Effect or a Stream. */
const provide = <Self extends Overridable, I, S, E2>(
  self: Self,
  tag: Context.Key<I, S>,
  value: Effect.Effect<S, E2>
): Overridden<Self, E2> =>
  (Stream.isStream(self)
    ? Stream.unwrap(Effect.map(value, (v) => Stream.provideService(self, tag, v)))
    : Effect.flatMap(value, (v) => Effect.provideService(self, tag, v))) as Overridden<Self, E2>

/** The overrides in force with `change` applied: the one place they are merged. */
const overridden = (
  change: Overrides & { readonly timeoutInput?: Duration.Input }
): Effect.Effect<Overrides, InvalidOptions> =>
  Effect.gen(function*() {
    const now: Overrides = yield* Effect.service(Transport.CurrentOverrides)
    const retry = change.retry === undefined ? {} : { retry: change.retry }
    if (change.timeoutInput === undefined) return { ...now, ...retry }
    const timeout = yield* Effect.fromResult(Validate.option(Validate.positiveDuration("timeout", change.timeoutInput)))
    return { ...now, timeout, ...retry }
  })

/**
 * Overrides the per-attempt time-out of every request made by an Effect or a Stream. A
 * non-positive time-out fails with `InvalidOptions` before any request.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { SemanticScholar, withTimeout } from "@s2-effect/core"
 *
 * const quick = SemanticScholar.pipe(
 *   Effect.flatMap((s2) => s2.getPaper("CorpusId:1")),
 *   withTimeout("5 seconds")
 * )
 * const harvest = Stream.unwrap(Effect.map(SemanticScholar, (s2) => s2.searchPaper("graph", { bulk: true })))
 * const failFast = withTimeout(harvest, "10 seconds")
 * ```
 * @category combinators
 * @since 1.0.0
 */
export const withTimeout: {
  (timeout: Duration.Input): Apply<InvalidOptions>
  <Self extends Overridable>(self: Self, timeout: Duration.Input): Overridden<Self, InvalidOptions>
} = Function.dual(
  2,
  <Self extends Overridable>(self: Self, timeout: Duration.Input) =>
    provide(self, Transport.CurrentOverrides, overridden({ timeoutInput: timeout }))
)

/**
 * Overrides the retry policy of every request made by an Effect or a Stream; `false` makes one
 * attempt each.
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
 * @since 1.0.0
 */
export const withRetry: {
  (retry: RetryPolicy | false): Apply<never>
  <Self extends Overridable>(self: Self, retry: RetryPolicy | false): Overridden<Self, never>
} = Function.dual(
  2,
  // Nothing to check: cannot fail.
  <Self extends Overridable>(self: Self, retry: RetryPolicy | false) =>
    provide(self, Transport.CurrentOverrides, Effect.orDie(overridden({ retry })))
)

/**
 * Both overrides at once, on a Stream or an Effect, e.g. a harvest that should fail fast.
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
 * @since 1.0.0
 */
export const withStreamOverrides = <Self extends Overridable>(
  self: Self,
  overrides: { readonly timeout?: Duration.Input; readonly retry?: RetryPolicy | false }
): Overridden<Self, InvalidOptions> =>
  provide(
    self,
    Transport.CurrentOverrides,
    overridden({
      ...(overrides.timeout === undefined ? {} : { timeoutInput: overrides.timeout }),
      ...(overrides.retry === undefined ? {} : { retry: overrides.retry })
    })
  )

/**
 * Switches automatic batching of `getPaper` / `getAuthor` on or off for every lookup made by an
 * Effect or a Stream, whatever the layer's `batching` option says; the window and size are the
 * layer's. Batched lookups run with the layer's time-out and retry policy.
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
 * @since 1.0.0
 */
export const withBatching: {
  (enabled: boolean): Apply<never>
  <Self extends Overridable>(self: Self, enabled: boolean): Overridden<Self, never>
} = Function.dual(
  2,
  <Self extends Overridable>(self: Self, enabled: boolean) =>
    provide(self, Lookups.BatchingOverride, Effect.succeed({ enabled }))
)
