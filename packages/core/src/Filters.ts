/**
 * Search filters: what users write (camelCase options, arrays, numbers) checked and rendered to the
 * wire's query parameters. Shared by relevance search, bulk search, title match and snippet search.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import * as Fields from "./Fields.js"
import type { Unchecked } from "./Fields.js"
import { BadQueryParameters } from "./S2Error.js"

/**
 * @category constants
 * @since 0.1.0
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
 * @since 0.1.0
 */
export type PublicationType = typeof publicationTypes[number]

/**
 * @category constants
 * @since 0.1.0
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
 * @since 0.1.0
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
 * @since 0.1.0
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

/**
 * A query parameter on the wire.
 *
 * @category models
 * @since 0.1.0
 */
export type QueryParam = readonly [name: string, value: string]

const bad = (parameter: string, message: string) => new BadQueryParameters({ message, parameter })

const yearPattern = /^(\d{4})?(-)?(\d{4})?$/

/**
 * Checks a `year` filter and renders it.
 *
 * @category validation
 * @since 0.1.0
 */
export const validateYear = (year: number | string): Effect.Effect<string, BadQueryParameters> => {
  const text = String(year)
  const match = yearPattern.exec(text)
  const from = match?.[1]
  const to = match?.[3]
  const ok = match !== null &&
    (from !== undefined || to !== undefined) &&
    (match[2] !== undefined || to === undefined) &&
    (from === undefined || to === undefined || Number(from) <= Number(to))
  return ok ? Effect.succeed(text) : Effect.fail(
    bad(
      "year",
      `year ${
        JSON.stringify(text)
      } is malformed: give a year (2019), a range (2016-2020) with start ≤ end, or an open range (2010- or -2015)`
    )
  )
}

const datePattern = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/

const dateKey = (date: string): string | undefined => {
  const match = datePattern.exec(date)
  if (match === null) return undefined
  const [, y, m, d] = match
  const month = m === undefined ? 1 : Number(m)
  const day = d === undefined ? 1 : Number(d)
  if (month < 1 || month > 12) return undefined
  const daysInMonth = new Date(Date.UTC(Number(y), month, 0)).getUTCDate()
  if (day < 1 || day > daysInMonth) return undefined
  return `${y}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
}

/**
 * Whether `date` is a real date written `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (no 30 February).
 *
 * @category guards
 * @since 0.1.0
 */
export const isDate = (date: string): boolean => dateKey(date) !== undefined

/**
 * Checks a `publicationDateOrYear` filter (`2019-03-05`, `2019-03`, `2016-03-05:2020-06-06`,
 * `1981-08-25:`, `:2015-01`, `2015:2020`) and renders it.
 *
 * @category validation
 * @since 0.1.0
 */
export const validatePublicationDateOrYear = (
  value: string,
  parameter = "publicationDateOrYear"
): Effect.Effect<string, BadQueryParameters> => {
  const parts = value.split(":")
  const fail = (why: string) =>
    Effect.fail(
      bad(
        parameter,
        `${parameter} ${
          JSON.stringify(value)
        } ${why}: give <start>:<end> with either end optional, each YYYY, YYYY-MM or YYYY-MM-DD (e.g. 2016-03-05:2020-06-06, 2019-03, 1981-08-25:, :2015-01)`
      )
    )
  if (parts.length > 2) return fail("has more than one ':'")
  const [start = "", end] = parts
  if (parts.length === 1) return dateKey(start) === undefined ? fail("is not a date") : Effect.succeed(value)
  if (start === "" && end === "") return fail("has neither a start nor an end")
  const startKey = start === "" ? "" : dateKey(start)
  const endKey = end === "" || end === undefined ? "" : dateKey(end)
  if (startKey === undefined) return fail("has a malformed start")
  if (endKey === undefined) return fail("has a malformed end")
  if (startKey !== "" && endKey !== "" && startKey > endKey) return fail("starts after it ends")
  return Effect.succeed(value)
}

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
 * @since 0.1.0
 */
export const unchecked: (value: string) => Unchecked = Fields.unchecked

const checkList = <A extends string>(
  parameter: string,
  given: ReadonlyArray<string | Unchecked>,
  allowed: ReadonlyArray<A>
): Effect.Effect<string, BadQueryParameters> => {
  if (given.length === 0) {
    return Effect.fail(bad(parameter, `${parameter} is empty: omit it, or give at least one value`))
  }
  const values = given.map((value) => typeof value === "string" ? value : value.name)
  if (values.some((value) => value.trim() === "" || value.includes(","))) {
    return Effect.fail(bad(parameter, `${parameter} values must be non-empty and without commas`))
  }
  const unknown = given.filter((value): value is string =>
    typeof value === "string" && !allowed.some((known) => known === value)
  )
  return unknown.length === 0
    ? Effect.succeed(values.join(","))
    : Effect.fail(
      bad(
        parameter,
        `${parameter} has unknown value(s) ${unknown.map((u) => JSON.stringify(u)).join(", ")}; allowed: ${
          allowed.join(", ")
        } (or Filters.unchecked("…") for a value newer than this client)`
      )
    )
}

/**
 * Checks a minimum citation count: a whole number ≥ 0.
 *
 * @category validation
 * @since 0.1.0
 */
export const validateMinCitationCount = (n: number): Effect.Effect<string, BadQueryParameters> =>
  Number.isSafeInteger(n) && n >= 0
    ? Effect.succeed(String(n))
    : Effect.fail(bad("minCitationCount", `minCitationCount ${n} is invalid: give a whole number ≥ 0`))

/**
 * Checks every filter and renders them as wire query parameters, in a stable order.
 *
 * @category utils
 * @since 0.1.0
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
      if (filters.venue.length === 0 || filters.venue.some((v) => v.trim() === "" || v.includes(","))) {
        return yield* Effect.fail(bad("venue", "venue must list at least one non-empty venue name, without commas"))
      }
      params.push(["venue", filters.venue.join(",")])
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
 * @since 0.1.0
 */
export type SortField = "paperId" | "publicationDate" | "citationCount"

/**
 * Bulk search order: a field, optionally with `:asc` or `:desc` (default `paperId:asc`).
 *
 * @category models
 * @since 0.1.0
 */
export type Sort = SortField | `${SortField}:${"asc" | "desc"}`

/**
 * Checks a bulk `sort` value (users of plain JavaScript can pass anything).
 *
 * @category validation
 * @since 0.1.0
 */
export const validateSort = (sort: string): Effect.Effect<Sort, BadQueryParameters> => {
  switch (sort) {
    case "paperId":
    case "publicationDate":
    case "citationCount":
    case "paperId:asc":
    case "paperId:desc":
    case "publicationDate:asc":
    case "publicationDate:desc":
    case "citationCount:asc":
    case "citationCount:desc":
      return Effect.succeed(sort)
    default:
      return Effect.fail(
        bad(
          "sort",
          `sort ${
            JSON.stringify(sort)
          } is invalid: give paperId, publicationDate or citationCount, optionally with :asc or :desc`
        )
      )
  }
}

/**
 * Checks a page size or result count against its range.
 *
 * @category validation
 * @since 0.1.0
 */
export const validateLimit = (
  limit: number,
  max: number,
  parameter = "limit"
): Effect.Effect<number, BadQueryParameters> =>
  Number.isSafeInteger(limit) && limit >= 1 && limit <= max
    ? Effect.succeed(limit)
    : Effect.fail(bad(parameter, `${parameter} ${limit} is out of range: give a whole number from 1 to ${max}`))
