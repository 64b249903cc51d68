/**
 * Batch lookups for `s2 papers` and `s2 authors`.
 *
 * @since 1.0.0
 */
import type { BatchResult } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { CommandError, ExitCode } from "./ExitCode.js"
import * as Ids from "./Ids.js"
import * as Output from "./Output.js"
import type { Listed } from "./OutputFlags.js"
import { Printer } from "./Printer.js"

/**
 * Looks ids up one batch call at a time, printing what is found as it comes and listing the ids
 * not found on stderr. The command chunks rather than handing every id to one client call so that
 * output streams and memory stays flat for any number of ids.
 *
 * @since 1.0.0
 */
export const lookUp = <A, E, R>(
  listed: Listed,
  ids: ReadonlyArray<string>,
  size: number,
  lookup: (chunk: ReadonlyArray<string>) => Effect.Effect<BatchResult<A>, E, R>
) =>
  Effect.gen(function*() {
    const printer = yield* Printer
    const missing: Array<string> = []
    yield* Output.stream(
      listed,
      Stream.fromIterable(Ids.chunks(ids, size)).pipe(
        Stream.mapEffect(lookup),
        // One push per id: a server's list spread into one call can overflow the stack.
        Stream.tap((result) =>
          Effect.sync(() => {
            for (const id of result.notFound) missing.push(id)
          })
        ),
        Stream.flatMap((result) => Stream.fromIterable(result.found))
      )
    )
    const listedMissing = `${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", …" : ""}`
    // None found at all prints nothing on stdout: that is a not-found (exit 3), not a success.
    if (missing.length > 0 && missing.length === ids.length) {
      return yield* new CommandError({
        message: `none of the ${ids.length} ids was found: ${listedMissing}`,
        code: ExitCode.notFound
      })
    }
    if (missing.length > 0) {
      yield* printer.err(`s2: ${missing.length} of ${ids.length} ids not found: ${listedMissing}\n`)
    }
  })
