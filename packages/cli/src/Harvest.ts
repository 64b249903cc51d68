/**
 * Harvest: a bulk search written to a JSON-lines file, checkpointed after every page so that a
 * crash or Ctrl-C loses nothing and duplicates nothing.
 *
 * After each page the records are appended to the output in one write, then the checkpoint
 * (`<out>.checkpoint.json`: output size in bytes, continuation token, counts) is replaced
 * atomically (written to a temporary file, renamed). On `--resume` the output is first cut back to
 * the checkpoint's size, dropping any part of a page written after the last checkpoint, and the
 * search continues from the saved token.
 *
 * What a killed process wrote is in the operating system's cache and survives it, so a kill or a
 * crash of `s2` loses nothing without an fsync. Only an operating-system crash or a power cut can
 * lose what is not yet on the disk, so the output and the checkpoint are flushed (fsync) at most
 * once a second and at the end, not after every page: a flush per page took a third of a
 * harvest's time. Each checkpoint also records the last flushed state (`synced`), and a resume
 * whose output came back shorter than the checkpoint falls back to it.
 *
 * @since 0.1.0
 */
import type { Filters, S2Error } from "@s2-effect/core"
import { Fields, SemanticScholar } from "@s2-effect/core"
import { Clock, Context, Effect, HashMap, Layer, Logger, Option, Stream } from "effect"
import * as fs from "node:fs"
import * as fsp from "node:fs/promises"
import type { CliError } from "./ExitCode.js"
import { badInput, fileError } from "./ExitCode.js"
import type { Reporter } from "./render/Progress.js"
import { retryNote } from "./render/Progress.js"

/**
 * What is harvested: the query and every option that changes which records come back, in what
 * order and with which fields. A resume must use the same.
 *
 * @since 0.1.0
 */
export interface Spec {
  readonly query: string
  readonly filters: Filters.SearchFilters
  readonly sort: Filters.Sort | null
  /** `null`: the client's default fields. */
  readonly fields: ReadonlyArray<string> | null
  /** Stop after this many records; `null` for all. */
  readonly max: number | null
}

/**
 * The checkpoint file's content.
 *
 * @since 0.1.0
 */
export interface Checkpoint {
  readonly version: 1
  readonly spec: Spec
  /** Size of the output file after the last complete page. */
  readonly bytes: number
  /** Continues the search; `null` before the first page and after the last. */
  readonly token: string | null
  readonly records: number
  readonly pages: number
  /** The search's `total` as last reported (0 before the first page). */
  readonly total: number
  /** Records per `year` (`unknown` for none), for the summary chart. */
  readonly years: Readonly<Record<string, number>>
  /** The last page was written (or `max` was reached). */
  readonly done: boolean
  readonly updatedAt: string
  /**
   * The last state whose output bytes were flushed to disk before this checkpoint was written: what
   * a resume falls back to when an operating-system crash left the output shorter than `bytes`.
   */
  readonly synced?: Synced | undefined
}

/**
 * The part of a checkpoint a resume needs.
 *
 * @since 0.1.0
 */
export type Synced = Pick<Checkpoint, "bytes" | "token" | "records" | "pages" | "total" | "years">

/**
 * The result of a harvest run.
 *
 * @since 0.1.0
 */
export interface Result {
  readonly checkpoint: Checkpoint
  /** Records there were when this run started (non-zero on resume). */
  readonly startRecords: number
  readonly elapsedMillis: number
  /** The harvest was already complete: nothing was fetched. */
  readonly alreadyDone: boolean
}

/**
 * The file system operations of a harvest, as a service so tests can inject a crash between
 * writing a page and its checkpoint.
 *
 * @since 0.1.0
 */
export class HarvestFiles extends Context.Tag("@s2-effect/cli/HarvestFiles")<HarvestFiles, {
  /** Called after a page's records are flushed and before its checkpoint is written. */
  readonly afterPageWrite: (pages: number) => Effect.Effect<void>
}>() {
  /** No hooks. */
  static readonly layer = Layer.succeed(HarvestFiles, { afterPageWrite: () => Effect.void })
}

/**
 * Where the checkpoint of an output file lives.
 *
 * @since 0.1.0
 */
export const checkpointPath = (out: string): string => `${out}.checkpoint.json`

