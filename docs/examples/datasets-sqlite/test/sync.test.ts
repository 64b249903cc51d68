import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { NodeDatasets, NodeSemanticScholar } from "@s2-effect/node"
import { startEmulator } from "@s2-effect/testing"
import { Effect, FileSystem, Layer, Redacted, Stream } from "effect"
import * as NodePath from "node:path"
import { applyDiffs, heldRelease, loadRelease, open } from "../src/sync.js"

/** The table as a map from corpusid to the record's JSON text. */
const tableOf = (db: ReturnType<typeof open>): Map<number, string> => {
  const rows: Array<unknown> = db.prepare("SELECT corpusid, record FROM records").all()
  const out = new Map<number, string>()
  for (const row of rows) {
    if (typeof row === "object" && row !== null && "corpusid" in row && "record" in row) {
      out.set(Number(row.corpusid), String(row.record))
    }
  }
  return out
}

/** What a release holds, read straight from its links. */
const releaseContents = (release: string, dataset: string) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const out = new Map<number, string>()
    for (const url of (yield* s2.getDatasetDownloadLinks(release, dataset)).files) {
      yield* NodeDatasets.readDatasetFile(url).pipe(
        Stream.runForEach((record) =>
          Effect.sync(() => {
            if (typeof record === "object" && record !== null && "corpusid" in record) {
              out.set(Number(record.corpusid), JSON.stringify(record))
            }
          })
        )
      )
    }
    return out
  })

describe("datasets-sqlite example", () => {
  it.live(
    "a full release, then the diff to the latest: the table equals the latest release",
    () =>
      Effect.gen(function*() {
        const emulator = yield* startEmulator({ seed: 11, size: 3000, releases: { count: 3 } })
        const fs = yield* FileSystem.FileSystem
        const directory = yield* fs.makeTempDirectoryScoped()
        const db = open(NodePath.join(directory, "papers.sqlite"))
        yield* Effect.addFinalizer(() => Effect.sync(() => db.close()))
        const layer = Layer.merge(
          NodeSemanticScholar.layer({ apiUrl: emulator.url, apiKey: Redacted.make("example-key"), rateLimit: false }),
          NodeDatasets.layer
        ).pipe(Layer.orDie)

        yield* Effect.gen(function*() {
          const releases = yield* SemanticScholar.use((s2) => s2.getAvailableReleases())
          const first = releases[0]!
          const last = releases.at(-1)!

          expect(yield* loadRelease(db, "papers", first, NodePath.join(directory, "files"))).toBe(first)
          expect(heldRelease(db)).toBe(first)
          const before = yield* releaseContents(first, "papers")
          expect(before.size).toBeGreaterThan(2500)
          expect(tableOf(db)).toEqual(before)

          expect(yield* applyDiffs(db, "papers", "latest")).toBe(last)
          expect(heldRelease(db)).toBe(last)
          const after = yield* releaseContents(last, "papers")
          expect(after).not.toEqual(before)
          expect(tableOf(db)).toEqual(after)

          // Applying again from the release held is a no-op diff: nothing changes.
          expect(yield* applyDiffs(db, "papers", "latest")).toBe(last)
          expect(tableOf(db)).toEqual(after)
        }).pipe(Effect.provide(layer))

        const files = (yield* emulator.requests).filter((r) => r.path.startsWith("/files/"))
        expect(files.length).toBeGreaterThan(0)
        expect(files.every((r) => !r.keyPresent)).toBe(true)
      }).pipe(Effect.provide(NodeDatasets.layer)),
    60_000
  )
})
