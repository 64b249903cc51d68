/**
 * Paper and author identifiers: what can never be an id (refused before a request is made; the
 * server judges the rest), and how an id is placed in a URL path.
 *
 * @since 1.0.0
 */
import * as Effect from "effect/Effect"
import * as Validate from "./internal/validate.js"
import type { BadQueryParameters } from "./S2Error.js"

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
 * @since 1.0.0
 */
export const validatePaperId = (id: string, parameter = "paperId"): Effect.Effect<string, BadQueryParameters> =>
  Validate.inputEffect(Validate.paperId(id, parameter))

/**
 * Checks that `id` could be an author id (the API's are numbers, such as "1741101"); the server
 * decides whether it is one. Only empty or white-space ids and control characters are refused.
 *
 * @category validation
 * @since 1.0.0
 */
export const validateAuthorId = (id: string, parameter = "authorId"): Effect.Effect<string, BadQueryParameters> =>
  Validate.inputEffect(Validate.authorId(id, parameter))

/**
 * Checks a list of ids: not empty, at most `max` when given, each valid.
 *
 * @category validation
 * @since 1.0.0
 */
export const validateIds = (
  ids: ReadonlyArray<string>,
  validate: (id: string, parameter: string) => Effect.Effect<string, BadQueryParameters>,
  parameter: string
): Effect.Effect<ReadonlyArray<string>, BadQueryParameters> =>
  ids.length === 0
    ? Effect.fail(
      Validate.asInput(new Validate.Invalid({ parameter, message: `${parameter} is empty: give at least one id` }))
    )
    : Effect.forEach(ids, (id, index) => validate(id, `${parameter}[${index}]`))

/**
 * An id as a URL path: written as is (a DOI's `/` stays a segment separator, as the API expects),
 * except characters that would end the path or are not allowed in one.
 *
 * @category utils
 * @since 1.0.0
 */
export const toPath = (id: string): string => encodeURI(id).replace(/[?#]/g, (c) => c === "?" ? "%3F" : "%23")
