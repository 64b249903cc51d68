/**
 * Harvest: a bulk search written to a JSON-lines file, checkpointed after every page so that a
 * crash or Ctrl-C loses nothing and duplicates nothing.
 *
 * After each page the records are appended to the output in one write, then the checkpoint
 * (`<out>.checkpoint.json`: output size in bytes, continuation token, counts) is replaced
 * atomically (written to a temporary file, renamed: `HarvestCheckpoint.ts`). On `--resume` the output is first cut back to
 * the checkpoint's size, dropping any part of a page written after the last checkpoint, and the
 * search continues from the saved token.
 *
 * What a killed process wrote is in the operating system's cache and survives it, so a kill or a
 * crash of `s2` loses nothing without an fsync. Only an operating-system crash or a power cut can
 * lose what is not yet on the disk, so the output and the checkpoint are flushed (fsync) at most
 * once a second and at the end, not after every page: a flush per page took a third of a
 * harvest's time. Each checkpoint also records the last flushed state (`synced`), and a resume
 * whose output came back shorter than the checkpoint falls back to it.
 *
 * @since 1.0.0
 */
import type { S2Error } from "@s2-effect/core"
import { Fields, SemanticScholar, Waits } from "@s2-effect/core"
import * as Flag from "effect/cli/Flag"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { CommandError } from "./ExitCode.js"
import { badInput, fileError } from "./ExitCode.js"
import * as HarvestCheckpoint from "./HarvestCheckpoint.js"
import type { Checkpoint, Spec, Synced } from "./HarvestCheckpoint.js"
import type { Reporter } from "./render/Progress.js"
import { retryNote } from "./render/Progress.js"
import * as Symlinks from "./Symlinks.js"

/**
 * The result of a harvest run.
 *
 * @since 1.0.0
 */
export interface Result {
  readonly checkpoint: Checkpoint
  /** Records there were when this run started (non-zero on resume). */
  readonly startRecords: number
  readonly elapsedMillis: number
  /** The harvest was already complete: nothing was fetched. */
  readonly alreadyDone: boolean
}

/**
 * A test hook, run after a page's records are written to the output and before the checkpoint that
 * counts them is written: the window in which a crash leaves records past the checkpoint, which a
 * resume must cut off. Tests die here to simulate that crash (and sample the heap page by page);
 * `s2` itself leaves the default, which does nothing. Its argument is the page's number, from 1.
 *
 * @since 1.0.0
 */
export const BeforeCheckpoint = Context.Reference<(page: number) => Effect.Effect<void>>(
  "@s2-effect/cli/Harvest/BeforeCheckpoint",
  { defaultValue: () => (_page: number): Effect.Effect<void> => Effect.void }
)

const sameSpec = (a: Spec, b: Spec): boolean => JSON.stringify(normalize(a)) === JSON.stringify(normalize(b))

/** The flag of each filter, as the user typed it. */
const filterFlags: Record<keyof Spec["filters"], string> = {
  year: "--year",
  publicationTypes: "--publication-types",
  openAccessPdf: "--open-access-pdf",
  venue: "--venue",
  fieldsOfStudy: "--fields-of-study",
  publicationDateOrYear: "--publication-date-or-year",
  minCitationCount: "--min-citation-count"
}

/** A setting as it would be typed: `--max 5000`, `--fields title,year`, `no --sort`. */
const setting = (flag: string, value: unknown): string => {
  if (value === undefined || value === null || value === false) {
    return flag === "--fields"
      ? "--fields all"
      : `no ${flag}`
  }
  if (value === true) return flag
  const text = Array.isArray(value) ? value.join(",") : String(value)
  return `${flag} ${/^[\w.,:*+-]+$/.test(text) ? text : JSON.stringify(text)}`
}

/**
 * `--resume` and `--overwrite`, for a command that writes a checkpointed `--out` (`harvest`,
 * `graph`: `what` is the job, "the harvest" or "the walk").
 *
 * @since 1.0.0
 */
export const resumeFlags = (what: string) => ({
  resume: Flag.Boolean("resume").pipe(
    Flag.withDescription(`Continue ${what} into --out from its checkpoint`),
    Flag.withDefault(false)
  ),
  overwrite: Flag.Boolean("overwrite").pipe(
    Flag.withDescription("Start again even if --out exists"),
    Flag.withDefault(false)
  )
})

/**
 * The settings of a checkpoint and of this run that differ, each `[flag, saved, given]`, as "the
 * checkpoint is for `--max 100000`; this run has `--max 5000`" (several joined by "and"): the user
 * sees what to change, not what is the same. Harvest and graph checkpoints both say it this way.
 *
 * @since 1.0.0
 */
