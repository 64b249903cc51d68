/**
 * `s2 resolve [FILE|-]`: a reference list (one reference per line, or a .bib file) into papers,
 * through `Resolve.references` (one batch request per 500 ids, one title match per title), printed
 * as BibTeX, CSL-JSON or RIS written from the papers' fields (`Citable`), or as records. Unresolved
 * references are listed on stderr, and make the exit code 3.
 *
 * @since 1.0.0
 */
import { excerpt, Fields } from "@s2-effect/core"
import { Citable, type ReferenceInput, Resolve, Verify } from "@s2-effect/jobs"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as fs from "node:fs"
import * as ClientCommand from "../ClientCommand.js"
import { badInput, CommandError, ExitCode, fileError } from "../ExitCode.js"
import * as OutputFlags from "../OutputFlags.js"
import * as Parse from "../Parse.js"
import { Printer } from "../Printer.js"
import * as Output from "../render/Output.js"
import * as Stdin from "../Stdin.js"

/** Fields of each record when `--fields` is omitted (jsonl, csv, table). @since 1.0.0 */
export const resolveDefaults = ["title", "year", "venue", "authors", "externalIds"]

/** The formats written by `Citable`, from the papers' fields. @since 1.1.0 */
export const citableFormats = ["bibtex", "csl-json", "ris"] as const

/** @since 1.1.0 */
export type CitableFormat = typeof citableFormats[number]

/** @since 1.1.0 */
export const isCitable = (format: string): format is CitableFormat =>
  (citableFormats as ReadonlyArray<string>).includes(format)

/**
 * One reference to resolve: a `ReferenceInput.Query` (what is asked, where it came from, the title
 * its id's paper should have, why a broken entry cannot be asked) with, for an entry of a file, its
 * own fields and type as written: the writers keep what the record lacks.
 */
export type Reference = ReferenceInput.Query & {
  readonly fields?: Readonly<Record<string, string>>
  readonly type?: string
}

/** A .bib entry's fields and type, as a {@link Reference} carries them to the writers. */
const ownFields = (entry: ReferenceInput.Entry | undefined): Pick<Reference, "fields" | "type"> => ({
  ...(entry === undefined ? {} : { fields: entry.fields }),
  ...(entry?.type === undefined ? {} : { type: entry.type })
})

/**
 * Whether a text is BibTeX: its first line that is neither blank nor a `%` comment starts an entry.
 *
 * @since 1.0.0
 */
