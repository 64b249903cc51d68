/**
 * Writing a local file the safe way, for every package that keeps state on disk (the CLI's harvest
 * checkpoints, cassettes, cache entries): whatever was planted beside the file, nothing is written
 * through a symbolic link, and a reader sees the old content or the new, never a mix.
 *
 * Platform-neutral: it needs only a `FileSystem` (`NodeFileSystem.layer` on Node).
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as PlatformError from "effect/PlatformError"
import * as internal from "./internal/files.js"

/**
 * Options of {@link writeAtomic}.
 *
 * @category options
 * @since 0.1.0
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
 * @since 0.1.0
 */
export const writeAtomic: (
  path: string,
  data: Uint8Array | string,
  options?: WriteOptions
) => Effect.Effect<void, PlatformError.PlatformError, FileSystem.FileSystem> = internal.writeAtomic
