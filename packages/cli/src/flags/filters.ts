/**
 * The search filters as flags (`--year`, `--publication-types`, `--open-access-pdf`, `--venue`,
 * `--fields-of-study`, `--publication-date-or-year`, `--min-citation-count`) and `--sort`, shared by
 * `search`, `match` and `harvest`.
 *
 * @since 1.0.0
 */
import { Filters } from "@s2-effect/core"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { CommandError } from "../ExitCode.js"
import { badInput } from "../ExitCode.js"
import { splitList } from "../Parse.js"
import * as TextFlag from "../TextFlag.js"

/** `--publication-date-or-year`. @since 1.0.0 */
export const publicationDateOrYear = TextFlag.optional(
  "publication-date-or-year",
  "range",
  "Only papers published in this range: 2019, 2019-03, 2016-03-05:2020-06-06, 2015:, :2015-01"
)

/**
 * The filter flags.
 *
 * @since 1.0.0
 */
export const flags = {
  year: TextFlag.optional("year", "range", "Year or range: 2019, 2016-2020, 2010-, -2015"),
  publicationTypes: TextFlag.optional(
    "publication-types",
    "list",
    `Comma-separated: ${Filters.publicationTypes.join(", ")}`
  ),
  openAccessPdf: Flag.Boolean("open-access-pdf").pipe(
    Flag.withDescription("Only papers with a public PDF"),
    Flag.withDefault(false)
  ),
  venue: TextFlag.optional("venue", "list", "Comma-separated venue names"),
  fieldsOfStudy: TextFlag.optional("fields-of-study", "list", `Comma-separated: ${Filters.fieldsOfStudy.join(", ")}`),
  publicationDateOrYear,
  minCitationCount: Flag.Int("min-citation-count").pipe(
    Flag.withDescription("Only papers cited at least this often"),
    Flag.optional
  )
} as const

/**
 * The parsed filter flags.
 *
 * @since 1.0.0
 */
export interface FilterFlags {
  readonly year: Option.Option<string>
  readonly publicationTypes: Option.Option<string>
  readonly openAccessPdf: boolean
  readonly venue: Option.Option<string>
  readonly fieldsOfStudy: Option.Option<string>
  readonly publicationDateOrYear: Option.Option<string>
  readonly minCitationCount: Option.Option<number>
}

const pick = <A extends string>(
  flag: string,
  text: Option.Option<string>,
  allowed: ReadonlyArray<A>
): Effect.Effect<ReadonlyArray<A> | undefined, CommandError> => {
  if (Option.isNone(text)) return Effect.succeed(undefined)
  const chosen: Array<A> = []
  const unknown: Array<string> = []
  for (const value of splitList(text.value)) {
    const known = allowed.find((a) => a.toLowerCase() === value.toLowerCase())
    if (known === undefined) unknown.push(value)
    else chosen.push(known)
  }
  return unknown.length > 0 || chosen.length === 0
    ? Effect.fail(
      badInput(
        `--${flag} has unknown value(s) ${unknown.map((u) => JSON.stringify(u)).join(", ")}; allowed: ${
          allowed.join(", ")
        }`
      )
    )
    : Effect.succeed(chosen)
}

/**
 * The filters of the flags, as the client takes them (the client checks the values).
 *
 * @since 1.0.0
 */
export const toFilters = (flags: FilterFlags): Effect.Effect<Filters.SearchFilters, CommandError> =>
  Effect.gen(function*() {
    return {
      year: Option.getOrUndefined(flags.year),
      publicationTypes: yield* pick("publication-types", flags.publicationTypes, Filters.publicationTypes),
      openAccessPdf: flags.openAccessPdf ? true : undefined,
      venue: Option.getOrUndefined(Option.map(flags.venue, splitList)),
      fieldsOfStudy: yield* pick("fields-of-study", flags.fieldsOfStudy, Filters.fieldsOfStudy),
      publicationDateOrYear: Option.getOrUndefined(flags.publicationDateOrYear),
      minCitationCount: Option.getOrUndefined(flags.minCitationCount)
    }
  })

/** `--sort` (bulk only). @since 1.0.0 */
export const sort = Flag.Literals("sort", Filters.sorts).pipe(
  Flag.withDescription("Bulk order: paperId|publicationDate|citationCount, optionally :asc or :desc"),
  Flag.optional
)