export const describeDifferences = (
  settings: ReadonlyArray<readonly [flag: string, saved: unknown, given: unknown]>
) => {
  const differ = settings.filter(([, a, b]) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null))
  if (differ.length === 0) return "its settings differ"
  const side = (pick: 1 | 2) =>
    differ.map((pair) =>
      pair[0].startsWith("the ") ? `${pair[0]} ${JSON.stringify(pair[pick])}` : setting(pair[0], pair[pick])
    ).join(" and ")
  return `the checkpoint is for ${side(1)}; this run has ${side(2)}`
}

/**
 * The settings in which a checkpoint's harvest and this run differ ({@link describeDifferences}).
 *
 * @since 1.0.0
 */
export const differences = (saved: Spec, given: Spec): string =>
  describeDifferences([
    ["the query", saved.query, given.query],
    ...Object.entries(filterFlags).map(([key, flag]) =>
      [flag, saved.filters[key as keyof Spec["filters"]], given.filters[key as keyof Spec["filters"]]] as const
    ),
    ["--sort", saved.sort, given.sort],
    ["--fields", saved.fields, given.fields],
    ["--max", saved.max, given.max]
  ])

const normalize = (spec: Spec) => ({
  query: spec.query,
  filters: Object.fromEntries(
    Object.entries(spec.filters).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))
  ),
  sort: spec.sort,
  fields: spec.fields,
  max: spec.max
})

/** The output's size and whether it is a directory; `None` when there is no such file. */
const statOf = (out: string) =>
  FileSystem.FileSystem.use((fs) => fs.stat(out)).pipe(
    Effect.map((info) => Option.some({ size: Number(info.size), directory: info.type === "Directory" })),
    Effect.catchIf(
      (error) => error.reason._tag === "NotFound",
      () => Effect.succeed(Option.none())
    ),
    Effect.mapError((cause) => fileError(`cannot read ${out}`, cause))
  )

/** The checkpoint to continue from, with the output cut back to it. */
const resumeFrom = (
  out: string,
  spec: Spec,
  size: number
): Effect.Effect<Checkpoint, CommandError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const existing = yield* HarvestCheckpoint.read(out)
    if (Option.isNone(existing)) {
      return yield* Effect.fail(
        badInput(`nothing to resume: no checkpoint ${HarvestCheckpoint.path(out)}; run without --resume to start`)
      )
    }
    const checkpoint = existing.value
    if (!sameSpec(checkpoint.spec, spec)) {
      return yield* Effect.fail(badInput(
        `${HarvestCheckpoint.path(out)} is for another harvest: ${
          differences(checkpoint.spec, spec)
        }. Resume with the checkpoint's settings, or start again with --overwrite`
      ))
    }
    // After an operating-system crash the checkpoint may have reached the disk before the pages it
    // counts; the last flushed state it records is on the disk.
    const { synced } = checkpoint
    const from: Checkpoint = size < checkpoint.bytes && synced !== undefined && size >= synced.bytes
      ? { ...checkpoint, ...synced, done: false }
      : checkpoint
    if (size < from.bytes) {
      return yield* Effect.fail(badInput(
        `${out} has ${
          Math.max(size, 0)
        } bytes but its checkpoint says ${from.bytes}: the file was changed; start again with --overwrite`
      ))
    }
    // Drop whatever was written after the last checkpoint (a page cut short by a crash).
    if (size > from.bytes) {
      const fs = yield* FileSystem.FileSystem
      yield* fs.truncate(out, from.bytes).pipe(Effect.mapError((cause) => fileError(`cannot truncate ${out}`, cause)))
    }
    return from
  })

/**
 * Symbolic links at `out` and at its checkpoint (see `Symlinks.ts`): refused, never followed, except
 * that `--overwrite` on a fresh start replaces them (the link itself, never its target: the output
 * is created anew and the checkpoint renamed over its link). Answers whether `out` is a link to
 * replace.
 */
const checkLinks = (
  out: string,
  options: { readonly resume: boolean; readonly overwrite: boolean }
): Effect.Effect<boolean, CommandError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const link = yield* Symlinks.linkAt(out)
    if (Option.isSome(link) && (options.resume || !options.overwrite)) {
      return yield* Effect.fail(Symlinks.refuse(
        "--out",
        link.value,
        options.resume
          ? "replace the link with the file it points to, or start again with --overwrite"
          : `give the file itself as --out (${link.value.resolved}) to write there, ` +
            "or add --overwrite to replace the link with a new file"
      ))
    }
    const checkpoint = yield* Symlinks.linkAt(HarvestCheckpoint.path(out))
    if (Option.isSome(checkpoint) && (options.resume || !options.overwrite)) {
      return yield* Effect.fail(Symlinks.refuse(
        "the checkpoint",
        checkpoint.value,
        `remove it, or ${options.resume ? "start again with --overwrite" : "add --overwrite"} to replace it`
      ))
    }
    return Option.isSome(link)
  })