const attempt = <A>(what: string, f: () => A): Effect.Effect<A, CliError> =>
  Effect.try({ try: f, catch: (cause) => fileError(what, cause) })

/**
 * Writes a file atomically: a temporary file beside it, flushed, then renamed over it.
 *
 * @since 0.1.0
 */
export const writeAtomically = (path: string, text: string): void => {
  // Named per run: a temporary file is never shared with another process writing the same path.
  const temp = `${path}.${process.pid}.tmp`
  const fd = fs.openSync(temp, "w")
  try {
    fs.writeSync(fd, text)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(temp, path)
}

/**
 * The harvest's file operations are asynchronous, off the main thread: while a page is written,
 * flushed and checkpointed, the next one is fetched and decoded. Uninterruptible: Ctrl-C waits for
 * an operation under way (milliseconds) rather than closing the file under it.
 */
const attemptAsync = <A>(what: string, f: () => Promise<A>): Effect.Effect<A, CliError> =>
  Effect.uninterruptible(Effect.tryPromise({ try: f, catch: (cause) => fileError(what, cause) }))

const writeAll = (fd: number, buffer: Buffer): Promise<void> =>
  new Promise((resolve, reject) => {
    const from = (offset: number): void => {
      if (offset >= buffer.length) return resolve()
      fs.write(fd, buffer, offset, buffer.length - offset, null, (error, written) =>
        error === null ? from(offset + written) : reject(error))
    }
    from(0)
  })

const fsync = (fd: number): Promise<void> =>
  new Promise((resolve, reject) => fs.fsync(fd, (error) => (error === null ? resolve() : reject(error))))

/** {@link writeAtomically}, asynchronous, and flushed only if `sync`. */
const writeAtomicallyAsync = async (path: string, text: string, sync: boolean): Promise<void> => {
  const temp = `${path}.${process.pid}.tmp`
  const handle = await fsp.open(temp, "w")
  try {
    await handle.writeFile(text)
    if (sync) await handle.sync()
  } finally {
    await handle.close()
  }
  await fsp.rename(temp, path)
}

const cutBack = (fd: number, bytes: number): void => {
  try {
    fs.ftruncateSync(fd, bytes)
  } catch {
    // --resume cuts the file back to the checkpoint anyway.
  }
}

/**
 * Reads a checkpoint, if there is one.
 *
 * @since 0.1.0
 */
export const readCheckpoint = (out: string): Effect.Effect<Checkpoint | undefined, CliError> =>
  attempt(`cannot read the checkpoint ${checkpointPath(out)}`, () => {
    const path = checkpointPath(out)
    if (!fs.existsSync(path)) return undefined
    const parsed: unknown = JSON.parse(fs.readFileSync(path, "utf8"))
    return parsed
  }).pipe(
    Effect.flatMap((parsed) =>
      parsed === undefined
        ? Effect.succeed(undefined)
        : isCheckpoint(parsed)
        ? Effect.succeed(parsed)
        : Effect.fail(badInput(`${checkpointPath(out)} is not a harvest checkpoint of this version of s2`))
    )
  )

const isCheckpoint = (u: unknown): u is Checkpoint =>
  typeof u === "object" && u !== null && "version" in u && u.version === 1 && "bytes" in u &&
  typeof u.bytes === "number" && "spec" in u && "token" in u && "records" in u && "pages" in u && "years" in u

const sameSpec = (a: Spec, b: Spec): boolean => JSON.stringify(normalize(a)) === JSON.stringify(normalize(b))

const normalize = (spec: Spec) => ({
  query: spec.query,
  filters: Object.fromEntries(
    Object.entries(spec.filters).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))
  ),
  sort: spec.sort,
  fields: spec.fields,
  max: spec.max
})

/**
 * Prepares the output and the starting checkpoint: a fresh start (refusing to overwrite an
 * existing output unless `overwrite`), or a resume (cutting the output back to the checkpoint).
 *
 * @since 0.1.0
 */
