/**
 * `@s2-effect/testing`: a deterministic emulator of the Semantic Scholar APIs.
 *
 * @since 0.1.0
 */
/** @category modules */
export * as Cassette from "./Cassette.js"
export { type AuthorCore, Corpus, type CorpusOptions, type PaperCore } from "./Corpus.js"
export type { Graph } from "./internal/corpus/graph.js"
export type { Venue } from "./internal/corpus/vocabulary.js"
export { Emulator, type EmulatorOptions, type EmulatorService, type RecordedRequest } from "./Emulator.js"
/** @category modules */
export * as Faults from "./Faults.js"
/** @category modules */
export * as Fixtures from "./Fixtures.js"
export type { EmulatorRequest, EmulatorResponse } from "./internal/wire.js"
/** @category modules */
export * as SemanticScholarStub from "./SemanticScholarStub.js"
export { type EmulatorServer, type ServerOptions, startEmulator } from "./Server.js"
