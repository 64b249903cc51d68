/**
 * The harvest itself: a bulk search appended to the output page by page, each page followed by the
 * checkpoint that counts it (see the durability notes of `Harvest.ts`).
 */
import type { Fields as FieldsType, S2Error } from "@s2-effect/core"
import { Fields, SemanticScholar, Waits } from "@s2-effect/core"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type * as FileSystem from "effect/FileSystem"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { Checkpoint, Event, Progress, Result, RunOptions, Synced } from "../Harvest.js"
import type { HarvestError } from "../HarvestError.js"
import * as Checkpoints from "./harvestCheckpoint.js"
import { open } from "./harvestFiles.js"

export const BeforeCheckpoint = Context.Reference<(page: number) => Effect.Effect<void>>(
  "@s2-effect/jobs/Harvest/BeforeCheckpoint",
  { defaultValue: () => (_page: number): Effect.Effect<void> => Effect.void }
)

/** How often the output and the checkpoint are flushed to disk (see the module's comment). */
const syncEveryMillis = 1000

const yearOf = (year: number | null | undefined): string => typeof year === "number" ? String(year) : "unknown"

/** A page ready for the disk: its lines, and where the harvest stands once they are written. */
interface Batch {
  readonly bytes: Uint8Array
  readonly position: Synced
  /** The last page, or `max` is reached. */
  readonly done: boolean
}

const encoder = new TextEncoder()

/**
 * The lines of a page (cut at `max`) after `position`. A wire record serialises to its wire JSON:
 * one stringify per record, one buffer per page.
 */
const serialize = (
  position: Synced,
  page: {
    readonly data: ReadonlyArray<{ readonly year?: number | null | undefined }>
    readonly token: string | null
    readonly total: number
  },
  max: number | null
): Batch => {
  const { data } = page
  const count = max === null ? data.length : Math.min(data.length, Math.max(0, max - position.records))
  const years: Record<string, number> = { ...position.years }
  let text = ""
  for (let i = 0; i < count; i++) {
    const record = data[i]!
    const year = yearOf(record.year)
    years[year] = (years[year] ?? 0) + 1
    text += JSON.stringify(record) + "\n"
  }
  const bytes = encoder.encode(text)
  const records = position.records + count
  return {
    bytes,
    position: {
      bytes: position.bytes + bytes.length,
      token: page.token,
      records,
      pages: position.pages + 1,
      total: page.total,
      years
    },
    done: page.token === null || (max !== null && records >= max)
  }
}

/** Cuts `file` back to `bytes` when it is longer; never lengthens it. */
const cutBack = (file: FileSystem.File, bytes: number) =>
  Effect.flatMap(file.stat, (info) => Number(info.size) > bytes ? file.truncate(bytes) : Effect.void).pipe(
    Effect.uninterruptible
  )

/**
 * A fiber the pages wait for once, started in the run's scope: joined by the first that needs it
 * (its failure is the harvest's), and awaited when the run ends, before the output is closed
 * (awaited, not joined: the scope's interruption of it is not the run's).
 */
const pending = () => {
  let fiber: Fiber.Fiber<void, HarvestError> | undefined
  return {
    start: (effect: Effect.Effect<void, HarvestError>, scope: Scope.Scope) =>
      Effect.map(Effect.forkIn(effect, scope, { startImmediately: true }), (started) => void (fiber = started)),
    join: Effect.suspend(() => {
      const joined = fiber
      fiber = undefined
      return joined === undefined ? Effect.void : Fiber.join(joined)
    }),
    await: Effect.suspend(() => fiber === undefined ? Effect.void : Fiber.await(fiber))
  }
}

/**
 * The disk side of a harvest: appends each page to the output, then replaces the checkpoint that
 * counts it; flushes the output (and the checkpoint's new content) every second and at the end.
 * A page's checkpoint is written in a fiber of its own while the next page is appended: it counts
 * only bytes already written, and the next one waits for it, so checkpoints stay in order and the
 * output is at most one page ahead of the last one (which a resume cuts back to).
 */
