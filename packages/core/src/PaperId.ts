/**
 * Paper and author identifiers: what can never be an id (refused before a request is made; the
 * server judges the rest), and how an id is placed in a URL path.
 *
 * @since 1.0.0
 */
import * as Effect from "effect/Effect"
import * as internal from "./internal/recognise.js"
import * as Validate from "./internal/validate.js"
import { Invalid } from "./Invalid.js"
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
 * Checks a list of ids: not empty, each valid.
 *
 * @deprecated Nothing in the client uses it: every operation checks its own ids before sending.
 * Check each id with {@link validatePaperId} or {@link validateAuthorId} in `Effect.forEach`. Kept
 * for 1.x.
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
      Validate.asInput(new Invalid({ parameter, message: `${parameter} is empty: give at least one id` }))
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

/**
 * What {@link recognise} makes of a line: `Id` (in the API's spelling), `Title` (white space
 * collapsed) or `Malformed` (with why).
 *
 * @category models
 * @since 1.1.0
 */
export type Recognised =
  | { readonly _tag: "Id"; readonly id: string }
  | { readonly _tag: "Title"; readonly title: string }
  | { readonly _tag: "Malformed"; readonly message: string }

/**
 * What a line someone wrote is: a paper id in the API's spelling (`DOI:…`, `ARXIV:…`,
 * `CorpusId:…`, a 40-hex S2 id, …; bare DOIs, `doi:` and `https://doi.org/…`, `arxiv.org/abs/…`
 * semanticscholar.org paper URLs and `api.semanticscholar.org/CorpusID:…` links are rewritten, prefixes in any case are spelled as the API
 * spells them), a title, or malformed (with {@link validatePaperId}'s message). No request is made:
 * whether the id exists is the server's to say.
 *
 * A link names the id in its path: decoded, its query and fragment dropped (a DOI holds `#` or `?`
 * only percent-encoded in its link). arXiv ids are read as people write them, new style
 * (`2305.02115`) and old (`hep-th/9901001`, `math.GT/0309136` as `math/0309136`), with a version,
 * a category (`arXiv:2405.05667v1 [cs.CL]`) or as arXiv's DOI (`10.48550/arXiv.2602.12271v1`), and
 * spelled without the version, which the API does not know.
 *
 * @example
 * ```ts
 * import { PaperId } from "@s2-effect/core"
 *
 * PaperId.recognise("https://doi.org/10.1093/mind/lix.236.433") // { _tag: "Id", id: "DOI:10.1093/mind/lix.236.433" }
 * PaperId.recognise("arxiv:1706.03762") // { _tag: "Id", id: "ARXIV:1706.03762" }
 * PaperId.recognise("2305.02115v2") // { _tag: "Id", id: "ARXIV:2305.02115" }
 * PaperId.recognise("BERT: Pre-training of Deep Bidirectional Transformers") // { _tag: "Title", … }
 * ```
 * @category parsing
 * @since 1.1.0
 */
export const recognise: (input: string) => Recognised = internal.recognise

/**
 * The id in the API's spelling when {@link recognise} reads `input` as one; the id a link names
 * when that id is malformed (a DOI link whose `%2E%2E` decodes to a `..` segment), so that an
 * operation refuses it for what is wrong with the id; otherwise `input` as given, so that an
 * operation's own check refuses it with its message (what is allowed).
 *
 * @example
 * ```ts
 * import { PaperId } from "@s2-effect/core"
 *
 * PaperId.spelled("https://arxiv.org/abs/1706.03762v5") // "ARXIV:1706.03762"
 * PaperId.spelled("not an id") // "not an id"
 * ```
 * @category parsing
 * @since 1.1.0
 */
export const spelled: (input: string) => string = internal.spelled

/**
 * Whether `text` is a DOI as written bare: `10.`, a registrant of 4 to 9 digits, `/`, a suffix
 * without spaces.
 *
 * @category parsing
 * @since 1.1.0
 */
export const isDoi: (text: string) => boolean = internal.isDoi

/**
 * A DOI without what stands before it in a link or a citation: a resolver's address
 * (`https://doi.org/`, `http://dx.doi.org/`) or `doi:`.
 *
 * @category parsing
 * @since 1.1.0
 */
export const withoutDoiPrefix: (text: string) => string = internal.withoutDoiPrefix