export const prepare = (
  out: string,
  spec: Spec,
  options: { readonly resume: boolean; readonly overwrite: boolean }
): Effect.Effect<Checkpoint, CliError> =>
  Effect.gen(function*() {
    if (yield* attempt(`cannot read ${out}`, () => fs.existsSync(out) && fs.statSync(out).isDirectory())) {
      return yield* Effect.fail(
        badInput(`--out ${out} is a directory; give the file to write, such as ${out.replace(/\/+$/, "")}/papers.jsonl`)
      )
    }
    const existing = yield* readCheckpoint(out)
    if (options.resume) {
      if (existing === undefined) {
        return yield* Effect.fail(
          badInput(`nothing to resume: no checkpoint ${checkpointPath(out)}; run without --resume to start`)
        )
      }
      if (!sameSpec(existing.spec, spec)) {
        return yield* Effect.fail(badInput(
          `${checkpointPath(out)} is for another harvest (query ${
            JSON.stringify(existing.spec.query)
          }); resume with the same query, filters, --sort, --fields and --max, or start again with --overwrite`
        ))
      }
      const size = yield* attempt(`cannot read ${out}`, () => fs.existsSync(out) ? fs.statSync(out).size : -1)
      // After an operating-system crash the checkpoint may have reached the disk before the pages it
      // counts; the last flushed state it records is on the disk.
      const { synced } = existing
      const from: Checkpoint = size < existing.bytes && synced !== undefined && size >= synced.bytes
        ? { ...existing, ...synced, done: false }
        : existing
      if (size < from.bytes) {
        return yield* Effect.fail(badInput(
          `${out} has ${
            Math.max(size, 0)
          } bytes but its checkpoint says ${from.bytes}: the file was changed; start again with --overwrite`
        ))
      }
      // Drop whatever was written after the last checkpoint (a page cut short by a crash).
      if (size > from.bytes) yield* attempt(`cannot truncate ${out}`, () => fs.truncateSync(out, from.bytes))
      return from
    }
    const size = yield* attempt(`cannot read ${out}`, () => fs.existsSync(out) ? fs.statSync(out).size : 0)
    if ((size > 0 || existing !== undefined) && !options.overwrite) {
      return yield* Effect.fail(badInput(
        `${out} exists${
          existing === undefined ? "" : " with a checkpoint"
        }; add --resume to continue that harvest or --overwrite to start again`
      ))
    }
    const start: Checkpoint = {
      version: 1,
      spec,
      bytes: 0,
      token: null,
      records: 0,
      pages: 0,
      total: 0,
      years: {},
      done: false,
      updatedAt: new Date().toISOString()
    }
    yield* attempt(`cannot write ${out}`, () => {
      fs.writeFileSync(out, "")
      writeAtomically(checkpointPath(out), JSON.stringify(start, null, 2) + "\n")
    })
    return start
  })

/** How often the output and the checkpoint are flushed to disk (see the module's comment). */
const syncEveryMillis = 1000

const yearOf = (year: number | null | undefined): string => typeof year === "number" ? String(year) : "unknown"

/**
 * Runs a harvest from a prepared checkpoint to the end (or `max`), reporting progress after every
 * page. Interrupting it between pages loses nothing: the checkpoint on disk matches the file.
 *
 * @since 0.1.0
 */
