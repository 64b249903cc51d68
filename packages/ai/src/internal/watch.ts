/**
 * The watch tools: `check_watches` (what is new, compact, remembered as shown) and `add_watch`,
 * over a `WatchStore` that keeps the state (the `s2` CLI's state file in `s2 mcp`).
 */
import type { S2Error } from "@s2-effect/core"
import { PaperId, SemanticScholar } from "@s2-effect/core"
import { Watch } from "@s2-effect/jobs"
import * as Prompt from "effect/ai/Prompt"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { PaperSummary } from "../Answers.js"
import { ToolFailure } from "../ToolFailure.js"
import { type Update, WatchStore } from "../WatchStore.js"
import { AnswerBudget, Bounded, bounds, optional } from "./answerParts.js"
import { failure, toolFailure } from "./failure.js"
import { fit, MaxAnswerChars, type Pager, StructuredCall } from "./paging.js"
import { paperSummary, summaryFields } from "./summaries.js"
import * as text from "./text.js"

/** A store in memory (for agents and tests): starts from `initial`. */
export const memory = (initial: Watch.State = Watch.empty): Layer.Layer<WatchStore> =>
  Layer.effect(
    WatchStore,
    Effect.map(Ref.make(initial), (ref) =>
      WatchStore.of({
        update: (body) =>
          Effect.flatMap(Ref.get(ref), body).pipe(
            Effect.tap(({ state }) => (state === undefined ? Effect.void : Ref.set(ref, state))),
            Effect.map(({ value }) => value)
          )
      }))
  )

const Name = Watch.Name.annotate({ description: "The watch's name (letters, digits, . _ -)" })

export const CheckAnswer = Schema.Struct({
  watches: Schema.Array(Schema.Struct({
    name: Bounded(64),
    new: Schema.Array(PaperSummary),
    /** New papers not shown (over the limit): the next call shows them. */
    more: optional(Schema.Int),
    failed: optional(Bounded(bounds.message))
  })),
  /** Cut to fit the answer budget: the papers not shown stay new, for the next call. */
  answerBudgetChars: AnswerBudget
})

export const AddAnswer = Schema.Struct({ name: Bounded(64), watches: Schema.Int })

const annotated = <T extends Tool.Any>(tool: T, title: string): T =>
  tool.annotate(Tool.Title, title)
    .annotate(Tool.Readonly, false)
    .annotate(Tool.Destructive, false)
    .annotate(Tool.Idempotent, false)
    .annotate(Tool.OpenWorld, true) as T

const render = (answer: typeof CheckAnswer.Type): string => {
  const lines: Array<string> = []
  for (const watch of answer.watches) {
    if (watch.failed !== undefined) lines.push(`${watch.name}: failed: ${watch.failed}`)
    else if (watch.new.length === 0) lines.push(`${watch.name}: nothing new`)
    else {
      lines.push(`${watch.name}: ${watch.new.length} new${watch.more === undefined ? "" : ` (${watch.more} more)`}`)
      for (const paper of watch.new) lines.push(`- ${text.paperLine(paper)}`)
    }
  }
  if (answer.answerBudgetChars !== undefined) {
    lines.push(`(${text.budgetCut(answer.answerBudgetChars)}: the next call shows the papers not shown)`)
  }
  return lines.length === 0 ? "No watches." : lines.join("\n")
}

/** The first `k` papers shown, watch by watch; the others counted in their watch's `more`. */
const pager: Pager<typeof CheckAnswer.Type, unknown> = {
  records: (answer) => answer.watches.reduce((n, watch) => n + watch.new.length, 0),
  take: (answer, k, chars) => {
    let left = k
    const watches = answer.watches.map((watch) => {
      const shown = watch.new.slice(0, left)
      left -= shown.length
      const more = (watch.more ?? 0) + watch.new.length - shown.length
      const { more: _, ...rest } = watch
      return { ...rest, new: shown, ...(more > 0 ? { more } : {}) }
    })
    return { watches, answerBudgetChars: chars }
  },
  render
}

export const CheckWatches = annotated(
  Tool.make("check_watches", {
    description: "New papers for watches since their last check (each shown once).",
    parameters: Schema.Struct({
      names: optional(
        Schema.Array(Name).check(Schema.isBetweenLength(1, 50)).annotate({
          description: "Watches to check (default: all)"
        })
      ),
      limit: optional(
        Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 })).annotate({
          description: "Most papers shown (1 to 100; default 30)"
        })
      )
    }),
    success: CheckAnswer,
    failure: ToolFailure,
    failureMode: "return",
    toModelOutput: (answer) => [Prompt.textPart({ text: render(answer) })]
  }),
  "Check watches"
)

