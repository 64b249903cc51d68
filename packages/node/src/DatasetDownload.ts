/**
 * Downloads of the Datasets API's files to disk: every file of a dataset of a release, or one
 * link, resumable, concurrent, with progress events. The files live on an object store, not on
 * the API: their links are pre-signed URLs, fetched with the plain `HttpClient` from the context,
 * never with the API key.
 *
 * @since 1.0.0
 */
import type { RetryPolicy, S2Error, SemanticScholar } from "@s2-effect/core"
import type * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import type * as FileSystem from "effect/FileSystem"
import type * as HttpClient from "effect/http/HttpClient"
import type * as Result from "effect/Result"
import type * as Stream from "effect/Stream"
import type { DatasetFileError } from "./DatasetFileError.js"
import * as internal from "./internal/download.js"

/**
 * Progress of a download, one file at a time (several files interleave when `concurrency` > 1).
 * `file` is the file's name (the last segment of its link), `path` where it is (or will be) on
 * disk, `bytesDone` the bytes on disk so far and `bytesTotal` the file's size, `undefined` only
 * when the host did not say.
 *
 * - `Started`: the host answered; `bytesDone` > 0 when a partial file is being resumed.
 * - `Progress`: a chunk was written.
 * - `Completed`: the file is complete under its final name.
 * - `Skipped`: the file was already complete on disk; nothing was fetched.
 *
 * @example
 * ```ts
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const line = NodeDatasets.DownloadEvent.$match({
 *   Started: (e) => `${e.file}: from ${e.bytesDone}`,
 *   Progress: (e) => `${e.file}: ${e.bytesDone}/${e.bytesTotal ?? "?"}`,
 *   Completed: (e) => `${e.file}: done`,
 *   Skipped: (e) => `${e.file}: already there`
 * })
 * ```
 * @category models
 * @since 1.0.0
 */
export type DownloadEvent = Data.TaggedEnum<{
  Started: DownloadState
  Progress: DownloadState
  Completed: DownloadState
  Skipped: DownloadState
}>

/**
 * The fields every {@link DownloadEvent} carries.
 *
 * @category models
 * @since 1.0.0
 */
export interface DownloadState {
  readonly file: string
  readonly path: string
  readonly bytesDone: number
  readonly bytesTotal: number | undefined
}

/**
 * Constructors, guards (`$is`) and `$match` for {@link DownloadEvent}.
 *
 * @example
 * ```ts
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const event = NodeDatasets.DownloadEvent.Skipped({ file: "a.gz", path: "/tmp/a.gz", bytesDone: 1, bytesTotal: 1 })
 * NodeDatasets.DownloadEvent.$is("Skipped")(event) // true
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const DownloadEvent: Data.TaggedEnum.Constructor<DownloadEvent> = internal.DownloadEvent

/**
 * Options of {@link downloadDataset} and {@link downloadFile}.
 *
 * @category options
 * @since 1.0.0
 */
export interface DownloadOptions {
  /**
   * Where the files go; created if missing, with the directories above it (`Files.makeDirectory`:
   * one that cannot be made fails at once). Use one directory per release and dataset.
   */
  readonly directory: string
  /** How many files are fetched at once. Default 4. */
  readonly concurrency?: number | undefined
  /**
   * Retries of transient failures (5xx, 429, time-outs, dropped connections), each resuming where
   * the file stopped. Default {@link RetryPolicy.defaultPolicy}; `false` makes one attempt. The
   * policy starts afresh whenever the file gets further than any attempt got, so a long file on a
   * flaky link still completes, and a host that breaks off at the same byte every time uses it up.
   */
  readonly retry?: RetryPolicy.RetryPolicy | false | undefined
  /** How long the host may stay silent (before answering, or between chunks). Default 60 seconds. */
  readonly idleTimeout?: Duration.Input | undefined
}

/**
 * The local name of a link: the last segment of its path, decoded; the query of a pre-signed link
 * is not part of the name. Refused: a link that is not http(s) (`Link`), and names that could
 * escape the directory, that hold control or bidirectional characters (U+202E, a newline), or that
 * end in `.part` or `.part.json` as the download's own working files do (`Name`).
 *
 * @example
 * ```ts
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * NodeDatasets.fileNameOf("https://bucket.s3.amazonaws.com/staging/papers/part-0.jsonl.gz?X-Amz-Signature=abc")
 * // Result.succeed("part-0.jsonl.gz")
 * ```
 * @category utils
 * @since 1.0.0
 */
export const fileNameOf: (url: string) => Result.Result<string, DatasetFileError> = internal.fileNameOf

/**
 * Downloads one file of a dataset (a link from `getDatasetDownloadLinks` or a diff) into
 * `directory`, under the last segment of the link's path. The file is written as `<name>.part`
 * and renamed once complete, with what identifies the host's file (the link without its query, the
 * size, the ETag or Last-Modified) noted in `<name>.part.json`. A `.part` left by an interrupted
 * run is resumed with an HTTP `Range` request under `If-Range` only when the host still has that
 * file (a host answering 200, another ETag or another size restarts it, and so does a `.part`
 * without notes), with a Warning saying why; a file already under its final name is skipped
 * without a request. Transient failures are retried with `retry`, each time resuming.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const url = "https://files.example/staging/2025-01-07/papers/part-0.jsonl.gz?X-Amz-Signature=abc"
 * NodeDatasets.downloadFile(url, { directory: "data/2025-01-07/papers" }).pipe(
 *   Stream.runLast,
 *   Effect.provide(NodeDatasets.layer),
 *   Effect.runPromise
 * )
 * ```
 * @category downloads
 * @since 1.0.0
 */
export const downloadFile: (
  url: string,
  options: DownloadOptions
) => Stream.Stream<DownloadEvent, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem> =
  internal.downloadFile

/**
 * Downloads every file of a dataset of a release into `options.directory`, `concurrency` files at
 * a time, as a `Stream` of {@link DownloadEvent}s for a progress display; run it to the end
 * (`Stream.runDrain`) to download. The links come from `getDatasetDownloadLinks` (so an API key is
 * needed); the files are fetched from the file host without it. See {@link downloadFile} for
 * resuming, skipping and retries. Interrupting the stream stops every download and leaves the
 * `.part` files for the next run to resume.
 *
 * @example
 * ```ts
 * import { Effect, Layer, Stream } from "effect"
 * import { NodeDatasets, NodeSemanticScholar } from "@s2-effect/node"
 *
 * const program = NodeDatasets.downloadDataset("latest", "abstracts", { directory: "data/abstracts", concurrency: 2 }).pipe(
 *   Stream.filter(NodeDatasets.DownloadEvent.$is("Completed")),
 *   Stream.runForEach((e) => Effect.log(`${e.file}: ${e.bytesDone} bytes`))
 * )
 * program.pipe(
 *   Effect.provide(Layer.merge(NodeSemanticScholar.layerConfig(), NodeDatasets.layer)),
 *   Effect.runPromise
 * )
 * ```
 * @category downloads
 * @since 1.0.0
 */
export const downloadDataset: (
  releaseId: string,
  datasetName: string,
  options: DownloadOptions
) => Stream.Stream<
  DownloadEvent,
  S2Error | DatasetFileError,
  SemanticScholar | HttpClient.HttpClient | FileSystem.FileSystem
> = internal.downloadDataset
