/**
 * Search filters: what users write (camelCase options, arrays, numbers) checked and rendered to the
 * wire's query parameters. Shared by relevance search, bulk search, title match and snippet search.
 *
 * @since 1.0.0
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Fields from "./Fields.js"
import type { Unchecked } from "./Fields.js"
import * as Validate from "./internal/validate.js"
import { Invalid } from "./Invalid.js"
import type { BadQueryParameters } from "./S2Error.js"

/**
 * @category constants
 * @since 1.0.0
 */
export const publicationTypes = [
  "Review",
  "JournalArticle",
  "CaseReport",
  "ClinicalTrial",
  "Conference",
  "Dataset",
  "Editorial",
  "LettersAndComments",
  "MetaAnalysis",
  "News",
  "Study",
  "Book",
  "BookSection"
] as const

/**
 * @category models
 * @since 1.0.0
 */
export type PublicationType = typeof publicationTypes[number]

/**
 * @category constants
 * @since 1.0.0
 */
export const fieldsOfStudy = [
  "Computer Science",
  "Medicine",
  "Chemistry",
  "Biology",
  "Materials Science",
  "Physics",
  "Geology",
  "Psychology",
  "Art",
  "History",
  "Geography",
  "Sociology",
  "Business",
  "Political Science",
  "Economics",
  "Philosophy",
  "Mathematics",
  "Engineering",
  "Environmental Science",
  "Agricultural and Food Sciences",
  "Education",
  "Law",
  "Linguistics"
] as const

/**
 * @category models
 * @since 1.0.0
 */
export type FieldOfStudy = typeof fieldsOfStudy[number]

/**
 * The filters of paper search (relevance, bulk, title match).
 *
 * @example
 * ```ts
 * import type { Filters } from "@s2-effect/core"
 *
 * const recentMl: Filters.SearchFilters = {
 *   year: "2020-",
 *   fieldsOfStudy: ["Computer Science"],
 *   minCitationCount: 10,
 *   openAccessPdf: true
 * }
 * ```
 * @category models
 * @since 1.0.0
 */
export interface SearchFilters {
  /** `2019`, `"2016-2020"`, `"2010-"` or `"-2015"`. */
  readonly year?: number | string | undefined
  /** Known values typed; {@link unchecked} for a type newer than this client. */
  readonly publicationTypes?: ReadonlyArray<PublicationType | Unchecked> | undefined
  /** Only papers with a public PDF. */
  readonly openAccessPdf?: boolean | undefined
  /** Venue names (ISO4 abbreviations work too). */
  readonly venue?: ReadonlyArray<string> | undefined
  /** Known values typed; {@link unchecked} for a field newer than this client. */
  readonly fieldsOfStudy?: ReadonlyArray<FieldOfStudy | Unchecked> | undefined
  /** `<start>:<end>`, each end optional, each `YYYY`, `YYYY-MM` or `YYYY-MM-DD`; or a single date. */
  readonly publicationDateOrYear?: string | undefined
  readonly minCitationCount?: number | undefined
}

/** A field or filter value the client does not know by name ({@link unchecked}). */
const UncheckedSchema = Schema.Struct({ _tag: Schema.Literal("Unchecked"), name: Schema.String })

/**
 * {@link SearchFilters} as a schema, for a program that stores filters (a harvest's checkpoint) and
 * reads them back: what it decodes is what search takes. Numbers are finite (JSON has no NaN).
 *
 * @example
 * ```ts
 * import { Schema } from "effect"
 * import { Filters } from "@s2-effect/core"
 *
 * const saved = JSON.stringify(Schema.encodeSync(Filters.SearchFilters)({ year: "2020-", openAccessPdf: true }))
 * export const filters: Filters.SearchFilters = Schema.decodeUnknownSync(Schema.fromJsonString(Filters.SearchFilters))(saved)
 * ```
 * @category schemas
 * @since 1.2.0
 */
export const SearchFilters = Schema.Struct({
  year: Schema.optional(Schema.Union([Schema.Finite, Schema.String])),
  publicationTypes: Schema.optional(Schema.Array(Schema.Union([Schema.Literals(publicationTypes), UncheckedSchema]))),
  openAccessPdf: Schema.optional(Schema.Boolean),
  venue: Schema.optional(Schema.Array(Schema.String)),
  fieldsOfStudy: Schema.optional(Schema.Array(Schema.Union([Schema.Literals(fieldsOfStudy), UncheckedSchema]))),
  publicationDateOrYear: Schema.optional(Schema.String),
  minCitationCount: Schema.optional(Schema.Finite)
}) satisfies Schema.Codec<SearchFilters, SearchFilters>

/**
 * A query parameter on the wire.
 *
 * @category models
 * @since 1.0.0
 */
export type QueryParam = readonly [name: string, value: string]

/**
 * Checks a `year` filter and renders it.
 *
 * @category validation
 * @since 1.0.0
 */
export const validateYear = (year: number | string): Effect.Effect<string, BadQueryParameters> =>
  Validate.inputEffect(Validate.yearRange(year))

