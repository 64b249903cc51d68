/**
 * Paper and author identifiers: what can never be an id (refused before a request is made; the
 * server judges the rest), and how an id is placed in a URL path.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { BadQueryParameters } from "./S2Error.js"

/** The id prefixes of the API, as it spells them; matched without regard to case. */
const prefixes = ["CorpusId", "DOI", "ARXIV", "MAG", "ACL", "PMID", "PMCID", "URL"] as const

/** What looks like `PREFIX:…`; a bare DOI (`10.…/…`) or a 40-hex id never does. */
const prefixShape = /^([A-Za-z][A-Za-z0-9_]*):/

const control = /[\u0000-\u001f\u007f]/

const allowedForms =
  "a 40-hex paperId, CorpusId:<n>, DOI:<doi> or a bare DOI (10.x/…), ARXIV:<id>, MAG:<n>, ACL:<id>, PMID:<n>, PMCID:<id> or URL:<url>"

const invalid = (parameter: string, message: string) => Effect.fail(new BadQueryParameters({ message, parameter }))

/** The checks every id gets: what can never be an id of any kind. */
const refuseNonId = (
  id: string,
  parameter: string,
  forms: string
): Effect.Effect<string, BadQueryParameters> | undefined => {
  if (id.trim().length === 0) return invalid(parameter, `${parameter} is empty: give ${forms}`)
  if (control.test(id)) {
    return invalid(parameter, `${parameter} ${JSON.stringify(id)} contains a control character: give ${forms}`)
  }
  return undefined
}

/**
 * Checks that `id` could be a paper id; the server decides whether it is one. Refused before sending
 * are only ids that can never exist: empty or white space, with a control character, or with a
 * `PREFIX:` the API does not know (prefixes are matched without regard to case: `CorpusID:` works
 * too) or nothing after it. Anything else is sent, and an unknown id ends in `ObjectNotFound`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { PaperId } from "@s2-effect/core"
 *
 * Effect.runSync(PaperId.validatePaperId("10.1093/mind/lix.236.433")) // "10.1093/mind/lix.236.433"
 * Effect.runSync(PaperId.validatePaperId("0")) // "0": sent; the server answers 404
 * ```
 * @category validation
 * @since 0.1.0
 */
export const validatePaperId = (id: string, parameter = "paperId"): Effect.Effect<string, BadQueryParameters> => {
  const refused = refuseNonId(id, parameter, allowedForms)
  if (refused !== undefined) return refused
  const prefix = prefixShape.exec(id)?.[1]
  if (prefix === undefined) return Effect.succeed(id)
  const known = prefixes.find((name) => name.toUpperCase() === prefix.toUpperCase())
  if (known === undefined) {
    return invalid(
      parameter,
      `${parameter} ${JSON.stringify(id)} has the prefix ${prefix}:, which the API does not know: give ${allowedForms}`
    )
  }
  return id.slice(prefix.length + 1).trim().length === 0
    ? invalid(parameter, `${parameter} ${JSON.stringify(id)} has nothing after ${known}:`)
    : Effect.succeed(id)
}

/**
 * Checks that `id` could be an author id (the API's are numbers, such as "1741101"); the server
 * decides whether it is one. Only empty or white-space ids and control characters are refused.
 *
 * @category validation
 * @since 0.1.0
 */
export const validateAuthorId = (id: string, parameter = "authorId"): Effect.Effect<string, BadQueryParameters> =>
  refuseNonId(id, parameter, `an author id, a number such as "1741101"`) ?? Effect.succeed(id)

/**
 * Checks a list of ids: not empty, at most `max` when given, each valid.
 *
 * @category validation
 * @since 0.1.0
 */
export const validateIds = (
  ids: ReadonlyArray<string>,
  validate: (id: string, parameter: string) => Effect.Effect<string, BadQueryParameters>,
  parameter: string
): Effect.Effect<ReadonlyArray<string>, BadQueryParameters> =>
  ids.length === 0
    ? invalid(parameter, `${parameter} is empty: give at least one id`)
    : Effect.forEach(ids, (id, index) => validate(id, `${parameter}[${index}]`))

/**
 * An id as a URL path: written as is (a DOI's `/` stays a segment separator, as the API expects),
 * except characters that would end the path or are not allowed in one.
 *
 * @category utils
 * @since 0.1.0
 */
export const toPath = (id: string): string => encodeURI(id).replace(/[?#]/g, (c) => c === "?" ? "%3F" : "%23")
