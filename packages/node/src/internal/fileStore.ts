/**
 * The response cache's directory of files: one file per entry, named by its key percent-encoded,
 * as effect's `KeyValueStore.layerFileSystem` names them (so a directory it filled is read on).
 * Unlike that store, it never goes through a symbolic link: the names are predictable, so in a
 * shared directory someone may plant a link under one. An entry is written with
 * `Files.writeAtomic` (a link at its name is replaced, never written through), read only when it is
 * a regular file (opened with `O_NOFOLLOW` where the platform has it), and the directory is made
 * with `Files.makeDirectory` (which fails where Node's recursive `mkdir` would loop).
 */
import { Files } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import type * as PlatformError from "effect/PlatformError"
import * as NodePath from "node:path"
import { noFollow } from "./localFiles.js"

/** Past this, an entry is no answer the cache wrote (the longest string V8 holds is about 512 MB). */
export const maxEntryBytes = 256 * 1024 * 1024

const notFound = (error: PlatformError.PlatformError) => error.reason._tag === "NotFound"

/** The entries' own names: a temporary file of `Files.writeAtomic` is not one. */
const keyOfName = (name: string): string | undefined => {
  if (name.endsWith(".tmp")) return undefined
  try {
    return decodeURIComponent(name)
  } catch {
    return undefined
  }
}

/** Why a file at an entry's name is not read, or `undefined` when it may be. */
const refusal = (info: FileSystem.File.Info): string | undefined =>
  info.type === "SymbolicLink"
    ? "is a symbolic link: the cache never reads or writes through one"
    : info.type !== "File"
    ? `is not a file (${info.type})`
    : Number(info.size) > maxEntryBytes
    ? `holds ${Number(info.size)} bytes, more than any entry the cache writes`
    : undefined

/** Every byte of an open file, up to `size` (a file cut meanwhile reads short, and fails to parse). */
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

/** Whether the file at an entry's name is refused: then a miss, with a Warning (the next answer replaces it). */
const refused = (path: string, info: FileSystem.File.Info) => {
  const why = refusal(info)
  return why === undefined
    ? Effect.succeed(false)
    : Effect.as(Effect.logWarning(`S2 cache: ${path} ${why}; asking the server instead`), true)
}

const make = (fs: FileSystem.FileSystem, directory: string): KeyValueStore.KeyValueStore => {
  const pathOf = (key: string) => NodePath.join(directory, encodeURIComponent(key))
  const failure = (method: string, key: string | undefined, what: string) => (cause: PlatformError.PlatformError) =>
    new KeyValueStore.KeyValueStoreError({
      method,
      ...(key === undefined ? {} : { key }),
      message: `${what}: ${Files.describeError(cause)}`,
      cause
    })
  /** An entry's bytes, or `undefined` for none; the open does not follow a link put there since the check. */
  const read = (key: string) =>
    Effect.gen(function*() {
      const path = pathOf(key)
      const info = yield* Effect.catchIf(fs.lstat(path), notFound, () => Effect.undefined)
      if (info === undefined) return undefined
      if (yield* refused(path, info)) return undefined
      return yield* Effect.scoped(Effect.gen(function*() {
        const file = yield* fs.open(path, { flag: "r", noFollow })
        // What was opened, which may have been put there since the check.
        const opened = yield* file.stat
        return (yield* refused(path, opened)) ? undefined : yield* readAll(file, Number(opened.size))
      }))
    }).pipe(
      Effect.catchIf(notFound, () => Effect.undefined),
      Effect.mapError(failure("get", key, `cannot read the cache entry ${pathOf(key)}`))
    )
  const names = fs.readDirectory(directory).pipe(
    Effect.map((all) => all.flatMap((name) => keyOfName(name) === undefined ? [] : [name]))
  )
  const remove = (name: string) =>
    Effect.catchIf(fs.remove(NodePath.join(directory, name)), notFound, () => Effect.void)
  return KeyValueStore.make({
    get: (key) => Effect.map(read(key), (bytes) => bytes === undefined ? undefined : new TextDecoder().decode(bytes)),
    getUint8Array: read,
    set: (key, value) =>
      Files.writeAtomic(pathOf(key), value).pipe(
        Effect.provideService(FileSystem.FileSystem, fs),
        Effect.mapError(failure("set", key, `cannot write ${pathOf(key)}`))
      ),
    // `remove` unlinks a link itself, never its target.
    remove: (key) =>
      Effect.mapError(remove(encodeURIComponent(key)), failure("remove", key, `cannot remove ${pathOf(key)}`)),
    // Only the entries: the directory is the user's, and may hold other files.
    clear: names.pipe(
      Effect.flatMap((all) => Effect.forEach(all, remove, { discard: true })),
      Effect.mapError(failure("clear", undefined, `cannot clear ${directory}`))
    ),
    size: Effect.mapError(
      Effect.map(names, (all) => all.length),
      failure("size", undefined, `cannot list ${directory}`)
    ),
    keys: Effect.mapError(
      Effect.map(names, (all) => all.map((name) => keyOfName(name)!)),
      failure("keys", undefined, `cannot list ${directory}`)
    )
  })
}

/** The store in `directory`, made (with the directories above it) when missing. */
export const layer = (
  directory: string
): Layer.Layer<KeyValueStore.KeyValueStore, PlatformError.PlatformError, FileSystem.FileSystem> =>
  Layer.effect(
    KeyValueStore.KeyValueStore,
    Effect.gen(function*() {
      yield* Files.makeDirectory(directory)
      return make(yield* FileSystem.FileSystem, directory)
    })
  )
