/**
 * `s2 watch`: watches on what is new — papers citing a paper, papers of a bulk search, papers of an
 * author — kept in one state file (`WatchFile`), and `s2 watch check` printing what is new since
 * the last check: as records, BibTeX, CSL-JSON or RIS, or an Atom feed. Exit code 0 when nothing
 * is new, 20 ({@link ExitCode.somethingNew}) when something is, errors as any command.
 *
 * @since 1.1.0
 */
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import type { Paper } from "@s2-effect/core"
import { Files, Filters, PaperId } from "@s2-effect/core"
import { Watch } from "@s2-effect/jobs"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { ClientFacts } from "../Client.js"
import * as ClientCommand from "../ClientCommand.js"
import { badInput, CommandError, ExitCode, fileError, fromS2Error } from "../ExitCode.js"
import * as Ids from "../Ids.js"
import { Printer } from "../Printer.js"
import * as Atom from "../render/Atom.js"
import * as Output from "../render/Output.js"
import * as Symlinks from "../Symlinks.js"
import * as WatchFile from "../WatchFile.js"
import { flags as filterFlags, toFilters } from "./filters.js"
import { type CitableFormat, isCitable, printItems } from "./resolve.js"

const state = Flag.String("state").pipe(
  Flag.withMetavar("file"),
  Flag.withDescription("The state file (default: watches.json in your configuration folder, e.g. ~/.config/s2)"),
  Flag.optional
)

const stateOf = (o: { readonly state: Option.Option<string> }) =>
  Option.match(o.state, {
    onNone: () => ({ file: WatchFile.defaultPath(), isDefault: true }),
    onSome: (file) => ({ file, isDefault: false })
  })

const common = {
  name: Flag.String("name").pipe(
    Flag.withDescription("The watch's name: letters, digits, . _ - (default: made from what it follows)"),
    Flag.optional
  ),
  window: Flag.Int("window").pipe(
    Flag.withMetavar("days"),
    Flag.withDescription(
      `Days before the last check whose papers are listed again (default ${Watch.defaultWindowDays})`
    ),
    Flag.optional
  ),
  since: Flag.String("since").pipe(
    Flag.withMetavar("date"),
    Flag.withDescription(
      "Papers dated before this day, YYYY-MM-DD, are never listed (default: the window before the first check)"
    ),
    Flag.optional
  ),
  state
}

interface Common {
  readonly name: Option.Option<string>
  readonly window: Option.Option<number>
  readonly since: Option.Option<string>
  readonly state: Option.Option<string>
}

const NAME = /^[A-Za-z0-9._-]{1,64}$/

/** A name made from what a watch follows: its characters outside the allowed ones become `-`. */
const nameFrom = (kind: string, target: string): string =>
  `${kind}-${target}`.replace(/[^A-Za-z0-9._-]+/g, () => "-").slice(0, 64)

/** The watch of the flags, checked: what can never work is refused before the state is touched. */
const watchOf = (
  o: Common,
  make: (common: { name: string; windowDays?: number; since?: string }) => Watch.Watch,
  fallbackName: string
): Effect.Effect<Watch.Watch, CommandError> =>
  Effect.gen(function*() {
    const name = Option.getOrElse(o.name, () => fallbackName)
    if (!NAME.test(name)) {
      return yield* Effect.fail(
        badInput(`--name ${JSON.stringify(name)}: use 1 to 64 letters, digits, ".", "_" or "-"`)
      )
    }
    const windowDays = Option.getOrUndefined(o.window)
    if (windowDays !== undefined && (windowDays < 1 || windowDays > 3650)) {
      return yield* Effect.fail(badInput(`--window ${windowDays}: give a number of days from 1 to 3650`))
    }
    const since = Option.getOrUndefined(o.since)
    if (since !== undefined && !(/^\d{4}-\d{2}-\d{2}$/.test(since) && Filters.isDate(since))) {
      return yield* Effect.fail(badInput(`--since ${JSON.stringify(since)}: give a day as YYYY-MM-DD`))
    }
    return make({
      name,
      ...(windowDays === undefined ? {} : { windowDays }),
      ...(since === undefined ? {} : { since })
    })
  })

