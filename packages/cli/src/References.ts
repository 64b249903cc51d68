/**
 * Reference lists as `s2 resolve` and `s2 verify` read them: FILE or standard input, decoded, told
 * apart by content (BibTeX, RIS, CSL-JSON, formatted references, one per line), and the failures of
 * a list that cannot be read or holds none.
 *
 * @since 1.3.0
 */
import { type ReferenceInput, Resolve, Verify } from "@s2-effect/jobs"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as fs from "node:fs"
import { badInput, fileError } from "./ExitCode.js"
import * as Stdin from "./Stdin.js"

/**
 * One reference to resolve: a `ReferenceInput.Query` (what is asked, where it came from, the title
 * its id's paper should have, why a broken entry cannot be asked) with, for an entry of a file, its
 * own fields and type as written: the writers keep what the record lacks.
 *
 * @since 1.0.0
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
