/**
 * @s2-effect/core — the Effect client for the Semantic Scholar APIs.
 *
 * @module @s2-effect/core
 * @document ../README.md
 * @since 1.0.0
 */
export { Author } from "./Author.js"
export { Citation, Reference } from "./Citation.js"
export { Dataset, DatasetDiff, DatasetSummary, Diff, Release } from "./Dataset.js"
/** @category modules */
export * as Decoder from "./Decoder.js"
/** @category modules */
export * as Fields from "./Fields.js"
/** @category modules */
export * as Files from "./Files.js"
/** @category modules */
export * as Filters from "./Filters.js"
/** @category modules */
export * as HttpStatus from "./HttpStatus.js"
/** @category modules */
export * as Overrides from "./Overrides.js"
export type { OffsetPage, TokenPage } from "./Page.js"
/** @category modules */
export * as Page from "./Page.js"
export {
  Embedding,
  ExternalIds,
  Journal,
  OpenAccessPdf,
  Paper,
  PaperAuthor,
  PaperRef,
  type PaperRefEncoded,
  type PaperWire,
  PublicationVenue,
  S2FieldOfStudy,
  Tldr,
  type WireRecord
} from "./Paper.js"
/** @category modules */
export * as PaperId from "./PaperId.js"
/** @category modules */
export * as RateLimit from "./RateLimit.js"
/** @category modules */
export * as ResponseCache from "./ResponseCache.js"
/** @category modules */
export * as RetryPolicy from "./RetryPolicy.js"
export * from "./S2Error.js"
/** @category modules */
export * as Validate from "./Validate.js"
/** @category modules */
export * as Waits from "./Waits.js"
/** @category modules */
export * as Metrics from "./Metrics.js"
export {
  type BatchingOptions,
  type BatchOptions,
  type BatchResult,
  type BulkSearchOptions,
  type DatedPageOptions,
  defaultApiUrl,
  type FieldsOption,
  type ListRecommendationOptions,
  type MatchTitleOptions,
  type Options,
  type PageOptions,
  type RecommendationOptions,
  type RelevanceSearchOptions,
  type SearchPaperOptions,
  type SnippetField,
  type SnippetSearchOptions
} from "./Options.js"
export {
  apiKeyConfig,
  apiUrlConfig,
  type Configured,
  redactKey,
  SemanticScholar,
  type Service,
  withBatching,
  withRetry,
  withStreamOverrides,
  withTimeout
} from "./SemanticScholar.js"
export { Autocomplete, Snippet, SnippetPaper, type SnippetResults, SnippetText } from "./Snippet.js"
