/**
 * `s2 watch`, run in process against the in-process emulator (`--emulator`): add, check (exit 20
 * with something new, 0 with nothing), the Atom feed read back by feedsmith (support/atom.ts), the state file
 * never written through a link, and a check failing part-way storing nothing.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, FileSystem, Layer, PlatformError, Ref } from "effect"
import { TestClock } from "effect/testing"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Cli from "../src/Cli.js"
import { ExitCode } from "../src/ExitCode.js"
import { Printer } from "../src/Printer.js"
import * as Atom from "../src/render/Atom.js"
import * as WatchFile from "../src/WatchFile.js"
import { readAtom } from "./support/atom.js"

/** Runs `s2 …` with its output captured (on the file system `files`, if given). */
const s2 = (args: ReadonlyArray<string>, env: Record<string, string> = {}, files?: FileSystem.FileSystem) =>
  Effect.gen(function*() {
    const out = yield* Ref.make("")
    const err = yield* Ref.make("")
    const printer = Layer.succeed(Printer, {
      out: (text) => Ref.update(out, (all) => all + text),
      err: (text) => Ref.update(err, (all) => all + text),
      outIsTTY: false,
      errIsTTY: false,
      columns: 80,
      errStream: process.stderr
    })
    const code = yield* Cli.run(["node", "s2", ...args]).pipe(
      files === undefined ? (effect) => effect : Effect.provideService(FileSystem.FileSystem, files),
      Effect.provide(Layer.merge(NodeServices.layer, printer)),
      Effect.provideService(
        ConfigProvider.ConfigProvider,
        ConfigProvider.fromEnv({ env: { S2_EMULATOR_SIZE: "2000", ...env } })
      )
    )
    return { code, stdout: yield* Ref.get(out), stderr: yield* Ref.get(err) }
  })

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-watch-"))

/**
 * `real`, but its `stop`th operation (from 0; a file handle's writes and flushes count) fails as a
 * crash would end it: a write leaves half its bytes, anything else does nothing. Each operation's
 * name is pushed to `seen`.
 */
const stoppingAt = (real: FileSystem.FileSystem, stop: number, seen: Array<string>): FileSystem.FileSystem => {
  type Run = Effect.Effect<unknown, PlatformError.PlatformError>
  const crash = (method: string) =>
    Effect.fail(PlatformError.systemError({
      _tag: "Unknown",
      module: "FileSystem",
      method,
      pathOrDescriptor: "",
      cause: Object.assign(new Error("EIO: i/o error"), { code: "EIO" })
    }))
  const step = (method: string, run: Run, partial: Run = Effect.void): Run =>
    Effect.suspend(() => seen.push(method) - 1 === stop ? Effect.andThen(partial, crash(method)) : run)
  /** `target` with each effect it gives (of a method, or a property such as a handle's `sync`) passed through `each`. */
  const wrap = <T extends object>(target: T, each: (key: string, run: Run, args: ReadonlyArray<unknown>) => Run): T =>
    new Proxy(target, {
      get: (object, key) => {
        const value: unknown = Reflect.get(object, key)
        if (typeof key !== "string") return value
        if (Effect.isEffect(value)) return each(key, value as Run, [])
        if (typeof value !== "function") return value
        return (...args: Array<unknown>) => {
          const result: unknown = Reflect.apply(value, object, args)
          return Effect.isEffect(result) ? each(key, result as Run, args) : result
        }
      }
    })
  const handle = (file: FileSystem.File) =>
    wrap(file, (key, run, [data]) =>
      key === "writeAll" || key === "write"
        ? step(key, run, file.writeAll((data as Uint8Array).subarray(0, (data as Uint8Array).length >> 1)))
        : key === "sync"
        ? step(key, run)
        : run)
  return wrap(
    real,
    (key, run) => step(key, key === "open" ? Effect.map(run, (file) => handle(file as FileSystem.File)) : run)
  )
}

/** The paper of the 2,000-paper emulator (seed 1) with the most citing papers of 2025 (29). */
const PAPER = "CorpusId:33175"
const NOW = Date.UTC(2025, 11, 31)