/**
 * A new, empty output: created exclusively (`wx`), or an existing file truncated without following
 * a link (`O_NOFOLLOW`): a link planted since {@link checkLinks} makes the open fail.
 */
const createOutput = (out: string, replaceLink: boolean): Effect.Effect<void, CommandError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    if (replaceLink) yield* fs.remove(out)
    const open = (flag: "wx" | "w") =>
      Effect.scoped(fs.open(out, { flag, ...(Symlinks.noFollow ? { noFollow: true } : {}) }))
    yield* open("wx").pipe(Effect.catchIf((error) => error.reason._tag === "AlreadyExists", () => open("w")))
  }).pipe(Effect.mapError((cause) => fileError(`cannot write ${out}`, cause)))

/**
 * Prepares the output and the starting checkpoint: a fresh start (refusing to overwrite an
 * existing output unless `overwrite`), or a resume (cutting the output back to the checkpoint).
 * A symbolic link at `out` or its checkpoint is refused ({@link checkLinks}).
 *
 * @since 1.0.0
 */
export const prepare = (
  out: string,
  spec: Spec,
  options: { readonly resume: boolean; readonly overwrite: boolean }
): Effect.Effect<Checkpoint, CommandError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const replaceLink = yield* checkLinks(out, options)
    // A link to be replaced is not looked through, even to see a directory.
    const stat = replaceLink ? Option.none() : yield* statOf(out)
    if (Option.isSome(stat) && stat.value.directory) {
      return yield* Effect.fail(
        badInput(`--out ${out} is a directory; give the file to write, such as ${out.replace(/\/+$/, "")}/papers.jsonl`)
      )
    }
    if (options.resume) {
      return yield* resumeFrom(
        out,
        spec,
        Option.match(stat, { onNone: () => -1, onSome: (s) => s.size })
      )
    }
    const checkpointed = yield* HarvestCheckpoint.exists(out)
    if ((Option.exists(stat, (s) => s.size > 0) || checkpointed) && !options.overwrite) {
      return yield* Effect.fail(badInput(
        `${out} exists${
          checkpointed ? " with a checkpoint" : ""
        }; add --resume to continue from it or --overwrite to start again`
      ))
    }
    const start = HarvestCheckpoint.initial(spec)
    yield* createOutput(out, replaceLink)
    yield* HarvestCheckpoint.write(out, start, { sync: true })
    return start
  })

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
 * The lines of a page (cut at `max`) after `position`. A record serialises to its wire JSON (`raw`
 * is the record itself): one stringify per record, one buffer per page.
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

/**
 * Runs a harvest from a prepared checkpoint to the end (or `max`), reporting progress after every
 * page. Interrupting it between pages loses nothing: the checkpoint on disk matches the file.
 *
 * Two stages, so that the disk and the CPU work at the same time: pages are fetched (one ahead),
 * decoded and serialised while the pages before them are written and checkpointed. Each page is
 * written, then its checkpoint, in order: a checkpoint never counts bytes that were not written.
 *
 * @since 1.0.0
 */
