import type { DatasetDiff, S2Error } from "@s2-effect/core"
import type * as FileSystem from "effect/FileSystem"
import type * as HttpClient from "effect/http/HttpClient"
import * as Stream from "effect/Stream"
import type { DiffRecord } from "../DatasetDiffs.js"
import type { ReadOptions } from "../DatasetFile.js"
import type { DatasetFileError } from "../DatasetFileError.js"
import { readDatasetFile } from "./jsonLines.js"

const recordsOf = (
  urls: ReadonlyArray<string>,
  op: DiffRecord["op"],
  options: Omit<ReadOptions, "schema"> | undefined
): Stream.Stream<DiffRecord, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem> =>
  Stream.fromIterable(urls).pipe(
    Stream.flatMap((url) => readDatasetFile(url, { idleTimeout: options?.idleTimeout })),
    Stream.map((record): DiffRecord => ({ op, record }))
  )

export const diffRecords = (
  diff: DatasetDiff,
  options?: Omit<ReadOptions, "schema">
): Stream.Stream<DiffRecord, S2Error | DatasetFileError, HttpClient.HttpClient | FileSystem.FileSystem> =>
  Stream.fromIterable(diff.diffs).pipe(
    Stream.flatMap((step) =>
      Stream.concat(recordsOf(step.update_files, "update", options), recordsOf(step.delete_files, "delete", options))
    )
  )
