/**
 * Watches: what is new since the last look. A watch is the papers citing a paper, the papers of a
 * bulk search, or the papers of an author; a check lists each watch's papers dated from its last
 * check minus its window (one request when nothing is new: a date filter keeps the list to one
 * page), keeps those whose id was never shown, fetches their details in shared batches, and returns
 * them with the state to store.
 *
 * "New" is an id never shown, whatever the paper's date: Semantic Scholar adds papers late, and a
 * paper dated last month that appears today is new today. The state remembers the ids shown whose
 * date is within the window of the last check; older ones are forgotten, since the date filter
 * never lists them again. So a paper that reaches Semantic Scholar more than the window (default
 * {@link defaultWindowDays} days) after its publication date is not reported.
 *
 * `check` is platform-free: it takes the state value and returns the next one; where it is stored
 * is the caller's (the `s2` CLI writes it atomically under a lock).
 *
 * @since 1.1.0
 */
import type { Fields, S2Error, SemanticScholar } from "@s2-effect/core"
import type { Paper } from "@s2-effect/core"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as internal from "./internal/watch.js"

/**
 * The window when a watch names none: papers dated up to this many days before the last check are
 * listed again, so that late arrivals among them are caught.
 *
 * @category constants
 * @since 1.1.0
 */
export const defaultWindowDays = 90

/**
 * How many found papers the state keeps in its `recent` list (for feeds) unless told otherwise.
 *
 * @category constants
 * @since 1.1.0
 */
export const defaultRecent = 100

/**
 * A watch's name: letters, digits, `.`, `_` and `-`, 1 to 64 of them (it goes in feed entry ids).
 *
 * @category models
 * @since 1.1.0
 */
export const Name = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9._-]{1,64}$/))

/**
 * A day, `YYYY-MM-DD`.
 *
 * @category models
 * @since 1.1.0
 */
export const Day = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/))

const common = {
  name: Name,
  /** Days before the last check whose papers are listed again (default {@link defaultWindowDays}). */
  windowDays: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3650 }))),
  /**
   * Papers dated before this day are never listed: the first check starts there (default: the
   * window before the first check), and later checks' windows stop there.
   */
  since: Schema.optional(Day)
}

/**
 * The search filters a query watch keeps (a bulk search's, without the date, which the check sets).
 *
 * @category models
 * @since 1.1.0
 */
export const QueryFilters = Schema.Struct({
  year: Schema.optional(Schema.String),
  publicationTypes: Schema.optional(Schema.Array(Schema.String)),
  openAccessPdf: Schema.optional(Schema.Boolean),
  venue: Schema.optional(Schema.Array(Schema.String)),
  fieldsOfStudy: Schema.optional(Schema.Array(Schema.String)),
  minCitationCount: Schema.optional(Schema.Int)
})

/**
 * @category models
 * @since 1.1.0
 */
export type QueryFilters = typeof QueryFilters.Type

/**
 * What a watch follows: papers citing `paperId`, papers of the bulk search `query`, or papers of
 * `authorId`.
 *
 * @category models
 * @since 1.1.0
 */
export const Watch = Schema.Union([
  Schema.TaggedStruct("Citations", { ...common, paperId: Schema.String }),
  Schema.TaggedStruct("Query", { ...common, query: Schema.String, filters: Schema.optional(QueryFilters) }),
  Schema.TaggedStruct("Author", { ...common, authorId: Schema.String })
])

/**
 * @category models
 * @since 1.1.0
 */
export type Watch = typeof Watch.Type

/**
 * A watch and what it has shown: when it was last checked and the ids shown, each with the day
 * it is kept until the window passes it (`[paperId, day]`).
 *
 * @category models
 * @since 1.1.0
 */
export const Entry = Schema.Struct({
  watch: Watch,
  /** ISO 8601 instant of the last successful check. */
  checkedAt: Schema.optional(Schema.String),
  seen: Schema.Array(Schema.Tuple([Schema.String, Day]))
})

/**
 * @category models
 * @since 1.1.0
 */
export type Entry = typeof Entry.Type

/**
 * A paper found new, as kept for feeds: enough to write an entry without asking again.
 *
 * @category models
 * @since 1.1.0
 */
export const Recent = Schema.Struct({
  watch: Name,
  paperId: Schema.String,
  title: Schema.NullOr(Schema.String),
  authors: Schema.Array(Schema.String),
  publicationDate: Schema.NullOr(Schema.String),
  year: Schema.NullOr(Schema.Int),
  venue: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String),
  /** ISO 8601 instant of the check that found it. */
  foundAt: Schema.String
})

/**
 * @category models
 * @since 1.1.0
 */
