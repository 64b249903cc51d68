/**
 * `s2 harvest <query> --out FILE.jsonl`: a bulk search into a JSON-lines file, with a progress bar,
 * checkpoints after every page, `--resume`, and a summary with a chart of papers per year.
 *
 * @since 1.0.0
 */
import { Fields } from "@s2-effect/core"
import type { Harvest as Job } from "@s2-effect/jobs"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ClientCommand from "../ClientCommand.js"
import * as FilterFlags from "../flags/filters.js"
import * as Harvest from "../Harvest.js"
import * as OutputFlags from "../OutputFlags.js"
import * as Parse from "../Parse.js"
import { Printer } from "../Printer.js"
import { currentYear, yearChart } from "../render/Chart.js"
import * as Progress from "../render/Progress.js"
import * as SharedFlags from "../SharedFlags.js"

/** Fields harvested when `--fields` is omitted. @since 1.0.0 */
export const harvestDefaults = ["title", "year", "publicationDate", "venue", "citationCount", "authors", "externalIds"]

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`

/**
 * The summary printed at the end of a harvest.
 *
 * @since 1.0.0
 */
export const summary = (out: string, result: Harvest.Result, thisYear?: number): string => {
  const { checkpoint: cp } = result
  const fetched = cp.records - result.startRecords
  const seconds = result.elapsedMillis / 1000
  const lines = result.alreadyDone
    ? [
      `${out} is complete: ${Progress.count(cp.records, "paper")} in ${Progress.count(cp.pages, "page")}; nothing to do`
    ]
    : [
      `harvested ${Progress.count(cp.records, "paper")} (${Progress.count(cp.pages, "page")}, ${
        megabytes(cp.bytes)
      }) into ${out}`,
      `${Progress.grouped(fetched)} fetched in ${seconds.toFixed(1)} s (${
        Progress.count(Math.round(seconds > 0 ? fetched / seconds : 0), "paper")
      }/s)${result.startRecords > 0 ? `, resumed at ${Progress.grouped(result.startRecords)}` : ""}`
    ]
  const chart = yearChart(cp.years, 40, thisYear)
  return lines.join("\n") + "\n" + (chart === "" ? "" : `\npapers per year:\n${chart}`)
}

/**
 * `s2 harvest`.
 *
 * @since 1.0.0
 */
export const harvest = ClientCommand.make(
  "harvest",
  {
    query: Argument.String("query").pipe(
      Argument.withDescription("Bulk query: + and, | or, - not, \"phrase\", word*, ( ), ~N; empty matches everything")
    ),
    out: Flag.String("out").pipe(Flag.withMetavar("file"), Flag.withDescription("The JSON-lines output file")),
    ...Harvest.resumeFlags("the harvest"),
    fields: OutputFlags.fieldsFlag,
    max: OutputFlags.maxFlag,
    sort: FilterFlags.sort,
    ...FilterFlags.flags
  },
  (o) => `harvest ${JSON.stringify(o.query)}`,
  function*(o) {
    const printer = yield* Printer
    const given = Option.getOrUndefined(o.fields)
    const fields = given?.trim() === "all" ? null : given === undefined ? harvestDefaults : Parse.splitList(given)
    // Checked once, before anything touches the output; the client sends the selection as is.
    const selection = fields === null ? undefined : yield* Fields.select(Fields.paperList, fields)
    const max = yield* OutputFlags.max(o)
    const spec: Job.Spec = {
      query: o.query,
      filters: yield* FilterFlags.toFilters(o),
      sort: Option.getOrNull(o.sort),
      fields,
      max: max ?? null
    }
    // Before anything touches the output: one harvest per file.
    yield* Harvest.lock(o.out)
    const start = yield* Harvest.prepare(o.out, spec, { resume: o.resume, overwrite: o.overwrite, cutInRun: true })
    const shown = yield* SharedFlags.progress("harvest")
    // The records the output holds, as the harvest reports them after each page and its
    // checkpoint are written (a page is persisted whole or not at all, Ctrl-C waits for it):
    // the interrupt message needs no checkpoint read back, which might not decode.
    let saved = start.records
    const progress: Progress.Reporter = {
      ...shown,
      update: (state) => Effect.andThen(Effect.sync(() => (saved = state.records)), shown.update(state))
    }
    const result = yield* Harvest.harvest(o.out, start, progress, selection).pipe(
      Effect.ensuring(progress.stop),
      Effect.onInterrupt(() =>
        Effect.suspend(() =>
          printer.err(
            `\ns2: harvest interrupted with ${
              Progress.grouped(saved)
            } papers saved in ${o.out}; run the same command with --resume to continue\n`
          )
        )
      )
    )
    yield* printer.out(summary(o.out, result, yield* currentYear))
  }
).pipe(Command.withDescription("Bulk search into a JSON-lines file, with progress, checkpoints and --resume"))