describe("s2 watch", () => {
  it.effect("reports what is new once (exit 20), then nothing (exit 0), and keeps a valid Atom feed", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const dir = tmp()
      const state = path.join(dir, "watches.json")
      const feed = path.join(dir, "feed.xml")
      const added = yield* s2([
        "watch",
        "add",
        "citations",
        PAPER,
        "--name",
        "mine",
        "--since",
        "2025-01-01",
        "--state",
        state
      ])
      expect(added.code).toBe(ExitCode.ok)
      expect(added.stderr).toContain("added watch mine")
      const first = yield* s2([
        "--emulator",
        "watch",
        "check",
        "--state",
        state,
        "--format",
        "atom",
        "--out",
        feed,
        "--entries",
        "5"
      ])
      expect(first.code).toBe(ExitCode.somethingNew)
      const xml = fs.readFileSync(feed, "utf8")
      expect(XMLValidator.validate(xml)).toBe(true)
      const parsed = new XMLParser({
        ignoreAttributes: false,
        isArray: (name) => name === "entry" || name === "author"
      })
        .parse(xml) as {
          feed: {
            "@_xmlns": string
            id: string
            updated: string
            entry: Array<{ id: string; title: string; updated: string; link: { "@_href": string } }>
          }
        }
      expect(parsed.feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom")
      expect(parsed.feed.entry.length).toBe(5)
      for (const entry of parsed.feed.entry) {
        expect(entry.id).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        expect(entry.updated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
        expect(entry.link["@_href"]).toMatch(/^https:\/\/www\.semanticscholar\.org\/paper\//)
      }
      expect(new Set(parsed.feed.entry.map((entry) => entry.id)).size).toBe(5)
      // As a feed reader reads it (feedsmith): valid Atom 1.0, the five newest of the papers found.
      const read = readAtom(xml)
      expect(read.problems).toEqual([])
      expect(read.feed.entries?.map((entry) => entry.id)).toEqual(parsed.feed.entry.map((entry) => entry.id))
      const published = read.feed.entries!.map((entry) => entry.published ?? "")
      expect(published).toEqual([...published].sort().reverse())
      // Nothing new a day later: exit 0, and the feed's entries keep their ids.
      yield* TestClock.adjust("1 day")
      const second = yield* s2([
        "--emulator",
        "watch",
        "check",
        "--state",
        state,
        "--format",
        "atom",
        "--out",
        feed,
        "--entries",
        "5"
      ])
      expect(second.code).toBe(ExitCode.ok)
      // Nothing new, nothing changed: the same bytes (a reader, or a workflow committing it, sees no change).
      expect(fs.readFileSync(feed, "utf8")).toBe(xml)
      const again = new XMLParser({ isArray: (name) => name === "entry" }).parse(fs.readFileSync(feed, "utf8")) as {
        feed: { entry: Array<{ id: string }> }
      }
      expect(again.feed.entry.map((entry) => entry.id)).toEqual(parsed.feed.entry.map((entry) => entry.id))
      const listed = yield* s2(["watch", "list", "--state", state, "--format", "jsonl"])
      const row = JSON.parse(listed.stdout) as { name: string; remembered: number; checkedAt: string }
      expect(row.name).toBe("mine")
      expect(row.remembered).toBeGreaterThan(5)
      expect(row.checkedAt).toBe(new Date(NOW + 86_400_000).toISOString())
    }))

  it.effect("prints BibTeX of what is new, and refuses a state file that is a symbolic link", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const dir = tmp()
      const state = path.join(dir, "watches.json")
      yield* s2(["watch", "add", "citations", PAPER, "--since", "2025-06-01", "--state", state])
      const bib = yield* s2(["--emulator", "watch", "check", "--state", state, "--format", "bibtex"])
      expect(bib.code).toBe(ExitCode.somethingNew)
      expect(bib.stdout).toMatch(/^@\w+\{/m)
      const entries = bib.stdout.match(/^@\w+\{/gm)!.length
      // The same papers for Zotero as CSL-JSON and RIS (each from a state of its own: a check shows a paper once).
      const printed = (format: string) =>
        Effect.gen(function*() {
          const own = path.join(dir, `${format}.json`)
          yield* s2(["watch", "add", "citations", PAPER, "--since", "2025-06-01", "--state", own])
          const ran = yield* s2(["--emulator", "watch", "check", "--state", own, "--format", format])
          expect(ran.code).toBe(ExitCode.somethingNew)
          return ran.stdout
        })
      const csl = JSON.parse(yield* printed("csl-json")) as Array<{ type: string; title: string; id: string }>
      expect(csl).toHaveLength(entries)
      for (const item of csl) expect(item.title.length * item.type.length).toBeGreaterThan(0)
      const ris = yield* printed("ris")
      expect(ris.match(/^TY {2}- /gm)).toHaveLength(entries)
      expect(ris.match(/^ER {2}- ?$/gm)).toHaveLength(entries)
      const link = path.join(dir, "link.json")
      fs.symlinkSync(state, link)
      const refused = yield* s2(["--emulator", "watch", "check", "--state", link])
      expect(refused.code).toBe(ExitCode.badInput)
      expect(refused.stderr).toContain("symbolic link")
    }))

  it.effect("a check failing part-way stores nothing: the state file is as it was", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const dir = tmp()
      const state = path.join(dir, "watches.json")
      yield* s2(["watch", "add", "citations", PAPER, "--since", "2025-01-01", "--state", state])
      yield* s2(["watch", "add", "author", "1", "--state", state])
      const before = fs.readFileSync(state, "utf8")
      const faults = JSON.stringify({
        script: [{ route: "/graph/v1/paper/batch", fault: { _tag: "Status", status: 500 } }]
      })
      const failed = yield* s2(["--emulator", "--no-retry", "watch", "check", "--state", state], {
        S2_EMULATOR_FAULTS: faults
      })
      expect(failed.code).toBe(ExitCode.serverError)
      expect(failed.stdout).toBe("")
      expect(fs.readFileSync(state, "utf8")).toBe(before)
      expect(fs.readdirSync(dir).sort()).toEqual(["watches.json"])
    }))

  it.effect("a check stopped at any file operation leaves the state as it was or as it became, losing nothing", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const real = yield* FileSystem.FileSystem
      const added = (dir: string) =>
        Effect.as(
          s2(["watch", "add", "citations", PAPER, "--since", "2025-06-01", "--state", path.join(dir, "watches.json")]),
          path.join(dir, "watches.json")
        )
      const check = (state: string, files?: FileSystem.FileSystem) =>
        s2(["--emulator", "watch", "check", "--state", state, "--format", "jsonl"], {}, files)
      const seen: Array<string> = []
      const first = yield* added(tmp())
      const before = fs.readFileSync(first, "utf8")
      const clean = yield* check(first, stoppingAt(real, -1, seen))
      expect(clean.code).toBe(ExitCode.somethingNew)
      const after = fs.readFileSync(first, "utf8")
      expect(after).not.toBe(before)
      expect(seen).toEqual(expect.arrayContaining(["open", "writeAll", "sync", "rename"]))
      const ends = new Set<string>()
      for (let stop = 0; stop < seen.length; stop++) {
        const dir = tmp()
        const state = yield* added(dir)
        const stopped = yield* check(state, stoppingAt(real, stop, []))
        const text = fs.readFileSync(state, "utf8")
        const at = `stopped at ${stop}, ${seen[stop]}`
        expect([before, after], at).toContain(text)
        ends.add(text === before ? "before" : "after")
        if (text === before) {
          expect(stopped.code, at).toBe(ExitCode.file)
          // What it printed is shown again by the next check: nothing lost.
          expect((yield* check(state)).stdout, at).toBe(clean.stdout)
        }
        // No temporary file left; the lock is left only by a stop while releasing it (as by a
        // crash: the next run takes it over once its process is gone).
        expect(fs.readdirSync(dir).filter((name) => name !== "watches.json.lock"), at).toEqual(["watches.json"])
      }
      expect([...ends].sort()).toEqual(["after", "before"])
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect("a feed that cannot be written stores nothing: the next check finds the same papers", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const dir = tmp()
      const state = path.join(dir, "watches.json")
      yield* s2(["watch", "add", "citations", PAPER, "--since", "2025-06-01", "--state", state])
      const before = fs.readFileSync(state, "utf8")
      const out = path.join(dir, "missing", "feed.xml")
      const failed = yield* s2(["--emulator", "watch", "check", "--state", state, "--format", "atom", "--out", out])
      expect(failed.code).toBe(ExitCode.file)
      expect(fs.readFileSync(state, "utf8")).toBe(before)
      const again = yield* s2([
        "--emulator",
        "watch",
        "check",
        "--state",
        state,
        "--format",
        "atom",
        "--out",
        path.join(dir, "feed.xml")
      ])
      expect(again.code).toBe(ExitCode.somethingNew)
      expect(readAtom(fs.readFileSync(path.join(dir, "feed.xml"), "utf8")).feed.entries!.length).toBeGreaterThan(0)
    }))

  it.effect("a second check while one holds the state's lock is refused (exit 12)", () =>
    Effect.gen(function*() {
      const dir = tmp()
      const state = path.join(dir, "watches.json")
      yield* s2(["watch", "add", "citations", PAPER, "--state", state])
      const holder = { pid: process.pid, host: os.hostname(), startedAt: new Date(0).toISOString() }
      fs.writeFileSync(`${state}.lock`, JSON.stringify(holder))
      const locked = yield* s2(["--emulator", "watch", "check", "--state", state])
      expect(locked.code).toBe(ExitCode.locked)
      // Worded for a watch state: there is no --out to resume.
      expect(locked.stderr).toContain(`another s2 is using the watch state ${state} (pid ${process.pid}`)
      expect(locked.stderr).not.toContain("--resume")
      fs.rmSync(`${state}.lock`)
    }))

  it.effect("refuses at add what can never be a paper id or a filter, and touches no state", () =>
    Effect.gen(function*() {
      const dir = tmp()
      const state = path.join(dir, "watches.json")
      for (
        const [id, why] of [["", "is empty: give a 40-hex paperId, CorpusId:<n>"], ["DOI:", "has nothing after DOI:"]]
      ) {
        const refused = yield* s2(["watch", "add", "citations", id!, "--state", state])
        expect(refused.code, JSON.stringify(id)).toBe(ExitCode.badInput)
        expect(refused.stderr).toContain(why)
      }
      // A query's filters too, as a search checks them.
      const year = yield* s2(["watch", "add", "query", "graphs", "--year", "20x5", "--state", state])
      expect(year.code).toBe(ExitCode.badInput)
      expect(year.stderr).toContain("year")
      expect(fs.readdirSync(dir)).toEqual([])
    }))

  it.effect("a state file it cannot read is refused and left as it is: corrupt, or of a newer s2", () =>
    Effect.gen(function*() {
      const dir = tmp()
      const corrupt = path.join(dir, "corrupt.json")
      fs.writeFileSync(corrupt, "{\"version\":1,\"watches\":[")
      const bad = yield* s2(["--emulator", "watch", "check", "--state", corrupt])
      expect(bad.code).toBe(ExitCode.badInput)
      expect(bad.stderr).toContain(`${corrupt} is not a watch state`)
      const future = path.join(dir, "future.json")
      const newer = "{\"version\":2,\"watches\":[],\"recent\":[],\"feeds\":{}}\n"
      fs.writeFileSync(future, newer)
      for (const args of [["--emulator", "watch", "check"], ["watch", "list"], ["watch", "add", "author", "1"]]) {
        const refused = yield* s2([...args, "--state", future])
        expect(refused.code).toBe(ExitCode.badInput)
        // Not "move it away to start again": it holds what a newer s2 remembers.
        expect(refused.stderr).toContain("written by a newer s2 (state version 2; this one reads version 1)")
        expect(refused.stderr).not.toContain("move it away")
      }
      expect(fs.readFileSync(future, "utf8")).toBe(newer)
      expect(fs.readdirSync(dir).sort()).toEqual(["corrupt.json", "future.json"])
    }))

  it.effect("a check of no watches, or of a watch not there, says what there is", () =>
    Effect.gen(function*() {
      const state = path.join(tmp(), "watches.json")
      const none = yield* s2(["--emulator", "watch", "check", "--state", state])
      expect(none.code).toBe(ExitCode.badInput)
      expect(none.stderr).toBe(`s2: no watches in ${state}: add one with s2 watch add\n`)
      yield* s2(["watch", "add", "author", "1", "--state", state])
      const unknown = yield* s2(["--emulator", "watch", "check", "nope", "--state", state])
      expect(unknown.code).toBe(ExitCode.badInput)
      expect(unknown.stderr).toBe(`s2: no watch named nope in ${state}; its watches: author-1\n`)
    }))

  it.effect("a state in a folder that does not exist is refused naming --state", () =>
    Effect.gen(function*() {
      const state = path.join(tmp(), "missing", "watches.json")
      const refused = yield* s2(["watch", "add", "author", "1", "--state", state])
      expect(refused.code).toBe(ExitCode.badInput)
      expect(refused.stderr).toContain("--state")
      expect(refused.stderr).not.toContain("--out")
    }))

  it.effect("a watch whose check fails is named; the others' papers are shown and kept", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const state = path.join(tmp(), "watches.json")
      yield* s2(["watch", "add", "citations", "CorpusId:999999999", "--name", "gone", "--state", state])
      yield* s2(["watch", "add", "citations", PAPER, "--name", "mine", "--since", "2025-06-01", "--state", state])
      const checked = yield* s2(["--emulator", "watch", "check", "--state", state, "--format", "jsonl"])
      expect(checked.code).toBe(ExitCode.notFound)
      expect(checked.stderr).toContain("s2: watch gone failed:")
      const shown = checked.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { watch: string })
      expect(shown.length).toBeGreaterThan(0)
      expect(shown.every(({ watch }) => watch === "mine")).toBe(true)
      const again = yield* s2(["--emulator", "watch", "check", "mine", "--state", state])
      expect(again.code).toBe(ExitCode.ok)
    }))

  it.effect.runIf(process.platform === "linux")(
    "a configuration folder that cannot be made fails at once",
    () =>
      Effect.gen(function*() {
        // Under /proc no folder can be made though its parent exists: Node's recursive mkdir loops forever.
        const saved = process.env.XDG_CONFIG_HOME
        process.env.XDG_CONFIG_HOME = "/proc/s2-effect-test"
        const refused = yield* s2(["watch", "add", "author", "1"]).pipe(
          Effect.ensuring(Effect.sync(() => {
            if (saved === undefined) delete process.env.XDG_CONFIG_HOME
            else process.env.XDG_CONFIG_HOME = saved
          }))
        )
        expect(refused.code).toBe(ExitCode.file)
        expect(refused.stderr).toContain(
          "cannot create the folder of the watch state /proc/s2-effect-test/s2/watches.json"
        )
      })
  )

  it("the default state is watches.json in the user's configuration folder", () => {
    if (process.platform === "win32") return
    expect(WatchFile.defaultPath({ XDG_CONFIG_HOME: "/srv/conf" })).toBe("/srv/conf/s2/watches.json")
    // A relative XDG_CONFIG_HOME is invalid (the XDG specification): ignored, not taken from the working folder.
    for (const env of [{}, { XDG_CONFIG_HOME: "conf" }, { XDG_CONFIG_HOME: "" }]) {
      expect(WatchFile.defaultPath(env)).toBe(path.join(os.homedir(), ".config", "s2", "watches.json"))
    }
  })

  it("the Atom feed escapes what XML cannot hold as it is, and drops what it cannot hold at all", () => {
    const nasty = "Deep <b>learning</b> & \"friends\" 'n' \u0001\u0085\uD800 end \uD83D\uDE00"
    const xml = Atom.feed([{
      watch: "w",
      paperId: "abc/../x",
      title: nasty,
      authors: ["A & B <c>"],
      publicationDate: "2025-02-03",
      year: 2025,
      venue: null,
      url: null,
      foundAt: "2025-03-01T10:00:00.000Z"
    }], { names: ["w"], updated: "2025-03-01T10:00:00.000Z", entries: 10, generatorVersion: "1" })
    expect(XMLValidator.validate(xml)).toBe(true)
    const parsed = new XMLParser({ ignoreAttributes: false, processEntities: true }).parse(xml) as {
      feed: { entry: { title: string; published: string; author: { name: string }; link: { "@_href": string } } }
    }
    expect(parsed.feed.entry.title).toBe("Deep <b>learning</b> & \"friends\" 'n'  end \uD83D\uDE00")
    expect(parsed.feed.entry.author.name).toBe("A & B <c>")
    expect(parsed.feed.entry.published).toBe("2025-02-03T00:00:00.000Z")
    expect(parsed.feed.entry.link["@_href"]).toBe("https://www.semanticscholar.org/paper/abc%2F..%2Fx")
  })
})
