/**
 * Paper commands: `paper`, `papers`, `paper-authors`, `citations`, `references`.
 *
 * @since 1.0.0
 */
import { Fields, SemanticScholar } from "@s2-effect/core"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Option from "effect/Option"
import { lookUp } from "../Batch.js"
import * as ClientCommand from "../ClientCommand.js"
import { publicationDateOrYear } from "../flags/filters.js"
import { authorDefaults, edgeDefaults, idsFile, listDefaults, listed, paperDefaults, shown } from "../flags/records.js"
import * as Ids from "../Ids.js"
import * as Output from "../Output.js"
import * as OutputFlags from "../OutputFlags.js"

// Any form `s2 resolve` reads (Ids.paperId): a link or a bare DOI is sent in the API's spelling.
const paperId = Argument.String("paper-id").pipe(
  Argument.withDescription(
    "A paper id: 40-hex paperId, CorpusId:N, DOI:…, ARXIV:…, MAG:…, ACL:…, PMID:…, PMCID:…, URL:…; " +
      "or a DOI, arXiv or semanticscholar.org link, or a bare DOI"
  ),
  Argument.map(Ids.paperId)
)

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
