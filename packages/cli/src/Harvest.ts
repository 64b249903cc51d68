/**
 * The CLI's side of a harvest (`Harvest` in `@s2-effect/jobs` is the job): the `--resume` and
 * `--overwrite` flags, the job's failures worded as `s2` says them (naming the flags to give), its
 * progress events drawn on the progress line, and the lock taken as this host's. `s2 harvest`,
 * `s2 graph` (whose walk keeps the harvest's checkpoint and lock) and `s2 watch` (the lock of its
 * state file) use it.
 *
 * @since 1.0.0
 */
import type { Fields, S2Error, SemanticScholar } from "@s2-effect/core"
import { Harvest as Job } from "@s2-effect/jobs"
import * as Flag from "effect/cli/Flag"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as Option from "effect/Option"
import type * as Path from "effect/Path"
import type * as Scope from "effect/Scope"
import * as os from "node:os"
import { CommandError, ExitCode, fileError } from "./ExitCode.js"
import type { Reporter, State } from "./render/Progress.js"
import { retryNote } from "./render/Progress.js"
import * as Symlinks from "./Symlinks.js"

type HarvestError = Job.HarvestError

/**
 * The result of a harvest run (the job's).
 *
 * @since 1.0.0
 */
export type Result = Job.Result

/**
 * The job's test hook (`Harvest.BeforeCheckpoint` of `@s2-effect/jobs`).
 *
 * @since 1.0.0
 */
export const BeforeCheckpoint = Job.BeforeCheckpoint

/** The flag of each filter, as the user typed it. */
const filterFlags: Record<keyof Job.Spec["filters"], string> = {
  year: "--year",
  publicationTypes: "--publication-types",
  openAccessPdf: "--open-access-pdf",
  venue: "--venue",
  fieldsOfStudy: "--fields-of-study",
  publicationDateOrYear: "--publication-date-or-year",
  minCitationCount: "--min-citation-count"
}

/** A setting as it would be typed: `--max 5000`, `--fields title,year`, `no --sort`. */
const setting = (flag: string, value: unknown): string => {
  if (value === undefined || value === null || value === false) {
    return flag === "--fields"
      ? "--fields all"
      : `no ${flag}`
  }
  if (value === true) return flag
  const text = Array.isArray(value) ? value.join(",") : String(value)
  return `${flag} ${/^[\w.,:*+-]+$/.test(text) ? text : JSON.stringify(text)}`
}

/**
 * `--resume` and `--overwrite`, for a command that writes a checkpointed `--out` (`harvest`,
 * `graph`: `what` is the job, "the harvest" or "the walk").
 *
 * @since 1.0.0
 */
export const resumeFlags = (what: string) => ({
  resume: Flag.Boolean("resume").pipe(
    Flag.withDescription(`Continue ${what} into --out from its checkpoint`),
    Flag.withDefault(false)
  ),
  overwrite: Flag.Boolean("overwrite").pipe(
    Flag.withDescription("Start again even if --out exists"),
    Flag.withDefault(false)
  )
})

/**
 * The settings of a checkpoint and of this run that differ, each `[flag, saved, given]`, as "the
 * checkpoint is for `--max 100000`; this run has `--max 5000`" (several joined by "and"): the user
 * sees what to change, not what is the same. Harvest and graph checkpoints both say it this way.
 *
 * @since 1.0.0
 */
export const describeDifferences = (
  settings: ReadonlyArray<readonly [flag: string, saved: unknown, given: unknown]>
) => {
  const differ = settings.filter(([, a, b]) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null))
  if (differ.length === 0) return "its settings differ"
  const side = (pick: 1 | 2) =>
    differ.map((pair) =>
      pair[0].startsWith("the ") ? `${pair[0]} ${JSON.stringify(pair[pick])}` : setting(pair[0], pair[pick])
    ).join(" and ")
  return `the checkpoint is for ${side(1)}; this run has ${side(2)}`
}

/**
 * The settings in which a checkpoint's harvest and this run differ ({@link describeDifferences}).
 *
 * @since 1.0.0
 */
