/**
 * `@s2-effect/testing`: a deterministic emulator of the Semantic Scholar APIs.
 *
 * @module @s2-effect/testing
 * @document ../README.md
 * @since 1.0.0
 */
/** @category modules */
export * as Cassette from "./Cassette.js"
export {
  type AuthorCore,
  Corpus,
  type CorpusOptions,
  type Graph,
  type PaperCore,
  type SearchHit,
  type SearchIndex,
  type SearchOptions,
  type Venue
} from "./Corpus.js"
export {
  type Arrivals,
  Emulator,
  type EmulatorOptions,
  type EmulatorRequest,
  type EmulatorResponse,
  type EmulatorService,
  type RecordedRequest
} from "./Emulator.js"
/** @category modules */
export * as CorpusCache from "./CorpusCache.js"
/** @category modules */
export * as Faults from "./Faults.js"
/** @category modules */
export * as Fixtures from "./Fixtures.js"
/** @category modules */
export * as SemanticScholarStub from "./SemanticScholarStub.js"
export { type EmulatorServer, requestsPath, type RequestSummary, type ServerOptions, startEmulator } from "./Server.js"
