/**
 * The pieces the answer schemas are made of (`Answers.ts`) and the handlers bound their strings
 * with: the longest string of each kind, bounded strings, counts, a page's fields, the budgets an
 * answer was cut at.
 */
import * as Schema from "effect/Schema"

/** The longest string of each kind an answer carries (UTF-16 units; longer ones end in "…"). */
export const bounds = {
  id: 200,
  title: 300,
  venue: 120,
  name: 100,
  url: 500,
  abstract: 1500,
  tldr: 500,
  journal: 200,
  snippet: 1000,
  line: 500,
  message: 300
} as const

export const Bounded = (max: number) => Schema.String.check(Schema.isMaxLength(max))
export const optional: typeof Schema.optionalKey = Schema.optionalKey
export const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

export const paperSummaryFields = {
  paperId: Bounded(bounds.id),
  title: Bounded(bounds.title),
  year: optional(Schema.Int),
  venue: optional(Bounded(bounds.venue)),
  authors: Schema.Array(Bounded(bounds.name)).check(Schema.isMaxLength(5)).annotate({
    description: "The first five authors' names"
  }),
  authorCount: Count,
  citationCount: optional(Count),
  doi: optional(Bounded(bounds.id)),
  arxiv: optional(Bounded(bounds.id)),
  openAccessPdf: optional(Bounded(bounds.url)),
  url: optional(Bounded(bounds.url))
}

/**
 * Present when an answer was cut to fit the answer budget (its text within so many characters, cut
 * at a record boundary): that budget, in characters. The answer says how to continue (`next`).
 */
export const AnswerBudget = optional(
  Count.annotate({ description: "The answer budget the answer was cut at, in characters" })
)

/**
 * A page of a list: its records, where it starts, the offset of the next page when there is one,
 * and the answer budget when it cut the page (then `next` is the first record not shown).
 */
export const page = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct({ ...fields, offset: Count, next: optional(Count), answerBudgetChars: AnswerBudget })

/** A list paged by the tool (recommendations, passages, related papers): `offset` and `next` when not the first page or cut. */
export const pagedHere = { offset: optional(Count), next: optional(Count), answerBudgetChars: AnswerBudget }

/** Present when a call stopped at its time budget: the budget, in seconds. */
export const TimeBudget = optional(Count.annotate({ description: "The time budget the call stopped at, in seconds" }))
