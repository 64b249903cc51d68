/**
 * Paper and author identifiers: which forms the API accepts, checked before a request is made, and
 * how an id is placed in a URL path.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { BadQueryParameters } from "./S2Error.js"

const prefixed: ReadonlyArray<readonly [prefix: string, pattern: RegExp, expected: string]> = [
  ["CorpusId", /^\d+$/, "a number, e.g. CorpusId:215416146"],
  ["DOI", /^10\.\d{4,9}\/\S+$/, "a DOI, e.g. DOI:10.18653/v1/N18-3011"],
  ["ARXIV", /^\S+$/, "an arXiv id, e.g. ARXIV:2106.15928"],
  ["MAG", /^\d+$/, "a number, e.g. MAG:112218234"],
  ["ACL", /^\S+$/, "an ACL Anthology id, e.g. ACL:W12-3903"],
  ["PMID", /^\d+$/, "a number, e.g. PMID:19872477"],
  ["PMCID", /^(PMC)?\d+$/i, "a PubMed Central id, e.g. PMCID:2323736"],
  [
    "URL",
    /^https?:\/\/([\w-]+\.)*(semanticscholar\.org|arxiv\.org|aclweb\.org|aclanthology\.org|acm\.org|biorxiv\.org)\/\S*$/i,
    "a URL on semanticscholar.org, arxiv.org, aclweb.org, acm.org or biorxiv.org"
  ]
]

const sha = /^[0-9a-f]{40}$/i
const bareDoi = /^10\.\d{4,9}\/\S+$/

const allowedForms =
  "a 40-hex paperId, CorpusId:<n>, DOI:<doi> or a bare DOI (10.x/…), ARXIV:<id>, MAG:<n>, ACL:<id>, PMID:<n>, PMCID:<id> or URL:<url>"

const invalid = (parameter: string, message: string) => Effect.fail(new BadQueryParameters({ message, parameter }))

/**
 * Checks that `id` is one of the paper id forms the API accepts. The prefix is matched without
 * regard to case (`CorpusID:` works on the wire too).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { PaperId } from "@s2-effect/core"
 *
 * Effect.runSync(PaperId.validatePaperId("10.1093/mind/lix.236.433")) // "10.1093/mind/lix.236.433"
 * ```
 * @category validation
 * @since 0.1.0
 */
export const validatePaperId = (id: string, parameter = "paperId"): Effect.Effect<string, BadQueryParameters> => {
  if (id.trim().length === 0) return invalid(parameter, `${parameter} is empty: give ${allowedForms}`)
  if (id !== id.trim()) return invalid(parameter, `${parameter} ${JSON.stringify(id)} has surrounding white space`)
  if (sha.test(id) || bareDoi.test(id)) return Effect.succeed(id)
  const colon = id.indexOf(":")
  if (colon > 0) {
    const prefix = id.slice(0, colon).toUpperCase()
    const form = prefixed.find(([known]) => known.toUpperCase() === prefix)
    if (form !== undefined) {
      const [name, pattern, expected] = form
      return pattern.test(id.slice(colon + 1))
        ? Effect.succeed(id)
        : invalid(parameter, `${parameter} ${JSON.stringify(id)} is malformed: after ${name}: give ${expected}`)
    }
  }
  return invalid(parameter, `${parameter} ${JSON.stringify(id)} is not a paper id: give ${allowedForms}`)
}

/**
 * Checks that `id` is an author id: a plain number as a string.
 *
 * @category validation
 * @since 0.1.0
 */
export const validateAuthorId = (id: string, parameter = "authorId"): Effect.Effect<string, BadQueryParameters> =>
  /^\d+$/.test(id)
    ? Effect.succeed(id)
    : invalid(
      parameter,
      id.length === 0
        ? `${parameter} is empty: give an author id, a number such as "1741101"`
        : `${parameter} ${JSON.stringify(id)} is not an author id: give a number such as "1741101"`
    )

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
