/**
 * The Datasets API: releases, their datasets' download links, and diffs between releases. Links
 * and diffs need an API key, so they are refused before sending without one.
 */
import * as Schema from "effect/Schema"
import { Dataset, DatasetDiff, Release } from "../Dataset.js"
import type { Service } from "../SemanticScholar.js"
import * as Endpoint from "./endpoint.js"
import * as Req from "./request.js"
import * as Validate from "./validate.js"

const endpoint = (name: string, path: string, needsKey = false): Endpoint.Endpoint => ({
  name,
  api: "datasets",
  method: "GET",
  path,
  needsKey
})

export const getAvailableReleases = endpoint("getAvailableReleases", "/release/")
export const getRelease = endpoint("getRelease", "/release/{release}")
export const getDatasetDownloadLinks = endpoint("getDatasetDownloadLinks", "/release/{release}/dataset/{name}", true)
export const getDatasetDiffs = endpoint("getDatasetDiffs", "/diffs/{start}/to/{end}/{name}", true)

const releases = Schema.Array(Schema.String)

/** The path with its parts in place (already validated: dates, `latest` and dataset names need no escaping). */
const place = (e: Endpoint.Endpoint, parts: Record<string, string>) =>
  e.path.replace(/\{(\w+)\}/g, (_, name: string) => parts[name] ?? "")

/** The dataset operations of the service. */
export const make = (context: Endpoint.Context) => ({
  getAvailableReleases: Endpoint.fn(getAvailableReleases)(function*() {
    return yield* Endpoint.call(context, getAvailableReleases, Req.get("datasets", getAvailableReleases.path), releases)
  }),
  getRelease: Endpoint.fn(getRelease)(function*(releaseId: string) {
    const release = yield* Validate.inputEffect(Validate.releaseId(releaseId, "releaseId"))
    return yield* Endpoint.call(context, getRelease, Req.get("datasets", place(getRelease, { release })), Release)
  }),
  getDatasetDownloadLinks: Endpoint.fn(getDatasetDownloadLinks)(function*(releaseId: string, datasetName: string) {
    const release = yield* Validate.inputEffect(Validate.releaseId(releaseId, "releaseId"))
    const name = yield* Validate.inputEffect(Validate.datasetName(datasetName))
    const path = place(getDatasetDownloadLinks, { release, name })
    return yield* Endpoint.call(context, getDatasetDownloadLinks, Req.get("datasets", path), Dataset)
  }),
  getDatasetDiffs: Endpoint.fn(getDatasetDiffs)(
    function*(datasetName: string, startReleaseId: string, endReleaseId: string) {
      const name = yield* Validate.inputEffect(Validate.datasetName(datasetName))
      const start = yield* Validate.inputEffect(Validate.releaseId(startReleaseId, "startReleaseId", false))
      const end = yield* Validate.inputEffect(Validate.releaseId(endReleaseId, "endReleaseId"))
      if (end !== "latest" && end < start) {
        return yield* Validate.inputEffect(
          Validate.refuse("endReleaseId", `endReleaseId ${end} is before startReleaseId ${start}`)
        )
      }
      const path = place(getDatasetDiffs, { start, end, name })
      return yield* Endpoint.call(context, getDatasetDiffs, Req.get("datasets", path), DatasetDiff)
    }
  )
} satisfies Partial<Service>)
