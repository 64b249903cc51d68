/**
 * Streaming downloads and reads of the Datasets API's files on Node: fetch every file of a dataset
 * to disk (resumable, concurrent, with progress events), read a gzipped JSON-lines file as a
 * `Stream` of records in constant memory, and turn a diff into a `Stream` of upserts and deletes.
 *
 * The files live on an object store, not on the API: their links are pre-signed URLs, so they are
 * fetched with the plain `HttpClient` from the context, never through the API transport, and never
 * with the API key.
 *
 * One namespace over three modules: `DatasetDownload` (downloads), `DatasetFile` (reading
 * JSON lines) and `DatasetDiffs` (diffs), with their error `DatasetFileError`.
 *
 * @since 1.0.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"

export * from "./DatasetDiffs.js"
export * from "./DatasetDownload.js"
export * from "./DatasetFile.js"
export * from "./DatasetFileError.js"

/**
 * What the functions of this module need besides `SemanticScholar`: the file system and a plain
 * undici `HttpClient` for the file host (separate from the API client's, which holds the key).
 * undici is loaded when the layer is built, so a program that only calls the API never loads it
 * (the API client is Node's `fetch`: `NodeSemanticScholar.httpClient`).
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * NodeDatasets.readDatasetFile("part-0.jsonl.gz").pipe(Stream.runCount, Effect.provide(NodeDatasets.layer))
 * ```
 * @category layers
 * @since 1.0.0
 */
export const layer: Layer.Layer<HttpClient.HttpClient | FileSystem.FileSystem> = Layer.merge(
  Layer.unwrap(
    Effect.map(Effect.promise(() => import("@effect/platform-node/NodeHttpClient")), (http) => http.layerUndici)
  ),
  NodeFileSystem.layer
)
