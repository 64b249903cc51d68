import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Emulator } from "@s2-effect/testing"
import { Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Harvest } from "../src/index.js"

// Bulk search over 4,500 papers: five pages of 1,000, the last one short.
const client = SemanticScholar.layer({ retry: false }).pipe(
  Layer.provide(Emulator.layer({ seed: 3, size: 2000, bulkSize: 4500 })),
  Layer.merge(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer))
)
const spec: Harvest.Spec = { query: "", filters: {}, sort: null, fields: ["title", "year"], max: null }
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-jobs-harvest-"))
const ids = (file: string) =>
  fs.readFileSync(file, "utf8").trimEnd().split("\n").map((line) => (JSON.parse(line) as { paperId: string }).paperId)

describe("Harvest", () => {
  it.effect("a run interrupted between pages, resumed, delivers every record once, in order", () =>
    Effect.gen(function*() {
      const dir = tmp()
      const whole = path.join(dir, "whole.jsonl")
      const cut = path.join(dir, "cut.jsonl")
      yield* Harvest.toFile(whole, spec)
      // Interrupted once two pages are saved: the interruption lands between pages.
      const twoSaved = yield* Deferred.make<void>()
      const fiber = yield* Harvest.toFile(cut, spec, {
        onEvent: (event) =>
          event._tag === "Saved" && event.progress.pages === 2 ? Deferred.succeed(twoSaved, undefined) : Effect.void
      }).pipe(Effect.forkChild)
      yield* Deferred.await(twoSaved)
      yield* Fiber.interrupt(fiber)
      const saved = Option.getOrThrow(yield* Harvest.readCheckpoint(cut))
      expect(saved.done).toBe(false)
      expect(saved.records).toBeGreaterThanOrEqual(2000)
      expect(fs.existsSync(Harvest.lockPath(cut))).toBe(false)
      const resumed = yield* Harvest.toFile(cut, spec, { resume: "auto" })
      expect(resumed.startRecords).toBe(saved.records)
      expect(resumed.checkpoint).toMatchObject({ records: 4500, done: true })
      const got = ids(cut)
      expect(new Set(got).size).toBe(4500)
      expect(got).toEqual(ids(whole))
    }).pipe(Effect.provide(client)))

  it.effect("a crash between a page and its checkpoint is cut off on resume", () =>
    Effect.gen(function*() {
      const dir = tmp()
      const whole = path.join(dir, "whole.jsonl")
      const broken = path.join(dir, "broken.jsonl")
      yield* Harvest.toFile(whole, spec)
      const crashed = yield* Harvest.toFile(broken, spec).pipe(
        Effect.provideService(Harvest.BeforeCheckpoint, (page) => page === 3 ? Effect.die("crash") : Effect.void),
        Effect.exit
      )
      expect(Exit.isFailure(crashed)).toBe(true)
      expect(Option.getOrThrow(yield* Harvest.readCheckpoint(broken))).toMatchObject({ pages: 2, records: 2000 })
      // The checkpoint's two files (`Files.makeReplacer`) go with the run, ended as it may be.
      expect(fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([])
      yield* Harvest.toFile(broken, spec, { resume: true })
      expect(fs.readFileSync(broken, "utf8")).toBe(fs.readFileSync(whole, "utf8"))
      expect(fs.readdirSync(dir).sort()).toEqual(
        ["broken.jsonl", "whole.jsonl"].flatMap((name) => [name, `${name}.checkpoint.json`])
      )
    }).pipe(Effect.provide(client)))

  it.effect("a checkpoint counts only bytes written, and the output is never more than a page ahead of it", () =>
    Effect.gen(function*() {
      const out = path.join(tmp(), "ahead.jsonl")
      const size = () => fs.statSync(out).size
      // The output's size as each page's checkpoint begins, and the checkpoint on disk at its `Saved`.
      const before: Array<number> = []
      const saved: Array<readonly [checkpoint: number, size: number]> = []
      yield* Harvest.toFile(out, spec, {
        onEvent: (event) =>
          event._tag === "Saved"
            ? Effect.sync(() => {
              const { bytes } = JSON.parse(fs.readFileSync(Harvest.checkpointPath(out), "utf8")) as { bytes: number }
              saved.push([bytes, size()])
            })
            : Effect.void
      }).pipe(Effect.provideService(Harvest.BeforeCheckpoint, () => Effect.sync(() => void before.push(size()))))
      // Where each page ends in the finished file: 1,000 lines a page.
      const ends: Array<number> = []
      let at = 0
      fs.readFileSync(out, "utf8").split("\n").slice(0, -1).forEach((line, i, lines) => {
        at += Buffer.byteLength(line) + 1
        if ((i + 1) % 1000 === 0 || i === lines.length - 1) ends.push(at)
      })
      expect(ends).toHaveLength(5)
      expect(saved.map(([checkpoint]) => checkpoint)).toEqual(ends)
      ends.forEach((end, i) => {
        const next = ends[i + 1] ?? end
        expect(before[i]).toBeGreaterThanOrEqual(end)
        expect(before[i]).toBeLessThanOrEqual(next)
        expect(saved[i]![1]).toBeGreaterThanOrEqual(end)
        expect(saved[i]![1]).toBeLessThanOrEqual(next)
      })
    }).pipe(Effect.provide(client)))

  it.effect("over an old output, prepare empties it, or with cutInRun the run cuts it, failed or not", () =>
    Effect.gen(function*() {
      const dir = tmp()
      const whole = path.join(dir, "whole.jsonl")
      const out = path.join(dir, "old.jsonl")
      yield* Harvest.toFile(whole, spec)
      const old = "an older harvest's line\n".repeat(200_000)
      // A caller that writes the file itself gets it empty.
      fs.writeFileSync(out, old)
      yield* Harvest.prepare(out, spec, { overwrite: true })
      expect(fs.statSync(out).size).toBe(0)
      const again = Effect.gen(function*() {
        fs.writeFileSync(out, old)
        const start = yield* Harvest.prepare(out, spec, { overwrite: true, cutInRun: true })
        // `prepare` leaves the old lines to the run; its checkpoint already counts none of them.
        expect(fs.readFileSync(out, "utf8")).toBe(old)
        expect(Option.getOrThrow(yield* Harvest.readCheckpoint(out))).toMatchObject({ bytes: 0, records: 0 })
        return start
      })
      yield* Effect.flatMap(again, (start) => Harvest.run(out, start))
      expect(fs.readFileSync(out, "utf8")).toBe(fs.readFileSync(whole, "utf8"))
      // A run that ends before its first page (a query the client refuses) has still cut them.
      const refused = { ...spec, filters: { year: "not a year" } }
      fs.writeFileSync(out, old)
      const failed = yield* Effect.exit(
        Effect.flatMap(
          Harvest.prepare(out, refused, { overwrite: true, cutInRun: true }),
          (start) => Harvest.run(out, start)
        )
      )
      expect(Exit.isFailure(failed)).toBe(true)
      expect(fs.statSync(out).size).toBe(0)
      expect(fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([])
    }).pipe(Effect.provide(client)))

  it.effect("progress events: each page saved, with elapsed time and rate from the Clock, then done", () =>
    Effect.gen(function*() {
      const out = path.join(tmp(), "events.jsonl")
      const events: Array<Harvest.Event> = []
      // Each page takes two seconds of the test clock, between its write and its checkpoint.
      const result = yield* Harvest.toFile(out, { ...spec, max: 4000 }, {
        onEvent: (event) => Effect.sync(() => void events.push(event))
      }).pipe(Effect.provideService(Harvest.BeforeCheckpoint, () => TestClock.adjust("2 seconds")))
      const saved = events.flatMap((event) => event._tag === "Saved" ? [event] : [])
      expect(saved.map((event) => [event.progress.records, event.progress.elapsedMillis, event.done])).toEqual([
        [1000, 2000, false],
        [2000, 4000, false],
        [3000, 6000, false],
        [4000, 8000, true]
      ])
      expect(saved.every((event) => event.progress.perSecond === 500 && event.progress.target === 4000)).toBe(true)
      expect(events.at(-1)).toEqual({ _tag: "Done", result })
      expect(result).toMatchObject({ elapsedMillis: 8000, startRecords: 0, alreadyDone: false })
      // Resuming a finished harvest fetches nothing and says so.
      const again = yield* Harvest.toFile(out, { ...spec, max: 4000 }, { resume: true })
      expect(again.alreadyDone).toBe(true)
    }).pipe(Effect.provide(client)))

  it.effect("a checkpoint of another harvest is refused, naming both settings; nothing to resume is said", () =>
    Effect.gen(function*() {
      const out = path.join(tmp(), "other.jsonl")
      const none = yield* Effect.flip(Harvest.prepare(out, spec, { resume: true }))
      expect(none).toMatchObject({ _tag: "HarvestError", reason: "NothingToResume" })
      yield* Harvest.toFile(out, { ...spec, max: 10 })
      const before = fs.readFileSync(out, "utf8")
      const other = { ...spec, query: "graphs", filters: { year: "2020-" }, max: 10 }
      const error = yield* Effect.flip(Harvest.toFile(out, other, { resume: true }))
      expect(error).toMatchObject({
        reason: "OtherHarvest",
        path: Harvest.checkpointPath(out),
        saved: { query: "", max: 10 },
        given: other
      })
      expect(error.message).toBe(`the checkpoint ${out}.checkpoint.json is for another harvest`)
      expect(fs.readFileSync(out, "utf8")).toBe(before)
      const exists = yield* Effect.flip(Harvest.toFile(out, other))
      expect(exists).toMatchObject({ reason: "OutputExists", checkpointed: true })
    }).pipe(Effect.provide(client)))

  it.effect("the lock: a live holder is refused, a stale one taken over, one on another host refused", () =>
    Effect.gen(function*() {
      const out = path.join(tmp(), "locked.jsonl")
      const running = new Set([41])
      const owner: Harvest.LockOwner = { pid: 7, host: "here", isRunning: (pid) => running.has(pid) }
      const planted = (pid: number, host: string) =>
        fs.writeFileSync(Harvest.lockPath(out), JSON.stringify({ pid, host, startedAt: "then" }))
      const take = Effect.scoped(Harvest.lock(out)).pipe(Effect.provideService(Harvest.LockOwner, owner))
      planted(41, "here")
      expect(yield* Effect.flip(take)).toMatchObject({ reason: "Locked", holder: { pid: 41 }, sameHost: true })
      planted(41, "there")
      running.clear()
      expect(yield* Effect.flip(take)).toMatchObject({ reason: "Locked", sameHost: false })
      planted(41, "here")
      expect(yield* take).toMatchObject({ pid: 7, host: "here" })
      // Released with its scope.
      expect(fs.existsSync(Harvest.lockPath(out))).toBe(false)
      // Held, a second taker is refused.
      yield* Effect.scoped(Effect.gen(function*() {
        yield* Harvest.lock(out)
        running.add(7)
        expect(yield* Effect.flip(Harvest.lock(out))).toMatchObject({ reason: "Locked", holder: { pid: 7 } })
      })).pipe(Effect.provideService(Harvest.LockOwner, owner))
      const link = path.join(path.dirname(out), "link.jsonl")
      fs.symlinkSync(path.join(path.dirname(out), "nowhere"), Harvest.lockPath(link))
      expect(yield* Effect.flip(Effect.scoped(Harvest.lock(link)))).toMatchObject({ reason: "Symlink", file: "lock" })
      const missing = path.join(path.dirname(out), "missing", "papers.jsonl")
      expect(yield* Effect.flip(Effect.scoped(Harvest.lock(missing)))).toMatchObject({
        reason: "MissingDirectory",
        directory: path.dirname(missing)
      })
    }).pipe(Effect.provide(client)))
})