const openOutput = Effect.fnUntraced(function*(
  out: string,
  start: Checkpoint,
  onSaved: (saved: Checkpoint, done: boolean) => Effect.Effect<void>
) {
  const beforeCheckpoint = yield* BeforeCheckpoint
  const scope = yield* Scope.Scope
  let current = start
  // The end of the last page appended, whose checkpoint may still be under way.
  let written = start.bytes
  // The first page is flushed whatever the time: a resumed checkpoint's bytes may not be on disk.
  let synced = start.synced
  let syncedAt = Number.NEGATIVE_INFINITY
  // The checkpoint under way, which the next one waits for.
  const saving = pending()
  // Not through a symbolic link put in place of the output since `prepare` checked it.
  const output = yield* open(out, "a").pipe(Effect.mapError(Checkpoints.failed("output", out, "open")))
  // What follows the checkpoint's bytes (the old output of a fresh start over it) is cut while the
  // first pages are fetched, and waited for before the first append; ended early, the run's scope
  // waits for it (uninterruptible) before the output is closed.
  const cut = pending()
  yield* cut.start(
    cutBack(output, start.bytes).pipe(Effect.mapError(Checkpoints.failed("output", out, "truncate"))),
    scope
  )
  const write = yield* Checkpoints.writer(out)
  const append = (bytes: Uint8Array) =>
    Effect.andThen(
      cut.join,
      output.writeAll(bytes).pipe(
        // A full disk may take part of the page: cut the torn line back to the page before, so the
        // file stays whole records and a resume continues it.
        Effect.tapError(() => Effect.ignore(output.truncate(written))),
        Effect.mapError(Checkpoints.failed("output", out, "append")),
        Effect.tap(() => Effect.sync(() => (written += bytes.length)))
      )
    )
  // Uninterruptible, also where the end's checkpoint calls it: never close the file under an fsync.
  const flush = output.sync.pipe(Effect.mapError(Checkpoints.failed("output", out, "write")), Effect.uninterruptible)
  const checkpoint = Effect.fnUntraced(function*(state: Synced, done: boolean) {
    const now = yield* Clock.currentTimeMillis
    const sync = done || now - syncedAt >= syncEveryMillis
    if (sync) {
      yield* flush
      synced = state
      syncedAt = now
    }
    const next: Checkpoint = { ...current, ...state, done, updatedAt: new Date(now).toISOString(), synced }
    yield* write(next, { sync })
    current = next
  })
  const save = Effect.fnUntraced(function*(batch: Batch) {
    yield* beforeCheckpoint(batch.position.pages)
    yield* checkpoint(batch.position, batch.done)
    yield* onSaved(current, batch.done)
  }, Effect.uninterruptible)
  // Whatever ends the run, the checkpoint under way is finished before the output is closed.
  yield* Scope.addFinalizer(scope, saving.await)
  return {
    current: () => current,
    // One function for every page, not an `Effect.gen` a page (docs/streams.md: V8 keeps each one's
    // page alive until a full collection). Uninterruptible: an interruption waits for a write under
    // way (milliseconds) rather than closing the file under it, and lands between pages.
    persist: Effect.fnUntraced(function*(batch: Batch) {
      yield* append(batch.bytes)
      yield* saving.join
      yield* saving.start(save(batch), scope)
    }, Effect.uninterruptible),
    /** The stream ended without a last-page marker: the search is exhausted all the same. */
    finish: Effect.andThen(
      Effect.andThen(cut.join, saving.join),
      Effect.suspend(() => {
        if (current.done) return Effect.succeed(current)
        const { bytes, pages, records, total, years } = current
        return Effect.map(checkpoint({ bytes, token: null, records, pages, total, years }, true), () => current)
      })
    )
  }
})

/** Where a run stands, for its events. */
const progressOf = (start: Checkpoint, current: Checkpoint, startedAt: number, now: number): Progress => {
  const elapsedMillis = Math.max(0, now - startedAt)
  const fetched = current.records - start.records
  const { max } = start.spec
  return {
    records: current.records,
    pages: current.pages,
    bytes: current.bytes,
    total: current.total,
    target: max === null ? current.total : Math.min(current.total, max),
    startRecords: start.records,
    startedAt,
    elapsedMillis,
    perSecond: elapsedMillis > 0 ? fetched / (elapsedMillis / 1000) : 0
  }
}

const noEvents = (_event: Event): Effect.Effect<void> => Effect.void

export const run = (
  out: string,
  start: Checkpoint,
  options: RunOptions = {}
): Effect.Effect<Result, S2Error | HarvestError, SemanticScholar | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const startedAt = yield* Clock.currentTimeMillis
    const onEvent = options.onEvent ?? noEvents
    const emit = (event: Event) => onEvent(event)
    if (start.done) {
      const result: Result = { checkpoint: start, startRecords: start.records, elapsedMillis: 0, alreadyDone: true }
      yield* emit({ _tag: "Done", result })
      return result
    }
    const progress = (saved: Checkpoint) =>
      Effect.map(Clock.currentTimeMillis, (now) => progressOf(start, saved, startedAt, now))
    // Each page's `Saved` comes once its checkpoint is written, from the fiber that wrote it: the
    // output, its checkpoint and the last `Saved` event say the same, interrupted or not.
    const disk = yield* openOutput(
      out,
      start,
      (saved, done) => Effect.flatMap(progress(saved), (p) => emit({ _tag: "Saved", progress: p, done }))
    )
    // Each wait the client is about to make (its waits channel, whatever the log level).
    const onWait = (wait: Waits.Wait) =>
      Effect.flatMap(progress(disk.current()), (p) => emit({ _tag: "Waiting", wait, progress: p }))
    yield* pages(start, options.selection).pipe(
      Stream.takeUntil((batch) => batch.done),
      // The next page is serialised while this one's append and checkpoint wait on the disk; the
      // page after is already being fetched (`prefetch: 1`). packages/bench/NOTES.md, issue 47,
      // eighth pass: with the fetch look-ahead this buffer pays; before it, it did not (fifth).
      Stream.buffer({ capacity: 1 }),
      Stream.mapEffect(disk.persist),
      Stream.runDrain,
      Waits.listen(onWait)
    )
    const checkpoint = yield* disk.finish
    const now = yield* Clock.currentTimeMillis
    const result: Result = {
      checkpoint,
      startRecords: start.records,
      elapsedMillis: now - startedAt,
      alreadyDone: false
    }
    yield* emit({ _tag: "Done", result })
    return result
  }).pipe(Effect.scoped)

/** The search's pages from the checkpoint on, each serialised after the one before. */
const pages = (start: Checkpoint, selection: FieldsType.Selection | undefined) =>
  Stream.unwrap(Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const { bytes, pages, records, spec, token, total, years } = start
    const fields = spec.fields === null ? undefined : selection ?? (yield* Fields.select(Fields.paperList, spec.fields))
    return s2.searchPaperPages(spec.query, {
      ...spec.filters,
      bulk: true,
      sort: spec.sort ?? undefined,
      fields,
      token: token ?? undefined,
      // The next page is on its way while this one is serialised.
      prefetch: 1,
      // Each record is checked, then written as it came: a class per record would cost a fifth of
      // the harvest's CPU and give it nothing it uses.
      wire: true
    }).pipe(
      Stream.mapAccum((): Synced => ({ bytes, token, records, pages, total, years }), (position, page) => {
        const batch = serialize(position, page, spec.max)
        return [batch.position, [batch]] as const
      })
    )
  }))
