/**
 * Every check of input that can never succeed, in one place: ids, whole numbers and their ranges,
 * durations, dates and ranges of dates, enums, sizes and items of lists, URLs, release ids and
 * dataset names. A check answers `Result<A, Invalid>`; who asked decides what a refusal is: an
 * operation's argument (`BadQueryParameters`), a layer option (`InvalidOptions`), or a CLI flag
 * (the CLI's bad-input error). Used by the core, the Node datasets code and the CLI.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { Invalid } from "../Invalid.js"
import { BadQueryParameters, InvalidOptions } from "../S2Error.js"
import type { Check } from "../Validate.js"
import { compose, excerpt } from "./text.js"

/** A value a refusal quotes: JSON-quoted and cut, so that a huge value makes no huge message. */
const quoted = (value: string): string => JSON.stringify(excerpt(value, 200))

export const refuse = (parameter: string, message: string): Check<never> =>
  Result.fail(new Invalid({ parameter, message }))

/** A refusal given in parts: `subject problem: advice` (`paperId "x" is empty: give …`). */
export const refuseParts = (
  parameter: string,
  parts: { readonly subject: string; readonly problem: string; readonly advice?: string }
): Check<never> =>
  Result.fail(
    new Invalid({
      parameter,
      message: compose(parts),
      ...parts
    })
  )

/** The refusal's parts; a refusal given as one sentence is all problem. */
const partsOf = ({ advice, message, problem, subject }: Invalid) => ({
  ...(subject === undefined ? {} : { subject }),
  problem: problem ?? message,
  ...(advice === undefined ? {} : { advice })
})

/** A refusal of an operation's input: nothing was sent. */
export const asInput = (invalid: Invalid): BadQueryParameters =>
  new BadQueryParameters({ parameter: invalid.parameter, ...partsOf(invalid) })

/** A refusal of the client's own settings. */
export const asOption = (invalid: Invalid): InvalidOptions =>
  new InvalidOptions({ option: invalid.parameter, ...partsOf(invalid) })

export const isInvalidOptions = (u: unknown): u is InvalidOptions => u instanceof InvalidOptions

/** An operation's check, as a typed `BadQueryParameters`. */
export const input = <A>(check: Check<A>): Result.Result<A, BadQueryParameters> => Result.mapError(check, asInput)

/** An operation's check as an effect (a `Result` cannot be yielded in `Effect.gen`). */
export const inputEffect = <A>(check: Check<A>): Effect.Effect<A, BadQueryParameters> => Effect.fromResult(input(check))

/** A layer option's check, as a typed `InvalidOptions`. */
export const option = <A>(check: Check<A>): Result.Result<A, InvalidOptions> => Result.mapError(check, asOption)

// ---------------------------------------------------------------------------------------------
// numbers and durations

/** A whole number from `min` to `max` (inclusive). */
export const wholeNumber = (
  parameter: string,
  n: number,
  range: { readonly min: number; readonly max?: number | undefined }
): Check<number> => {
  if (Number.isSafeInteger(n) && n >= range.min && (range.max === undefined || n <= range.max)) return Result.succeed(n)
  return range.max === undefined
    ? refuseParts(parameter, {
      subject: `${parameter} ${n}`,
      problem: "is invalid",
      advice: `give a whole number ≥ ${range.min}`
    })
    : refuseParts(parameter, {
      subject: `${parameter} ${n}`,
      problem: "is out of range",
      advice: `give a whole number from ${range.min} to ${range.max}`
    })
}

/** A page or result size: 1 to `max`. */
export const limit = (limit: number, max: number, parameter = "limit"): Check<number> =>
  wholeNumber(parameter, limit, { min: 1, max })

/** A number > 0, fractions allowed (a rate). */
export const positiveNumber = (parameter: string, n: number): Check<number> =>
  Number.isFinite(n) && n > 0
    ? Result.succeed(n)
    : refuseParts(parameter, { subject: `${parameter} ${n}`, problem: "is invalid", advice: "give a number > 0" })

/** A duration > 0, in any form `Duration` reads ("30 seconds", 500, …). */
export const positiveDuration = (parameter: string, input: Duration.Input): Check<Duration.Duration> => {
  const duration = Duration.fromInput(input)
  return Option.isSome(duration) && Duration.isGreaterThan(duration.value, Duration.zero)
    ? Result.succeed(duration.value)
    : refuseParts(parameter, {
      subject: `${parameter} ${String(input)}`,
      problem: "is invalid",
      advice: `give a positive duration such as "30 seconds"`
    })
}

// ---------------------------------------------------------------------------------------------
// text, enums and lists

