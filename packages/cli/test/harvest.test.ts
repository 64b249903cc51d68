import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { describe, expect, it, vi } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import type { Harvest as Job } from "@s2-effect/jobs"
import { Emulator, Faults } from "@s2-effect/testing"
import { Effect, Exit, Fiber, Layer, Option, References } from "effect"
import { TestClock } from "effect/testing"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as v8 from "node:v8"
import * as vm from "node:vm"
import * as Harvest from "../src/Harvest.js"
import type { Reporter } from "../src/render/Progress.js"

/** The file system and paths a harvest writes through. */
const files = Layer.merge(NodeFileSystem.layer, NodePath.layer)
// 2,000 materialized papers, bulk search over 4,500: five pages of 1,000 (the last one short).
const client = SemanticScholar.layer({ retry: false }).pipe(
  Layer.provide(Emulator.layer({ seed: 3, size: 2000, bulkSize: 4500 })),
  Layer.merge(files)
)
const quiet: Reporter = { update: () => Effect.void, stop: Effect.void }
const spec: Job.Spec = { query: "", filters: {}, sort: null, fields: ["title", "year"], max: null }
/** A harvest from scratch, or resumed, into `out`. */
const run = (out: string, options: { readonly resume: boolean } = { resume: false }) =>
  Effect.flatMap(
    Harvest.prepare(out, spec, { ...options, overwrite: false }),
    (start) => Harvest.harvest(out, start, quiet)
  )
const readCheckpoint = (out: string) => Effect.map(Harvest.readCheckpoint(out), Option.getOrUndefined)
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-harvest-"))

// The live heap after a full collection, in MB: what the process still holds.
v8.setFlagsFromString("--expose-gc")
const gc: unknown = vm.runInNewContext("gc")
const liveHeapMB = () => {
  if (typeof gc !== "function") throw new Error("no gc function: the live heap cannot be measured")
  gc()
  return process.memoryUsage().heapUsed / 2 ** 20
}

// The live-heap test harvests 60 pages with six full collections: seconds alone, more on a shared machine.
vi.setConfig({ testTimeout: 60_000 })

class Crash {
  readonly _tag = "Crash"
}

// Harvest.BeforeCheckpoint is the crash-injection hook: it runs after page N's records are written
// and before the checkpoint that counts them. Dying there is a crash in that window: the output then
// holds records past the checkpoint, which a resume must cut off.
const crashBeforeCheckpoint = (page: number) => (n: number) => n === page ? Effect.die(new Crash()) : Effect.void

// Memory and crash tests, not timed ones: a loaded machine may take longer than the default 5 s.
/**
 * A progress reporter that keeps each update's retry note, and a client whose emulator answers its
 * first `requests` requests with a 429 (Retry-After 10 s).
 */
const retrying = (requests: number) => {
  const seen: Array<string | undefined> = []
  const watching: Reporter = {
    update: (state) => Effect.sync(() => void seen.push(state.retrying)),
    stop: Effect.void
  }
  const storm = SemanticScholar.layer().pipe(
    Layer.provide(Emulator.layer({
      seed: 3,
      size: 2000,
      bulkSize: 4500,
      faults: { script: [{ requests, fault: Faults.tooManyRequests({ retryAfter: 10 }) }] }
    })),
    Layer.merge(files)
  )
  return { seen, storm, watching }
}

