/**
 * Harvest: a bulk search written to a JSON-lines file, checkpointed after every page and locked,
 * so that a crash or an interruption loses nothing and duplicates nothing, and a resume continues
 * where the last page was saved. This is what `s2 harvest` runs; it needs a `SemanticScholar`, a
 * `FileSystem` and a `Path` (`NodeFileSystem.layer`, `NodePath.layer` on Node), no platform module.
 *
 * After each page the records are appended to the output in one write, then the checkpoint
 * (`<out>.checkpoint.json`: output size in bytes, continuation token, counts) is replaced
 * atomically (`Files.makeReplacer`: two files beside it, `<out>.checkpoint.json.1.tmp` and
 * `.2.tmp`, written in turn and renamed over it, removed when the run ends). A resume first cuts the
 * output back to the checkpoint's size, dropping any part of a page written after the last
 * checkpoint, and continues from the saved token.
 *
 * What a killed process wrote is in the operating system's cache and survives it, so a kill or a
 * crash of the program loses nothing without an fsync. Only an operating-system crash or a power
 * cut can lose what is not yet on the disk, so the output and the checkpoint are flushed (fsync) at
 * most once a second (by `Clock`) and at the end, not after every page: a flush per page took a
 * third of a harvest's time. Each checkpoint also records the last flushed state (`synced`), and a
 * resume whose output came back shorter than the checkpoint falls back to it.
 *
 * One run per output: the lock `<out>.lock` ({@link lock}) holds the pid and host of its run. No
 * file is ever written through a symbolic link planted beside the output.
 *
 * Progress is data: {@link run} hands each {@link Event} (a page saved, a wait, the end) to
 * `onEvent`, with counts, elapsed time and rate read from `Clock`; wording them is the caller's.
 *
 * @example
 * ```ts
 * import { NodeFileSystem, NodePath } from "@effect/platform-node"
 * import { SemanticScholar } from "@s2-effect/core"
 * import { Harvest } from "@s2-effect/jobs"
 * import { Effect, Layer } from "effect"
 *
 * const spec: Harvest.Spec = { query: "graph neural", filters: { year: "2020-" }, sort: null, fields: ["title", "year"], max: 10_000 }
 *
 * // Run it again after an interruption: it continues from the checkpoint.
 * export const program = Harvest.toFile("papers.jsonl", spec, {
 *   resume: "auto",
 *   onEvent: (event) => event._tag === "Saved" ? Effect.log(`${event.progress.records} papers saved`) : Effect.void
 * }).pipe(Effect.provide(Layer.mergeAll(SemanticScholar.layer(), NodeFileSystem.layer, NodePath.layer)))
 * ```
 *
 * @since 1.2.0
 */
import type { Fields, S2Error, SemanticScholar, Waits } from "@s2-effect/core"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as Option from "effect/Option"
import type * as Path from "effect/Path"
import type * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type { Checkpoint, Spec } from "./HarvestCheckpoint.js"
import type { HarvestError, Holder } from "./HarvestError.js"
import * as internal from "./internal/harvest.js"
import * as Checkpoints from "./internal/harvestCheckpoint.js"
import * as Lock from "./internal/harvestLock.js"
import * as Prepare from "./internal/harvestPrepare.js"

export {
  /**
   * @category errors
   * @since 1.2.0
   */
  HarvestError,
  /**
   * @category type ids
   * @since 1.2.0
   */
  HarvestErrorTypeId,
  /**
   * @category guards
   * @since 1.2.0
   */
  isHarvestError
} from "./HarvestError.js"

export type {
  /**
   * @category models
   * @since 1.2.0
   */
  File,
  /**
   * @category models
   * @since 1.2.0
   */
  Holder,
  /**
   * @category models
   * @since 1.2.0
   */
  Link,
  /**
   * @category models
   * @since 1.2.0
   */
  Operation,
  /**
   * @category models
   * @since 1.2.0
   */
  Reason
} from "./HarvestError.js"

export {
  /**
   * @category schemas
   * @since 1.2.0
   */
  Checkpoint,
  /**
   * @category schemas
   * @since 1.2.0
   */
  Spec,
  /**
   * @category schemas
   * @since 1.2.0
   */
  Synced
} from "./HarvestCheckpoint.js"

