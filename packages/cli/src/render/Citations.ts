/**
 * The citable formats `s2 resolve`, `s2 verify`, `s2 related` and `s2 watch` print (BibTeX,
 * CSL-JSON, RIS), written by the jobs' `Citable` writers from the papers' fields.
 *
 * @since 1.3.0
 */
import { Citable } from "@s2-effect/jobs"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

/** The formats written by `Citable`, from the papers' fields. @since 1.1.0 */
export const citableFormats = ["bibtex", "csl-json", "ris"] as const

/** @since 1.1.0 */
export type CitableFormat = typeof citableFormats[number]

/** @since 1.1.0 */
export const isCitable = (format: string): format is CitableFormat =>
  (citableFormats as ReadonlyArray<string>).includes(format)

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
 * RIS records one after another, CSL-JSON as one array; keys unique across the run. Written through
 * `out` (the printer's standard output: see Output.ts `citable`); through `err`, a line for each
 * CSL-JSON or RIS entry that does not write all of the user's fields (`Citable.notes`: BibTeX says
 * it in `%` lines of its own).
 *
 * @since 1.1.0
 */
export const printItems = <E, R>(
  out: (text: string) => Effect.Effect<void>,
  format: CitableFormat,
  items: Stream.Stream<Citable.Item, E, R>,
  keys: Iterable<string> = [],
  err: (text: string) => Effect.Effect<void> = () => Effect.void
) =>
  Effect.gen(function*() {
    const how = printed[format]
    // Every key the user wrote, those to come too: none is given to another entry.
    const writer = how.writer({ keys })
    let count = 0
    yield* out(how.open)
    yield* Stream.runForEach(
      items,
      (item) => {
        const said = format === "bibtex" || item.extra === undefined ? [] : Citable.notes(item, format)
        const where = item.key === undefined ? item.paper.paperId : `@${item.key}`
        return Effect.andThen(
          Effect.forEach(said, (line) => err(`s2: ${where}: ${line}\n`), { discard: true }),
          out((count++ === 0 ? "" : how.between) + how.show(writer.write(item)))
        )
      }
    )
    yield* out(how.close(count))
  })