export const AddWatch = annotated(
  Tool.make("add_watch", {
    description: "Watch for new papers citing a paper, matching a bulk query, or by an author.",
    parameters: Schema.Struct({
      name: Name,
      kind: Schema.Literals(["citations", "query", "author"]),
      target: Schema.String.check(Schema.isBetweenLength(1, 1000)).annotate({
        description: "Paper id, bulk query, or author id"
      })
    }),
    success: AddAnswer,
    failure: ToolFailure,
    failureMode: "return",
    toModelOutput: (answer) => [
      Prompt.textPart({ text: `Added watch ${answer.name} (${answer.watches} watches in all).` })
    ]
  }),
  "Add a watch"
)

export const toolkit = Toolkit.make(CheckWatches, AddWatch)

type CheckParams = Tool.Parameters<typeof CheckWatches>
type AddParams = Tool.Parameters<typeof AddWatch>

/** Checks, shows at most `limit` papers and what fits the answer budget, and remembers only those as shown. */
const check = (
  { limit = 30, names }: CheckParams,
  s2: SemanticScholar["Service"],
  budget: { readonly chars: number; readonly structured: boolean }
): Update<typeof CheckAnswer.Type> =>
(state) =>
  Effect.gen(function*() {
    const missing = (names ?? []).filter((name) => !state.watches.some((entry) => entry.watch.name === name))
    if (missing.length > 0) return yield* Effect.fail(failure("notFound", `no watch named ${missing.join(", ")}`))
    const result = yield* Effect.provideService(
      Watch.check(state, { names, fields: summaryFields }),
      SemanticScholar,
      s2
    )
    const shown = result.found.slice(0, limit)
    const checked = state.watches.filter((entry) => names === undefined || names.includes(entry.watch.name))
    const watches = checked.map(({ watch }) => {
      const failed = result.failed.find((f) => f.watch === watch.name)
      if (failed !== undefined) return { name: watch.name, new: [], failed: toolFailure(failed.error).message }
      const all = result.found.filter((f) => f.watch === watch.name)
      const listed = shown.filter((f) => f.watch === watch.name)
      return {
        name: watch.name,
        new: listed.map(({ paper }) => paperSummary(paper)),
        ...(all.length > listed.length ? { more: all.length - listed.length } : {})
      }
    })
    const value = fit(pager, { watches }, undefined, budget.chars, budget.structured)
    // Only the papers the answer holds are remembered as shown: the others stay new.
    const left = new Map(value.watches.map((watch) => [watch.name, watch.new.length]))
    const kept = shown.filter((found) => {
      const n = left.get(found.watch) ?? 0
      left.set(found.watch, n - 1)
      return n > 0
    })
    return { state: Watch.keepShown(result, kept), value }
  })

const add = ({ kind, name, target }: AddParams): Update<typeof AddAnswer.Type> => (state) =>
  Effect.gen(function*() {
    if (state.watches.some((entry) => entry.watch.name === name)) {
      return yield* Effect.fail(failure("badParameter", `a watch named ${name} exists already`))
    }
    if (kind === "author" && !/^\d{1,20}$/.test(target)) {
      return yield* Effect.fail(failure("badParameter", "an author id is a number"))
    }
    const watch: Watch.Watch = kind === "citations"
      // What can never be an id is refused now, not at every check after.
      ? { _tag: "Citations", name, paperId: yield* PaperId.validatePaperId(PaperId.spelled(target), "target") }
      : kind === "author"
      ? { _tag: "Author", name, authorId: target }
      : { _tag: "Query", name, query: target }
    const next = Watch.add(state, watch)
    return { state: next, value: { name, watches: next.watches.length } }
  })

const run = <A>(effect: Effect.Effect<A, S2Error | ToolFailure>): Effect.Effect<A, ToolFailure> =>
  Effect.mapError(effect, (error) => (error._tag === "ToolFailure" ? error : toolFailure(error)))

export const handlers = toolkit.toLayer(Effect.gen(function*() {
  const store = yield* WatchStore
  const s2 = yield* SemanticScholar
  return toolkit.of({
    check_watches: (params) =>
      Effect.flatMap(
        Effect.all({ chars: Effect.service(MaxAnswerChars), structured: Effect.service(StructuredCall) }),
        (budget) => run(store.update(check(params, s2, budget)))
      ),
    add_watch: (params) => run(store.update(add(params)))
  })
}))
