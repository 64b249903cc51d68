/**
 * Printing command results in the chosen format: one record, a list, or a stream cut at `--max`.
 * Records are printed as they came over the wire (`raw`), unknown fields included.
 *
 * @since 1.0.0
 */
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import * as Stream from "effect/Stream"
import type { CommandError } from "../ExitCode.js"
import type { Listed, Shown } from "../OutputFlags.js"
import * as OutputFlags from "../OutputFlags.js"
import { Printer } from "../Printer.js"
import { makeWriter } from "./Format.js"

/**
 * The JSON of a record: its wire form when it has one.
 *
 * @since 1.0.0
 */
export const toJson = (record: unknown): unknown =>
  Predicate.hasProperty(record, "raw") && Predicate.isObject(record.raw) ? record.raw : record

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