/** Adds `watch` to the state file; a name already there is refused rather than replaced. */
const store = (o: Common, watch: Watch.Watch) =>
  Effect.scoped(Effect.gen(function*() {
    const { file, isDefault } = stateOf(o)
    yield* WatchFile.update(file, isDefault, (current) =>
      current.watches.some((entry) => entry.watch.name === watch.name)
        ? Effect.fail(badInput(`a watch named ${watch.name} is in ${file} already: remove it first, or give --name`))
        : Effect.succeed({ state: Watch.add(current, watch), value: undefined }))
    yield* Printer.use((printer) => printer.err(`s2: added watch ${watch.name} (${describe(watch)}) to ${file}\n`))
  }))

const describe = (watch: Watch.Watch): string => {
  switch (watch._tag) {
    case "Citations":
      return `papers citing ${watch.paperId}`
    case "Author":
      return `papers of author ${watch.authorId}`
    case "Query":
      return `papers matching ${JSON.stringify(watch.query)}`
  }
}

const addCitations = Command.make(
  "citations",
  { id: Argument.String("paper-id").pipe(Argument.withDescription("The paper whose citations to watch")), ...common },
  (o) =>
    PaperId.validatePaperId(Ids.paperId(o.id)).pipe(
      // What can never be an id is refused now, not at every check.
      Effect.mapError((error) => fromS2Error(error, { what: "watch add citations", retries: 0, hasKey: false })),
      Effect.flatMap((paperId) =>
        watchOf(o, (c) => ({ _tag: "Citations", ...c, paperId }), nameFrom("citations", o.id))
      ),
      Effect.flatMap((watch) => store(o, watch))
    )
).pipe(Command.withDescription("Watch the papers citing a paper"))

const addAuthor = Command.make(
  "author",
  { id: Argument.String("author-id").pipe(Argument.withDescription("The author (a number)")), ...common },
  (o) =>
    Effect.flatMap(
      /^\d{1,20}$/.test(o.id)
        ? watchOf(o, (c) => ({ _tag: "Author", ...c, authorId: o.id }), nameFrom("author", o.id))
        : Effect.fail(badInput(`author id ${JSON.stringify(o.id)}: an author id is a number`)),
      (watch) => store(o, watch)
    )
).pipe(Command.withDescription("Watch the papers of an author"))

const { publicationDateOrYear: _dates, ...queryFilterFlags } = filterFlags

const addQuery = Command.make(
  "query",
  {
    query: Argument.String("query").pipe(
      Argument.withDescription("A bulk search query (+ and, | or, - not, \"phrase\")")
    ),
    ...queryFilterFlags,
    ...common
  },
  (o) =>
    Effect.gen(function*() {
      const filters = yield* toFilters({ ...o, publicationDateOrYear: Option.none() })
      // Checked as a search checks them, now rather than at every check.
      yield* Filters.render(filters).pipe(
        Effect.mapError((error) => fromS2Error(error, { what: "watch add query", retries: 0, hasKey: false }))
      )
      const kept: Watch.QueryFilters = {
        ...(filters.year === undefined ? {} : { year: String(filters.year) }),
        ...(filters.publicationTypes === undefined ? {} : { publicationTypes: filters.publicationTypes.map(String) }),
        ...(filters.openAccessPdf === true ? { openAccessPdf: true } : {}),
        ...(filters.venue === undefined ? {} : { venue: filters.venue }),
        ...(filters.fieldsOfStudy === undefined ? {} : { fieldsOfStudy: filters.fieldsOfStudy.map(String) }),
        ...(filters.minCitationCount === undefined ? {} : { minCitationCount: filters.minCitationCount })
      }
      const watch = yield* watchOf(
        o,
        (c) => ({ _tag: "Query", ...c, query: o.query, ...(Object.keys(kept).length === 0 ? {} : { filters: kept }) }),
        nameFrom("query", o.query)
      )
      yield* store(o, watch)
    })
).pipe(Command.withDescription("Watch the papers of a bulk search, newest first"))

const add = Command.make("add").pipe(
  Command.withDescription("Add a watch: citations of a paper, a bulk search query, or an author's papers"),
  Command.withSubcommands([addCitations, addQuery, addAuthor])
)

