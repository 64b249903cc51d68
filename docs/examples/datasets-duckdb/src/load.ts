/**
 * The whole corpus is a download, not a crawl: fetch a release of a dataset with
 * `NodeDatasets.downloadDataset` (resumable, to disk), then let DuckDB read the gzipped JSON lines
 * as they are — no unpacking, no loading step of our own — and ask it questions in SQL.
 */
import { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api"
import type { S2Error } from "@s2-effect/core"
import { SemanticScholar } from "@s2-effect/core"
import { NodeDatasets } from "@s2-effect/node"
import type { FileSystem, Scope } from "effect"
import { Data, Effect, Stream } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import * as NodePath from "node:path"

/** DuckDB refused a statement or could not open. */
export class DuckDBError
  extends Data.TaggedError("DuckDBError")<{ readonly message: string; readonly cause: unknown }>
{}

const attempt = <A>(what: string, run: () => Promise<A>) =>
  Effect.tryPromise({
    try: run,
    catch: (cause) =>
      new DuckDBError({ message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}`, cause })
  })

/**
 * Downloads `dataset` of `releaseId` (`latest` allowed) into `directory/<release>/<dataset>` and
 * returns the paths of its files, sorted. A file already complete is skipped; a partial one resumes.
 */
export const download = (
  dataset: string,
  releaseId: string,
  directory: string
): Effect.Effect<
  ReadonlyArray<string>,
  S2Error | NodeDatasets.DatasetFileError,
  SemanticScholar | HttpClient.HttpClient | FileSystem.FileSystem
> =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const release = (yield* s2.getRelease(releaseId)).release_id
    const files = yield* NodeDatasets.downloadDataset(release, dataset, {
      directory: NodePath.join(directory, release, dataset)
    }).pipe(
      Stream.filter((event) => event._tag === "Completed" || event._tag === "Skipped"),
      Stream.map((event) => event.path),
      Stream.runCollect
    )
    return files.sort()
  })

/** A DuckDB connection (in memory unless a database file is given), closed with the scope. */
export const connect = (database = ":memory:"): Effect.Effect<DuckDBConnection, DuckDBError, Scope.Scope> =>
  Effect.gen(function*() {
    const instance = yield* Effect.acquireRelease(
      attempt(`cannot open DuckDB at ${database}`, () => DuckDBInstance.create(database)),
      (instance) => Effect.sync(() => instance.closeSync())
    )
    return yield* Effect.acquireRelease(
      attempt("cannot connect to DuckDB", () => DuckDBConnection.create(instance)),
      (connection) => Effect.sync(() => connection.closeSync())
    )
  })

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`

/**
 * Creates `table` from the dataset files as they were downloaded: DuckDB's `read_json` reads the
 * gzipped JSON lines itself, and `union_by_name` keeps a field that only some files carry.
 */
export const createTable = (
  connection: DuckDBConnection,
  table: string,
  files: ReadonlyArray<string>
): Effect.Effect<void, DuckDBError> =>
  attempt(`cannot load ${files.length} files into ${table}`, () =>
    connection.run(
      `CREATE OR REPLACE TABLE "${table.replace(/"/g, "\"\"")}" AS SELECT * FROM read_json([${
        files.map(literal).join(", ")
      }], format = 'newline_delimited', compression = 'gzip', union_by_name = true, sample_size = -1)`
    )).pipe(Effect.asVoid)

/** One row of {@link topVenues}. */
export interface VenueRow {
  readonly venue: string
  readonly papers: number
  readonly citations: number
}

/**
 * The venues whose papers since `sinceYear` gathered the most citations: the kind of question to
 * ask the whole corpus locally rather than page by page through the API.
 */
export const topVenues = (
  connection: DuckDBConnection,
  sinceYear: number,
  limit: number
): Effect.Effect<ReadonlyArray<VenueRow>, DuckDBError> =>
  attempt("the venue query failed", () =>
    connection.runAndReadAll(
      `SELECT venue, CAST(count(*) AS INTEGER) AS papers, CAST(sum(citationcount) AS DOUBLE) AS citations
       FROM papers WHERE year >= $since AND venue <> ''
       GROUP BY venue ORDER BY citations DESC, venue LIMIT $limit`,
      { since: sinceYear, limit }
    )).pipe(
      Effect.map((reader) =>
        reader.getRowObjectsJS().map((row) => ({
          venue: String(row["venue"]),
          papers: Number(row["papers"]),
          citations: Number(row["citations"])
        }))
      )
    )
