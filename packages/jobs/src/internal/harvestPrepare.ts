/**
 * A harvest's output made ready: a fresh start (refusing to overwrite an existing output unless
 * told), or a resume (cutting the output back to its checkpoint). Symbolic links at the output or
 * its checkpoint are refused, never followed, except that `overwrite` on a fresh start replaces
 * them (the link itself, never its target: the output is created anew and the checkpoint renamed
 * over its link).
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import type * as Path from "effect/Path"
import type { Checkpoint, PrepareOptions, Spec } from "../Harvest.js"
import { HarvestError } from "../HarvestError.js"
import * as Checkpoints from "./harvestCheckpoint.js"
import { linkAt, open, refuseLink } from "./harvestFiles.js"

const normalize = (spec: Spec) => ({
  query: spec.query,
  filters: Object.fromEntries(
    Object.entries(spec.filters).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))
  ),
  sort: spec.sort,
  fields: spec.fields,
  max: spec.max
})

export const sameSpec = (a: Spec, b: Spec): boolean => JSON.stringify(normalize(a)) === JSON.stringify(normalize(b))

/** The output's size and whether it is a directory; `None` when there is no such file. */
const statOf = (out: string) =>
  FileSystem.FileSystem.use((fs) => fs.stat(out)).pipe(
    Effect.map((info) => Option.some({ size: Number(info.size), directory: info.type === "Directory" })),
    Effect.catchIf((error) => error.reason._tag === "NotFound", () => Effect.succeed(Option.none())),
    Effect.mapError(Checkpoints.failed("output", out, "read"))
  )

/** The checkpoint to continue from, with the output cut back to it; `size` -1 when there is no output. */
const resumeFrom = Effect.fnUntraced(function*(out: string, spec: Spec, size: number) {
  const existing = yield* Checkpoints.read(out)
  const file = Checkpoints.path(out)
  if (Option.isNone(existing)) {
    return yield* new HarvestError({ reason: "NothingToResume", file: "checkpoint", path: file })
  }
  const checkpoint = existing.value
  if (!sameSpec(checkpoint.spec, spec)) {
    return yield* new HarvestError({
      reason: "OtherHarvest",
      file: "checkpoint",
      path: file,
      saved: checkpoint.spec,
      given: spec
    })
  }
  // After an operating-system crash the checkpoint may have reached the disk before the pages it
  // counts; the last flushed state it records is on the disk.
  const { synced } = checkpoint
  const from: Checkpoint = size < checkpoint.bytes && synced !== undefined && size >= synced.bytes
    ? { ...checkpoint, ...synced, done: false }
    : checkpoint
  if (size < from.bytes) {
    return yield* new HarvestError({
      reason: "OutputChanged",
      file: "output",
      path: out,
      size: Math.max(size, 0),
      expected: from.bytes
    })
  }
  // Drop whatever was written after the last checkpoint (a page cut short by a crash).
  if (size > from.bytes) {
    const fs = yield* FileSystem.FileSystem
    yield* fs.truncate(out, from.bytes).pipe(Effect.mapError(Checkpoints.failed("output", out, "truncate")))
  }
  return from
})

/** Refuses links at `out` and its checkpoint unless a fresh start overwrites; whether `out` is a link to replace. */
const checkLinks = Effect.fnUntraced(function*(out: string, replace: boolean) {
  const link = yield* linkAt("output", out)
  if (Option.isSome(link) && !replace) return yield* refuseLink("output", link.value)
  const checkpoint = yield* linkAt("checkpoint", Checkpoints.path(out))
  if (Option.isSome(checkpoint) && !replace) return yield* refuseLink("checkpoint", checkpoint.value)
  return Option.isSome(link)
})

/**
 * The output of a fresh start: created exclusively (`wx`), or an existing file opened without
 * following a link (a link planted since {@link checkLinks} makes the open fail) and truncated, or,
 * with `cutInRun`, left as it is for `run` to cut while its first pages are fetched: freeing a
 * large file's blocks takes tens of milliseconds (50 ms for 60 MB on ext4).
 */
const createOutput = (out: string, replaceLink: boolean, cutInRun: boolean) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    if (replaceLink) yield* fs.remove(out)
    yield* Effect.scoped(open(out, "wx")).pipe(
      Effect.catchIf(
        (error) => error.reason._tag === "AlreadyExists",
        () => Effect.scoped(open(out, cutInRun ? "a" : "w"))
      )
    )
  }).pipe(Effect.mapError(Checkpoints.failed("output", out, "create")))

export const prepare = (
  out: string,
  spec: Spec,
  options: PrepareOptions = {}
): Effect.Effect<Checkpoint, HarvestError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const resume = options.resume === true
    const overwrite = options.overwrite === true
    const replaceLink = yield* checkLinks(out, overwrite && !resume)
    // A link to be replaced is not looked through, even to see a directory.
    const stat = replaceLink ? Option.none() : yield* statOf(out)
    if (Option.isSome(stat) && stat.value.directory) {
      return yield* new HarvestError({ reason: "IsDirectory", file: "output", path: out })
    }
    if (resume) return yield* resumeFrom(out, spec, Option.match(stat, { onNone: () => -1, onSome: (s) => s.size }))
    const checkpointed = yield* Checkpoints.exists(out)
    if ((Option.exists(stat, (s) => s.size > 0) || checkpointed) && !overwrite) {
      return yield* new HarvestError({ reason: "OutputExists", file: "output", path: out, checkpointed })
    }
    const start = Checkpoints.initial(spec, yield* Checkpoints.now)
    yield* createOutput(out, replaceLink, options.cutInRun === true)
    // Left uncut, the old lines are after the checkpoint's 0 bytes: a resume cuts them as well.
    yield* Checkpoints.write(out, start, { sync: true })
    return start
  })
