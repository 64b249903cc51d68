/**
 * The failures of a harvest's files ({@link HarvestError}): each says which file, what was found
 * there and what to do, as fields; `message` is derived from them. A program that words its own
 * messages (the `s2` CLI names its flags) reads the fields, never the message.
 *
 * @since 1.2.0
 */
import * as Data from "effect/Data"
import type * as PlatformError from "effect/PlatformError"
import type * as Schema from "effect/Schema"
import type { Spec } from "./HarvestCheckpoint.js"

/**
 * The mark of a {@link HarvestError}.
 *
 * @category type ids
 * @since 1.2.0
 */
export const HarvestErrorTypeId: unique symbol = Symbol.for("@s2-effect/jobs/HarvestError")

/**
 * @category type ids
 * @since 1.2.0
 */
export type HarvestErrorTypeId = typeof HarvestErrorTypeId

/**
 * A symbolic link found where the harvest was to write.
 *
 * @category models
 * @since 1.2.0
 */
export interface Link {
  readonly path: string
  /** What the link holds, as it holds it (relative to the link's directory, or absolute). */
  readonly target: string
  /** The target as a path from the working directory. */
  readonly resolved: string
}

/**
 * What a lock file holds: the run that holds it.
 *
 * @category models
 * @since 1.2.0
 */
export interface Holder {
  readonly pid: number
  readonly host: string
  readonly startedAt: string
}

/**
 * The file a {@link HarvestError} is about.
 *
 * @category models
 * @since 1.2.0
 */
export type File = "output" | "checkpoint" | "lock"

/**
 * What went wrong:
 *
 * - `Symlink`: a symbolic link at the output, its checkpoint or its lock (`link`): never written through.
 * - `MissingDirectory`: the output's `directory` does not exist.
 * - `Locked`: another run holds the lock: `holder`, and whether it runs on this host (`sameHost`).
 * - `LockUnreadable`: the lock exists but does not say who holds it (a run may be starting).
 * - `LockContended`: the lock was taken again each time a stale one was removed.
 * - `IsDirectory`: the output is a directory.
 * - `NothingToResume`: a resume found no checkpoint.
 * - `OtherHarvest`: the checkpoint is for another harvest (`saved`, against `given`).
 * - `OutputChanged`: the output has `size` bytes, fewer than the `expected` its checkpoint counts.
 * - `OutputExists`: a fresh start found an output (`checkpointed`: with a checkpoint) and no `overwrite`.
 * - `CorruptCheckpoint`: the checkpoint does not decode (`problem`, in one line; `cause` the schema's error).
 * - `FileSystem`: the file system failed to `operation` the `file` (`cause`); `append` failures cut
 *   the output back to its last checkpoint.
 *
 * @category models
 * @since 1.2.0
 */
export type Reason =
  | "Symlink"
  | "MissingDirectory"
  | "Locked"
  | "LockUnreadable"
  | "LockContended"
  | "IsDirectory"
  | "NothingToResume"
  | "OtherHarvest"
  | "OutputChanged"
  | "OutputExists"
  | "CorruptCheckpoint"
  | "FileSystem"

/**
 * The file-system operation a `FileSystem` failure was in.
 *
 * @category models
 * @since 1.2.0
 */
export type Operation = "read" | "open" | "create" | "write" | "append" | "truncate" | "remove"

const what = (file: File, path: string) => (file === "output" ? path : `the ${file} ${path}`)

const messages: { readonly [R in Reason]: (e: HarvestError) => string } = {
  Symlink: (e) => `${what(e.file, e.path)} is a symbolic link to ${e.link?.target}; a harvest never writes through one`,
  MissingDirectory: (e) => `the directory ${e.directory} does not exist`,
  Locked: (e) =>
    `another run holds ${e.path} (pid ${e.holder?.pid}${
      e.sameHost ? "" : ` on host ${e.holder?.host}`
    }, since ${e.holder?.startedAt})`,
  LockUnreadable: (e) => `the lock ${e.path} exists but cannot be read: another run may be starting`,
  LockContended: (e) => `cannot take the lock ${e.path}: another run keeps taking it`,
  IsDirectory: (e) => `${e.path} is a directory`,
  NothingToResume: (e) => `nothing to resume: no checkpoint ${e.path}`,
  OtherHarvest: (e) => `the checkpoint ${e.path} is for another harvest`,
  OutputChanged: (e) =>
    `${e.path} has ${e.size} bytes but its checkpoint says ${e.expected}: the file was changed since`,
  OutputExists: (e) => `${e.path} exists${e.checkpointed ? " with a checkpoint" : ""}`,
  CorruptCheckpoint: (e) => `${e.path} is not a harvest checkpoint (${e.problem})`,
  FileSystem: (e) => `cannot ${e.operation} ${what(e.file, e.path)}`
}

/**
 * A harvest's files refused or failed: `reason` says how, `file` and `path` which file, and the
 * fields of that reason what was found. `cause` keeps the failure underneath (a `PlatformError`, or
 * the checkpoint's `SchemaError`).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Harvest } from "@s2-effect/jobs"
 *
 * export const started = (spec: Harvest.Spec) =>
 *   Harvest.prepare("papers.jsonl", spec, { resume: true }).pipe(
 *     Effect.catchIf(
 *       (error) => error.reason === "NothingToResume",
 *       () => Harvest.prepare("papers.jsonl", spec, { overwrite: true })
 *     )
 *   )
 * ```
 * @category errors
 * @since 1.2.0
 */
export class HarvestError extends Data.TaggedError("HarvestError")<{
  readonly reason: Reason
  readonly file: File
  readonly path: string
  readonly link?: Link | undefined
  readonly directory?: string | undefined
  readonly holder?: Holder | undefined
  readonly sameHost?: boolean | undefined
  readonly saved?: Spec | undefined
  readonly given?: Spec | undefined
  readonly size?: number | undefined
  readonly expected?: number | undefined
  readonly checkpointed?: boolean | undefined
  readonly problem?: string | undefined
  readonly operation?: Operation | undefined
  readonly cause?: PlatformError.PlatformError | Schema.SchemaError | undefined
}> {
  /**
   * @since 1.2.0
   */
  readonly [HarvestErrorTypeId]: HarvestErrorTypeId = HarvestErrorTypeId

  /**
   * The failure in one line, from the fields.
   *
   * @since 1.2.0
   */
  override get message(): string {
    return messages[this.reason](this)
  }
}

/**
 * Whether `u` is a {@link HarvestError}.
 *
 * @category guards
 * @since 1.2.0
 */
export const isHarvestError = (u: unknown): u is HarvestError =>
  typeof u === "object" && u !== null && HarvestErrorTypeId in u