export const harvest = (
  out: string,
  start: Checkpoint,
  progress: Reporter
): Effect.Effect<Result, S2Error | CliError, SemanticScholar | HarvestFiles> =>
  Effect.gen(function*() {
    const startedAt = Date.now()
    if (start.done) return { checkpoint: start, startRecords: start.records, elapsedMillis: 0, alreadyDone: true }
    const s2 = yield* SemanticScholar
    const files = yield* HarvestFiles
    const { spec } = start
    let current = start
    let retrying: string | undefined
    // The first page is flushed whatever the time: a resumed checkpoint's bytes may not be on disk.
    let synced = start.synced
    let syncedAt = Number.NEGATIVE_INFINITY
    const report = () =>
      progress.update({
        records: current.records,
        pages: current.pages,
        target: spec.max === null ? current.total : Math.min(current.total, spec.max),
        startRecords: start.records,
        startedAt,
        now: Date.now(),
        retrying
      })
    // The client logs each retry with its cause and wait as annotations: shown on the progress line
    // until the next page arrives.
    const retryWatcher = Logger.make(({ annotations }) => {
      const cause = HashMap.get(annotations, "s2.retry")
      const wait = HashMap.get(annotations, "s2.retryWaitMillis")
      if (Option.isNone(cause) || Option.isNone(wait) || typeof wait.value !== "number") return
      retrying = retryNote(String(cause.value), wait.value)
      Effect.runSync(report())
    })
    const fd = yield* Effect.acquireRelease(
      attempt(`cannot open ${out}`, () => fs.openSync(out, "a")),
      (fd) => Effect.sync(() => fs.closeSync(fd))
    )
    const pages = s2.searchPaperPages(spec.query, {
      ...spec.filters,
      bulk: true,
      sort: spec.sort ?? undefined,
      fields: spec.fields === null ? undefined : spec.fields.map(Fields.unchecked),
      token: start.token ?? undefined,
      // The next page is on its way while this one is written and checkpointed.
      prefetch: 1
    })
    // One function for every page: an `Effect.gen` built per page would be a new generator function
    // per page, and V8 keeps each one's page alive until a full collection (docs/streams.md).
    // Untraced: no span or stack capture per page.
    const store = Effect.fnUntraced(function*(page: Stream.Stream.Success<typeof pages>) {
      const room = spec.max === null ? page.data.length : Math.max(0, spec.max - current.records)
      const records = page.data.slice(0, room)
      const years: Record<string, number> = { ...current.years }
      const lines = records.map((record) => {
        const year = yearOf(record.year)
        years[year] = (years[year] ?? 0) + 1
        // A record serialises to its wire JSON (`raw` is the record itself): one stringify per record.
        return JSON.stringify(record) + "\n"
      })
      const buffer = Buffer.from(lines.join(""), "utf8")
      yield* attemptAsync(
        `cannot write ${out} (cut back to its last checkpoint; run again with --resume)`,
        () =>
          writeAll(fd, buffer).catch((cause: unknown) => {
            // A full disk may take part of the page: cut the torn line back to the checkpoint, so the
            // file stays whole records and --resume continues it.
            cutBack(fd, current.bytes)
            throw cause
          })
      )
      yield* files.afterPageWrite(current.pages + 1)
      const records_ = current.records + records.length
      const state: Synced = {
        bytes: current.bytes + buffer.length,
        token: page.token,
        records: records_,
        pages: current.pages + 1,
        total: page.total,
        years
      }
      const done = page.token === null || (spec.max !== null && records_ >= spec.max)
      const now = yield* Clock.currentTimeMillis
      const sync = done || now - syncedAt >= syncEveryMillis
      if (sync) {
        yield* attemptAsync(`cannot write ${out}`, () => fsync(fd))
        synced = state
        syncedAt = now
      }
      const next: Checkpoint = { ...current, ...state, done, updatedAt: new Date().toISOString(), synced }
      yield* attemptAsync(
        `cannot write the checkpoint ${checkpointPath(out)}`,
        () => writeAtomicallyAsync(checkpointPath(out), JSON.stringify(next, null, 2) + "\n", sync)
      )
      current = next
      retrying = undefined
      yield* report()
      return !next.done
    })
    // Not `Stream.runForEachWhile`: in effect 3.22 it keeps a continuation, and so every page, until
    // the stream ends (docs/streams.md).
    yield* pages.pipe(
      Stream.mapEffect(store),
      Stream.takeWhile((more) => more),
      Stream.runDrain,
      Effect.provide(Logger.add(retryWatcher))
    )
    if (!current.done) {
      // The stream ended without a last-page marker: the search is exhausted all the same.
      yield* attempt(`cannot write ${out}`, () => fs.fsyncSync(fd))
      const { bytes, pages: pages_, records, total, years } = current
      const next: Checkpoint = {
        ...current,
        token: null,
        done: true,
        updatedAt: new Date().toISOString(),
        synced: { bytes, token: null, records, pages: pages_, total, years }
      }
      yield* attempt(
        `cannot write the checkpoint ${checkpointPath(out)}`,
        () => writeAtomically(checkpointPath(out), JSON.stringify(next, null, 2) + "\n")
      )
      current = next
    }
    return {
      checkpoint: current,
      startRecords: start.records,
      elapsedMillis: Date.now() - startedAt,
      alreadyDone: false
    }
  }).pipe(Effect.scoped)