/**
 * Whether `date` is a real date written `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (no 30 February).
 *
 * @category guards
 * @since 1.0.0
 */
export const isDate = (date: string): boolean => Validate.dateKey(date) !== undefined

/**
 * Checks a `publicationDateOrYear` filter (`2019-03-05`, `2019-03`, `2016-03-05:2020-06-06`,
 * `1981-08-25:`, `:2015-01`, `2015:2020`) and renders it.
 *
 * @category validation
 * @since 1.0.0
 */
export const validatePublicationDateOrYear = (
  value: string,
  parameter = "publicationDateOrYear"
): Effect.Effect<string, BadQueryParameters> => Validate.inputEffect(Validate.dateRange(value, parameter))

/**
 * The escape hatch for a `publicationTypes` or `fieldsOfStudy` value the server added after this
 * release: sent as written (the same value as {@link Fields.unchecked}).
 *
 * @example
 * ```ts
 * import type { Filters as F } from "@s2-effect/core"
 * import { Filters } from "@s2-effect/core"
 *
 * const filters: F.SearchFilters = { publicationTypes: ["Review", Filters.unchecked("Preprint")] }
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const unchecked: (value: string) => Unchecked = Fields.unchecked

const checkList = <A extends string>(
  parameter: string,
  given: ReadonlyArray<string | Unchecked>,
  allowed: ReadonlyArray<A>
) => Validate.inputEffect(Validate.enumList(parameter, given, allowed, `Filters.unchecked("…")`))

/**
 * Checks a minimum citation count: a whole number ≥ 0.
 *
 * @category validation
 * @since 1.0.0
 */
export const validateMinCitationCount = (n: number): Effect.Effect<string, BadQueryParameters> =>
  Validate.inputEffect(Result.map(Validate.wholeNumber("minCitationCount", n, { min: 0 }), String))

/**
 * Checks every filter and renders them as wire query parameters, in a stable order.
 *
 * @category utils
 * @since 1.0.0
 */
export const render = (filters: SearchFilters): Effect.Effect<ReadonlyArray<QueryParam>, BadQueryParameters> =>
  Effect.gen(function*() {
    const params: Array<QueryParam> = []
    if (filters.year !== undefined) params.push(["year", yield* validateYear(filters.year)])
    if (filters.publicationTypes !== undefined) {
      params.push([
        "publicationTypes",
        yield* checkList("publicationTypes", filters.publicationTypes, publicationTypes)
      ])
    }
    if (filters.openAccessPdf === true) params.push(["openAccessPdf", ""])
    if (filters.venue !== undefined) {
      params.push(["venue", yield* Validate.inputEffect(Validate.commaList("venue", filters.venue, "venue name"))])
    }
    if (filters.fieldsOfStudy !== undefined) {
      params.push(["fieldsOfStudy", yield* checkList("fieldsOfStudy", filters.fieldsOfStudy, fieldsOfStudy)])
    }
    if (filters.publicationDateOrYear !== undefined) {
      params.push(["publicationDateOrYear", yield* validatePublicationDateOrYear(filters.publicationDateOrYear)])
    }
    if (filters.minCitationCount !== undefined) {
      params.push(["minCitationCount", yield* validateMinCitationCount(filters.minCitationCount)])
    }
    return params
  })

/**
 * @category models
 * @since 1.0.0
 */
export type SortField = "paperId" | "publicationDate" | "citationCount"

/**
 * Bulk search order: a field, optionally with `:asc` or `:desc` (default `paperId:asc`).
 *
 * @category models
 * @since 1.0.0
 */
export type Sort = SortField | `${SortField}:${"asc" | "desc"}`

/**
 * Checks a bulk `sort` value (users of plain JavaScript can pass anything).
 *
 * @category validation
 * @since 1.0.0
 */
export const validateSort = (sort: string): Effect.Effect<Sort, BadQueryParameters> =>
  Validate.inputEffect(Result.mapError(
    Validate.oneOf("sort", sort, sorts),
    () =>
      new Invalid({
        parameter: "sort",
        message: `sort ${
          JSON.stringify(sort)
        } is invalid: give paperId, publicationDate or citationCount, optionally with :asc or :desc`
      })
  ))

/**
 * Every order bulk search takes.
 *
 * @category constants
 * @since 1.0.0
 */
export const sorts = [
  "paperId",
  "publicationDate",
  "citationCount",
  "paperId:asc",
  "paperId:desc",
  "publicationDate:asc",
  "publicationDate:desc",
  "citationCount:asc",
  "citationCount:desc"
] as const satisfies ReadonlyArray<Sort>

/**
 * Checks a page size or result count against its range.
 *
 * @deprecated Nothing in the client uses it: every operation checks its own `limit`
 * against the API's range before sending. Kept for 1.x.
 * @category validation
 * @since 1.0.0
 */
export const validateLimit = (
  limit: number,
  max: number,
  parameter = "limit"
): Effect.Effect<number, BadQueryParameters> => Validate.inputEffect(Validate.limit(limit, max, parameter))
