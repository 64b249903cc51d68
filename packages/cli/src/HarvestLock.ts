/**
 * One harvest per output file. Two runs appending to the same `--out` interleave their pages and
 * each checkpoints its own count, so the file ends up with duplicates that no checkpoint describes.
 *
 * The lock is a file beside the output (`<out>.lock`) created with `O_EXCL` (atomic: of two runs
 * only one can create it) holding the pid and host of its run, and removed when the run ends,
 * interrupted or not. A run killed outright (SIGKILL, power loss) leaves its lock behind: on the
 * same host a lock whose pid is not running is stale and taken over; a lock from another host
 * (a shared disk) cannot be checked, so the message says how to remove it.
 *
 * A symbolic link at the lock's path is never followed: `O_EXCL` does not create through one, the
 * holder is read with `O_NOFOLLOW`, and a link there is refused with a message naming it (exit 2)
 * instead of being reported as a lock another run keeps taking.
 *
 * @since 1.0.0
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"
import { CommandError, ExitCode } from "./ExitCode.js"
import * as Symlinks from "./Symlinks.js"

/**
 * What the lock file holds.
 *
 * @since 1.0.0
 */
export interface Holder {
  readonly pid: number
  readonly host: string
  readonly startedAt: string
}

/**
 * Where the lock of an output file lives.
 *
 * @since 1.0.0
 */
export const lockPath = (out: string): string => `${out}.lock`

const isHolder = (u: unknown): u is Holder =>
  typeof u === "object" && u !== null && "pid" in u && typeof u.pid === "number" && "host" in u &&
  typeof u.host === "string"

/** The holder in the lock, read without following a symbolic link (one there is "unreadable"). */
const readHolder = (path: string): Holder | "unreadable" | "gone" => {
  try {
    const fd = fs.openSync(path, Symlinks.readNoFollow)
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(fd, "utf8"))
      return isHolder(parsed) ? parsed : "unreadable"
    } finally {
      fs.closeSync(fd)
    }
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "gone" : "unreadable"
  }
}

/** Whether a process of this host runs with this pid (EPERM: it runs, as another user). */
const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const locked = (message: string) => new CommandError({ message, code: ExitCode.locked })

const failure = (what: string, cause: unknown) =>
  new CommandError({
    message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}`,
    code: ExitCode.file,
    cause
  })

/** Creates the lock; `false` when it exists already (`wx`: O_EXCL, which never creates through a link). */
const create = (path: string, holder: Holder): boolean => {
  try {
    fs.writeFileSync(path, JSON.stringify(holder) + "\n", { flag: "wx" })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false
    throw error
  }
}

const take = (out: string, holder: Holder): Effect.Effect<void, CommandError> =>
  Effect.suspend(() => {
    const path = lockPath(out)
    let link: Symlinks.Link | undefined
    try {
      link = Symlinks.linkAtSync(path)
    } catch (cause) {
      return Effect.fail(failure(`cannot read the lock ${path}`, cause))
    }
    if (link !== undefined) {
      return Effect.fail(Symlinks.refuse("the lock", link, `remove ${path} and run again`))
    }
    // Twice at most: a stale lock is removed once, then the create must win or lose for real.
    for (let round = 0; round < 2; round++) {
      let created: boolean
      try {
        created = create(path, holder)
      } catch (cause) {
        // The lock is the first file a harvest creates: a missing folder is the user's --out, not a lock problem.
        if ((cause as NodeJS.ErrnoException).code === "ENOENT") {
          const dir = nodePath.dirname(out)
          return Effect.fail(
            new CommandError({
              message: `the directory ${dir} does not exist: create it first, or give --out in an existing one`,
              code: ExitCode.badInput,
              cause
            })
          )
        }
        return Effect.fail(failure(`cannot create the lock ${path}`, cause))
      }
      if (created) return Effect.void
      const other = readHolder(path)
      if (other === "gone") continue
      if (other === "unreadable") {
        return Effect.fail(locked(
          `${path} exists but cannot be read: another s2 run may be starting on ${out}; ` +
            `if none runs, remove ${path} and try again`
        ))
      }
      if (other.host !== holder.host) {
        return Effect.fail(locked(
          `another s2 run holds ${out} (pid ${other.pid} on host ${other.host}, since ${other.startedAt}); ` +
            `if it no longer runs, remove ${path} and try again`
        ))
      }
      if (running(other.pid)) {
        return Effect.fail(locked(
          `another s2 run is writing ${out} (pid ${other.pid}, since ${other.startedAt}); ` +
            `wait for it to end, or stop it and run again with --resume`
        ))
      }
      // Stale: its run was killed without removing it. Removed only if unchanged since read.
      const again = readHolder(path)
      if (typeof again === "object" && again.pid === other.pid && again.startedAt === other.startedAt) {
        try {
          fs.rmSync(path, { force: true })
        } catch (cause) {
          return Effect.fail(failure(`cannot remove the stale lock ${path}`, cause))
        }
      }
    }
    return Effect.fail(locked(`cannot take the lock ${path}: another s2 run keeps taking it`))
  })

/** Removes the lock if it is still this run's. */
const release = (out: string, holder: Holder): Effect.Effect<void> =>
  Effect.sync(() => {
    const path = lockPath(out)
    const current = readHolder(path)
    if (typeof current === "object" && current.pid === holder.pid && current.startedAt === holder.startedAt) {
      fs.rmSync(path, { force: true })
    }
  })

/**
 * Holds the lock of `out` for the scope: fails at once with exit code {@link ExitCode.locked} when
 * another live harvest holds it, takes over a stale one, and removes it when the scope closes.
 *
 * @since 1.0.0
 */
export const acquire = (out: string) =>
  Effect.acquireRelease(
    Effect.suspend(() => {
      const holder: Holder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() }
      return Effect.as(take(out, holder), holder)
    }),
    (holder) => release(out, holder)
  )
