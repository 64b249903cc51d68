/**
 * One harvest per output file. Two runs appending to the same output interleave their pages and
 * each checkpoints its own count, so the file ends up with duplicates that no checkpoint describes.
 *
 * The lock is a file beside the output (`<out>.lock`) created exclusively (`wx`, `O_EXCL`: of two
 * runs only one can create it, and never through a symbolic link) holding the pid and host of its
 * run, and removed when the run ends, interrupted or not. A run killed outright (SIGKILL, power
 * loss) leaves its lock behind: on the same host a lock whose pid is not running is stale and taken
 * over; a lock from another host (a shared disk) cannot be checked, so it is refused.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import type { LockOwner as Owner } from "../Harvest.js"
import type { Holder } from "../HarvestError.js"
import { HarvestError } from "../HarvestError.js"
import { failed, now } from "./harvestCheckpoint.js"
import { noLinkAt, readSmall } from "./harvestFiles.js"

interface Process {
  readonly pid?: number
  readonly env?: Record<string, string | undefined>
  readonly kill?: (pid: number, signal: number) => unknown
}

/** What the runtime says of this process, where it has a `process` (Node, Bun, Deno's Node layer). */
const proc = (globalThis as { readonly process?: Process }).process

const defaultOwner = (): Owner => ({
  pid: proc?.pid ?? 0,
  host: proc?.env?.["HOSTNAME"] ?? "localhost",
  // EPERM: it runs, as another user. Without a way to ask, every holder is taken to run.
  isRunning: (pid) => {
    if (proc?.kill === undefined) return true
    try {
      proc.kill(pid, 0)
      return true
    } catch (error) {
      return (error as { readonly code?: unknown }).code === "EPERM"
    }
  }
})

export const LockOwner = Context.Reference<Owner>("@s2-effect/jobs/Harvest/LockOwner", {
  defaultValue: defaultOwner
})

export const lockPath = (out: string): string => `${out}.lock`

const isHolder = (u: unknown): u is Holder =>
  typeof u === "object" && u !== null && "pid" in u && typeof u.pid === "number" && "host" in u &&
  typeof u.host === "string"

const parse = (text: string): Holder | "unreadable" => {
  try {
    const parsed: unknown = JSON.parse(text)
    return isHolder(parsed) ? parsed : "unreadable"
  } catch {
    return "unreadable"
  }
}

/** The holder in the lock, read without following a symbolic link (one there is "unreadable"). */
const readHolder = (at: string) =>
  readSmall(at).pipe(
    Effect.map(parse),
    Effect.catch((error) => Effect.succeed(error.reason._tag === "NotFound" ? "gone" as const : "unreadable" as const))
  )

/** Creates the lock; `false` when it exists already. */
const create = (out: string, at: string, holder: Holder) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    return yield* fs.writeFileString(at, JSON.stringify(holder) + "\n", { flag: "wx" }).pipe(
      Effect.as(true),
      Effect.catch((error) => {
        if (error.reason._tag === "AlreadyExists") return Effect.succeed(false)
        // The lock is the first file a harvest creates: a missing folder is the output's, not the lock's.
        if (error.reason._tag === "NotFound") {
          return Effect.fail(
            new HarvestError({ reason: "MissingDirectory", file: "output", path: out, directory: path.dirname(out) })
          )
        }
        return Effect.fail(failed("lock", at, "create")(error))
      })
    )
  })

const same = (a: Holder | "unreadable" | "gone", b: Holder) =>
  typeof a === "object" && a.pid === b.pid && a.startedAt === b.startedAt

const take = Effect.fnUntraced(function*(out: string, holder: Holder, owner: Owner) {
  const at = lockPath(out)
  yield* noLinkAt("lock", at)
  const fs = yield* FileSystem.FileSystem
  // Twice at most: a stale lock is removed once, then the create must win or lose for real.
  for (let round = 0; round < 2; round++) {
    if (yield* create(out, at, holder)) return
    const other = yield* readHolder(at)
    if (other === "gone") continue
    if (other === "unreadable") {
      return yield* new HarvestError({ reason: "LockUnreadable", file: "lock", path: at })
    }
    if (other.host !== holder.host || owner.isRunning(other.pid)) {
      return yield* new HarvestError({
        reason: "Locked",
        file: "lock",
        path: at,
        holder: other,
        sameHost: other.host === holder.host
      })
    }
    // Stale: its run was killed without removing it. Removed only if unchanged since read.
    if (same(yield* readHolder(at), other)) {
      yield* fs.remove(at, { force: true }).pipe(Effect.mapError(failed("lock", at, "remove")))
    }
  }
  return yield* new HarvestError({ reason: "LockContended", file: "lock", path: at })
})

/** Removes the lock if it is still this run's. */
const release = (out: string, holder: Holder) =>
  Effect.gen(function*() {
    const at = lockPath(out)
    if (!same(yield* readHolder(at), holder)) return
    yield* FileSystem.FileSystem.use((fs) => fs.remove(at, { force: true }))
  }).pipe(Effect.ignore)

export const lock = (out: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const owner = yield* LockOwner
      const holder: Holder = { pid: owner.pid, host: owner.host, startedAt: yield* now }
      yield* take(out, holder, owner)
      return holder
    }),
    (holder) => release(out, holder)
  )
