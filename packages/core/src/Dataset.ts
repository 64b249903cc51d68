/**
 * Records of the Datasets API: releases (snapshots of the whole graph), the datasets in each, their
 * download links, and the incremental diffs between releases.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { keys, raw } from "./internal/record.js"

/**
 * A dataset as listed in a release.
 *
 * @category models
 * @since 0.1.0
 */
export const DatasetSummary = Schema.Struct({
  name: Schema.String,
  description: Schema.optional(Schema.String),
  README: Schema.optional(Schema.String)
})
/**
 * @category models
 * @since 0.1.0
 */
export type DatasetSummary = typeof DatasetSummary.Type

/**
 * A release: its id (a date), its README, and its datasets.
 *
 * @category models
 * @since 0.1.0
 */
export class Release extends Schema.Class<Release>("Release")({
  release_id: Schema.String,
  README: Schema.optional(Schema.String),
  datasets: Schema.Array(DatasetSummary)
}) {
  /** The record as it came over the wire. */
  get raw(): Readonly<Record<string, unknown>> {
    return raw(this)
  }
  /** The fields that came back. */
  keys(): ReadonlyArray<string> {
    return keys(this)
  }
}

/**
 * A dataset of a release with its files: pre-signed URLs on the object store's host (not the API's),
 * each a gzipped JSON-lines file.
 *
 * @category models
 * @since 0.1.0
 */
export class Dataset extends Schema.Class<Dataset>("Dataset")({
  name: Schema.String,
  description: Schema.optional(Schema.String),
  README: Schema.optional(Schema.String),
  files: Schema.Array(Schema.String)
}) {
  /** The record as it came over the wire. */
  get raw(): Readonly<Record<string, unknown>> {
    return raw(this)
  }
  /** The fields that came back. */
  keys(): ReadonlyArray<string> {
    return keys(this)
  }
}

/**
 * One step of a diff: records to upsert and records to delete, keyed by `corpusid`.
 *
 * @category models
 * @since 0.1.0
 */
export const Diff = Schema.Struct({
  from_release: Schema.String,
  to_release: Schema.String,
  update_files: Schema.Array(Schema.String),
  delete_files: Schema.Array(Schema.String)
})
/**
 * @category models
 * @since 0.1.0
 */
export type Diff = typeof Diff.Type

/**
 * The diffs that take a dataset from `start_release` to `end_release`, in order.
 *
 * @category models
 * @since 0.1.0
 */
export class DatasetDiff extends Schema.Class<DatasetDiff>("DatasetDiff")({
  dataset: Schema.String,
  start_release: Schema.String,
  end_release: Schema.String,
  diffs: Schema.Array(Diff)
}) {
  /** The record as it came over the wire. */
  get raw(): Readonly<Record<string, unknown>> {
    return raw(this)
  }
  /** The fields that came back. */
  keys(): ReadonlyArray<string> {
    return keys(this)
  }
}