/**
 * Where a run stands after a page or at a wait: `records` in the output (with earlier runs'),
 * `target` (the search's `total` cut at `max`; 0 while unknown), `startRecords` (the output's when
 * this run began), and the run's `elapsedMillis` and `perSecond` (records fetched by this run per
 * second), both from `Clock`; `startedAt` is the `Clock`'s time when the run began.
 *
 * @category models
 * @since 1.2.0
 */
export interface Progress {
  readonly records: number
  readonly pages: number
  readonly bytes: number
  readonly total: number
  readonly target: number
  readonly startRecords: number
  readonly startedAt: number
  readonly elapsedMillis: number
  readonly perSecond: number
}

/**
 * What a run reports:
 *
 * - `Saved`: a page and its checkpoint are written; `progress.records` is what the output holds
 *   (an interruption after it loses none of them). `done` on the last.
 * - `Waiting`: the client is about to wait (`wait`: a retry, with its cause, or a rate limit).
 * - `Done`: the run ended, with its {@link Result}.
 *
 * @category models
 * @since 1.2.0
 */
export type Event =
  | { readonly _tag: "Saved"; readonly progress: Progress; readonly done: boolean }
  | { readonly _tag: "Waiting"; readonly wait: Waits.Wait; readonly progress: Progress }
  | { readonly _tag: "Done"; readonly result: Result }

/**
 * The result of a run.
 *
 * @category models
 * @since 1.2.0
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
 * Options of {@link run}.
 *
 * @category options
 * @since 1.2.0
 */
export interface RunOptions {
  /** Hears each {@link Event}, in the harvest's fiber: keep it quick. */
  readonly onEvent?: ((event: Event) => Effect.Effect<void>) | undefined
  /** The spec's fields selected already (`Fields.select`), to skip checking them again. */
  readonly selection?: Fields.Selection | undefined
}

/**
 * Options of {@link prepare}: `resume` continues from the checkpoint; `overwrite` starts again over
 * an existing output (and replaces a symbolic link at it or its checkpoint). Neither: a fresh start
 * that refuses an existing output.
 *
 * @category options
 * @since 1.2.0
 */
export interface PrepareOptions {
  readonly resume?: boolean | undefined
  readonly overwrite?: boolean | undefined
  /**
   * On a fresh start over an existing output, leave its old lines for {@link run} to cut beside
   * its first requests instead of emptying it here: freeing a large file takes tens of
   * milliseconds. Only where `run` writes the output, as {@link toFile} and `s2 harvest` do; a
   * caller that writes the file itself leaves it unset.
   *
   * @since 1.3.0
   */
  readonly cutInRun?: boolean | undefined
}

/**
 * Who takes a lock: this process's `pid` and `host`, and how to tell whether a pid of this host
 * still runs (a lock whose run is gone is taken over).
 *
 * @category models
 * @since 1.2.0
 */
export interface LockOwner {
  readonly pid: number
  readonly host: string
  readonly isRunning: (pid: number) => boolean
}

/**
 * The {@link LockOwner} of this process. The default reads `globalThis.process` where there is one
 * (its `pid`, `kill(pid, 0)` to probe, and `HOSTNAME` or `localhost` as the host); on Node give
 * `os.hostname()` as the host, so that runs on other hosts sharing a disk are told apart.
 *
 * @category references
 * @since 1.2.0
 */
export const LockOwner: Context.Reference<LockOwner> = Lock.LockOwner

/**
 * A test hook, run after a page's records are written to the output and before the checkpoint that
 * counts them: the window in which a crash leaves records past the checkpoint, which a resume must
 * cut off. Its argument is the page's number, from 1. The default does nothing.
 *
 * @category references
 * @since 1.2.0
 */
export const BeforeCheckpoint: Context.Reference<(page: number) => Effect.Effect<void>> = internal.BeforeCheckpoint

/**
 * Where the checkpoint of an output file lives: `<out>.checkpoint.json`.
 *
 * @category paths
 * @since 1.2.0
 */
export const checkpointPath: (out: string) => string = Checkpoints.path

/**
 * Where the lock of an output file lives: `<out>.lock`.
 *
 * @category paths
 * @since 1.2.0
 */
export const lockPath: (out: string) => string = Lock.lockPath

/**
 * The checkpoint of a harvest that has not fetched anything yet.
 *
 * @category constructors
 * @since 1.2.0
 */
export const initial = (spec: Spec, updatedAt: string = new Date().toISOString()): Checkpoint =>
  Checkpoints.initial(spec, updatedAt)

