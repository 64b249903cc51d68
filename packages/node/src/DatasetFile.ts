/**
 * Reading the Datasets API's files: a gzipped JSON-lines file, from disk or from its link, as a
 * `Stream` of records in constant memory whatever the file's size, each decoded with the caller's
 * schema by the core's compiled decoder when one is given.
 *
 * @since 1.0.0
 */
import type { S2Error } from "@s2-effect/core"
import type * as Duration from "effect/Duration"
import type * as FileSystem from "effect/FileSystem"
import type * as HttpClient from "effect/http/HttpClient"
import type * as Schema from "effect/Schema"
import type * as Stream from "effect/Stream"
import type { DatasetFileError } from "./DatasetFileError.js"
import * as internal from "./internal/jsonLines.js"

/**
 * Options of {@link readDatasetFile}.
 *
 * @category options
 * @since 1.0.0
 */
export interface ReadOptions<A = unknown, I = unknown> {
  /** Decodes each record; without it the records are the parsed JSON (`unknown`). */
  readonly schema?: Schema.Codec<A, I> | undefined
  /** How long the host of a link may stay silent. Default 60 seconds. */
  readonly idleTimeout?: Duration.Input | undefined
}

/**
 * Decodes a gzipped JSON-lines byte stream from any source into records, in constant memory: the
 * bytes are gunzipped, split on newlines and each line parsed (and decoded with `schema` when
 * given). A corrupt or truncated gzip stream, a line that is not JSON and a record that does not
 * match fail with a {@link DatasetFileError} naming `file` and the line; the records before it
 * are emitted first.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { gzipSync } from "node:zlib"
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const bytes = Stream.make(new Uint8Array(gzipSync("{\"corpusid\":1}\n{\"corpusid\":2}\n")))
 * NodeDatasets.gzipJsonLines(bytes, "inline").pipe(Stream.runCollect, Effect.runPromise)
 * ```
 * @category reading
 * @since 1.0.0
 */
export const gzipJsonLines: <A = unknown, I = unknown, E = never, R = never>(
  bytes: Stream.Stream<Uint8Array, E, R>,
  file: string,
  schema?: Schema.Codec<A, I>
) => Stream.Stream<A, E | DatasetFileError, R> = internal.gzipJsonLines

/**
 * Reads a gzipped JSON-lines dataset file, from a local path or an http(s) URL (a pre-signed link
 * from `getDatasetDownloadLinks` or a diff), as a `Stream` of records, in constant memory whatever
 * the file's size. With `options.schema`, each record is decoded with it (keys it does not name are
 * dropped, as with Schema). See {@link gzipJsonLines} for the failures; an HTTP failure is the
 * matching `S2Error` (no retry: a read cannot resume).
 *
 * @example
 * ```ts
 * import { Effect, Schema, Stream } from "effect"
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const Abstract = Schema.Struct({ corpusid: Schema.Number, abstract: Schema.NullOr(Schema.String) })
 * NodeDatasets.readDatasetFile("data/abstracts/part-0.jsonl.gz", { schema: Abstract }).pipe(
 *   Stream.filter((a) => a.abstract !== null),
 *   Stream.runCount,
 *   Effect.provide(NodeDatasets.layer),
 *   Effect.runPromise
 * )
 * ```
 * @category reading
 * @since 1.0.0
 */
export const readDatasetFile: <A = unknown, I = unknown>(
  pathOrUrl: string,
  options?: ReadOptions<A, I>
) => Stream.Stream<A, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem> =
  internal.readDatasetFile