/** What is wrong with a header value, never quoting it (it may be a secret). */
const headerFault = (value: string): string | undefined => {
  if (value.length === 0) return "is empty"
  const characters = [...value]
  const at = characters.findIndex((c) => c < " " || c > "~")
  if (at >= 0) {
    const c = characters[at]!
    const what = c === "\n" || c === "\r"
      ? "a line break"
      : c < " " || c === "\x7f"
      ? "a control character"
      : "a non-ASCII character"
    return `has ${what} at character ${at + 1}`
  }
  if (value.trim() !== value) return "begins or ends with a space"
  return undefined
}

/**
 * Text sent as an HTTP header value (the API key): printable ASCII, without line breaks, control
 * characters or spaces at either end. The refusal says where the fault is, never the value.
 */
export const headerValue = (parameter: string, value: string): Check<string> => {
  const fault = headerFault(value)
  return fault === undefined
    ? Result.succeed(value)
    : refuseParts(parameter, {
      subject: parameter,
      problem: `${fault}, which an HTTP header cannot carry`,
      advice: "give printable ASCII only (letters, digits, punctuation), as the key was issued (the value is not shown)"
    })
}

/**
 * The most bytes a URL of the API may have: its gateway ends URLs at 8,192 bytes (a query of 20,000
 * characters is answered 414), so a value that takes more than that in a URL can never be sent.
 */
export const maxUrlBytes = 8192

/**
 * The fewest bytes `text` can take in a URL (a character of ASCII one, any other its UTF-8 bytes
 * percent-encoded, three each), counted only until past `limit`: a 10 MB text costs no more than a
 * short one, and no copy of it is made.
 */
const fewestUrlBytes = (text: string, limit: number): number => {
  let bytes = 0
  for (let i = 0; i < text.length && bytes <= limit; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 6
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 12
      i++
    } else bytes += 9
  }
  return bytes
}

/** A value no URL of the API can carry is refused before any other work on it (see {@link maxUrlBytes}). */
export const fitsUrl = (parameter: string, text: string, what: string): Check<string> =>
  fewestUrlBytes(text, maxUrlBytes) > maxUrlBytes
    ? refuseParts(parameter, {
      subject: `${parameter} ${quoted(text)}`,
      problem: `(${text.length} characters) is longer than a URL of the API can carry (${maxUrlBytes} bytes)`,
      advice: `give ${what}`
    })
    : Result.succeed(text)

/** Text with something in it besides spaces, short enough for a URL of the API. */
export const nonBlank = (parameter: string, text: string, what: string): Check<string> =>
  Result.flatMap(
    fitsUrl(parameter, text, what),
    () =>
      text.trim().length === 0
        ? refuseParts(parameter, { subject: parameter, problem: "is empty", advice: `give ${what}` })
        : Result.succeed(text)
  )

/** One of a fixed set of values. */
export const oneOf = <A extends string>(parameter: string, value: string, allowed: ReadonlyArray<A>): Check<A> => {
  const found = allowed.find((known) => known === value)
  return found !== undefined
    ? Result.succeed(found)
    : refuse(
      parameter,
      `${parameter} ${quoted(value)} is invalid: give ${allowed.map((a) => JSON.stringify(a)).join(" or ")}`
    )
}

/**
 * Values of an enum sent comma-joined; `{ name }` entries are let through unchecked (values newer
 * than this client), and `escape` says how to write one.
 */
export const enumList = <A extends string>(
  parameter: string,
  given: ReadonlyArray<string | { readonly name: string }>,
  allowed: ReadonlyArray<A>,
  escape: string
): Check<string> => {
  if (given.length === 0) {
    return refuseParts(parameter, {
      subject: parameter,
      problem: "is empty",
      advice: "omit it, or give at least one value"
    })
  }
  const values = given.map((value) => typeof value === "string" ? value : value.name)
  if (values.some((value) => value.trim() === "" || value.includes(","))) {
    return refuse(parameter, `${parameter} values must be non-empty and without commas`)
  }
  const unknown = given.filter((value): value is string =>
    typeof value === "string" && !allowed.some((known) => known === value)
  )
  return unknown.length === 0
    ? Result.succeed(values.join(","))
    : refuse(
      parameter,
      `${parameter} has unknown value(s) ${unknown.map(quoted).join(", ")}; allowed: ${
        allowed.join(", ")
      } (or ${escape} for a value newer than this client)`
    )
}

