/**
 * Diffs between releases of a dataset, as the records to apply: every update and delete of every
 * step, read straight from the file host in the order they must be applied.
 *
 * @since 1.0.0
 */
import type { DatasetDiff, S2Error } from "@s2-effect/core"
import type * as FileSystem from "effect/FileSystem"
import type * as HttpClient from "effect/http/HttpClient"
import type * as Stream from "effect/Stream"
import type { ReadOptions } from "./DatasetFile.js"
import type { DatasetFileError } from "./DatasetFileError.js"
import * as internal from "./internal/diffs.js"

/**
 * One record of a diff: `update` records are to be upserted (the whole new record), `delete`
 * records carry only the key (`corpusid` for the paper datasets).
 *
 * @category models
 * @since 1.0.0
 */
export interface DiffRecord {
  readonly op: "update" | "delete"
  readonly record: unknown
}

/**
 * The records of a diff as a `Stream` of `{ op, record }`, in the order they must be applied:
 * for each step of `diff.diffs` in turn, every record of its `update_files` as `update`, then
 * every record of its `delete_files` as `delete` (only the key, `corpusid` for paper datasets).
 * The files are read straight from their links (see {@link readDatasetFile}); what to do with
 * each record is the caller's: see the SQLite example in `docs/datasets.md`.
 *
 * @example
 * ```ts
 * import { Effect, Layer, Schema, Stream } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 * import { NodeDatasets, NodeSemanticScholar } from "@s2-effect/node"
 *
 * const Key = Schema.Struct({ corpusid: Schema.Number })
 * const mirror = new Map<number, unknown>()
 * const program = Effect.gen(function*() {
 *   const s2 = yield* SemanticScholar
 *   const diff = yield* s2.getDatasetDiffs("papers", "2025-01-07", "latest")
 *   yield* NodeDatasets.diffRecords(diff).pipe(
 *     Stream.runForEach(({ op, record }) =>
 *       Effect.map(Schema.decodeUnknownEffect(Key)(record), ({ corpusid }) => {
 *         if (op === "update") mirror.set(corpusid, record)
 *         else mirror.delete(corpusid)
 *       })
 *     )
 *   )
 * })
 * program.pipe(Effect.provide(Layer.merge(NodeSemanticScholar.layerConfig(), NodeDatasets.layer)), Effect.runPromise)
 * ```
 * @category reading
 * @since 1.0.0
 */
export const diffRecords: (
  diff: DatasetDiff,
  options?: Omit<ReadOptions, "schema">
) => Stream.Stream<DiffRecord, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem> =
  internal.diffRecords
