/**
 * `s2 datasets releases|release|links|diffs`: the Datasets API.
 *
 * @since 0.1.0
 */
import { Args, Command } from "@effect/cli"
import { SemanticScholar } from "@s2-effect/core"
import { Effect } from "effect"
import * as Common from "../Common.js"
import * as Output from "../render/Output.js"

const releaseId = Args.text({ name: "release" }).pipe(
  Args.withDescription("A release id (YYYY-MM-DD) or latest"),
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
      yield* Output.many(o, yield* s2.getAvailableReleases())
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
    start: Args.text({ name: "start-release" }),
    end: Args.text({ name: "end-release" }).pipe(Args.withDefault("latest"))
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

/**
 * `s2 datasets`.
 *
 * @since 0.1.0
 */
export const datasets = Command.make("datasets").pipe(
  Command.withDescription("The Datasets API: releases, a release, download links, diffs"),
  Command.withSubcommands([releases, release, links, diffs])
)
