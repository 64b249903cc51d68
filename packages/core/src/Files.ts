/**
 * Local files and directories the safe way, for every package that keeps state on disk (the CLI's
 * harvest checkpoints, cassettes, cache entries, dataset downloads): whatever was planted beside a
 * file, nothing is written through a symbolic link, and a reader sees the old content or the new,
 * never a mix; a directory that cannot be made fails at once; a failure says its cause in words.
 *
 * Platform-neutral: it needs only a `FileSystem` (`NodeFileSystem.layer` on Node).
 *
 * @since 1.0.0
 */
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as PlatformError from "effect/PlatformError"
import type * as Scope from "effect/Scope"
import * as internal from "./internal/files.js"

/**
 * Options of {@link writeAtomic}.
 *
 * @category options
 * @since 1.0.0
 */
export interface WriteOptions {
  /** Flush the new content to the disk (fsync) before it replaces the old. Default `false`. */
  readonly sync?: boolean | undefined
  /** Permissions of a new file (before the umask). Default `0o666`. */
  readonly mode?: number | undefined
}

/**
 * Replaces the file at `path` with `data` atomically: the data goes to a new file beside it, under
 * an unpredictable name (`<path>.<16 random hex digits>.tmp`) created exclusively (`O_CREAT |
 * O_EXCL`, so a symbolic link planted there, dangling or not, is never followed), flushed first if
 * `sync`, then renamed over `path` (which replaces a symbolic link at `path` itself, never its
 * target). If anything fails, the temporary file is removed and the old file is untouched.
 * Uninterruptible: an interruption waits for the write and the rename.
 *
 * @example
 * ```ts
 * import { Files } from "@s2-effect/core"
 *
 * // Run with a FileSystem, e.g. `Effect.provide(NodeFileSystem.layer)`.
 * export const save = Files.writeAtomic("state.json", JSON.stringify({ page: 3 }) + "\n", { sync: true })
 * ```
 * @category files
 * @since 1.0.0
 */
export const writeAtomic: (
  path: string,
  data: Uint8Array | string,
  options?: WriteOptions
) => Effect.Effect<void, PlatformError.PlatformError, FileSystem.FileSystem> = internal.writeAtomic

/**
 * A file replaced atomically again and again ({@link makeReplacer}).
 *
 * @category models
 * @since 1.3.0
 */
export interface Replacer {
  /**
   * Replaces the file with `data`, flushed first if `sync`: a reader who opens it sees the old
   * content or the new, never a mix. Uninterruptible.
   */
  readonly write: (
    data: Uint8Array | string,
    options?: { readonly sync?: boolean | undefined }
  ) => Effect.Effect<void, PlatformError.PlatformError>
}

/**
 * For a file one program replaces many times, as a harvest replaces its checkpoint after every
 * page: each replacement is atomic, as with {@link writeAtomic}, without creating and freeing a
 * file each time, which costs about a millisecond a time on ext4 beside a large file being written
 * (packages/bench/NOTES.md, issue 47). Two files beside `path`, `<path>.1.tmp` and `<path>.2.tmp`,
 * take turns: a replacement writes the one not in place, renames it over `path`, and links its name
 * back, so that the file it replaced lives on under the other name, to be written the next time.
 *
 * What a crashed run left at those names is removed first; they are created exclusively (`O_CREAT
 * | O_EXCL`), so a symbolic link planted there is never written through, and removed when the scope
 * closes. One replacer per path at a time (hold a lock). Where the two files cannot be made, or the
 * file system has no hard links, every replacement is a {@link writeAtomic}. A reader who keeps the
 * file open across two replacements may see it change.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Files } from "@s2-effect/core"
 *
 * // Run with a FileSystem, e.g. `Effect.provide(NodeFileSystem.layer)`.
 * export const count = Effect.scoped(Effect.gen(function*() {
 *   const state = yield* Files.makeReplacer("state.json")
 *   for (let page = 1; page <= 3; page++) yield* state.write(JSON.stringify({ page }) + "\n")
 * }))
 * ```
 * @category files
 * @since 1.3.0
 */
export const makeReplacer: (
  path: string,
  options?: { readonly mode?: number | undefined }
) => Effect.Effect<Replacer, never, FileSystem.FileSystem | Scope.Scope> = internal.makeReplacer

/**
 * Options of {@link makeDirectory}.
 *
 * @category options
 * @since 1.0.0
 */
export interface DirectoryOptions {
  /** Permissions of each directory made (before the umask). Default `0o777`. */
  readonly mode?: number | undefined
}

/**
 * Makes the directory `path` and those above it that are missing, one `mkdir` at a time from the
 * top down, so that any failure ends it at once with the `PlatformError` of the directory that
 * could not be made. A directory already there, or a symbolic link to one, is fine; anything else
 * there fails with `AlreadyExists`. Use it for every directory a program makes: Node's recursive
 * `mkdir` starts over whenever a directory cannot be made though its parent exists (anywhere
 * under /proc, for instance) and never returns.
 *
 * @example
 * ```ts
 * import { Files } from "@s2-effect/core"
 *
 * // Run with a FileSystem, e.g. `Effect.provide(NodeFileSystem.layer)`.
 * export const prepare = Files.makeDirectory("data/2025-01-07/papers")
 * ```
 * @category files
 * @since 1.0.0
 */
export const makeDirectory: (
  path: string,
  options?: DirectoryOptions
) => Effect.Effect<void, PlatformError.PlatformError, FileSystem.FileSystem> = internal.makeDirectory

/**
 * What went wrong, in the system's words, for the one line a user reads: `no space left on device
 * (ENOSPC)` rather than the platform's `Unknown: FileSystem.writeAll (21)`, which names the
 * operation and a file descriptor but not the cause. The caller names the file and what it was
 * doing. Takes a `PlatformError` or Node's own error (`ENOSPC: no space left on device, write`,
 * from a stream); an error without a system code keeps its message.
 *
 * @example
 * ```ts
 * import { Effect, FileSystem } from "effect"
 * import { Files } from "@s2-effect/core"
 *
 * export const save = (path: string, text: string) =>
 *   Effect.flatMap(FileSystem.FileSystem, (fs) => fs.writeFileString(path, text)).pipe(
 *     Effect.mapError((error) => new Error(`cannot write ${path}: ${Files.describeError(error)}`))
 *   )
 * ```
 * @category files
 * @since 1.0.0
 */
export const describeError: (error: unknown) => string = internal.describeError
