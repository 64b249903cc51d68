/**
 * `s2 recommend <id>` and `s2 recommend --positive … --negative …`.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Fields, SemanticScholar } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Common from "../Common.js"
import { badInput } from "../ExitCode.js"
import * as Output from "../render/Output.js"
import { listDefaults } from "./papers.js"

/**
 * `s2 recommend`.
 *
 * @since 0.1.0
 */
export const recommend = Command.make(
  "recommend",
  {
    ...Common.options,
    id: Args.text({ name: "paper-id" }).pipe(
      Args.withDescription("The paper to find papers like (or use --positive / --negative)"),
      Args.optional
    ),
    positive: Options.text("positive").pipe(
      Options.withDescription("A paper to find papers like (repeatable)"),
      Options.repeated
    ),
    negative: Options.text("negative").pipe(
      Options.withDescription("A paper to find papers unlike (repeatable)"),
      Options.repeated
    ),
    pool: Options.choice("pool", ["recent", "all-cs"]).pipe(
      Options.withDescription("Recommend from recent papers (default) or all of computer science (one paper only)"),
      Options.optional
    )
  },
  (o) =>
    Common.run(
      o,
      "recommendations",
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const fields = yield* Common.fields(o, Fields.paperList, listDefaults)
        const max = yield* Common.max(o)
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
      })
    )
).pipe(Command.withDescription("Papers like a paper, or like --positive papers and unlike --negative ones"))