export type Recent = typeof Recent.Type

/**
 * The state of a set of watches, versioned: the watches, what each has shown, and the papers
 * found last (newest first, at most {@link defaultRecent} unless told otherwise).
 *
 * @category models
 * @since 1.1.0
 */
export const State = Schema.Struct({
  version: Schema.Literal(1),
  watches: Schema.Array(Entry),
  recent: Schema.Array(Recent)
})

/**
 * @category models
 * @since 1.1.0
 */
export type State = typeof State.Type

/**
 * The state of no watches.
 *
 * @category constructors
 * @since 1.1.0
 */
export const empty: State = { version: 1, watches: [], recent: [] }

/**
 * A paper new to a watch, with the details asked for.
 *
 * @category models
 * @since 1.1.0
 */
export interface Found {
  readonly watch: string
  readonly paper: Paper
}

/**
 * A watch whose check failed: its state is left as it was.
 *
 * @category models
 * @since 1.1.0
 */
export interface Failed {
  readonly watch: string
  readonly error: S2Error
}

/**
 * What a check found and the state to store once it is shown.
 *
 * @category models
 * @since 1.1.0
 */
export interface CheckResult {
  /** New papers, watch by watch in the state's order, newest first within a watch. */
  readonly found: ReadonlyArray<Found>
  readonly failed: ReadonlyArray<Failed>
  readonly state: State
  /** The check's instant (ISO 8601), the `foundAt` of what it found. */
  readonly checkedAt: string
}

/**
 * Options of {@link check}.
 *
 * @category options
 * @since 1.1.0
 */
export interface CheckOptions {
  /** Only these watches (all when absent or empty); names the state does not have are ignored. */
  readonly names?: ReadonlyArray<string> | undefined
  /** Fields of the new papers (default: `Citable.fields`, enough for BibTeX, CSL-JSON and RIS). */
  readonly fields?: ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined
  /** How many found papers the state's `recent` keeps (default {@link defaultRecent}). */
  readonly recent?: number | undefined
}

/**
 * Checks watches: lists each one's papers since its last check minus its window, keeps those never
 * shown, and fetches their details in shared batches (500 ids a request). A watch whose list fails
 * is reported in `failed` and keeps its state; a failed details lookup fails the whole check
 * (nothing to show, nothing stored). The clock is Effect's `Clock`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Watch } from "@s2-effect/jobs"
 *
 * const state = Watch.add(Watch.empty, { _tag: "Citations", name: "mine", paperId: "CorpusId:1" })
 * const program = Effect.map(Watch.check(state), ({ found, state }) => ({ found: found.length, state }))
 * ```
 * @category checks
 * @since 1.1.0
 */
export const check: (
  state: State,
  options?: CheckOptions
) => Effect.Effect<CheckResult, S2Error, SemanticScholar> = internal.check

/**
 * The state with one more watch, not yet checked; a watch of the same name is replaced (and what
 * it had shown forgotten).
 *
 * @category combinators
 * @since 1.1.0
 */
export const add = (state: State, watch: Watch): State => ({
  ...state,
  watches: [...state.watches.filter((entry) => entry.watch.name !== watch.name), { watch, seen: [] }]
})

/**
 * The state without the watch `name` (and its papers in `recent`).
 *
 * @category combinators
 * @since 1.1.0
 */
export const remove = (state: State, name: string): State => ({
  ...state,
  watches: state.watches.filter((entry) => entry.watch.name !== name),
  recent: state.recent.filter((item) => item.watch !== name)
})

/**
 * The state to store when only `shown` of what a check found was shown (a list cut to a length):
 * the papers found but not shown are not remembered, so the next check finds them again.
 *
 * @category combinators
 * @since 1.1.0
 */
export const keepShown = (result: CheckResult, shown: ReadonlyArray<Found>): State => {
  const key = (watch: string, paperId: string) => `${watch}\u0000${paperId}`
  const kept = new Set(shown.map(({ paper, watch }) => key(watch, paper.paperId)))
  const dropped = new Set(
    result.found.filter(({ paper, watch }) => !kept.has(key(watch, paper.paperId)))
      .map(({ paper, watch }) => key(watch, paper.paperId))
  )
  if (dropped.size === 0) return result.state
  return {
    ...result.state,
    watches: result.state.watches.map((entry) => ({
      ...entry,
      seen: entry.seen.filter(([id]) => !dropped.has(key(entry.watch.name, id)))
    })),
    recent: result.state.recent.filter((item) =>
      !dropped.has(key(item.watch, item.paperId)) || item.foundAt !== result.checkedAt
    )
  }
}
