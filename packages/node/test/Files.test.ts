/**
 * `Files.writeAtomic` of `@s2-effect/core` on Node's file system (core has none to test with): the
 * temporary file is created exclusively under an unpredictable name, so a symbolic link planted at
 * it (or at the file itself) is never written through, and nothing is left behind on failure.
 */
import { NodeFileSystem } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Files } from "@s2-effect/core"
import { Arbitrary, Effect, FileSystem, Layer, Option, PlatformError, Schema } from "effect"
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
        rename: replaced.rename ?? fs.rename,
        link: replaced.link ?? fs.link,
        makeDirectory: replaced.makeDirectory ?? fs.makeDirectory
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

describe("Files.makeReplacer", () => {
  const encoder = new TextEncoder()

  it.effect.prop(
    "each replacement is the whole new content, longer or shorter; the two files go when the scope closes",
    [Arbitrary.array(Arbitrary.schema(Schema.String), { minLength: 1, maxLength: 6 })],
    ([contents]) =>
      Effect.gen(function*() {
        const { dir, file, fs } = yield* setup
        const inodes: Array<number> = []
        yield* Effect.scoped(Effect.gen(function*() {
          const replacer = yield* Files.makeReplacer(file)
          for (const [i, content] of contents.entries()) {
            yield* replacer.write(content, { sync: i === 0 })
            // Bytes: a lone surrogate is written as U+FFFD, as any UTF-8 encoder writes it.
            expect([...(yield* fs.readFile(file))]).toEqual([...encoder.encode(content)])
            inodes.push(Number(Option.getOrThrow((yield* fs.stat(file)).ino)))
          }
        }))
        // Two files taken in turn: no file is made or freed after the first two.
        expect(new Set(inodes).size).toBe(Math.min(contents.length, 2))
        expect([...(yield* fs.readFile(file))]).toEqual([...encoder.encode(contents.at(-1))])
        expect(yield* temporaries(fs, dir)).toEqual([])
      }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)),
    { arbitrary: { runs: 30 } }
  )

  it.effect("what a crashed run left at the two names, a link included, is removed first, never written through", () =>
    Effect.gen(function*() {
      const { dir, file, fs, victim } = yield* setup
      yield* fs.symlink(victim, `${file}.1.tmp`)
      yield* fs.writeFileString(`${file}.2.tmp`, "left by a crash")
      yield* Effect.scoped(Effect.gen(function*() {
        const replacer = yield* Files.makeReplacer(file)
        for (const content of ["one", "two", "three"]) yield* replacer.write(content)
      }))
      expect(yield* fs.readFileString(victim)).toBe("precious")
      expect(yield* fs.readFileString(file)).toBe("three")
      expect(yield* temporaries(fs, dir)).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("without hard links (or the two files), every replacement is a writeAtomic", () => {
    const { calls, layer } = spied(() => ({
      link: (from, to) =>
        Effect.fail(PlatformError.systemError({
          _tag: "PermissionDenied",
          module: "FileSystem",
          method: "link",
          pathOrDescriptor: `${from} -> ${to}`
        }))
    }))
    return Effect.gen(function*() {
      const { dir, file, fs } = yield* setup
      yield* Effect.scoped(Effect.gen(function*() {
        const replacer = yield* Files.makeReplacer(file)
        for (const content of ["one", "two", "three"]) {
          yield* replacer.write(content)
          expect(yield* fs.readFileString(file)).toBe(content)
        }
      }))
      // The first went through the two files; the link failed, so the next two were writeAtomic's.
      expect(calls.map((call) => call.op)).toEqual(["open", "open", "writeFile", "writeFile"])
      expect(yield* temporaries(fs, dir)).toEqual([])

      // A directory where a file must go: no two files, a writeAtomic each time.
      calls.length = 0
      const other = NodePath.join(dir, "other.json")
      yield* fs.makeDirectory(`${other}.2.tmp`)
      yield* Effect.scoped(Effect.flatMap(Files.makeReplacer(other), (replacer) => replacer.write("whole")))
      expect(yield* fs.readFileString(other)).toBe("whole")
      expect(calls.map((call) => call.op).slice(-1)).toEqual(["writeFile"])
    }).pipe(Effect.scoped, Effect.provide(layer))
  })

  it.effect("a failed rename leaves the old file as it was", () => {
    let fail = false
    const { layer } = spied((fs) => ({
      rename: (from, to) =>
        fail ? fs.rename(from, NodePath.join(NodePath.dirname(to), "no-such-dir", "x")) : fs.rename(from, to)
    }))
    return Effect.gen(function*() {
      const { file, fs } = yield* setup
      const replacer = yield* Files.makeReplacer(file)
      yield* replacer.write("old")
      fail = true
      const error = yield* Effect.flip(replacer.write("new", { sync: true }))
      expect(error.reason._tag).toBe("NotFound")
      expect(yield* fs.readFileString(file)).toBe("old")
      fail = false
      yield* replacer.write("newer")
      expect(yield* fs.readFileString(file)).toBe("newer")
    }).pipe(Effect.scoped, Effect.provide(layer))
  })
})

describe("Files.makeDirectory", () => {
  it.effect("makes the missing directories above; one already there, or a link to one, is fine", () =>
    Effect.gen(function*() {
      const { dir, fs, victim } = yield* setup
      const deep = NodePath.join(dir, "a", "b", "c")
      yield* Files.makeDirectory(deep)
      yield* Files.makeDirectory(`${deep}/`)
      expect((yield* fs.stat(deep)).type).toBe("Directory")
      const link = NodePath.join(dir, "link")
      yield* fs.symlink(NodePath.join(dir, "a"), link)
      yield* Files.makeDirectory(NodePath.join(link, "b"))
      // A file in the way, or under the path: the error of the directory that could not be made.
      const taken = yield* Effect.flip(Files.makeDirectory(victim))
      expect(taken.reason._tag).toBe("AlreadyExists")
      const under = yield* Effect.flip(Files.makeDirectory(NodePath.join(victim, "x", "y")))
      expect(Files.describeError(under)).toMatch(/\(ENOTDIR\)$/)
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("a directory that cannot be made though its parent exists (as under /proc) fails at once", () => {
    let parent = ""
    let calls = 0
    // As /proc answers: mkdir of anything in it is ENOENT, so Node's recursive mkdir starts over forever.
    const { layer } = spied((fs) => ({
      makeDirectory: (path, options) =>
        Effect.suspend(() => {
          calls++
          return path.startsWith(`${parent}${NodePath.sep}`)
            ? Effect.fail(PlatformError.systemError({
              _tag: "NotFound",
              module: "FileSystem",
              method: "makeDirectory",
              pathOrDescriptor: path,
              cause: Object.assign(new Error(`ENOENT: no such file or directory, mkdir '${path}'`), { code: "ENOENT" })
            }))
            : fs.makeDirectory(path, options)
        })
    }))
    return Effect.gen(function*() {
      const { dir } = yield* setup
      parent = NodePath.join(dir, "proc")
      yield* Files.makeDirectory(parent)
      calls = 0
      const error = yield* Effect.flip(Files.makeDirectory(NodePath.join(parent, "x", "y")))
      expect(error.reason._tag).toBe("NotFound")
      expect(error.message).toContain(NodePath.join(parent, "x"))
      expect(Files.describeError(error)).toBe("no such file or directory (ENOENT)")
      // y, x, proc (there), x again: one mkdir per level and one more, never a loop.
      expect(calls).toBe(4)
    }).pipe(Effect.scoped, Effect.provide(layer))
  })

  it.effect.runIf(process.platform === "linux")("under the real /proc: fails at once", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Files.makeDirectory("/proc/s2-effect-test/cache"))
      expect(Files.describeError(error)).toBe("no such file or directory (ENOENT)")
    }).pipe(Effect.provide(NodeFileSystem.layer)))
})

describe("Files.describeError", () => {
  it.effect("the system's words and code, not the platform's method and descriptor", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const missing = yield* Effect.flip(fs.readFile("/no/such/file"))
      expect(Files.describeError(missing)).toBe("no such file or directory (ENOENT)")
      const full = PlatformError.systemError({
        _tag: "Unknown",
        module: "FileSystem",
        method: "writeAll",
        pathOrDescriptor: 21,
        cause: Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" })
      })
      expect(full.message).toBe("Unknown: FileSystem.writeAll (21)")
      expect(Files.describeError(full)).toBe("no space left on device (ENOSPC)")
      const bare = PlatformError.badArgument({
        module: "FileSystem",
        method: "open",
        description: "noFollow is not supported"
      })
      expect(Files.describeError(bare)).toBe("FileSystem.open: noFollow is not supported")
      // Node's own error, as a stream gives it; anything else as it says itself.
      const denied = Object.assign(new Error("EACCES: permission denied, open '/x'"), { code: "EACCES" })
      expect(Files.describeError(denied)).toBe("permission denied (EACCES)")
      expect(Files.describeError(new Error("odd"))).toBe("odd")
      expect(Files.describeError("odder")).toBe("odder")
    }).pipe(Effect.provide(NodeFileSystem.layer)))
})
