/**
 * Printing command results in the chosen format: one record, a list, or a stream cut at `--max`.
 * Records are printed as they came over the wire (`raw`), unknown fields included. What commands
 * print goes through here: the writers of render/ take the `Printer` and the flags from this module.
 *
 * @since 1.0.0
 */
import { Files } from "@s2-effect/core"
import type { Citable } from "@s2-effect/jobs"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { CommandError } from "./ExitCode.js"
import { fileError } from "./ExitCode.js"
import type { Listed, Shown } from "./OutputFlags.js"
import * as OutputFlags from "./OutputFlags.js"
import { Printer } from "./Printer.js"
import { type CitableFormat, printItems } from "./render/Citations.js"
import { makeWriter } from "./render/Format.js"
import { toJson } from "./render/Json.js"
import * as Symlinks from "./Symlinks.js"

export {
  /**
   * The JSON of a record: its wire form when it has one.
   *
   * @since 1.0.0
   */
  toJson
} from "./render/Json.js"

/**
 * Prints one record (an object in JSON, a field/value list in a table).
 *
 * @since 1.0.0
 */
export const one = (shown: Shown, record: unknown): Effect.Effect<void, CommandError, Printer> =>
  Effect.gen(function*() {
    const printer = yield* Printer
    const writer = makeWriter(yield* OutputFlags.format(shown), printer, true)
    yield* writer.write(toJson(record))
    yield* writer.end
  })

/**
 * Prints a stream of records, stopping after `--max` of them.
 *
 * @since 1.0.0
 */
export const stream = <E, R>(
  listed: Listed,
  records: Stream.Stream<unknown, E, R>,
  column?: string
): Effect.Effect<number, E | CommandError, R | Printer> =>
  Effect.gen(function*() {
    const printer = yield* Printer
    const max = yield* OutputFlags.max(listed)
    const writer = makeWriter(yield* OutputFlags.format(listed), printer, false, column)
    let count = 0
    yield* (max === undefined ? records : Stream.take(records, max)).pipe(
      Stream.runForEach((record) => {
        count++
        return writer.write(toJson(record))
      })
    )
    yield* writer.end
    return count
  })

/**
 * Prints a list of records, cut at `--max`. `column` names the column of plain values in a table.
 *
 * @since 1.0.0
 */
export const many = (
  listed: Listed,
  records: ReadonlyArray<unknown>,
  column?: string
): Effect.Effect<number, CommandError, Printer> => stream(listed, Stream.fromIterable(records), column)

/**
 * The page size to ask for: no more than `--max` needs, within the endpoint's limit.
 *
 * @since 1.0.0
 */
export const pageSize = (listed: Listed, endpointMax: number, fallback = 100): number | undefined =>
  listed.max._tag === "Some" && listed.max.value >= 1 ? Math.min(listed.max.value, endpointMax) : fallback

/**
 * Prints papers in a citable format as they come (render/Citations.ts `printItems` on standard
 * output): `s2 resolve`, `s2 verify`, `s2 related`, `s2 watch`.
 *
 * @since 1.3.0
 */
export const citable = <E, R>(
  format: CitableFormat,
  items: Stream.Stream<Citable.Item, E, R>,
  keys: Iterable<string> = []
): Effect.Effect<void, E, R | Printer> =>
  Printer.use((printer) => printItems(printer.out, format, items, keys, printer.err))

/**
 * Writes `text` to `--out` (never through a symbolic link) or standard output.
 *
 * @since 1.3.0
 */
export const emit = (out: Option.Option<string>, text: string) =>
  Effect.gen(function*() {
    if (Option.isNone(out)) return yield* (yield* Printer).out(text)
    const link = yield* Symlinks.linkAt(out.value)
    if (Option.isSome(link)) {
      return yield* Effect.fail(Symlinks.refuse("--out", link.value, "give another file, or remove the link"))
    }
    yield* Files.writeAtomic(out.value, text).pipe(
      Effect.mapError((cause) => fileError(`cannot write ${out.value}`, cause))
    )
  })