export const harvest = (
  out: string,
  start: Checkpoint,
  progress: Reporter,
  /** The spec's fields, if the caller has checked them already (the command does, before touching `out`). */
  selection?: Fields.Selection | undefined
): Effect.Effect<Result, S2Error | CommandError, SemanticScholar | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const startedAt = Date.now()
    if (start.done) return { checkpoint: start, startRecords: start.records, elapsedMillis: 0, alreadyDone: true }
    const s2 = yield* SemanticScholar
    const { spec } = start
    let retrying: string | undefined
    const report = (current: Checkpoint) =>
      progress.update({
        records: current.records,
        pages: current.pages,
        target: spec.max === null ? current.total : Math.min(current.total, spec.max),
        startRecords: start.records,
        startedAt,
        now: Date.now(),
        retrying
      })
    const disk = yield* openOutput(out, start)
    // Each retry the client is about to wait for (its waits channel, whatever the log level): shown
    // on the progress line until the next page arrives.
    const onWait = (wait: Waits.Wait): Effect.Effect<void> =>
      wait._tag === "Retry"
        ? Effect.suspend(() => {
          retrying = retryNote(wait.cause, Duration.toMillis(wait.wait))
          return report(disk.current())
        })
        : Effect.void
    // One function for every page: an `Effect.gen` built per page would be a new generator function
    // per page, and V8 keeps each one's page alive until a full collection (docs/streams.md).
    // Untraced: no span or stack capture per page.
    // Uninterruptible (a page's write and checkpoint take milliseconds): Ctrl-C lands between
    // pages, so the output, its checkpoint and the last count reported all say the same.
    const persist = Effect.fnUntraced(function*(batch: Batch) {
      yield* disk.persist(batch)
      retrying = undefined
      yield* report(disk.current())
    }, Effect.uninterruptible)
    const { bytes, pages, records, token, total, years } = start
    yield* s2.searchPaperPages(spec.query, {
      ...spec.filters,
      bulk: true,
      sort: spec.sort ?? undefined,
      fields: spec.fields === null ? undefined : selection ?? (yield* Fields.select(Fields.paperList, spec.fields)),
      token: token ?? undefined,
      // The next page is on its way while this one is serialised.
      prefetch: 1
    }).pipe(
      Stream.mapAccum((): Synced => ({ bytes, token, records, pages, total, years }), (position, page) => {
        const batch = serialize(position, page, spec.max)
        return [batch.position, [batch]] as const
      }),
      Stream.takeUntil((batch) => batch.done),
      // The next page is serialised while this one is written and checkpointed.
      Stream.buffer({ capacity: 1 }),
      Stream.mapEffect(persist),
      Stream.runDrain,
      Waits.listen(onWait)
    )
    const checkpoint = yield* disk.finish
    return {
      checkpoint,
      startRecords: start.records,
      elapsedMillis: Date.now() - startedAt,
      alreadyDone: false
    }
  }).pipe(Effect.scoped)

/**
 * The disk side of a harvest: appends each page to the output, then replaces the checkpoint that
 * counts it, in order; flushes the output (and the checkpoint's temporary file) every second and
 * at the end (see the module's comment).
 */
const openOutput = Effect.fnUntraced(function*(out: string, start: Checkpoint) {
  const fs = yield* FileSystem.FileSystem
  const beforeCheckpoint = yield* BeforeCheckpoint
  let current = start
  // The first page is flushed whatever the time: a resumed checkpoint's bytes may not be on disk.
  let synced = start.synced
  let syncedAt = Number.NEGATIVE_INFINITY
  const failed = (what: string) => (cause: unknown) => fileError(what, cause)
  // Not through a symbolic link put in place of the output since `prepare` checked it.
  const output = yield* fs.open(out, { flag: "a", ...(Symlinks.noFollow ? { noFollow: true } : {}) }).pipe(
    Effect.mapError(failed(`cannot open ${out}`))
  )
  // Asynchronous, so the next page is fetched and serialised meanwhile; uninterruptible: Ctrl-C
  // waits for a write under way (milliseconds) rather than closing the file under it.
  const append = (bytes: Uint8Array) =>
    output.writeAll(bytes).pipe(
      // A full disk may take part of the page: cut the torn line back to the checkpoint, so the
      // file stays whole records and --resume continues it.
      Effect.tapError(() => Effect.ignore(output.truncate(current.bytes))),
      Effect.mapError(failed(`cannot write ${out} (cut back to its last checkpoint; run again with --resume)`)),
      Effect.uninterruptible
    )
  const flush = output.sync.pipe(Effect.mapError(failed(`cannot write ${out}`)), Effect.uninterruptible)
  const checkpoint = Effect.fnUntraced(function*(state: Synced, done: boolean) {
    const now = yield* Clock.currentTimeMillis
    const sync = done || now - syncedAt >= syncEveryMillis
    if (sync) {
      yield* flush
      synced = state
      syncedAt = now
    }
    const next: Checkpoint = { ...current, ...state, done, updatedAt: new Date().toISOString(), synced }
    yield* HarvestCheckpoint.write(out, next, { sync })
    current = next
  })
  return {
    current: () => current,
    persist: Effect.fnUntraced(function*(batch: Batch) {
      yield* append(batch.bytes)
      yield* beforeCheckpoint(batch.position.pages)
      yield* checkpoint(batch.position, batch.done)
    }),
    /** The stream ended without a last-page marker: the search is exhausted all the same. */
    finish: Effect.suspend(() => {
      if (current.done) return Effect.succeed(current)
      const { bytes, pages, records, total, years } = current
      return Effect.map(checkpoint({ bytes, token: null, records, pages, total, years }, true), () => current)
    })
  }
})
