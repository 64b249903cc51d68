/**
 * Symbolic links where `s2` writes: an `--out` file, a checkpoint or a lock beside it. A link
 * there may have been planted by someone else (in a shared directory such as /tmp) to make `s2`
 * overwrite the file it points to, or be dangling so that `s2` creates a file elsewhere; so `s2`
 * never writes through one. It checks with `lstat` and refuses with a message naming the link, its
 * target and what to do, and opens files with `O_NOFOLLOW` where the platform has it, so a link put
 * in place after the check makes the open fail instead.
 *
 * @since 1.0.0
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import * as path from "node:path"
import type { CommandError } from "./ExitCode.js"
import { badInput, fileError } from "./ExitCode.js"

/**
 * Whether the platform can open a file without following a symbolic link at its last component
 * (`O_NOFOLLOW`: POSIX, not Windows), to pass as `FileSystem.open`'s `noFollow` (which fails on a
 * platform without it).
 *
 * @since 1.0.0
 */
export const noFollow: boolean = process.platform !== "win32" && typeof fs.constants.O_NOFOLLOW === "number" &&
  fs.constants.O_NOFOLLOW !== 0

/**
 * A symbolic link found where `s2` was to write.
 *
 * @since 1.0.0
 */
export interface Link {
  readonly path: string
  /** What the link holds, as it holds it (relative to the link's directory, or absolute). */
  readonly target: string
  /** The target as a path from here. */
  readonly resolved: string
}

const linkOf = (file: string, target: string): Link => ({
  path: file,
  target,
  resolved: path.resolve(path.dirname(file), target)
})

/**
 * The symbolic link at `file`; `None` when `file` is absent or anything else.
 *
 * @since 1.0.0
 */
export const linkAt = (file: string): Effect.Effect<Option.Option<Link>, CommandError, FileSystem.FileSystem> =>
  FileSystem.FileSystem.use((fs) =>
    fs.lstat(file).pipe(
      Effect.flatMap((info) =>
        info.type === "SymbolicLink"
          ? Effect.map(fs.readLink(file), (target) => Option.some(linkOf(file, target)))
          : Effect.succeedNone
      ),
      Effect.catchIf((error) => error.reason._tag === "NotFound", () => Effect.succeedNone)
    )
  ).pipe(Effect.mapError((cause) => fileError(`cannot read ${file}`, cause)))

/**
 * The refusal of a link (exit 2): `<what> <path> is a symbolic link to <target>; s2 never writes
 * through one: <todo>`.
 *
 * @since 1.0.0
 */
export const refuse = (what: string, link: Link, todo: string): CommandError =>
  badInput(
    `${what}${what === "" ? "" : " "}${link.path} is a symbolic link to ${link.target}; ` +
      `s2 never writes through one: ${todo}`
  )