export const differences = (saved: Job.Spec, given: Job.Spec): string =>
  describeDifferences([
    ["the query", saved.query, given.query],
    ...Object.entries(filterFlags).map(([key, flag]) =>
      [flag, saved.filters[key as keyof Job.Spec["filters"]], given.filters[key as keyof Job.Spec["filters"]]] as const
    ),
    ["--sort", saved.sort, given.sort],
    ["--fields", saved.fields, given.fields],
    ["--max", saved.max, given.max]
  ])

/** What `s2` calls each of the job's files in a message. */
const named = { output: "--out", checkpoint: "the checkpoint", lock: "the lock" } as const

/** What to do about a symbolic link where `s2` was to write. */
const linkTodo = (error: HarvestError, resume: boolean): string =>
  error.file === "lock"
    ? `remove ${error.path} and run again`
    : error.file === "checkpoint"
    ? `remove it, or ${resume ? "start again with --overwrite" : "add --overwrite"} to replace it`
    : resume
    ? "replace the link with the file it points to, or start again with --overwrite"
    : `give the file itself as --out (${error.link?.resolved}) to write there, ` +
      "or add --overwrite to replace the link with a new file"

/** The line of a file-system failure: what `s2` was doing to which file. */
const doing = (error: HarvestError): string => {
  const { file, operation, path } = error
  if (file === "output") {
    return operation === "append"
      ? `cannot write ${path} (cut back to its last checkpoint; run again with --resume)`
      : `cannot ${operation === "create" ? "write" : operation} ${path}`
  }
  return operation === "remove" ? `cannot remove the stale lock ${path}` : `cannot ${operation} the ${file} ${path}`
}

const locked = (message: string) => new CommandError({ message, code: ExitCode.locked })

/** The lock's failures: exit 11, naming the output (`out`) it guards. */
const lockFailure = (error: HarvestError, out: string): CommandError => {
  const { holder, path } = error
  if (error.reason === "LockUnreadable") {
    return locked(
      `${path} exists but cannot be read: another s2 run may be starting on ${out}; ` +
        `if none runs, remove ${path} and try again`
    )
  }
  if (error.reason === "LockContended") return locked(`cannot take the lock ${path}: another s2 run keeps taking it`)
  return locked(
    error.sameHost
      ? `another s2 run is writing ${out} (pid ${holder?.pid}, since ${holder?.startedAt}); ` +
        `wait for it to end, or stop it and run again with --resume`
      : `another s2 run holds ${out} (pid ${holder?.pid} on host ${holder?.host}, since ${holder?.startedAt}); ` +
        `if it no longer runs, remove ${path} and try again`
  )
}

const bad = (message: string, cause?: unknown) => new CommandError({ message, code: ExitCode.badInput, cause })

/**
 * A failure of the job as `s2` says it: which flag to give, exit 2 for what the user can change,
 * 10 for the file system, 11 for a lock held.
 *
 * @since 1.2.0
 */
export const commandError = (
  error: HarvestError,
  out: string,
  options: { readonly resume: boolean } = { resume: false }
): CommandError => {
  switch (error.reason) {
    case "Symlink":
      return Symlinks.refuse(named[error.file], { ...error.link!, path: error.path }, linkTodo(error, options.resume))
    case "MissingDirectory":
      return bad(
        `the directory ${error.directory} does not exist: create it first, or give --out in an existing one`,
        error
      )
    case "Locked":
    case "LockUnreadable":
    case "LockContended":
      return lockFailure(error, out)
    case "IsDirectory":
      return bad(`--out ${out} is a directory; give the file to write, such as ${out.replace(/\/+$/, "")}/papers.jsonl`)
    case "NothingToResume":
      return bad(`nothing to resume: no checkpoint ${error.path}; run without --resume to start`)
    case "OtherHarvest":
      return bad(
        `${error.path} is for another harvest: ${
          differences(error.saved!, error.given!)
        }. Resume with the checkpoint's settings, or start again with --overwrite`
      )
    case "OutputChanged":
      return bad(
        `${out} has ${error.size} bytes but its checkpoint says ${error.expected}: the file was changed; ` +
          "start again with --overwrite"
      )
    case "OutputExists":
      return bad(
        `${out} exists${
          error.checkpointed ? " with a checkpoint" : ""
        }; add --resume to continue from it or --overwrite to start again`
      )
    case "CorruptCheckpoint":
      return bad(
        `${error.path} is not a harvest checkpoint of this version of s2 (${error.problem}); ` +
          "remove it, or start again with --overwrite"
      )
    case "FileSystem":
      return fileError(doing(error), error.cause)
  }
}

