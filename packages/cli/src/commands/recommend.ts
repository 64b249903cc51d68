/**
 * `s2 recommend <id>` and `s2 recommend --positive … --negative …`.
 *
 * @since 1.0.0
 */
import { Fields, SemanticScholar } from "@s2-effect/core"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ClientCommand from "../ClientCommand.js"
import { badInput } from "../ExitCode.js"
import { listDefaults, listed } from "../flags/records.js"
import * as Ids from "../Ids.js"
import * as Output from "../Output.js"
import * as OutputFlags from "../OutputFlags.js"

/**
 * `s2 recommend`.
 *
 * @since 1.0.0
 */
export const recommend = ClientCommand.make(
  "recommend",
  {
    id: Argument.String("paper-id").pipe(
      Argument.withDescription("The paper to find papers like (or use --positive / --negative)"),
      Argument.map(Ids.paperId),
      Argument.optional
    ),
    positive: Flag.String("positive").pipe(
      Flag.withMetavar("paper-id"),
      Flag.withDescription("A paper to find papers like (repeatable)"),
      Flag.map(Ids.paperId),
      Flag.atLeast(0),
      // May be left out: optional in the usage line.
      Flag.withDefault([])
    ),
    negative: Flag.String("negative").pipe(
      Flag.withMetavar("paper-id"),
      Flag.withDescription("A paper to find papers unlike (repeatable)"),
      Flag.map(Ids.paperId),
      Flag.atLeast(0),
      Flag.withDefault([])
    ),
    pool: Flag.Literals("pool", ["recent", "all-cs"]).pipe(
      Flag.withDescription("Recommend from recent papers (default) or all of computer science (one paper only)"),
      Flag.optional
    ),
    ...listed
  },
  "recommendations",
  function*(o) {
    const s2 = yield* SemanticScholar
    const fields = yield* OutputFlags.fields(o, Fields.paperList, listDefaults)
    const max = yield* OutputFlags.max(o)
    const limit = max === undefined ? undefined : Math.min(max, 500)
    if (Option.isSome(o.id)) {
      if (o.positive.length > 0 || o.negative.length > 0) {
        return yield* Effect.fail(badInput("give either a paper id or --positive/--negative lists, not both"))
      }
      return yield* Output.many(
        o,
        yield* s2.getRecommendedPapers(o.id.value, { fields, limit, poolFrom: Option.getOrUndefined(o.pool) })
      )
    }
    if (o.positive.length === 0) {
      return yield* Effect.fail(
        badInput("give a paper id, or at least one --positive paper (the API needs a positive example)")
      )
    }
    if (Option.isSome(o.pool)) return yield* Effect.fail(badInput("--pool applies to one paper id only"))
    return yield* Output.many(o, yield* s2.getRecommendedPapersFromLists(o.positive, o.negative, { fields, limit }))
  }
).pipe(Command.withDescription("Papers like a paper, or like --positive papers and unlike --negative ones"))
