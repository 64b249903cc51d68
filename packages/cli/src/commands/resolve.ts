/**
 * `s2 resolve [FILE|-]`: a reference list (one reference per line, or a .bib file) into papers,
 * through `Resolve.references` (one batch request per 500 ids, one title match per title), printed
 * as BibTeX, CSL-JSON or RIS written from the papers' fields (`Citable`), or as records. Unresolved
 * references are listed on stderr, and make the exit code 3.
 *
 * @since 1.0.0
 */
import { excerpt, Fields } from "@s2-effect/core"
import { Citable, Resolve } from "@s2-effect/jobs"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as ClientCommand from "../ClientCommand.js"
import { badInput, CommandError, ExitCode } from "../ExitCode.js"
import * as Output from "../Output.js"
import * as OutputFlags from "../OutputFlags.js"
import * as Parse from "../Parse.js"
import { Printer } from "../Printer.js"
import { noReferences, parseReferences, readAs, readText, type Reference, unreadable } from "../References.js"
import { type CitableFormat, citableFormats, isCitable } from "../render/Citations.js"

/** Fields of each record when `--fields` is omitted (jsonl, csv, table). @since 1.0.0 */
export const resolveDefaults = ["title", "year", "venue", "authors", "externalIds"]

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
    return Output.citable(
      format,
      Stream.map(
        Stream.filter(found, once),
        ({ ref, result }): Citable.Item => ({ paper: result.paper, key: ref.key, extra: ref.fields, type: ref.type })
      ),
      references.flatMap((r) => r.key === undefined ? [] : [r.key])
    )
  })