const worded = (out: string, options?: { readonly resume: boolean }) =>
<A, E, R>(
  effect: Effect.Effect<A, E | HarvestError, R>
): Effect.Effect<A, Exclude<E, HarvestError> | CommandError, R> =>
  Effect.mapError(
    effect,
    (error) => Job.isHarvestError(error) ? commandError(error, out, options) : error as Exclude<E, HarvestError>
  )

/**
 * Reads the checkpoint of `out` (`None` when there is none).
 *
 * @since 1.0.0
 */
export const readCheckpoint = (
  out: string
): Effect.Effect<Option.Option<Job.Checkpoint>, CommandError, FileSystem.FileSystem> =>
  worded(out)(Job.readCheckpoint(out))

/**
 * Replaces the checkpoint of `out` atomically.
 *
 * @since 1.0.0
 */
export const writeCheckpoint = (
  out: string,
  checkpoint: Job.Checkpoint,
  options: { readonly sync: boolean }
): Effect.Effect<void, CommandError, FileSystem.FileSystem> =>
  worded(out)(Job.writeCheckpoint(out, checkpoint, options))

/**
 * Holds the lock of `out` for the scope, as this host's (`os.hostname()`); exit 11 when another
 * live run holds it.
 *
 * @since 1.0.0
 */
export const lock = (out: string): Effect.Effect<void, CommandError, FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.flatMap(Job.LockOwner, (owner) =>
    Job.lock(out).pipe(
      Effect.provideService(Job.LockOwner, { ...owner, host: os.hostname() }),
      Effect.asVoid,
      worded(out)
    ))

/**
 * Prepares the output and the starting checkpoint (the job's `prepare`, its refusals worded);
 * `cutInRun` where the job's `run` writes the output.
 *
 * @since 1.0.0
 */
export const prepare = (
  out: string,
  spec: Job.Spec,
  options: { readonly resume: boolean; readonly overwrite: boolean; readonly cutInRun?: boolean }
): Effect.Effect<Job.Checkpoint, CommandError, FileSystem.FileSystem | Path.Path> =>
  worded(out, options)(Job.prepare(out, spec, options))

/**
 * Runs a harvest from a prepared checkpoint, drawing its progress: each page saved, and while a
 * request waits to be retried, the wait and its cause until the next page is saved.
 *
 * @since 1.0.0
 */
export const harvest = (
  out: string,
  start: Job.Checkpoint,
  progress: Reporter,
  /** The spec's fields, if the caller has checked them already (the command does, before touching `out`). */
  selection?: Fields.Selection | undefined
): Effect.Effect<Result, S2Error | CommandError, SemanticScholar | FileSystem.FileSystem> => {
  let retrying: string | undefined
  const stateOf = (p: Job.Progress): State => ({
    records: p.records,
    pages: p.pages,
    target: p.target,
    startRecords: p.startRecords,
    startedAt: p.startedAt,
    now: p.startedAt + p.elapsedMillis,
    retrying
  })
  const onEvent = (event: Job.Event): Effect.Effect<void> => {
    switch (event._tag) {
      case "Saved":
        retrying = undefined
        return progress.update(stateOf(event.progress))
      case "Waiting":
        if (event.wait._tag !== "Retry") return Effect.void
        retrying = retryNote(event.wait.cause, Duration.toMillis(event.wait.wait))
        return progress.update(stateOf(event.progress))
      case "Done":
        return Effect.void
    }
  }
  return worded(out)(Job.run(out, start, { onEvent, selection }))
}
