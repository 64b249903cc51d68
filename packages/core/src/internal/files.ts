/**
 * Replacing a file atomically without following a symbolic link, making directories one level at
 * a time, and the words of a file-system failure (see `Files.ts`).
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as PlatformError from "effect/PlatformError"
import * as Scope from "effect/Scope"
import type { Replacer, WriteOptions } from "../Files.js"

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

/** One of a replacer's two files: its name, its open handle, and how many bytes it may hold. */
interface Slot {
  readonly name: string
  readonly file: FileSystem.File
  size: number
}

/**
 * A slot's file, created exclusively (`O_EXCL`: nothing planted at the name is written through)
 * after removing what a crashed run left there (unlinking never follows a link).
 */
const openSlot = (fs: FileSystem.FileSystem, name: string, mode: number | undefined) => {
  const flags = { flag: "wx", ...(mode === undefined ? {} : { mode }) } as const
  return fs.open(name, flags).pipe(
    Effect.catchIf(alreadyExists, () => Effect.andThen(fs.remove(name), fs.open(name, flags))),
    Effect.map((file): Slot => ({ name, file, size: 0 }))
  )
}

const encoder = new TextEncoder()

export const makeReplacer = (
  path: string,
  { mode }: { readonly mode?: number | undefined } = {}
): Effect.Effect<Replacer, never, FileSystem.FileSystem | Scope.Scope> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const scope = yield* Scope.Scope
    const names = [`${path}.1.tmp`, `${path}.2.tmp`] as const
    yield* Scope.addFinalizer(scope, Effect.ignore(Effect.forEach(names, (name) => fs.remove(name), { discard: true })))
    // Where the two files cannot be made, every replacement is a `writeAtomic`.
    let slots = yield* Effect.all(names.map((name) => openSlot(fs, name, mode))).pipe(
      Effect.option,
      Effect.map(Option.getOrUndefined)
    )
    let next = 0
    // One function for every write, not an `Effect.gen` a write.
    const into = Effect.fnUntraced(function*(slot: Slot, bytes: Uint8Array, sync: boolean) {
      slot.size = Math.max(slot.size, bytes.length)
      yield* slot.file.seek(0n, "start")
      if (bytes.length > 0) yield* slot.file.writeAll(bytes)
      if (bytes.length < slot.size) yield* slot.file.truncate(bytes.length)
      slot.size = bytes.length
      if (sync) yield* slot.file.sync
      yield* fs.rename(slot.name, path)
      next = 1 - next
      // The file now in place keeps its slot's name, so that replacing it does not free it: it is
      // the one written the time after. Without hard links, `writeAtomic` from now on.
      yield* fs.link(path, slot.name).pipe(
        Effect.catch(() => {
          slots = undefined
          return Effect.ignore(fs.remove(names[next]!))
        })
      )
    })
    const write = (data: Uint8Array | string, options: { readonly sync?: boolean | undefined } = {}) =>
      Effect.suspend(() => {
        const bytes = typeof data === "string" ? encoder.encode(data) : data
        return slots === undefined
          ? writeAtomic(path, bytes, { sync: options.sync, mode }).pipe(
            Effect.provideService(FileSystem.FileSystem, fs)
          )
          : into(slots[next]!, bytes, options.sync === true)
      }).pipe(Effect.uninterruptible)
    return { write }
  })

/** The parent of a path by its text, or `undefined` for a root or a single relative segment. */
const parentOf = (path: string): string | undefined => {
  const trimmed = path.replace(/(?<=.)[\\/]+$/, "")
  const at = Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\"))
  if (at < 0) return undefined
  const parent = at === 0 ? trimmed.slice(0, 1) : trimmed.slice(0, at)
  return parent === trimmed ? undefined : parent
}

/** One `mkdir`, not recursive: a directory already there (or a link to one) is what was wanted. */
const makeOne = (
  fs: FileSystem.FileSystem,
  path: string,
  mode: number | undefined
): Effect.Effect<void, PlatformError.PlatformError> =>
  fs.makeDirectory(path, mode === undefined ? {} : { mode }).pipe(
    Effect.catchIf(alreadyExists, (error) =>
      Effect.flatMap(fs.stat(path), (info) => info.type === "Directory" ? Effect.void : Effect.fail(error)))
  )

/**
 * Each missing directory from the top down, one `mkdir` each: a `mkdir` that fails, or that still
 * finds no parent once the parent is made, ends it. Node's own recursive `mkdir` starts over in that
 * case and loops forever (under /proc, where a directory cannot be made though its parent exists).
 */
export const makeDirectory = (
  path: string,
  options: { readonly mode?: number | undefined } = {}
): Effect.Effect<void, PlatformError.PlatformError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => {
    const make = (dir: string): Effect.Effect<void, PlatformError.PlatformError> =>
      makeOne(fs, dir, options.mode).pipe(
        Effect.catchIf((error) => error.reason._tag === "NotFound", (error) => {
          const parent = parentOf(dir)
          // Once per level: the path's own length bounds the work.
          return parent === undefined
            ? Effect.fail(error)
            : Effect.andThen(make(parent), makeOne(fs, dir, options.mode))
        })
      )
    return make(path)
  })

/** A Node error's code and words: `ENOSPC: no space left on device, write` is `ENOSPC`, `no space left on device`. */
const systemWords = (cause: unknown): { readonly code: string; readonly words: string | undefined } | undefined => {
  if (typeof cause !== "object" || cause === null) return undefined
  const { code, message } = cause as { readonly code?: unknown; readonly message?: unknown }
  if (typeof code !== "string" || !/^E[A-Z0-9]+$/.test(code)) return undefined
  const words = typeof message === "string" ? new RegExp(`^${code}: ([^,]+)`).exec(message)?.[1] : undefined
  return { code, words }
}

export const describeError = (error: unknown): string => {
  const platform = PlatformError.isPlatformError(error)
  const system = systemWords(platform ? error.reason.cause : error)
  if (system !== undefined) return system.words === undefined ? system.code : `${system.words} (${system.code})`
  return platform || error instanceof Error ? error.message : String(error)
}
