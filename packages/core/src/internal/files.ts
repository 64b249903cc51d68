/**
 * Replacing a file atomically without following a symbolic link (see `Files.ts`).
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import type * as PlatformError from "effect/PlatformError"
import type { WriteOptions } from "../Files.js"

/** Names tried before giving up: a collision of 64 random bits means the names are being planted. */
const names = 4

/** 64 bits from the platform's cryptographic generator, so no other user can plant the name first. */
const randomSuffix = (): string => {
  let hex = ""
  for (const byte of crypto.getRandomValues(new Uint8Array(8))) hex += byte.toString(16).padStart(2, "0")
  return hex
}

const alreadyExists = (error: PlatformError.PlatformError): boolean => error.reason._tag === "AlreadyExists"

/**
 * Creates a new file beside `path` and writes `data` into it; answers its name. `wx` is O_CREAT |
 * O_EXCL: the open fails on anything already there, a symbolic link included, dangling or not, so
 * it never writes through one. What it created is removed if the write fails.
 */
const createTemporary = (
  fs: FileSystem.FileSystem,
  path: string,
  data: Uint8Array,
  options: WriteOptions
): Effect.Effect<string, PlatformError.PlatformError> =>
  Effect.suspend(() => {
    const temporary = `${path}.${randomSuffix()}.tmp`
    const flags = { flag: "wx", ...(options.mode === undefined ? {} : { mode: options.mode }) } as const
    // Without a flush, one call instead of an open, a write and a close as three effects.
    const write = options.sync === true
      ? Effect.scoped(
        Effect.flatMap(fs.open(temporary, flags), (handle) => Effect.andThen(handle.writeAll(data), handle.sync))
      )
      : fs.writeFile(temporary, data, flags)
    return write.pipe(
      Effect.tapError((error) => alreadyExists(error) ? Effect.void : Effect.ignore(fs.remove(temporary))),
      Effect.as(temporary)
    )
  })

export const writeAtomic = (
  path: string,
  data: Uint8Array | string,
  options: WriteOptions = {}
): Effect.Effect<void, PlatformError.PlatformError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data
    const temporary = yield* createTemporary(fs, path, bytes, options).pipe(
      Effect.retry({ times: names - 1, while: alreadyExists })
    )
    // A rename replaces whatever `path` is, a symbolic link included, and never writes through it.
    yield* fs.rename(temporary, path).pipe(Effect.tapError(() => Effect.ignore(fs.remove(temporary))))
  }).pipe(Effect.uninterruptible)
