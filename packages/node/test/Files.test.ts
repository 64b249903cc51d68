/**
 * `Files.writeAtomic` of `@s2-effect/core` on Node's file system (core has none to test with): the
 * temporary file is created exclusively under an unpredictable name, so a symbolic link planted at
 * it (or at the file itself) is never written through, and nothing is left behind on failure.
 */
import { NodeFileSystem } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Files } from "@s2-effect/core"
import { Effect, FileSystem, Layer } from "effect"
import * as NodePath from "node:path"

/** Node's file system with some operations replaced; `calls` records the paths and flags written. */
const spied = (replace: (fs: FileSystem.FileSystem) => Partial<FileSystem.FileSystem> = () => ({})) => {
  const calls: Array<{ readonly op: string; readonly path: string; readonly flag: string | undefined }> = []
  const layer = Layer.effect(
    FileSystem.FileSystem,
    Effect.map(FileSystem.FileSystem, (fs) => {
      const replaced = replace(fs)
      return FileSystem.FileSystem.of({
        ...fs,
        writeFile: (path, data, options) => {
          calls.push({ op: "writeFile", path, flag: options?.flag })
          return (replaced.writeFile ?? fs.writeFile)(path, data, options)
        },
        open: (path, options) => {
          calls.push({ op: "open", path, flag: options?.flag })
          return (replaced.open ?? fs.open)(path, options)
        },
        rename: replaced.rename ?? fs.rename
      })
    })
  ).pipe(Layer.provideMerge(NodeFileSystem.layer))
  return { calls, layer }
}

/** A directory with a file no write may touch, and where a write goes. */
const setup = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const dir = yield* fs.makeTempDirectoryScoped({ prefix: "s2-files-" })
  const victim = NodePath.join(dir, "precious")
  yield* fs.writeFileString(victim, "precious")
  return { fs, dir, victim, file: NodePath.join(dir, "state.json") }
})

const temporaries = (fs: FileSystem.FileSystem, dir: string) =>
  Effect.map(fs.readDirectory(dir), (names) => names.filter((name) => name.endsWith(".tmp")))

describe("Files.writeAtomic", () => {
  it.effect("writes under a new random name created exclusively each time, then renames it into place", () => {
    const { calls, layer } = spied()
    return Effect.gen(function*() {
      const { dir, file, fs } = yield* setup
      yield* Files.writeAtomic(file, "one\n")
      yield* Files.writeAtomic(file, new TextEncoder().encode("two\n"), { sync: true })
      expect(yield* fs.readFileString(file)).toBe("two\n")
      expect(calls.map((call) => [call.op, call.flag])).toEqual([["writeFile", "wx"], ["open", "wx"]])
      const [first, second] = calls.map((call) => call.path)
      expect(first).toMatch(new RegExp(`^${file.replace(/\./g, "\\.")}\\.[0-9a-f]{16}\\.tmp$`))
      expect(second).toMatch(/\.[0-9a-f]{16}\.tmp$/)
      expect(second).not.toBe(first)
      expect(yield* temporaries(fs, dir)).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(layer))
  })

  it.effect("replaces a symbolic link at the file itself, never its target", () =>
    Effect.gen(function*() {
      const { file, fs, victim } = yield* setup
      yield* fs.symlink(victim, file)
      yield* Files.writeAtomic(file, "new")
      expect(yield* fs.readFileString(victim)).toBe("precious")
      expect((yield* fs.lstat(file)).type).toBe("File")
      expect(yield* fs.readFileString(file)).toBe("new")
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("a link planted at the temporary name is never written through: another name is tried", () => {
    let victim = ""
    const planted: Array<string> = []
    // Plants a link at each of the first two names the moment it is chosen, as a racing attacker would.
    const plant = (fs: FileSystem.FileSystem, path: string) =>
      planted.length < 2
        ? Effect.andThen(fs.symlink(victim, path), Effect.sync(() => void planted.push(path)))
        : Effect.void
    const { calls, layer } = spied((fs) => ({
      writeFile: (path, data, options) => Effect.andThen(plant(fs, path), fs.writeFile(path, data, options)),
      open: (path, options) => Effect.andThen(plant(fs, path), fs.open(path, options))
    }))
    return Effect.gen(function*() {
      const setupped = yield* setup
      const { dir, file, fs } = setupped
      victim = setupped.victim
      yield* Files.writeAtomic(file, "new")
      expect(calls).toHaveLength(3)
      expect(yield* fs.readFileString(victim)).toBe("precious")
      expect(yield* fs.readFileString(file)).toBe("new")
      // The planted links are not ours: left as they are.
      expect((yield* temporaries(fs, dir)).sort()).toEqual(planted.map((path) => NodePath.basename(path)).sort())
      for (const path of planted) expect((yield* fs.lstat(path)).type).toBe("SymbolicLink")

      planted.length = 0
      calls.length = 0
      const flushed = NodePath.join(dir, "flushed.json")
      yield* Files.writeAtomic(flushed, "synced", { sync: true })
      expect(calls.map((call) => call.op)).toEqual(["open", "open", "open"])
      expect(yield* fs.readFileString(flushed)).toBe("synced")
      expect(yield* fs.readFileString(victim)).toBe("precious")
    }).pipe(Effect.scoped, Effect.provide(layer))
  })

  it.effect("names taken every time: fails with AlreadyExists, writing nothing", () => {
    let victim = ""
    const { layer } = spied((fs) => ({
      writeFile: (path, data, options) => Effect.andThen(fs.symlink(victim, path), fs.writeFile(path, data, options))
    }))
    return Effect.gen(function*() {
      const setupped = yield* setup
      victim = setupped.victim
      const error = yield* Effect.flip(Files.writeAtomic(setupped.file, "new"))
      expect(error.reason._tag).toBe("AlreadyExists")
      expect(yield* setupped.fs.readFileString(victim)).toBe("precious")
      expect(yield* setupped.fs.exists(setupped.file)).toBe(false)
    }).pipe(Effect.scoped, Effect.provide(layer))
  })

  it.effect("a failed rename removes the temporary file and leaves the old file as it was", () => {
    const { layer } = spied((fs) => ({
      // Into a directory that does not exist: ENOENT, as a rename fails when the directory goes.
      rename: (from, to) => fs.rename(from, NodePath.join(NodePath.dirname(to), "no-such-dir", "x"))
    }))
    return Effect.gen(function*() {
      const { dir, file, fs } = yield* setup
      yield* fs.writeFileString(file, "old")
      const error = yield* Effect.flip(Files.writeAtomic(file, "new", { sync: true }))
      expect(error.reason._tag).toBe("NotFound")
      expect(yield* fs.readFileString(file)).toBe("old")
      expect(yield* temporaries(fs, dir)).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(layer))
  })
})
