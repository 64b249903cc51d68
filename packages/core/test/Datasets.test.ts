import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { SemanticScholar } from "../src/index.js"
import type { Handler } from "./support/Scripted.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const files = ["https://files.test/2025-01-07/papers/papers-0.jsonl.gz?sig=abc"]
const datasets: Handler = (request) => {
  const path = request.url.pathname
  if (path === "/datasets/v1/release/") return Effect.succeed(json(["2024-12-31", "2025-01-07"]))
  if (path.includes("/dataset/")) return Effect.succeed(json({ name: "papers", description: "d", README: "r", files }))
  if (path.startsWith("/datasets/v1/diffs/")) {
    return Effect.succeed(json({
      dataset: "papers",
      start_release: "2024-12-31",
      end_release: "2025-01-07",
      diffs: [{ from_release: "2024-12-31", to_release: "2025-01-07", update_files: files, delete_files: [] }]
    }))
  }
  return Effect.succeed(
    json({ release_id: "2025-01-07", README: "r", datasets: [{ name: "papers", description: "d" }] })
  )
}
const key = Redacted.make("dataset-key")

describe("datasets API", () => {
  it.effect("lists releases, reads a release, links and diffs under /datasets/v1 with the key", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      expect(yield* s2.getAvailableReleases()).toEqual(["2024-12-31", "2025-01-07"])
      const release = yield* s2.getRelease("latest")
      expect(release.datasets.map((d) => d.name)).toEqual(["papers"])
      const links = yield* s2.getDatasetDownloadLinks("2025-01-07", "papers")
      expect(links.files).toEqual(files)
      const diff = yield* s2.getDatasetDiffs("papers", "2024-12-31", "latest")
      expect(diff.diffs[0]?.update_files).toEqual(files)
      const seen = yield* requests
      expect(seen.map((r) => r.url.pathname)).toEqual([
        "/datasets/v1/release/",
        "/datasets/v1/release/latest",
        "/datasets/v1/release/2025-01-07/dataset/papers",
        "/datasets/v1/diffs/2024-12-31/to/latest/papers"
      ])
      for (const r of seen) expect(r.headers["x-api-key"]).toBe("dataset-key")
    }).pipe(Effect.provide(testLayer(datasets, { apiKey: key, rateLimit: false }))))

  it.effect("links and diffs without a key fail with Forbidden before sending, saying how to set one", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const links = yield* Effect.flip(s2.getDatasetDownloadLinks("2025-01-07", "papers"))
      const diffs = yield* Effect.flip(s2.getDatasetDiffs("papers", "2024-12-31", "2025-01-07"))
      for (const error of [links, diffs]) {
        expect(error._tag).toBe("Forbidden")
        expect(error.message).toContain("set S2_API_KEY")
      }
      expect(yield* requests).toHaveLength(0)
    }).pipe(Effect.provide(testLayer(datasets))))

  it.effect("a 403 from the server maps to Forbidden", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getDatasetDownloadLinks("2025-01-07", "papers"))
      expect(error._tag).toBe("Forbidden")
      expect(error.status).toBe(403)
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json({ message: "Forbidden" }, 403)), { apiKey: key }))))

  const bad: ReadonlyArray<
    readonly [string, (s2: SemanticScholar["Service"]) => Effect.Effect<unknown, unknown>, string]
  > = [
    ["release id not a date", (s2) => s2.getRelease("last"), "give a release date (YYYY-MM-DD) or \"latest\""],
    ["impossible date", (s2) => s2.getRelease("2025-02-30"), "releaseId \"2025-02-30\" is invalid"],
    ["dataset name", (s2) => s2.getDatasetDownloadLinks("latest", "../papers"), "datasetName \"../papers\" is invalid"],
    ["diff start latest", (s2) => s2.getDatasetDiffs("papers", "latest", "2025-01-07"), "startReleaseId \"latest\""],
    ["diff backwards", (s2) => s2.getDatasetDiffs("papers", "2025-01-07", "2024-12-31"), "is before startReleaseId"]
  ]
  for (const [name, run, message] of bad) {
    it.effect(`rejects a ${name} before sending`, () =>
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const error = yield* Effect.flip(run(s2))
        expect(error).toMatchObject({ _tag: "BadQueryParameters" })
        expect(String((error as Error).message)).toContain(message)
        expect(yield* requests).toHaveLength(0)
      }).pipe(Effect.provide(testLayer(datasets, { apiKey: key }))))
  }
})