const format = Flag.Literals("format", ["json", "jsonl", "table", "csv"]).pipe(
  Flag.withDescription("Output format (default: pretty JSON on a terminal, JSON lines when piped)"),
  Flag.optional
)

const list = Command.make("list", { state, format }, (o) =>
  Effect.gen(function*() {
    const { file } = stateOf(o)
    const current = yield* WatchFile.read(file)
    yield* Output.many(
      { format: o.format, max: Option.none() },
      current.watches.map(({ checkedAt, seen, watch }) => ({
        name: watch.name,
        kind: watch._tag.toLowerCase(),
        follows: watch._tag === "Citations" ? watch.paperId : watch._tag === "Author" ? watch.authorId : watch.query,
        ...(watch._tag === "Query" && watch.filters !== undefined ? { filters: watch.filters } : {}),
        windowDays: watch.windowDays ?? Watch.defaultWindowDays,
        ...(watch.since === undefined ? {} : { since: watch.since }),
        checkedAt: checkedAt ?? null,
        remembered: seen.length
      }))
    )
  })).pipe(Command.withDescription("List the watches, when each was last checked and how many papers it remembers"))

const remove = Command.make(
  "remove",
  {
    names: Argument.String("name").pipe(Argument.withDescription("The watches to remove"), Argument.atLeast(1)),
    state
  },
  (o) =>
    Effect.scoped(Effect.gen(function*() {
      const { file, isDefault } = stateOf(o)
      yield* WatchFile.update(file, isDefault, (current) => {
        const missing = o.names.filter((name) => !current.watches.some((entry) => entry.watch.name === name))
        return missing.length > 0
          ? Effect.fail(unknownWatches(missing, current, file))
          : Effect.succeed({ state: o.names.reduce(Watch.remove, current), value: undefined })
      })
      yield* Printer.use((printer) => printer.err(`s2: removed ${o.names.join(", ")} from ${file}\n`))
    }))
).pipe(Command.withDescription("Remove watches (and what they remember)"))

const unknownWatches = (missing: ReadonlyArray<string>, current: Watch.State, file: string): CommandError => {
  const known = current.watches.map((entry) => entry.watch.name)
  if (missing.length === 0) return badInput(`no watches in ${file}: add one with s2 watch add`)
  return badInput(
    `no watch named ${missing.join(", ")} in ${file}; ${
      known.length === 0 ? "it has none: add one with s2 watch add" : `its watches: ${known.join(", ")}`
    }`
  )
}

const checkFormats = ["json", "jsonl", "table", "csv", "bibtex", "csl-json", "ris", "atom"] as const
type CheckFormat = typeof checkFormats[number]

/**
 * A compact row for CSV, one line a paper; a table, read on a terminal, leaves out the venue and
 * the id (JSON, JSON lines and CSV have them), so that titles get the width.
 */
const row = (watch: string, paper: Paper, table: boolean) => {
  const authors = paper.authors ?? []
  const first = authors[0]?.name ?? ""
  return {
    date: paper.publicationDate ?? (paper.year === undefined || paper.year === null ? "" : String(paper.year)),
    title: paper.title ?? "",
    authors: table
      ? first + (authors.length > 1 ? " et al." : "")
      : authors.slice(0, 3).map((author) => author.name ?? "").join(", ") + (authors.length > 3 ? ", et al." : ""),
    watch,
    ...(table ? {} : { venue: paper.venue ?? "", paperId: paper.paperId })
  }
}

/** Writes `text` to `out` atomically, never through a link. */
const writeOut = (out: string, text: string): Effect.Effect<void, CommandError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const link = yield* Symlinks.linkAt(out)
    if (Option.isSome(link)) return yield* Effect.fail(Symlinks.refuse("--out", link.value, "give another file"))
    yield* Files.writeAtomic(out, text).pipe(Effect.mapError((cause) => fileError(`cannot write ${out}`, cause)))
  })

