/**
 * Local files read safely: what the platform offers to not follow a symbolic link, and a reader of
 * small files (a cache entry, a download's notes) that reads a regular file only.
 */
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type * as PlatformError from "effect/PlatformError"
import type * as Scope from "effect/Scope"
import * as NodeFs from "node:fs"

/**
 * Whether `FileSystem.open` can refuse a symbolic link at the last component (`noFollow`, which is
 * `O_NOFOLLOW`: POSIX, not Windows, where the option fails every open).
 */
export const noFollow: boolean = process.platform !== "win32" && typeof NodeFs.constants.O_NOFOLLOW === "number" &&
  NodeFs.constants.O_NOFOLLOW !== 0

export const notFound = (error: PlatformError.PlatformError): boolean => error.reason._tag === "NotFound"

/** What {@link readRegular} found: nothing, something it does not read (and why), or the bytes. */
export type Found =
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Refused"; readonly why: string }
  | { readonly _tag: "Read"; readonly bytes: Uint8Array }

/** Why a file is not read, or `undefined` when it may be. */
const refusal = (info: FileSystem.File.Info, maxBytes: number): string | undefined =>
  info.type === "SymbolicLink"
    ? "is a symbolic link"
    : info.type !== "File"
    ? `is not a file (${info.type})`
    : Number(info.size) > maxBytes
    ? `holds ${Number(info.size)} bytes, more than the ${maxBytes} expected`
    : undefined

/** Every byte of an open file, up to `size` (a file cut meanwhile reads short). */
const readAll = (file: FileSystem.File, size: number) =>
  Effect.gen(function*() {
    const buffer = new Uint8Array(size)
    let filled = 0
    while (filled < size) {
      const read = yield* file.read(buffer.subarray(filled))
      if (read === 0) break
      filled += read
    }
    return buffer.subarray(0, filled)
  })

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them. A symbolic link there
 * (planted under a predictable name), a directory, a device or a larger file is `Refused`, never
 * read; the open does not follow a link put there since the check, and what it opened is checked
 * again.
 */
export const readRegular = (
  fs: FileSystem.FileSystem,
  path: string,
  maxBytes: number
): Effect.Effect<Found, PlatformError.PlatformError> =>
  Effect.gen(function*() {
    const info = yield* fs.lstat(path)
    const before = refusal(info, maxBytes)
    if (before !== undefined) return { _tag: "Refused", why: before } as const
    return yield* Effect.scoped(
      Effect.gen(function*(): Effect.fn.Return<Found, PlatformError.PlatformError, Scope.Scope> {
        const file = yield* fs.open(path, { flag: "r", noFollow })
        const opened = yield* file.stat
        const after = refusal(opened, maxBytes)
        return after !== undefined
          ? { _tag: "Refused", why: after }
          : { _tag: "Read", bytes: yield* readAll(file, Number(opened.size)) }
      })
    )
  }).pipe(Effect.catchIf(notFound, () => Effect.succeed<Found>({ _tag: "Missing" })))
