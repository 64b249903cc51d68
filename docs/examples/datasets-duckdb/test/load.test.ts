import { describe, expect, it } from "@effect/vitest"
import { NodeDatasets, NodeSemanticScholar } from "@s2-effect/node"
import { startEmulator } from "@s2-effect/testing"
import { Effect, FileSystem, Layer, Redacted, Schema, Stream } from "effect"
import type { VenueRow } from "../src/load.js"
import { connect, createTable, download, topVenues } from "../src/load.js"

const PaperRow = Schema.Struct({
  venue: Schema.String,
  year: Schema.NullOr(Schema.Number),
  citationcount: Schema.Number
})

/** The same question answered in plain TypeScript over the records `readDatasetFile` reads. */
const expected = (files: ReadonlyArray<string>, sinceYear: number, limit: number) =>
  Effect.gen(function*() {
    const venues = new Map<string, { papers: number; citations: number }>()
    yield* Stream.fromIterable(files).pipe(
      Stream.flatMap((file) => NodeDatasets.readDatasetFile(file, { schema: PaperRow })),
      Stream.runForEach((paper) =>
        Effect.sync(() => {
          if (paper.year === null || paper.year < sinceYear || paper.venue === "") return
          const row = venues.get(paper.venue) ?? { papers: 0, citations: 0 }
          venues.set(paper.venue, { papers: row.papers + 1, citations: row.citations + paper.citationcount })
        })
      )
    )
    return [...venues].map(([venue, row]): VenueRow => ({ venue, ...row }))
      .sort((a, b) => b.citations - a.citations || (a.venue < b.venue ? -1 : a.venue > b.venue ? 1 : 0))
      .slice(0, limit)
  })

describe("datasets-duckdb example", () => {
  it.live(
    "DuckDB reads the downloaded gzipped JSON lines and answers as the records do",
    () =>
      Effect.gen(function*() {
        const emulator = yield* startEmulator({ seed: 5, size: 3000, releases: { count: 2 } })
        const fs = yield* FileSystem.FileSystem
        const directory = yield* fs.makeTempDirectoryScoped()
        const layer = Layer.merge(
          NodeSemanticScholar.layer({ apiUrl: emulator.url, apiKey: Redacted.make("example-key"), rateLimit: false }),
          NodeDatasets.layer
        ).pipe(Layer.orDie)

        yield* Effect.gen(function*() {
          const files = yield* download("papers", "latest", directory)
          expect(files.length).toBeGreaterThan(1)
          expect(files.every((file) => file.endsWith(".gz"))).toBe(true)

          const db = yield* connect()
          yield* createTable(db, "papers", files)
          const counted = yield* Effect.promise(() =>
            db.runAndReadAll("SELECT CAST(count(*) AS INTEGER) AS n FROM papers")
          )
          const records = yield* Stream.runCount(
            Stream.flatMap(Stream.fromIterable(files), (f) => NodeDatasets.readDatasetFile(f))
          )
          expect(Number(counted.getRowObjectsJS()[0]!["n"])).toBe(records)
          expect(records).toBeGreaterThan(2500)

          const answer = yield* topVenues(db, 2015, 5)
          expect(answer).toHaveLength(5)
          expect(answer[0]!.citations).toBeGreaterThan(0)
          expect(answer).toEqual(yield* expected(files, 2015, 5))
        }).pipe(Effect.provide(layer))
      }).pipe(Effect.provide(NodeDatasets.layer)),
    60_000
  )
})