/** A list of `min` to `max` items. */
export const listSize = <A>(
  parameter: string,
  items: ReadonlyArray<A>,
  range: { readonly min: number; readonly max: number; readonly noun: string }
): Check<ReadonlyArray<A>> =>
  items.length >= range.min && items.length <= range.max
    ? Result.succeed(items)
    : refuse(
      parameter,
      range.min === range.max || range.min === 0
        ? `${parameter} has ${items.length} ${range.noun}: give at most ${range.max}`
        : `${parameter} has ${items.length} ${range.noun}: give ${range.min} to ${range.max}`
    )

/** Names sent comma-joined as one value: each must be non-empty and have no comma of its own. */
export const commaList = (parameter: string, names: ReadonlyArray<string>, what: string): Check<string> =>
  names.length === 0 || names.some((name) => name.trim() === "" || name.includes(","))
    ? refuse(parameter, `${parameter} must list at least one non-empty ${what}, without commas`)
    : Result.succeed(names.join(","))

/** A URL as a message may quote it: whatever stands before an `@` of its authority (user, password) hidden. */
const withoutUserInfo = (url: string): string => quoted(url.replace(/^([^:/?#]*:\/*)[^/?#]*@/, "$1***@"))

/**
 * An http(s) URL without a user name or password (which the API never takes, and which every
 * message, log line and tool error naming the URL would show), returned without trailing slashes.
 */
export const httpUrl = (parameter: string, url: string, example: string): Check<string> => {
  const shown = withoutUserInfo(url)
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      return refuse(parameter, `${parameter} ${shown} must be an http or https URL`)
    }
    return parsed.username === "" && parsed.password === ""
      ? Result.succeed(url.replace(/\/+$/, ""))
      : refuse(
        parameter,
        `${parameter} ${shown} has a user name or password, which the API never takes and every message ` +
          `naming the URL would show: give it without them (the key goes in apiKey / S2_API_KEY)`
      )
  } catch {
    return refuse(parameter, `${parameter} ${shown} is not a URL; give the API root such as ${example}`)
  }
}

// ---------------------------------------------------------------------------------------------
// dates

const datePattern = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` of a real calendar day, as a sortable `YYYY-MM-DD`. */
export const dateKey = (date: string): string | undefined => {
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

/** A full `YYYY-MM-DD` date of a real day. */
export const isFullDate = (id: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(id) && dateKey(id) !== undefined

const yearPattern = /^(\d{4})?(-)?(\d{4})?$/

/** A year (2019), a range (2016-2020) with start ≤ end, or an open range (2010- or -2015). */
export const yearRange = (year: number | string): Check<string> => {
  const text = String(year)
  const match = yearPattern.exec(text)
  const from = match?.[1]
  const to = match?.[3]
  const ok = match !== null &&
    (from !== undefined || to !== undefined) &&
    (match[2] !== undefined || to === undefined) &&
    (from === undefined || to === undefined || Number(from) <= Number(to))
  return ok ? Result.succeed(text) : refuse(
    "year",
    `year ${
      quoted(text)
    } is malformed: give a year (2019), a range (2016-2020) with start ≤ end, or an open range (2010- or -2015)`
  )
}

/** A date, or a range `<start>:<end>` of dates with either end open. */
export const dateRange = (value: string, parameter = "publicationDateOrYear"): Check<string> => {
  const parts = value.split(":")
  const fail = (why: string) =>
    refuse(
      parameter,
      `${parameter} ${
        quoted(value)
      } ${why}: give <start>:<end> with either end optional, each YYYY, YYYY-MM or YYYY-MM-DD (e.g. 2016-03-05:2020-06-06, 2019-03, 1981-08-25:, :2015-01)`
    )
  if (parts.length > 2) return fail("has more than one ':'")
  const [start = "", end] = parts
  if (parts.length === 1) return dateKey(start) === undefined ? fail("is not a date") : Result.succeed(value)
  if (start === "" && end === "") return fail("has neither a start nor an end")
  const startKey = start === "" ? "" : dateKey(start)
  const endKey = end === "" || end === undefined ? "" : dateKey(end)
  if (startKey === undefined) return fail("has a malformed start")
  if (endKey === undefined) return fail("has a malformed end")
  if (startKey !== "" && endKey !== "" && startKey > endKey) return fail("starts after it ends")
  return Result.succeed(value)
}

/** One date, not a range (`insertedBefore`). */
export const singleDate = (parameter: string, value: string): Check<string> =>
  value.includes(":")
    ? refuse(parameter, `${parameter} is one date (YYYY, YYYY-MM or YYYY-MM-DD), not a range`)
    : dateRange(value, parameter)

// ---------------------------------------------------------------------------------------------
// ids

/** The id prefixes of the API, as it spells them; matched without regard to case. */
const idPrefixes = ["CorpusId", "DOI", "ARXIV", "MAG", "ACL", "PMID", "PMCID", "URL"] as const

/** What looks like `PREFIX:…`; a bare DOI (`10.…/…`) or a 40-hex id never does. */
const prefixShape = /^([A-Za-z][A-Za-z0-9_]*):/

const control = /[\u0000-\u001f\u007f]/

/** Half of a UTF-16 pair on its own: no URL can carry it (`encodeURI` throws on it). */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const paperIdForms =
  "a 40-hex paperId, CorpusId:<n>, DOI:<doi> or a bare DOI (10.x/…), ARXIV:<id>, MAG:<n>, ACL:<id>, PMID:<n>, PMCID:<id> or URL:<url>"

/** What can never be an id of any kind; the server decides which of the rest exist. */
const anyId = (id: string, parameter: string, forms: string): Check<string> => {
  const long = fitsUrl(parameter, id, forms)
  if (Result.isFailure(long)) return long
  const advice = `give ${forms}`
  const subject = `${parameter} ${quoted(id)}`
  if (id.trim().length === 0) return refuseParts(parameter, { subject: parameter, problem: "is empty", advice })
  if (control.test(id)) return refuseParts(parameter, { subject, problem: "contains a control character", advice })
  if (loneSurrogate.test(id)) {
    return refuseParts(parameter, {
      subject,
      problem: "contains half of a UTF-16 pair, which no URL can carry",
      advice
    })
  }
  // An id goes into the path with its slashes (a DOI has one), and the URL resolves "." and ".."
  // segments: "../../author/1" as a paper id asked another endpoint, with the key.
  const dots = id.split("/").find((segment) => segment === "." || segment === "..")
  if (dots !== undefined) {
    return refuseParts(parameter, {
      subject,
      problem: `has a "${dots}" path segment, which would reach another endpoint`,
      advice
    })
  }
  return Result.succeed(id)
}

/** A paper id in any form the API accepts; an unknown prefix or a bare prefix is refused. */
export const paperId = (id: string, parameter = "paperId"): Check<string> =>
  Result.flatMap(anyId(id, parameter, paperIdForms), () => {
    const prefix = prefixShape.exec(id)?.[1]
    if (prefix === undefined) return Result.succeed(id)
    const known = idPrefixes.find((name) => name.toUpperCase() === prefix.toUpperCase())
    if (known === undefined) {
      return refuseParts(parameter, {
        subject: `${parameter} ${quoted(id)}`,
        problem: `has the prefix ${prefix}:, which the API does not know`,
        advice: `give ${paperIdForms}`
      })
    }
    return id.slice(prefix.length + 1).trim().length === 0
      ? refuseParts(parameter, { subject: `${parameter} ${quoted(id)}`, problem: `has nothing after ${known}:` })
      : Result.succeed(id)
  })

/** An author id: anything but an empty or control-character string (the server decides the rest). */
export const authorId = (id: string, parameter = "authorId"): Check<string> =>
  anyId(id, parameter, `an author id, a number such as "1741101"`)

/** A non-empty list of ids, each checked; a refused id is named by its position. */
export const ids = (
  list: ReadonlyArray<string>,
  check: (id: string, parameter: string) => Check<string>,
  parameter: string
): Check<ReadonlyArray<string>> => {
  if (list.length === 0) {
    return refuseParts(parameter, { subject: parameter, problem: "is empty", advice: "give at least one id" })
  }
  for (let i = 0; i < list.length; i++) {
    const checked = check(list[i]!, `${parameter}[${i}]`)
    if (Result.isFailure(checked)) return Result.fail(checked.failure)
  }
  return Result.succeed(list)
}

// ---------------------------------------------------------------------------------------------
// datasets

/** A release: a `YYYY-MM-DD` date, or `latest` where allowed. */
export const releaseId = (id: string, parameter: string, latest = true): Check<string> =>
  (latest && id === "latest") || isFullDate(id)
    ? Result.succeed(id)
    : refuse(
      parameter,
      `${parameter} ${quoted(id)} is invalid: give a release date (YYYY-MM-DD)${latest ? ` or "latest"` : ""}`
    )

/** A dataset name as the API spells them (letters, digits, `_`, `.`, `-`). */
export const datasetName = (name: string, parameter = "datasetName"): Check<string> =>
  /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)
    ? Result.succeed(name)
    : refuse(
      parameter,
      `${parameter} ${quoted(name)} is invalid: give a dataset name such as papers, abstracts or s2orc_v2`
    )
