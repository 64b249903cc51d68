/** The corpus file cache behind {@link Api.make}: read if it checks out, else build and write. */
import { Files } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as nodeFs from "node:fs"
import * as fsp from "node:fs/promises"
import * as os from "node:os"
import * as nodePath from "node:path"
import type { Corpus, CorpusOptions } from "../Corpus.js"
import type * as Api from "../CorpusCache.js"
import { CorpusImpl, encodeFile } from "./corpus/corpus.js"
import { CORPUS_VERSION } from "./corpus/version.js"

/** Corpora above this size are built each time: their files would be hundreds of megabytes. */
export const MAX_CACHED_SIZE = 1_000_000
/** The most corpus files a directory keeps: the oldest go when a new one is written. */
export const MAX_FILES = 4
/** More bytes than a corpus file of `size` papers holds (about 350 a paper): a longer file is refused unread. */
const maxBytes = (size: number): number => 1_048_576 + 1024 * size

const FILE = /^corpus-\d+-\d+-[0-9a-f]{16}\.bin$/
/** A temporary file of `Files.writeAtomic` beside a corpus file: left only by a killed write. */
const TEMPORARY = /^corpus-\d+-\d+-[0-9a-f]{16}\.bin\.[0-9a-f]{16}\.tmp$/
const STALE_TEMPORARY_MS = 3_600_000

export const fileName = (seed: number, size: number): string =>
  `corpus-${seed >>> 0}-${Math.max(1, Math.floor(size))}-${CORPUS_VERSION.slice(0, 16)}.bin`

export const defaultDirectory = (
  env: Readonly<Record<string, string | undefined>> = process.env
): string | undefined => {
  const chosen = env["S2_EMULATOR_CACHE"]?.trim()
  if (chosen === "off") return undefined
  if (chosen !== undefined && chosen !== "") return nodePath.resolve(chosen)
  const xdg = env["XDG_CACHE_HOME"]
  const base = process.platform === "win32" && env["LOCALAPPDATA"] !== undefined && env["LOCALAPPDATA"] !== ""
    ? env["LOCALAPPDATA"]
    : xdg !== undefined && nodePath.isAbsolute(xdg)
    ? xdg
    : nodePath.join(os.homedir(), ".cache")
  return nodePath.join(base, "s2-effect", "emulator")
}

type Found = { readonly _tag: "Bytes"; readonly bytes: Uint8Array } | { readonly _tag: "None"; readonly why?: string }

/**
 * The file's bytes if it is a regular file of a plausible length; why not otherwise (none: no
 * file). Opened without following a symbolic link where the system can (`O_NOFOLLOW`), then
 * checked on the open file itself (so nothing swapped in after a check is read: not a link, not
 * a device that never ends), and read up to the length it had, never more than a corpus holds.
 */
const readFile = (path: string, size: number): Effect.Effect<Found> =>
  Effect.tryPromise(async (): Promise<Found> => {
    const info = await fsp.lstat(path)
    if (!info.isFile()) return { _tag: "None", why: "it is not a regular file" }
    const handle = await fsp.open(path, nodeFs.constants.O_RDONLY | (noFollow ? nodeFs.constants.O_NOFOLLOW : 0))
    try {
      const opened = await handle.stat()
      if (!opened.isFile()) return { _tag: "None", why: "it is not a regular file" }
      if (opened.size > maxBytes(size)) return { _tag: "None", why: `it is ${opened.size} bytes, too long` }
      const bytes = new Uint8Array(opened.size)
      let read = 0
      while (read < bytes.length) {
        const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read)
        if (bytesRead === 0) break
        read += bytesRead
      }
      return { _tag: "Bytes", bytes: read === bytes.length ? bytes : bytes.subarray(0, read) }
    } finally {
      await handle.close()
    }
  }).pipe(
    Effect.catch(({ cause }) =>
      Effect.succeed<Found>(
        typeof cause === "object" && cause !== null && "code" in cause && cause.code === "ENOENT"
          ? { _tag: "None" }
          : { _tag: "None", why: Files.describeError(cause) }
      )
    )
  )

/** Whether `O_NOFOLLOW` means something here (not on Windows). */
const noFollow = process.platform !== "win32" && typeof nodeFs.constants.O_NOFOLLOW === "number"

/** Writes the corpus file, then drops the oldest files past {@link MAX_FILES}; a failure is a Warning. */
const writeFile = (directory: string, path: string, corpus: CorpusImpl) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    yield* Files.makeDirectory(directory)
    // A symbolic link planted at the path is left alone: the file is not written.
    const there = yield* Effect.option(fs.lstat(path))
    if (Option.isSome(there) && there.value.type !== "File") {
      return yield* Effect.logWarning(`emulator corpus not cached: ${path} is not a regular file`)
    }
    yield* Files.writeAtomic(path, encodeFile(corpus))
    yield* prune(directory, nodePath.basename(path))
  }).pipe(
    Effect.catch((error) =>
      Effect.logWarning(`emulator corpus not cached in ${directory}: ${Files.describeError(error)}`)
    )
  )

/** Removes corpus files past the newest {@link MAX_FILES} (never `keep`) and temporary files an hour old. */
const prune = (directory: string, keep: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const names = yield* fs.readDirectory(directory)
    const files: Array<{ readonly name: string; readonly time: number }> = []
    for (const name of names) {
      if (name === keep || !(FILE.test(name) || TEMPORARY.test(name))) continue
      const info = yield* Effect.option(fs.lstat(nodePath.join(directory, name)))
      if (Option.isNone(info) || info.value.type !== "File") continue
      const time = Option.getOrElse(info.value.mtime, () => new Date(0)).getTime()
      if (TEMPORARY.test(name)) {
        if (Date.now() - time > STALE_TEMPORARY_MS) yield* Effect.ignore(fs.remove(nodePath.join(directory, name)))
      } else {
        files.push({ name, time })
      }
    }
    files.sort((a, b) => b.time - a.time)
    for (const old of files.slice(MAX_FILES - 1)) yield* Effect.ignore(fs.remove(nodePath.join(directory, old.name)))
  })

export const save = (
  corpus: Corpus,
  directory: string | undefined
): Effect.Effect<void, never, FileSystem.FileSystem> =>
  directory === undefined || !(corpus instanceof CorpusImpl) || corpus.fromFile || corpus.size > MAX_CACHED_SIZE
    ? Effect.void
    : writeFile(directory, nodePath.join(directory, fileName(corpus.seed, corpus.size)), corpus)

export const make = (
  options: CorpusOptions & Api.CacheOptions
): Effect.Effect<Corpus, never, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const directory = options.directory
    if (directory === undefined || Math.floor(options.size) > MAX_CACHED_SIZE) return new CorpusImpl(options)
    const path = nodePath.join(directory, fileName(options.seed, options.size))
    const found = yield* readFile(path, options.size)
    if (found._tag === "Bytes") {
      const corpus = new CorpusImpl(options, found.bytes)
      if (corpus.refused === undefined) return corpus
      yield* Effect.logWarning(`emulator corpus file ${path} not used (${corpus.refused}): building the corpus`)
      yield* writeFile(directory, path, corpus)
      return corpus
    }
    if (found.why !== undefined) {
      yield* Effect.logWarning(`emulator corpus file ${path} not used (${found.why}): building the corpus`)
    }
    const corpus = new CorpusImpl(options)
    if (options.write !== false) yield* writeFile(directory, path, corpus)
    return corpus
  })
