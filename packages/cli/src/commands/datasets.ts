/**
 * `s2 datasets releases|release|links|diffs|download`: the Datasets API, and downloading a dataset.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as HttpClient from "@effect/platform/HttpClient"
import { SemanticScholar } from "@s2-effect/core"
import type { NodeDatasets } from "@s2-effect/node"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Common from "../Common.js"
import { fileError } from "../ExitCode.js"
import * as Output from "../render/Output.js"
import { Stdio } from "../Stdio.js"

const releaseId = Args.text({ name: "release" }).pipe(
  Args.withDescription("A release id (YYYY-MM-DD) or latest (the default)"),
  Args.withDefault("latest")
)
const datasetName = Args.text({ name: "dataset" }).pipe(Args.withDescription("A dataset name, e.g. papers"))

/** `s2 datasets releases`. @since 0.1.0 */
export const releases = Command.make("releases", { ...Common.options }, (o) =>
  Common.run(
    o,
    "list of dataset releases",
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* Output.many(o, yield* s2.getAvailableReleases(), "release")
    })
  )).pipe(Command.withDescription("The dataset releases, oldest first"))

/** `s2 datasets release [id]`. @since 0.1.0 */
export const release = Command.make("release", { ...Common.options, release: releaseId }, (o) =>
  Common.run(
    o,
    `release ${o.release}`,
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* Output.one(o, yield* s2.getRelease(o.release))
    })
  )).pipe(Command.withDescription("A release and its datasets (default: latest)"))

/** `s2 datasets links <dataset> [release]`. @since 0.1.0 */
export const links = Command.make(
  "links",
  { ...Common.options, dataset: datasetName, release: releaseId },
  (o) =>
    Common.run(
      o,
      `download links of ${o.dataset} in release ${o.release}`,
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        yield* Output.one(o, yield* s2.getDatasetDownloadLinks(o.release, o.dataset))
      })
    )
).pipe(Command.withDescription("Download links of a dataset (needs S2_API_KEY)"))

/** `s2 datasets diffs <dataset> <start> [end]`. @since 0.1.0 */
export const diffs = Command.make(
  "diffs",
  {
    ...Common.options,
    dataset: datasetName,
    start: Args.text({ name: "start-release" }).pipe(Args.withDescription("The release to start from (YYYY-MM-DD)")),
    end: Args.text({ name: "end-release" }).pipe(
      Args.withDescription("The release to end at (YYYY-MM-DD) or latest (the default)"),
      Args.withDefault("latest")
    )
  },
  (o) =>
    Common.run(
      o,
      `diffs of ${o.dataset} from ${o.start} to ${o.end}`,
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        yield* Output.one(o, yield* s2.getDatasetDiffs(o.dataset, o.start, o.end))
      })
    )
).pipe(Command.withDescription("Diffs of a dataset between two releases (needs S2_API_KEY)"))

const megabytes = (bytes: number | undefined) => bytes === undefined ? "?" : (bytes / 2 ** 20).toFixed(1)

/**
 * `s2 datasets download <dataset> [release] --dir D --concurrency N`: every file of a dataset to
 * disk, resuming partial files and skipping finished ones; one line per file event on stderr
 * (progress at most once a second per file) and the list of files on stdout at the end.
 *
 * @since 0.1.0
 */
export const download = Command.make(
  "download",
  {
    ...Common.options,
    dataset: datasetName,
    release: releaseId,
    directory: Options.text("dir").pipe(
      Options.withDescription("Where to put the files (default: the current directory)"),
      Options.withDefault(".")
    ),
    concurrency: Options.integer("concurrency").pipe(
      Options.withDescription("Files fetched at once (default: 4)"),
      Options.withDefault(4)
    )
  },
  (o) =>
    Common.run(
      o,
      `download of ${o.dataset} in release ${o.release}`,
      Effect.gen(function*() {
        const stdio = yield* Stdio
        // Loaded when a download runs: `@s2-effect/node` brings undici, which every other start of
        // `s2` would pay for.
        const { NodeDatasets } = yield* Effect.promise(() => import("@s2-effect/node"))
        // The file host: with --emulator the in-process emulator serves the files too.
        const files = o.emulator
          ? Layer.merge(
            Layer.effect(HttpClient.HttpClient, Effect.map(Common.inProcessEmulator, (built) => built.client)),
            NodeFileSystem.layer
          )
          : NodeDatasets.layer
        const done = new Map<string, NodeDatasets.DownloadState>()
        const shown = new Map<string, number>()
        yield* NodeDatasets.downloadDataset(o.release, o.dataset, {
          directory: o.directory,
          concurrency: o.concurrency,
          // --no-retry holds for the file host too: one attempt per file.
          ...(o.noRetry ? { retry: false } : {})
        })
          .pipe(
            Stream.runForEach((event) => {
              const line = `${event.file}: ${megabytes(event.bytesDone)} of ${megabytes(event.bytesTotal)} MB`
              switch (event._tag) {
                case "Progress": {
                  const now = Date.now()
                  if (now - (shown.get(event.file) ?? 0) < 1000) return Effect.void
                  shown.set(event.file, now)
                  return stdio.err(`  ${line}\n`)
                }
                case "Started":
                  return stdio.err(`${event.bytesDone > 0 ? "resuming" : "fetching"} ${line}\n`)
                case "Completed":
                case "Skipped":
                  done.set(event.file, event)
                  return stdio.err(`${event._tag === "Skipped" ? "already complete" : "done"} ${line}\n`)
              }
            }),
            Effect.provide(files),
            Effect.catchTag("DatasetFileError", (error) => Effect.fail(fileError(`${o.dataset}: ${error.file}`, error)))
          )
        yield* Output.many(
          o,
          [...done.values()].map(({ bytesDone, file, path }) => ({ file, path, bytes: bytesDone }))
        )
      })
    )
).pipe(Command.withDescription("Download every file of a dataset (needs S2_API_KEY); resumes partial files"))

/**
 * `s2 datasets`.
 *
 * @since 0.1.0
 */
export const datasets = Command.make("datasets").pipe(
  Command.withDescription("The Datasets API: releases, a release, download links, diffs, downloads"),
  Command.withSubcommands([releases, release, links, diffs, download])
)