/**
 * Reads the checkpoint of `out`: `None` when there is none; a `CorruptCheckpoint`
 * {@link HarvestError} saying what is wrong when it does not decode.
 *
 * @category checkpoints
 * @since 1.2.0
 */
export const readCheckpoint: (
  out: string
) => Effect.Effect<Option.Option<Checkpoint>, HarvestError, FileSystem.FileSystem> = Checkpoints.read

/**
 * Replaces the checkpoint of `out` atomically (`Files.writeAtomic`), flushed first if `sync`.
 * Uninterruptible: an interruption waits for the rename.
 *
 * @category checkpoints
 * @since 1.2.0
 */
export const writeCheckpoint: (
  out: string,
  checkpoint: Checkpoint,
  options: { readonly sync: boolean }
) => Effect.Effect<void, HarvestError, FileSystem.FileSystem> = Checkpoints.write

/**
 * What is wrong with a file that does not decode, in one line: the first problem and where
 * (`at bytes: Expected a value greater than or equal to 0, got -5`).
 *
 * @category checkpoints
 * @since 1.2.0
 */
export const describeIssue: (error: Schema.SchemaError) => string = Checkpoints.problem

/**
 * Holds the lock of `out` for the scope: fails at once (`Locked`) when another live run holds it,
 * takes over a stale one (its pid no longer runs on this host), and removes it when the scope
 * closes. A symbolic link at the lock is refused (`Symlink`); a missing directory is named
 * (`MissingDirectory`). Take it before {@link prepare}.
 *
 * @category locks
 * @since 1.2.0
 */
export const lock: (
  out: string
) => Effect.Effect<Holder, HarvestError, FileSystem.FileSystem | Path.Path | Scope.Scope> = Lock.lock

/**
 * Prepares the output and the starting checkpoint: a fresh start (refusing an existing output
 * unless `overwrite`), or a resume (cutting the output back to the checkpoint, refusing a
 * checkpoint of another {@link Spec}). A fresh start over an existing output empties it, or with
 * `cutInRun` leaves its old lines after the checkpoint's 0 bytes, for {@link run} to cut.
 *
 * @category running
 * @since 1.2.0
 */
export const prepare: (
  out: string,
  spec: Spec,
  options?: PrepareOptions
) => Effect.Effect<Checkpoint, HarvestError, FileSystem.FileSystem | Path.Path> = Prepare.prepare

/**
 * Runs a harvest from a prepared checkpoint to the end (or `max`), handing an {@link Event} to
 * `onEvent` after every page. Interrupting it between pages loses nothing: the checkpoint on disk
 * matches the file. Whatever follows the checkpoint's bytes in the output is cut first, beside the
 * first requests, and before the run ends, however it ends. While a page is written, the next one
 * is serialised and the one after it fetched; a page's checkpoint is written while the next page is
 * appended, and waited for before the one after: checkpoints come in order, a checkpoint never
 * counts bytes that were not written, and the output is at most one page ahead of the last
 * checkpoint (a resume cuts it back). Each `Saved` event comes once its page's checkpoint is written.
 *
 * @category running
 * @since 1.2.0
 */
export const run: (
  out: string,
  start: Checkpoint,
  options?: RunOptions
) => Effect.Effect<Result, S2Error | HarvestError, SemanticScholar | FileSystem.FileSystem> = internal.run

/**
 * Options of {@link toFile}: `resume` as in {@link prepare}, or `"auto"` to resume when there is a
 * checkpoint and start afresh when there is none.
 *
 * @category options
 * @since 1.2.0
 */
export interface ToFileOptions extends RunOptions {
  readonly resume?: boolean | "auto" | undefined
  readonly overwrite?: boolean | undefined
}

/**
 * The whole job: {@link lock}, {@link prepare}, {@link run}, and the lock released at the end.
 *
 * @category running
 * @since 1.2.0
 */
export const toFile = (
  out: string,
  spec: Spec,
  options: ToFileOptions = {}
): Effect.Effect<Result, S2Error | HarvestError, SemanticScholar | FileSystem.FileSystem | Path.Path> =>
  Effect.scoped(Effect.gen(function*() {
    yield* lock(out)
    const resume = options.resume === "auto"
      ? (yield* readCheckpoint(out))._tag === "Some"
      : options.resume === true
    const start = yield* prepare(out, spec, { resume, overwrite: options.overwrite, cutInRun: true })
    return yield* run(out, start, options)
  }))
