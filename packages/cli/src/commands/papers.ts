/**
 * Paper commands: `paper`, `papers`, `paper-authors`, `citations`, `references`.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Fields, SemanticScholar } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as Common from "../Common.js"
import * as Ids from "../Ids.js"
import * as Output from "../render/Output.js"
import { lookUp } from "./batch.js"

/** Fields shown for a paper when `--fields` is omitted. @since 0.1.0 */
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
/** Fields shown for papers in lists when `--fields` is omitted. @since 0.1.0 */
export const listDefaults = ["title", "year", "venue", "citationCount", "authors"]
/** Fields shown for citation and reference edges when `--fields` is omitted. @since 0.1.0 */
export const edgeDefaults = ["title", "year", "authors", "isInfluential"]
/** Fields shown for authors when `--fields` is omitted. @since 0.1.0 */
export const authorDefaults = ["name", "affiliations", "paperCount", "citationCount", "hIndex"]

const paperId = Args.text({ name: "paper-id" }).pipe(
  Args.withDescription("A paper id: 40-hex paperId, CorpusId:N, DOI:…, ARXIV:…, MAG:…, ACL:…, PMID:…, PMCID:…, URL:…")
)

/** `--publication-date-or-year`. @since 0.1.0 */
export const publicationDateOrYear = Options.text("publication-date-or-year").pipe(
  Options.withDescription("Only papers published in this range: 2019, 2019-03, 2016-03-05:2020-06-06, 2015:, :2015-01"),
  Options.optional
)

/**
 * `s2 paper <id>`.
 *
 * @since 0.1.0
 */
export const paper = Command.make("paper", { ...Common.options, id: paperId }, (o) =>
  Common.run(
    o,
    `paper ${o.id}`,
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const fields = yield* Common.fields(o, Fields.paperLookup, paperDefaults)
      yield* Output.one(o, yield* s2.getPaper(o.id, { fields }))
    })
  )).pipe(Command.withDescription("Look up one paper"))

/** `--ids-file`. @since 0.1.0 */
export const idsFile = Options.text("ids-file").pipe(
  Options.withDescription("Read more ids from this file, one per line (- for standard input)"),
  Options.optional
)

/**
 * `s2 papers <id…>`: any number of ids, 500 per request, in input order; unknown ids are reported
 * on stderr.
 *
 * @since 0.1.0
 */
export const papers = Command.make(
  "papers",
  { ...Common.options, ids: paperId.pipe(Args.repeated), idsFile },
  (o) =>
    Common.run(
      o,
      "papers batch",
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const ids = yield* Ids.gather(o.ids, o.idsFile)
        const fields = yield* Common.fields(o, Fields.paperList, listDefaults)
        yield* lookUp(o, ids, 500, (chunk) => s2.getPapers(chunk, { fields, returnNotFound: true }))
      })
    )
).pipe(Command.withDescription("Look up many papers (ids as arguments and/or --ids-file), 500 per request"))

/**
 * `s2 paper-authors <id>`.
 *
 * @since 0.1.0
 */
export const paperAuthors = Command.make("paper-authors", { ...Common.options, id: paperId }, (o) =>
  Common.run(
    o,
    `authors of paper ${o.id}`,
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const fields = yield* Common.fields(o, Fields.paperAuthors, authorDefaults)
      yield* Output.stream(o, s2.getPaperAuthors(o.id, { fields, limit: Output.pageSize(o, 1000) }))
    })
  )).pipe(Command.withDescription("The authors of a paper"))

/**
 * `s2 citations <id>`: the papers citing a paper, streamed page by page.
 *
 * @since 0.1.0
 */
export const citations = Command.make(
  "citations",
  { ...Common.options, id: paperId, publicationDateOrYear },
  (o) =>
    Common.run(
      o,
      `citations of paper ${o.id}`,
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const fields = yield* Common.fields(o, Fields.citationList, edgeDefaults)
        yield* Output.stream(
          o,
          s2.getPaperCitations(o.id, {
            fields,
            limit: Output.pageSize(o, 1000),
            publicationDateOrYear: o.publicationDateOrYear._tag === "Some" ? o.publicationDateOrYear.value : undefined
          })
        )
      })
    )
).pipe(Command.withDescription("Papers citing a paper (streamed)"))

/**
 * `s2 references <id>`: the papers a paper cites.
 *
 * @since 0.1.0
 */
export const references = Command.make("references", { ...Common.options, id: paperId }, (o) =>
  Common.run(
    o,
    `references of paper ${o.id}`,
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const fields = yield* Common.fields(o, Fields.citationList, edgeDefaults)
      yield* Output.stream(o, s2.getPaperReferences(o.id, { fields, limit: Output.pageSize(o, 1000) }))
    })
  )).pipe(Command.withDescription("Papers a paper cites (streamed)"))
