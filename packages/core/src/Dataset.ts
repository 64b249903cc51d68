/**
 * Records of the Datasets API: releases (snapshots of the whole graph), the datasets in each, their
 * download links, and the incremental diffs between releases.
 *
 * @since 1.0.0
 */
import * as Schema from "effect/Schema"
import { record } from "./internal/record.js"

/**
 * A dataset as listed in a release.
 *
 * @category models
 * @since 1.0.0
 */
export const DatasetSummary = Schema.Struct({
  name: Schema.String,
  description: Schema.optional(Schema.String),
  README: Schema.optional(Schema.String)
})
/**
 * @category models
 * @since 1.0.0
 */
export type DatasetSummary = typeof DatasetSummary.Type

/**
 * A release: its id (a date), its README, and its datasets.
 *
 * @category models
 * @since 1.0.0
 */
export class Release extends record<Release>("Release")({
  release_id: Schema.String,
  README: Schema.optional(Schema.String),
  datasets: Schema.Array(DatasetSummary)
}) {}

/**
 * A dataset of a release with its files: pre-signed URLs on the object store's host (not the API's),
 * each a gzipped JSON-lines file.
 *
 * @category models
 * @since 1.0.0
 */
export class Dataset extends record<Dataset>("Dataset")({
  name: Schema.String,
  description: Schema.optional(Schema.String),
  README: Schema.optional(Schema.String),
  files: Schema.Array(Schema.String)
}) {}

/**
 * One step of a diff: records to upsert and records to delete, keyed by `corpusid`.
 *
 * @category models
 * @since 1.0.0
 */
export const Diff = Schema.Struct({
  from_release: Schema.String,
  to_release: Schema.String,
  update_files: Schema.Array(Schema.String),
  delete_files: Schema.Array(Schema.String)
})
/**
 * @category models
 * @since 1.0.0
 */
export type Diff = typeof Diff.Type

/**
 * The diffs that take a dataset from `start_release` to `end_release`, in order.
 *
 * @category models
 * @since 1.0.0
 */
export class DatasetDiff extends record<DatasetDiff>("DatasetDiff")({
  dataset: Schema.String,
  start_release: Schema.String,
  end_release: Schema.String,
  diffs: Schema.Array(Diff)
}) {}
