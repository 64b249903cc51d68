/**
 * Paper commands: `paper`, `papers`, `paper-authors`, `citations`, `references`.
 *
 * @since 1.0.0
 */
import { Fields, SemanticScholar } from "@s2-effect/core"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Option from "effect/Option"
import * as ClientCommand from "../ClientCommand.js"
import * as Ids from "../Ids.js"
import * as OutputFlags from "../OutputFlags.js"
import * as Output from "../render/Output.js"
import * as TextFlag from "../TextFlag.js"
import { lookUp } from "./batch.js"

/** Fields shown for a paper when `--fields` is omitted. @since 1.0.0 */
export const paperDefaults = [
  "title",
  "year",
  "venue",
  "publicationDate",
  "authors",
  "citationCount",
  "referenceCount",
  "externalIds",
  "url",
  "abstract"
]
/** Fields shown for papers in lists when `--fields` is omitted. @since 1.0.0 */
export const listDefaults = ["title", "year", "venue", "citationCount", "authors"]
/** Fields shown for citation and reference edges when `--fields` is omitted. @since 1.0.0 */
export const edgeDefaults = ["title", "year", "authors", "isInfluential"]
/** Fields shown for authors when `--fields` is omitted. @since 1.0.0 */
export const authorDefaults = ["name", "affiliations", "paperCount", "citationCount", "hIndex"]

// Any form `s2 resolve` reads (Ids.paperId): a link or a bare DOI is sent in the API's spelling.
const paperId = Argument.String("paper-id").pipe(
  Argument.withDescription(
    "A paper id: 40-hex paperId, CorpusId:N, DOI:…, ARXIV:…, MAG:…, ACL:…, PMID:…, PMCID:…, URL:…; " +
      "or a DOI, arXiv or semanticscholar.org link, or a bare DOI"
  ),
  Argument.map(Ids.paperId)
)

/** `--publication-date-or-year`. @since 1.0.0 */
export const publicationDateOrYear = TextFlag.optional(
  "publication-date-or-year",
  "range",
  "Only papers published in this range: 2019, 2019-03, 2016-03-05:2020-06-06, 2015:, :2015-01"
)

/** The output flags of a lookup of one record. @since 1.0.0 */
export const shown = { fields: OutputFlags.fieldsFlag, format: OutputFlags.formatFlag } as const

/** The output flags of a list. @since 1.0.0 */
export const listed = {
  fields: OutputFlags.fieldsFlag,
  max: OutputFlags.maxFlag,
  format: OutputFlags.formatFlag
} as const

/**
 * `s2 paper <id>`.
 *
 * @since 1.0.0
 */
export const paper = ClientCommand.make(
  "paper",
  { id: paperId, ...shown },
  (o) => `paper ${o.id}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    const fields = yield* OutputFlags.fields(o, Fields.paperLookup, paperDefaults)
    yield* Output.one(o, yield* s2.getPaper(o.id, { fields }))
  }
).pipe(Command.withDescription("Look up one paper"))

/** `--ids-file`. @since 1.0.0 */
export const idsFile = TextFlag.optional(
  "ids-file",
  "file",
  "Read more ids from this file, one per line (- for standard input)"
)

/**
 * `s2 papers <id…>`: any number of ids, 500 per request, in input order; unknown ids are reported
 * on stderr.
 *
 * @since 1.0.0
 */
export const papers = ClientCommand.make(
  "papers",
  { ids: paperId.pipe(Argument.variadic()), idsFile, ...listed },
  "papers batch",
  function*(o) {
    const s2 = yield* SemanticScholar
    const ids = (yield* Ids.gather(o.ids, o.idsFile)).map(Ids.paperId)
    const fields = yield* OutputFlags.fields(o, Fields.paperList, listDefaults)
    yield* lookUp(o, ids, 500, (chunk) => s2.getPapers(chunk, { fields, returnNotFound: true }))
  }
).pipe(Command.withDescription("Look up many papers (ids as arguments and/or --ids-file), 500 per request"))

/**
 * `s2 paper-authors <id>`.
 *
 * @since 1.0.0
 */
export const paperAuthors = ClientCommand.make(
  "paper-authors",
  { id: paperId, ...listed },
  (o) => `authors of paper ${o.id}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    const fields = yield* OutputFlags.fields(o, Fields.paperAuthors, authorDefaults)
    yield* Output.stream(o, s2.getPaperAuthors(o.id, { fields, limit: Output.pageSize(o, 1000) }))
  }
).pipe(Command.withDescription("The authors of a paper"))

/**
 * `s2 citations <id>`: the papers citing a paper, streamed page by page.
 *
 * @since 1.0.0
 */
export const citations = ClientCommand.make(
  "citations",
  { id: paperId, publicationDateOrYear, ...listed },
  (o) => `citations of paper ${o.id}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    const fields = yield* OutputFlags.fields(o, Fields.citationList, edgeDefaults)
    yield* Output.stream(
      o,
      s2.getPaperCitations(o.id, {
        fields,
        limit: Output.pageSize(o, 1000),
        publicationDateOrYear: Option.getOrUndefined(o.publicationDateOrYear)
      })
    )
  }
).pipe(Command.withDescription("Papers citing a paper (streamed)"))

/**
 * `s2 references <id>`: the papers a paper cites.
 *
 * @since 1.0.0
 */
export const references = ClientCommand.make(
  "references",
  { id: paperId, ...listed },
  (o) => `references of paper ${o.id}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    const fields = yield* OutputFlags.fields(o, Fields.citationList, edgeDefaults)
    yield* Output.stream(o, s2.getPaperReferences(o.id, { fields, limit: Output.pageSize(o, 1000) }))
  }
).pipe(Command.withDescription("Papers a paper cites (streamed)"))