export const looksLikeBibtex = (text: string): boolean => /^(?:\s*(?:%[^\n]*)?\n)*\s*@\s*[A-Za-z]+\s*[{(]/.test(text)

/**
 * What a reference list holds, as `Verify.read` tells it by content (a file named `.bib` is BibTeX
 * whatever it starts with): its format and inputs, or why it cannot be read.
 *
 * @since 1.2.0
 */
export const readAs = (text: string, name: string): Result.Result<Verify.ReadResult, Verify.Unreadable> =>
  /\.bib$/i.test(name) || looksLikeBibtex(text)
    ? Result.succeed({ format: "bibtex", inputs: Verify.fromBibtex(text) })
    : Verify.read(text)

/** An entry read from RIS, CSL-JSON or a formatted reference, to resolve: its DOI, else its arXiv id, else its title. */
const referenceOf = (entry: ReferenceInput.Entry): Reference => {
  const { doi, eprint, title } = entry.fields
  const input = doi !== undefined ? `DOI:${doi}` : eprint !== undefined ? `ARXIV:${eprint}` : title ?? ""
  return {
    input,
    key: entry.key,
    ...(entry.line === undefined ? {} : { line: entry.line }),
    ...(title !== undefined && input !== title ? { title } : {}),
    ...(entry.problem === undefined ? {} : { problem: entry.problem })
  }
}

/**
 * The references of a file: its .bib entries (by the `.bib` extension or the content), its RIS
 * records, CSL-JSON items or formatted references (by the content), else one per line. Blank lines
 * and lines starting with `#` are skipped; a `#` later in a line is kept (titles such as "F# for …"
 * and URLs have one). None when the text cannot be read ({@link readAs} says why).
 *
 * @since 1.0.0
 */
export const parseReferences = (text: string, name: string): ReadonlyArray<Reference> => {
  const read = readAs(text, name)
  if (Result.isFailure(read)) return []
  switch (read.success.format) {
    case "bibtex": {
      // Both readers give the file's entries in order: an entry's fields are those of the one at its
      // place, when it has the same key and line (else none: never another entry's fields).
      const entries = read.success.inputs
      const own = (i: number, key: string, line: number) => {
        const entry = entries[i]
        return typeof entry !== "string" && entry !== undefined && "fields" in entry && entry.key === key &&
            entry.line === line
          ? entry
          : undefined
      }
      return Resolve.fromBibtex(text).map((entry, i) => ({
        input: entry.input,
        key: entry.key,
        line: entry.line,
        ...(entry.title === undefined ? {} : { title: entry.title }),
        ...(entry.problem === undefined ? {} : { problem: entry.problem }),
        ...ownFields(own(i, entry.key, entry.line))
      }))
    }
    case "lines": {
      // Each line as written: the record of what was resolved shows the user's own words.
      const out: Array<Reference> = []
      text.split(/\r\n|\r|\n/).forEach((raw, i) => {
        const line = raw.trim()
        if (line.length > 0 && !line.startsWith("#")) out.push({ input: line, line: i + 1 })
      })
      return out
    }
    default:
      return read.success.inputs.flatMap((input) =>
        typeof input !== "string" && "fields" in input ? [referenceOf(input)] : []
      )
  }
}

/**
 * The text of a reference list: FILE, or standard input for `-` or none (refused on a terminal,
 * where nothing is piped).
 *
 * @since 1.1.0
 */
export const readText = (file: Option.Option<string>) =>
  Effect.gen(function*() {
    const name = Option.getOrElse(file, () => "-")
    if (name === "-" && Option.isNone(file) && (yield* Stdin.isTerminal)) {
      return yield* Effect.fail(badInput("no references given: pass a FILE, or - and pipe them on standard input"))
    }
    const where = name === "-" ? "standard input" : name
    const bytes = name === "-"
      ? yield* Effect.mapError(Stdin.bytes, (error) => fileError(`cannot read ${where}`, error.cause ?? error))
      : yield* Effect.try({
        try: () => fs.readFileSync(name),
        catch: (cause) => fileError(`cannot read ${where}`, cause)
      })
    // UTF-16 (a Windows editor's .bib) and byte-order marks read; other bytes refused, saying what they look like.
    const text = Verify.decode(bytes)
    if (Result.isFailure(text)) return yield* Effect.fail(badInput(`cannot read ${where}: ${text.failure.message}`))
    return { name, text: text.success }
  })

/**
 * The failure of a text {@link readAs} cannot read (exit 2): where, and what it looks like.
 *
 * @since 1.2.0
 */
export const unreadable = (name: string, why: Verify.Unreadable) =>
  why.reason === "Empty"
    ? noReferences(name)
    : badInput(`cannot read ${name === "-" ? "standard input" : name}: ${why.message}`)

/**
 * The failure of a reference list without references (exit 2).
 *
 * @since 1.1.0
 */
export const noReferences = (name: string) =>
  badInput(
    `${/\.bib$/i.test(name) ? "no BibTeX entries" : "no references"} in ${name === "-" ? "standard input" : name}`
  )

const readInput = (file: Option.Option<string>) =>
  Effect.gen(function*() {
    const { name, text } = yield* readText(file)
    const read = readAs(text, name)
    if (Result.isFailure(read)) return yield* Effect.fail(unreadable(name, read.failure))
    const references = parseReferences(text, name)
    if (references.length === 0) return yield* Effect.fail(noReferences(name))
    return references
  })

/** Where a reference came from, for its stderr line. */
const where = (ref: Reference): string => {
  const line = ref.line === undefined ? "" : `line ${ref.line}`
  if (ref.key === undefined) return line
  const entry = ref.key === "" ? "an entry without a key" : `@${ref.key}`
  return line === "" ? entry : `${entry}, ${line}`
}

/** A reference as its stderr line shows it: one short line, whatever its length. */
const shown = (input: string): string => input.length === 0 ? "(empty)" : excerpt(input, 200)

/** The one stderr line of a reference that was not resolved: where it is, what it is, and why. */
export const unresolvedLine = (ref: Reference, result: Resolve.NotFound | Resolve.Mismatch): string => {
  if (result._tag === "Mismatch") {
    return `s2: not resolved (${where(ref)}): ${shown(ref.input)}: its title differs: ${result.message}; ` +
      `check the entry's id and title\n`
  }
  const why = ref.problem !== undefined
    ? ref.problem
    : result.notFound === "unknownId"
    ? "not known to Semantic Scholar"
    : result.notFound === "noTitleMatch" && result.nearest === undefined
    ? "no paper matches the title"
    : ref.input.length === 0 && ref.key !== undefined
    ? "the entry has no doi, eprint or title to resolve it by"
    : result.message
  return `s2: not resolved (${where(ref)}): ${shown(ref.input)}: ${why}\n`
}

const formatFlag = Flag.Literals("format", [...citableFormats, "json", "jsonl", "table", "csv"]).pipe(
  Flag.withDescription(
    "Output format: bibtex, csl-json or ris (written from each paper's fields, keys made unique), or records (default: pretty JSON on a terminal, JSON lines when piped)"
  ),
  Flag.optional
)

const file = Argument.String("file").pipe(
  Argument.withDescription(
    "References, one per line (DOI, arXiv id, URL, S2 id or title), or a .bib, RIS or CSL-JSON file or references pasted from a paper, told by content; - or none for standard input"
  ),
  Argument.optional
)

/** The fields to ask for: `--fields` checked as `s2 papers` checks it; `all` is the client's summary set. */
const fieldsOf = (o: { readonly fields: Option.Option<string> }, format: string) =>
  Effect.gen(function*() {
    if (isCitable(format)) {
      if (Option.isSome(o.fields)) {
        return yield* Effect.fail(
          badInput(`--fields does not apply to --format ${format}: its entries are written from the fields they need`)
        )
      }
      return Citable.fields
    }
    // Checked (and refused with the known names) as `s2 papers` checks it; `all` is the summary set.
    const checked = yield* OutputFlags.fields(o, Fields.paperList, resolveDefaults)
    if (checked === undefined) return undefined
    return Parse.splitList(Option.getOrElse(o.fields, () => resolveDefaults.join(","))).map(Fields.unchecked)
  })

/**
 * `s2 resolve [FILE|-]`.
 *
 * @since 1.0.0
 */
export const resolve = ClientCommand.make(
  "resolve",
  { file, fields: OutputFlags.fieldsFlag, format: formatFlag },
  "resolve",
  function*(o) {
    const printer = yield* Printer
    const references = yield* readInput(o.file)
    const format = Option.getOrElse(o.format, () => printer.outIsTTY ? "json" as const : "jsonl" as const)
    const fields = yield* fieldsOf(o, format)
    let unresolved = 0
    // An entry's id goes with its title, so that a paper with another title is told, not used.
    const inputs = references.map((r) => r.title === undefined ? r.input : { input: r.input, title: r.title })
    const found = Resolve.references(inputs, { fields }).pipe(
      Stream.zipWithIndex,
      Stream.mapEffect(([result, i]): Effect.Effect<ReadonlyArray<Resolved>> => {
        const ref = references[i]!
        if (result._tag === "Found") return Effect.succeed([{ ref, result }])
        unresolved++
        return Effect.as(printer.err(unresolvedLine(ref, result)), [])
      }),
      Stream.flattenIterable
    )
    if (isCitable(format)) yield* printCitable(format, found, references)
    else {
      yield* Output.stream(
        { format: Option.some(format), max: Option.none() },
        Stream.map(found, ({ ref, result }) => record(ref, result))
      )
    }
    if (unresolved > 0) {
      return yield* Effect.fail(
        new CommandError({
          message: `${unresolved} of ${references.length} references not resolved (listed above)`,
          code: ExitCode.notFound
        })
      )
    }
  }
).pipe(Command.withDescription(
  "Resolve a reference list (DOIs, arXiv ids, titles, one per line, or a .bib file) to papers or BibTeX"
))

/** A record of `--format jsonl|csv|table|json`: the input (and .bib key), how it was found, and the paper as the API sent it. */
const record = (ref: Reference, result: Resolve.Found): Record<string, unknown> => ({
  input: ref.input,
  ...(ref.key === undefined ? {} : { key: ref.key }),
  via: result.via,
  // A title match's score is the paper's own `matchScore`, as the API sent it.
  paper: Output.toJson(result.paper)
})

interface Resolved {
  readonly ref: Reference
  readonly result: Resolve.Found
}

/** How each citable format is printed: before the first entry, an entry, between entries, after the last. */
const printed: Readonly<
  Record<CitableFormat, {
    readonly writer: (options: Citable.WriterOptions) => Citable.Writer<unknown>
    readonly show: (entry: unknown) => string
    readonly open: string
    readonly between: string
    readonly close: (count: number) => string
  }>
> = {
  bibtex: { writer: Citable.bibtexWriter, show: String, open: "", between: "\n", close: () => "" },
  ris: { writer: Citable.risWriter, show: String, open: "", between: "\r\n", close: () => "" },
  // One JSON array, written as the papers come: an item per element, indented as JSON.stringify would.
  "csl-json": {
    writer: Citable.cslJsonWriter,
    show: (item) => JSON.stringify(item, null, 2).replace(/^/gm, "  "),
    open: "[\n",
    between: ",\n",
    close: (count) => count === 0 ? "]\n" : "\n]\n"
  }
}

/**
 * Prints papers in a citable format as they come (`s2 resolve`, `s2 verify`): BibTeX entries or
 * RIS records one after another, CSL-JSON as one array; keys unique across the run.
 *
 * @since 1.1.0
 */
export const printItems = <E, R>(
  format: CitableFormat,
  items: Stream.Stream<Citable.Item, E, R>,
  keys: Iterable<string> = []
) =>
  Effect.gen(function*() {
    const printer = yield* Printer
    const how = printed[format]
    // Every key the user wrote, those to come too: none is given to another entry.
    const writer = how.writer({ keys })
    let count = 0
    yield* printer.out(how.open)
    yield* Stream.runForEach(
      items,
      (item) => printer.out((count++ === 0 ? "" : how.between) + how.show(writer.write(item)))
    )
    yield* printer.out(how.close(count))
  })

const printCitable = <E, R>(
  format: CitableFormat,
  found: Stream.Stream<Resolved, E, R>,
  references: ReadonlyArray<Reference>
) =>
  Effect.suspend(() => {
    const seen = new Set<string>()
    // A line list naming one paper twice gets it once; a .bib file's entries each keep their key.
    const once = ({ ref, result }: Resolved): boolean => {
      if (ref.key !== undefined) return true
      if (seen.has(result.paper.paperId)) return false
      seen.add(result.paper.paperId)
      return true
    }
    return printItems(
      format,
      Stream.map(
        Stream.filter(found, once),
        ({ ref, result }): Citable.Item => ({ paper: result.paper, key: ref.key, extra: ref.fields, type: ref.type })
      ),
      references.flatMap((r) => r.key === undefined ? [] : [r.key])
    )
  })
