/**
 * Ids from the command line and from `--ids-file` (one per line; blank lines and `#` comments
 * skipped; `-` reads standard input).
 *
 * @since 1.0.0
 */
import { PaperId } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Stdio from "effect/Stdio"
import * as fs from "node:fs"
import type { CommandError } from "./ExitCode.js"
import { badInput, fileError } from "./ExitCode.js"
import * as Stdin from "./Stdin.js"

/**
 * A paper id as the API spells it, from any form core's `PaperId.recognise` reads (`s2 resolve` and
 * the MCP tools take the same): a DOI, arXiv or semanticscholar.org link, a bare DOI, `doi:…`, a
 * prefix in any case. Anything else is kept as typed, so that the client's own check refuses it
 * with its message (what is allowed).
 *
 * @since 1.0.0
 */
export const paperId: (input: string) => string = PaperId.spelled

/**
 * Parses the text of an ids file.
 *
 * @since 1.0.0
 */
export const parseIdsFile = (text: string): Array<string> =>
  text.split(/\r?\n/).map((line) => line.replace(/#.*$/, "").trim()).filter((line) => line.length > 0)

/**
 * The ids given as arguments followed by those of `--ids-file`; at least one.
 *
 * @since 1.0.0
 */
export const gather = (
  args: ReadonlyArray<string>,
  idsFile: Option.Option<string>
): Effect.Effect<ReadonlyArray<string>, CommandError, Stdio.Stdio> =>
  Effect.gen(function*() {
    const fromFile = Option.isNone(idsFile)
      ? []
      : parseIdsFile(
        idsFile.value === "-"
          ? new TextDecoder().decode(
            yield* Effect.mapError(Stdin.bytes, (error) => fileError("cannot read --ids-file -", error.cause ?? error))
          )
          : yield* Effect.try({
            try: () => fs.readFileSync(idsFile.value, "utf8"),
            catch: (cause) => fileError(`cannot read --ids-file ${idsFile.value}`, cause)
          })
      )
    const ids = [...args, ...fromFile]
    return ids.length === 0
      ? yield* Effect.fail(badInput("no ids given: pass ids as arguments or --ids-file FILE"))
      : ids
  })

/**
 * Splits a list into chunks of at most `size`.
 *
 * @since 1.0.0
 */
export const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
