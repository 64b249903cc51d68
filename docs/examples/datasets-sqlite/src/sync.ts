/**
 * Keeps a local SQLite table in step with a Semantic Scholar dataset: load a full release once,
 * then apply the diffs from the release the table holds to a later one. The table is keyed by
 * `corpusid` and keeps each record as JSON; the release it holds is kept in a `meta` table so a
 * later run knows where to start.
 *
 * Downloads go to disk first (resumable, see `downloadDataset`); diffs are small and read straight
 * from their links with `diffRecords`.
 */
import type { S2Error } from "@s2-effect/core"
import { SemanticScholar } from "@s2-effect/core"
import { NodeDatasets } from "@s2-effect/node"
import type { FileSystem } from "effect"
import { Data, Effect, Schema, Stream } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import * as NodePath from "node:path"
// Node's own SQLite (Node ≥ 22.13, stable enough on 24 LTS to print no warning): no native addon to
// compile at install time, which is what better-sqlite3 cost a fresh clone (3 of its 4 minutes).
import { DatabaseSync } from "node:sqlite"

/** The client (for links and diffs), a plain HttpClient for the file host, and the disk. */
type Requirements = SemanticScholar | HttpClient.HttpClient | FileSystem.FileSystem

/** A record without a numeric `corpusid` cannot be keyed: the dataset is not a paper dataset. */
export class UnkeyedRecord extends Data.TaggedError("UnkeyedRecord")<{ readonly record: unknown }> {}

const Keyed = Schema.Struct({ corpusid: Schema.Number })
const keyOf = (record: unknown) =>
  Schema.decodeUnknownEffect(Keyed)(record).pipe(
    Effect.map(({ corpusid }) => corpusid),
    Effect.mapError(() => new UnkeyedRecord({ record }))
  )

/** Rows are written in transactions of this many: one per row would be a thousand times slower. */
const batchSize = 1000

/** Opens (or creates) the store: the `records` table and the `meta` row of the release held. */
export const open = (path: string): DatabaseSync => {
  const db = new DatabaseSync(path)
  db.exec(`
    PRAGMA journal_mode = WAL;
    CREATE TABLE IF NOT EXISTS records (corpusid INTEGER PRIMARY KEY, record TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `)
  return db
}

/** The release the table holds, if any. */
export const heldRelease = (db: DatabaseSync): string | undefined => {
  const row: unknown = db.prepare("SELECT value FROM meta WHERE key = 'release'").get()
  return typeof row === "object" && row !== null && "value" in row && typeof row.value === "string"
    ? row.value
    : undefined
}

/** Runs `body` in one transaction: node:sqlite has no `transaction()` helper, so BEGIN/COMMIT it is. */
const inTransaction = (db: DatabaseSync, body: () => void): void => {
  db.exec("BEGIN")
  try {
    body()
    db.exec("COMMIT")
  } catch (error) {
    db.exec("ROLLBACK")
    throw error
  }
}

type Op = { readonly op: "update" | "delete"; readonly key: number; readonly record: unknown }

const writer = (db: DatabaseSync) => {
  const upsert = db.prepare(
    "INSERT INTO records (corpusid, record) VALUES (?, ?) ON CONFLICT(corpusid) DO UPDATE SET record = excluded.record"
  )
  const remove = db.prepare("DELETE FROM records WHERE corpusid = ?")
  const setRelease = db.prepare(
    "INSERT INTO meta (key, value) VALUES ('release', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
  )
  return {
    apply: (ops: ReadonlyArray<Op>) =>
      inTransaction(db, () => {
        for (const { key, op, record } of ops) {
          if (op === "update") upsert.run(key, JSON.stringify(record))
          else remove.run(key)
        }
      }),
    setRelease: (release: string) => setRelease.run(release),
    clear: () => db.exec("DELETE FROM records")
  }
}

/**
 * Replaces the table's contents with a full release of `dataset`: downloads its files into
 * `directory/<release>/<dataset>` (resuming a download a previous run left half way), then reads
 * them into the table in batches.
 */
export const loadRelease = (
  db: DatabaseSync,
  dataset: string,
  releaseId: string,
  directory: string
): Effect.Effect<string, S2Error | NodeDatasets.DatasetFileError | UnkeyedRecord, Requirements> =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    // `latest` is resolved once, so the files and the release recorded agree.
    const release = (yield* s2.getRelease(releaseId)).release_id
    const target = NodePath.join(directory, release, dataset)
    const files = yield* NodeDatasets.downloadDataset(release, dataset, { directory: target }).pipe(
      Stream.filter((e) => e._tag === "Completed" || e._tag === "Skipped"),
      Stream.map((e) => e.path),
      Stream.runCollect
    )
    const write = writer(db)
    write.clear()
    yield* Stream.fromIterable(files.sort()).pipe(
      Stream.flatMap((path) => NodeDatasets.readDatasetFile(path)),
      Stream.mapEffect((record) => Effect.map(keyOf(record), (key) => ({ op: "update" as const, key, record }))),
      Stream.grouped(batchSize),
      Stream.runForEach((batch) => Effect.sync(() => write.apply(batch)))
    )
    write.setRelease(release)
    return release
  })

/**
 * Brings the table from the release it holds to `endReleaseId` (`latest` allowed) by applying the
 * diffs in order: each step's updates are upserted, then its deletes removed. Returns the release
 * now held. Safe to run again after a failure part way: the release held is recorded only at the
 * end, and replaying upserts and deletes in the same order from the start gives the same table.
 */
export const applyDiffs = (
  db: DatabaseSync,
  dataset: string,
  endReleaseId: string
): Effect.Effect<string, S2Error | NodeDatasets.DatasetFileError | UnkeyedRecord, Requirements> =>
  Effect.gen(function*() {
    const held = heldRelease(db)
    if (held === undefined) return yield* Effect.die(new Error("the store holds no release: loadRelease first"))
    const s2 = yield* SemanticScholar
    const diff = yield* s2.getDatasetDiffs(dataset, held, endReleaseId)
    const write = writer(db)
    yield* NodeDatasets.diffRecords(diff).pipe(
      Stream.mapEffect(({ op, record }) => Effect.map(keyOf(record), (key) => ({ op, key, record }))),
      Stream.grouped(batchSize),
      Stream.runForEach((batch) => Effect.sync(() => write.apply(batch)))
    )
    write.setRelease(diff.end_release)
    return diff.end_release
  })