/** Shows what a check found, in `format`; the Atom feed shows the last `entries` found. */
const show = (
  o: { readonly format: Option.Option<CheckFormat>; readonly out: Option.Option<string>; readonly entries: number },
  result: Watch.CheckResult,
  names: ReadonlyArray<string>
) =>
  Effect.gen(function*() {
    const format = Option.getOrUndefined(o.format)
    if (format === "atom") {
      const text = Atom.feed(result.state.recent, {
        names,
        updated: result.checkedAt,
        entries: o.entries,
        generatorVersion: packageJson.version
      })
      return yield* Option.isSome(o.out) ? writeOut(o.out.value, text) : Printer.use((printer) => printer.out(text))
    }
    if (format !== undefined && isCitable(format)) {
      return yield* printItems(
        format as CitableFormat,
        Stream.fromIterable(result.found.map(({ paper }) => ({ paper })))
      )
    }
    const shown = { format: Option.fromUndefinedOr(format), max: Option.none<number>() }
    const compact = format === "table" || format === "csv"
    yield* Output.many(
      shown,
      result.found.map(({ paper, watch }) =>
        compact
          ? row(watch, paper, format === "table")
          : { watch, ...(Output.toJson(paper) as Record<string, unknown>) }
      )
    )
  })

/** After the state is stored: the failed watches said, then the exit code (an error's, or 20 for news). */
const conclude = (result: Watch.CheckResult, what: string) =>
  Effect.gen(function*() {
    const printer = yield* Printer
    const facts = yield* ClientFacts
    for (const { error, watch } of result.failed.slice(1)) {
      const said = fromS2Error(error, { what: `watch ${watch}`, ...facts })
      yield* printer.err(`s2: ${said.message}\n`)
    }
    const first = result.failed[0]
    if (first !== undefined) {
      return yield* Effect.fail(fromS2Error(first.error, { what: `watch ${first.watch}`, ...facts }))
    }
    if (result.found.length > 0) {
      return yield* Effect.fail(
        new CommandError({
          message: `${what}: ${result.found.length} new paper${result.found.length === 1 ? "" : "s"} (exit code 20)`,
          code: ExitCode.somethingNew
        })
      )
    }
  })

const check = ClientCommand.make(
  "check",
  {
    names: Argument.String("name").pipe(
      Argument.withDescription("The watches to check (default: all)"),
      Argument.variadic()
    ),
    state,
    format: Flag.Literals("format", checkFormats).pipe(
      Flag.withDescription(
        "Output: json, jsonl, table, csv (records), bibtex, csl-json, ris (to import), atom (a feed; with --out FILE)"
      ),
      Flag.optional
    ),
    out: Flag.String("out").pipe(
      Flag.withMetavar("file"),
      Flag.withDescription("Write the Atom feed here"),
      Flag.optional
    ),
    entries: Flag.Int("entries").pipe(
      Flag.withDescription(`Entries in the Atom feed, newest first (default ${Watch.defaultRecent})`),
      Flag.withDefault(Watch.defaultRecent)
    )
  },
  "watch check",
  function*(o, what) {
    if (Option.isSome(o.out) && Option.getOrUndefined(o.format) !== "atom") {
      return yield* Effect.fail(badInput("--out writes the Atom feed: give --format atom, or redirect other formats"))
    }
    if (o.entries < 1 || o.entries > 10_000) return yield* Effect.fail(badInput("--entries: give 1 to 10000"))
    const { file, isDefault } = stateOf(o)
    const result = yield* WatchFile.update(file, isDefault, (current) =>
      Effect.gen(function*() {
        const missing = o.names.filter((name) => !current.watches.some((entry) => entry.watch.name === name))
        if (missing.length > 0 || current.watches.length === 0) {
          return yield* Effect.fail(unknownWatches(missing, current, file))
        }
        const names = o.names.length > 0 ? o.names : current.watches.map((entry) => entry.watch.name)
        const result = yield* Watch.check(current, { names, recent: Math.max(o.entries, Watch.defaultRecent) })
        // Shown before it is stored: a run stopped in between shows the papers again, never loses them.
        yield* show(o, result, names)
        return { state: result.state, value: result }
      }))
    yield* conclude(result, what)
  }
).pipe(Command.withDescription("Print what is new for the watches (exit 0: nothing new, 20: something new)"))

/**
 * `s2 watch`.
 *
 * @since 1.1.0
 */
export const watch = Command.make("watch").pipe(
  Command.withDescription(
    "Watches: new citations of a paper, new papers of a search or an author, as a list or a feed"
  ),
  Command.withSubcommands([add, list, remove, check])
)
