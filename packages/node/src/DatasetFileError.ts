import * as Schema from "effect/Schema"
/**
 * The error of the dataset files on disk or on the file host, besides the `S2Error`s of HTTP.
 *
 * @since 1.0.0
 */

/**
 * A dataset file could not be written or read: `Io` (the disk), `Name` (a link whose name cannot
 * be a file name: one that could leave the directory, holds control or bidirectional characters,
 * ends like the download's own working files, or is another link's), `Link` (not an http(s) link),
 * `Corrupt` (not gzip), `Truncated` (the gzip stream ends early), `Json` (a line is not JSON) or
 * `Schema` (a record does not match the caller's schema). `file` is the local path, or the URL
 * without its query (a pre-signed link's query is a credential); `line` is the 1-based line being
 * read when it failed, where known; `cause` the platform's error of an `Io` failure.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "effect"
 * import { NodeDatasets } from "@s2-effect/node"
 *
 * const count = NodeDatasets.readDatasetFile("papers/part-0.jsonl.gz").pipe(
 *   Stream.runCount,
 *   Effect.catchTag("DatasetFileError", (e) => Effect.succeed(`${e.reason} in ${e.file} at line ${e.line}`)),
 *   Effect.provide(NodeDatasets.layer)
 * )
 * ```
 * @category errors
 * @since 1.0.0
 */
export class DatasetFileError extends Schema.TaggedError<DatasetFileError>()("DatasetFileError", {
  reason: Schema.Literals(["Io", "Name", "Link", "Corrupt", "Truncated", "Json", "Schema"]),
  file: Schema.String,
  line: Schema.optional(Schema.Number),
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}
