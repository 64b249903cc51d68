/**
 * The response cache's directory of files: one file per entry, named by its key percent-encoded,
 * as effect's `KeyValueStore.layerFileSystem` names them (so a directory it filled is read on).
 * Unlike that store, it never goes through a symbolic link: the names are predictable, so in a
 * shared directory someone may plant a link under one. An entry is written with
 * `Files.writeAtomic` (a link at its name is replaced, never written through), read only when it is
 * a regular file (`readRegular`), and the directory is made with `Files.makeDirectory` (which fails
 * where Node's recursive `mkdir` would loop).
 */
import { Files } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import * as PlatformError from "effect/PlatformError"
import * as NodePath from "node:path"
import { notFound, readRegular } from "./localFiles.js"

/** Past this, an entry is no answer the cache wrote (the longest string V8 holds is about 512 MB). */
export const maxEntryBytes = 256 * 1024 * 1024

/** The entries' own names: a temporary file of `Files.writeAtomic` is not one. */
const keyOfName = (name: string): string | undefined => {
  if (name.endsWith(".tmp")) return undefined
  try {
    return decodeURIComponent(name)
  } catch {
    return undefined
  }
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
  /** An entry's bytes, or `undefined` for none; anything but a regular file is a miss, with a Warning. */
  const read = (key: string) =>
    Effect.flatMap(readRegular(fs, pathOf(key), maxEntryBytes), (found) => {
      switch (found._tag) {
        case "Missing":
          return Effect.undefined
        case "Read":
          return Effect.succeed(found.bytes)
        case "Refused":
          return Effect.as(
            Effect.logWarning(
              `S2 cache: ${pathOf(key)} ${found.why}; the cache reads files of its own only, never through a link: ` +
                "asking the server instead (the answer replaces it)"
            ),
            undefined
          )
      }
    }).pipe(Effect.mapError(failure("get", key, `cannot read the cache entry ${pathOf(key)}`)))
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

/**
 * The error with the system's words as its description: the layer's `InvalidOptions` shows its
 * message, which otherwise names the call (`NotFound: FileSystem.makeDirectory (/proc/x)`) only.
 */
const withWords = (error: PlatformError.PlatformError): PlatformError.PlatformError =>
  error.reason._tag === "BadArgument" || error.reason.description !== undefined
    ? error
    : PlatformError.systemError({ ...error.reason, description: Files.describeError(error) })

/** The store in `directory`, made (with the directories above it) when missing. */
export const layer = (
  directory: string
): Layer.Layer<KeyValueStore.KeyValueStore, PlatformError.PlatformError, FileSystem.FileSystem> =>
  Layer.effect(
    KeyValueStore.KeyValueStore,
    Effect.gen(function*() {
      yield* Files.makeDirectory(directory).pipe(Effect.mapError(withWords))
      return make(yield* FileSystem.FileSystem, directory)
    })
  )
