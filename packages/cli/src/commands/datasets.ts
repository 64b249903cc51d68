/**
 * `s2 datasets releases|release|links|diffs|download`: the Datasets API, and downloading a dataset.
 *
 * @since 1.0.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { SemanticScholar } from "@s2-effect/core"
import type { NodeDatasets } from "@s2-effect/node"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as ClientCommand from "../ClientCommand.js"
import { fileError } from "../ExitCode.js"
import * as InProcessEmulator from "../InProcessEmulator.js"
import * as Output from "../Output.js"
import * as OutputFlags from "../OutputFlags.js"
import { Printer } from "../Printer.js"
import * as SharedFlags from "../SharedFlags.js"

const releaseId = Argument.String("release").pipe(
  Argument.withDescription("A release id (YYYY-MM-DD) or latest (the default)"),
  Argument.withDefault("latest")
)
const datasetName = Argument.String("dataset").pipe(Argument.withDescription("A dataset name, e.g. papers"))
const format = { format: OutputFlags.formatFlag } as const

/** `s2 datasets releases`. @since 1.0.0 */
export const releases = ClientCommand.make(
  "releases",
  { max: OutputFlags.maxFlag, ...format },
  "list of dataset releases",
  function*(o) {
    const s2 = yield* SemanticScholar
    yield* Output.many(o, yield* s2.getAvailableReleases(), "release")
  },
  { span: "s2 datasets releases" }
).pipe(Command.withDescription("The dataset releases, oldest first"))

/** `s2 datasets release [id]`. @since 1.0.0 */
export const release = ClientCommand.make(
  "release",
  { release: releaseId, ...format },
  (o) => `release ${o.release}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    yield* Output.one(o, yield* s2.getRelease(o.release))
  },
  { span: "s2 datasets release" }
).pipe(Command.withDescription("A release and its datasets (default: latest)"))

/** `s2 datasets links <dataset> [release]`. @since 1.0.0 */
export const links = ClientCommand.make(
  "links",
  { dataset: datasetName, release: releaseId, ...format },
  (o) => `download links of ${o.dataset} in release ${o.release}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    yield* Output.one(o, yield* s2.getDatasetDownloadLinks(o.release, o.dataset))
  },
  { span: "s2 datasets links" }
).pipe(Command.withDescription("Download links of a dataset (needs S2_API_KEY)"))

/** `s2 datasets diffs <dataset> <start> [end]`. @since 1.0.0 */
export const diffs = ClientCommand.make(
  "diffs",
  {
    dataset: datasetName,
    start: Argument.String("start-release").pipe(
      Argument.withDescription("The release to start from (YYYY-MM-DD)")
    ),
    end: Argument.String("end-release").pipe(
      Argument.withDescription("The release to end at (YYYY-MM-DD) or latest (the default)"),
      Argument.withDefault("latest")
    ),
    ...format
  },
  (o) => `diffs of ${o.dataset} from ${o.start} to ${o.end}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    yield* Output.one(o, yield* s2.getDatasetDiffs(o.dataset, o.start, o.end))
  },
  { span: "s2 datasets diffs" }
).pipe(Command.withDescription("Diffs of a dataset between two releases (needs S2_API_KEY)"))

const megabytes = (bytes: number | undefined) => bytes === undefined ? "?" : (bytes / 2 ** 20).toFixed(1)

/**
 * `s2 datasets download <dataset> [release] --dir D --concurrency N`: every file of a dataset to
 * disk, resuming partial files and skipping finished ones; one line per file event on stderr
 * (progress at most once a second per file) and the list of files on stdout at the end.
 *
 * @since 1.0.0
 */
export const download = ClientCommand.make(
  "download",
  {
    dataset: datasetName,
    release: releaseId,
    directory: Flag.String("dir").pipe(
      Flag.withMetavar("dir"),
      Flag.withDescription("Where to put the files (default: the current directory)"),
      Flag.withDefault(".")
    ),
    concurrency: Flag.Int("concurrency").pipe(
      Flag.withDescription("Files fetched at once (default: 4)"),
      Flag.withDefault(4)
    ),
    max: OutputFlags.maxFlag,
    ...format
  },
  (o) => `download of ${o.dataset} in release ${o.release}`,
  function*(o) {
    const printer = yield* Printer
    const common = yield* SharedFlags.s2
    // Loaded when a download runs: `@s2-effect/node` brings undici, which every other start of
    // `s2` would pay for.
    const { NodeDatasets } = yield* Effect.promise(() => import("@s2-effect/node"))
    // The file host: with --emulator the in-process emulator serves the files too.
    const files = common.emulator
      ? Layer.merge(
        Layer.effect(HttpClient.HttpClient, Effect.map(InProcessEmulator.get, (built) => built.client)),
        NodeFileSystem.layer
      )
      : NodeDatasets.layer
    const done = new Map<string, NodeDatasets.DownloadState>()
    const shown = new Map<string, number>()
    yield* NodeDatasets.downloadDataset(o.release, o.dataset, {
      directory: o.directory,
      concurrency: o.concurrency,
      // --no-retry holds for the file host too: one attempt per file.
      ...(common.noRetry ? { retry: false } : {})
    })
      .pipe(
        Stream.runForEach((event) => {
          // -q/--quiet: the files are listed on stdout at the end; the events on the way are progress.
          if (common.quiet) {
            if (event._tag === "Completed" || event._tag === "Skipped") done.set(event.file, event)
            return Effect.void
          }
          const line = `${event.file}: ${megabytes(event.bytesDone)} of ${megabytes(event.bytesTotal)} MB`
          switch (event._tag) {
            case "Progress": {
              const now = Date.now()
              if (now - (shown.get(event.file) ?? 0) < 1000) return Effect.void
              shown.set(event.file, now)
              return printer.err(`  ${line}\n`)
            }
            case "Started":
              return printer.err(`${event.bytesDone > 0 ? "resuming" : "fetching"} ${line}\n`)
            case "Completed":
            case "Skipped":
              done.set(event.file, event)
              return printer.err(`${event._tag === "Skipped" ? "already complete" : "done"} ${line}\n`)
          }
        }),
        Effect.provide(files),
        // The error names the file or the link, and what happened to it.
        Effect.catchTag(
          "DatasetFileError",
          (error) => Effect.fail(fileError(`download of ${o.dataset} in release ${o.release}`, error))
        )
      )
    yield* Output.many(
      o,
      [...done.values()].map(({ bytesDone, file, path }) => ({ file, path, bytes: bytesDone }))
    )
  },
  { span: "s2 datasets download" }
).pipe(Command.withDescription("Download every file of a dataset (needs S2_API_KEY); resumes partial files"))

/**
 * `s2 datasets`.
 *
 * @since 1.0.0
 */
export const datasets = Command.make("datasets").pipe(
  Command.withDescription("The Datasets API: releases, a release, download links, diffs, downloads"),
  Command.withSubcommands([releases, release, links, diffs, download])
)