describe("Harvest", { timeout: 60_000 }, () => {
  it.effect("a crash between a page and its checkpoint, then resume, gives the uninterrupted file", () =>
    Effect.gen(function*() {
      const dir = tmp()
      const whole = path.join(dir, "whole.jsonl")
      const broken = path.join(dir, "broken.jsonl")
      const full = yield* Harvest.harvest(
        whole,
        yield* Harvest.prepare(whole, spec, { resume: false, overwrite: false }),
        quiet
      )
      expect(full.checkpoint).toMatchObject({ records: 4500, pages: 5, done: true, token: null })

      // Crash after page 3 is on disk but before its checkpoint: the checkpoint still says 2 pages.
      const crashed = yield* Harvest.harvest(
        broken,
        yield* Harvest.prepare(broken, spec, { resume: false, overwrite: false }),
        quiet
      ).pipe(
        Effect.provideService(Harvest.BeforeCheckpoint, crashBeforeCheckpoint(3)),
        Effect.exit
      )
      expect(Exit.isFailure(crashed)).toBe(true)
      const saved = yield* readCheckpoint(broken)
      expect(saved).toMatchObject({ pages: 2, records: 2000, done: false })
      expect(fs.statSync(broken).size).toBeGreaterThan(saved?.bytes ?? 0)

      // Resuming with other options is refused; with the same, it truncates and continues.
      const other = yield* Effect.flip(
        Harvest.prepare(broken, { ...spec, query: "graph" }, { resume: true, overwrite: false })
      )
      expect(other.message).toContain("is for another harvest")
      const resumed = yield* Harvest.harvest(
        broken,
        yield* Harvest.prepare(broken, spec, { resume: true, overwrite: false }),
        quiet
      )
      expect(resumed.startRecords).toBe(2000)
      expect(resumed.checkpoint.years).toEqual(full.checkpoint.years)
      expect(fs.readFileSync(broken, "utf8")).toBe(fs.readFileSync(whole, "utf8"))

      // Resuming a finished harvest does nothing; starting over an existing file needs --overwrite.
      const again = yield* Harvest.harvest(
        broken,
        yield* Harvest.prepare(broken, spec, { resume: true, overwrite: false }),
        quiet
      )
      expect(again.alreadyDone).toBe(true)
      const exists = yield* Effect.flip(Harvest.prepare(broken, spec, { resume: false, overwrite: false }))
      expect(exists.message).toContain("--overwrite")
    }).pipe(Effect.provide(client)))

  it.effect("after an operating-system crash lost the unflushed pages, resume falls back to the last flushed state", () =>
    Effect.gen(function*() {
      const dir = tmp()
      const whole = path.join(dir, "whole.jsonl")
      const lost = path.join(dir, "lost.jsonl")
      yield* run(whole)
      // The test clock stands still: page 1 is flushed (the first always is), pages 2 and 3 are not.
      yield* run(lost)
        .pipe(
          Effect.provideService(Harvest.BeforeCheckpoint, crashBeforeCheckpoint(3)),
          Effect.exit
        )
      const saved = yield* readCheckpoint(lost)
      expect(saved).toMatchObject({ pages: 2, records: 2000, synced: { pages: 1, records: 1000 } })
      // The checkpoint reached the disk, the pages after the flush did not.
      fs.truncateSync(lost, saved?.synced?.bytes ?? 0)
      const resumed = yield* Harvest.harvest(
        lost,
        yield* Harvest.prepare(lost, spec, { resume: true, overwrite: false }),
        quiet
      )
      expect(resumed.startRecords).toBe(1000)
      expect(fs.readFileSync(lost, "utf8")).toBe(fs.readFileSync(whole, "utf8"))
      expect(yield* readCheckpoint(lost)).toMatchObject({ done: true, synced: { records: 4500 } })
    }).pipe(Effect.provide(client)))

  it.effect("a page that cannot be fetched ends the harvest after every page before it is written and checkpointed", () =>
    Effect.gen(function*() {
      const dir = tmp()
      const whole = path.join(dir, "whole.jsonl")
      const failed = path.join(dir, "failed.jsonl")
      yield* run(whole)
      // Pages are fetched and serialised ahead of the disk: the failure of page 4 must not lose
      // pages 1-3, which were on their way to the disk when it came.
      const broken = SemanticScholar.layer({ retry: false }).pipe(
        Layer.provide(Emulator.layer({
          seed: 3,
          size: 2000,
          bulkSize: 4500,
          faults: { script: [{ requests: 4, fault: Faults.status(500) }] }
        }))
      )
      const error = yield* Effect.flip(Effect.provide(run(failed), broken))
      expect(error._tag).toBe("ServerError")
      const saved = yield* readCheckpoint(failed)
      expect(saved).toMatchObject({ pages: 3, records: 3000, done: false })
      expect(fs.statSync(failed).size).toBe(saved?.bytes)
      yield* run(failed, { resume: true })
      expect(fs.readFileSync(failed, "utf8")).toBe(fs.readFileSync(whole, "utf8"))
    }).pipe(Effect.provide(client)))

  it.effect("--max stops mid-page and marks the harvest done", () =>
    Effect.gen(function*() {
      const out = path.join(tmp(), "max.jsonl")
      const capped = { ...spec, max: 1500 }
      const result = yield* Harvest.harvest(
        out,
        yield* Harvest.prepare(out, capped, { resume: false, overwrite: false }),
        quiet
      )
      expect(result.checkpoint).toMatchObject({ records: 1500, pages: 2, done: true })
      expect(fs.readFileSync(out, "utf8").trimEnd().split("\n")).toHaveLength(1500)
    }).pipe(Effect.provide(client)))

  it.effect(
    "a long harvest holds no page it has written: the live heap does not grow with pages",
    () =>
      Effect.gen(function*() {
        // 60 pages of 1,000 wide records: a stream that kept each page it passed until it ended
        // would grow by about 0.9 MB a page.
        const out = path.join(tmp(), "long.jsonl")
        const heap = new Map<number, number>()
        const wide = ["title", "year", "abstract", "authors", "venue", "externalIds", "fieldsOfStudy"]
        const result = yield* Harvest.harvest(
          out,
          yield* Harvest.prepare(out, { ...spec, fields: wide }, { resume: false, overwrite: false }),
          quiet
        ).pipe(
          // The same hook, used to sample the live heap once the page is written.
          Effect.provideService(
            Harvest.BeforeCheckpoint,
            (page) => Effect.sync(() => (page % 10 === 0 ? heap.set(page, liveHeapMB()) : heap))
          ),
          Effect.provide(
            SemanticScholar.layer({ retry: false }).pipe(
              Layer.provide(Emulator.layer({ seed: 3, size: 2000, bulkSize: 60_000 })),
              Layer.merge(files)
            )
          )
        )
        expect(result.checkpoint).toMatchObject({ records: 60_000, pages: 60, done: true })
        expect([...heap.keys()]).toEqual([10, 20, 30, 40, 50, 60])
        // Kept pages would add about 0.9 MB each (44 MB from page 10 to 60 when measured); what stays
        // is the emulator's own caches, which rise and fall by a few MB.
        const start = heap.get(10) ?? 0
        expect(Math.max(...heap.values()) - start).toBeLessThan(20)
      }).pipe(Effect.provide(files)),
    300_000
  ) // 60,000 records: 61 s at load 17, past the project's 60 s

  it.effect("a checkpoint holding a negative total (as one from a server sending -5 was written) still resumes", () =>
    Effect.gen(function*() {
      const out = path.join(tmp(), "negative.jsonl")
      yield* Harvest.harvest(out, yield* Harvest.prepare(out, spec, { resume: false, overwrite: false }), quiet).pipe(
        Effect.provideService(Harvest.BeforeCheckpoint, crashBeforeCheckpoint(3)),
        Effect.exit
      )
      const file = `${out}.checkpoint.json`
      const written = JSON.parse(fs.readFileSync(file, "utf8"))
      fs.writeFileSync(file, JSON.stringify({ ...written, total: -5, synced: { ...written.synced, total: -5 } }))
      expect(yield* readCheckpoint(out)).toMatchObject({ records: 2000, total: 0, synced: { total: 0 } })
      const resumed = yield* Harvest.harvest(
        out,
        yield* Harvest.prepare(out, spec, { resume: true, overwrite: false }),
        quiet
      )
      expect(resumed.checkpoint).toMatchObject({ records: 4500, total: 4500, done: true })
      expect(fs.readFileSync(out, "utf8").trimEnd().split("\n")).toHaveLength(4500)
    }).pipe(Effect.provide(client)))

  it.effect("resume without a checkpoint, or with a file shorter than its checkpoint, is refused", () =>
    Effect.gen(function*() {
      const out = path.join(tmp(), "none.jsonl")
      const none = yield* Effect.flip(Harvest.prepare(out, spec, { resume: true, overwrite: false }))
      expect(none.message).toContain("nothing to resume")
      yield* Harvest.harvest(
        out,
        yield* Harvest.prepare(out, { ...spec, max: 10 }, { resume: false, overwrite: false }),
        quiet
      )
      fs.truncateSync(out, 5)
      const shorter = yield* Effect.flip(Harvest.prepare(out, { ...spec, max: 10 }, { resume: true, overwrite: false }))
      expect(shorter.message).toContain("the file was changed")
    }).pipe(Effect.provide(client)))

  it.effect("while a page waits to be retried the progress shows the wait and the cause", () =>
    Effect.gen(function*() {
      const out = path.join(tmp(), "retried.jsonl")
      const { seen, storm, watching } = retrying(2)
      const fiber = yield* Harvest.harvest(
        out,
        yield* Harvest.prepare(out, spec, { resume: false, overwrite: false }),
        watching
      )
        .pipe(Effect.provide(storm), Effect.forkChild)
      // The harvest does real file I/O between its waits: the clock moves a second at a time, with a
      // turn of the event loop between for that I/O, until the harvest is done (one jump of 20 s
      // could come before the wait is set).
      const ticking = yield* Effect.forkChild(Effect.forever(Effect.andThen(
        TestClock.adjust("1 second"),
        Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      )))
      const result = yield* Fiber.join(fiber)
      yield* Fiber.interrupt(ticking)
      expect(result.checkpoint.records).toBe(4500)
      // One update while the first page waits (the next page is prefetched, so it may come before any
      // other), then one per stored page, each with the wait cleared.
      expect(seen.filter((note) => note !== undefined)).toEqual(["retrying in 10 s (429)"])
      expect(seen).toHaveLength(6)
      expect(seen.slice(seen.indexOf("retrying in 10 s (429)") + 1).every((note) => note === undefined)).toBe(true)
    }).pipe(Effect.provide(files)))

  it.effect("the wait shows on the progress line with the log level above Warning too", () =>
    Effect.gen(function*() {
      const out = path.join(tmp(), "retried-quietly.jsonl")
      const { seen, storm, watching } = retrying(1)
      const fiber = yield* Harvest.harvest(
        out,
        yield* Harvest.prepare(out, spec, { resume: false, overwrite: false }),
        watching
      ).pipe(Effect.provide(storm), Effect.provideService(References.MinimumLogLevel, "Error"), Effect.forkChild)
      // The note comes when the 429 does, before the wait: no clock to move, only the output file to
      // open (real I/O). Wait for it, or for the harvest to end without it, within a deadline.
      const deadline = Date.now() + 30_000
      while (seen.every((note) => note === undefined) && fiber.pollUnsafe() === undefined && Date.now() < deadline) {
        yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      }
      yield* Fiber.interrupt(fiber)
      expect(seen.filter((note) => note !== undefined)).toEqual(["retrying in 10 s (429)"])
    }).pipe(Effect.provide(files)))
})
