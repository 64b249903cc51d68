/**
 * Author commands: `author`, `authors`, `author-papers`, `search-author`.
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
import { authorDefaults, idsFile, listDefaults, listed, shown } from "../flags/records.js"
import * as Ids from "../Ids.js"
import * as Output from "../Output.js"
import * as OutputFlags from "../OutputFlags.js"

const authorId = Argument.String("author-id").pipe(Argument.withDescription("An author id (a number)"))

/**
 * `s2 author <id>`.
 *
 * @since 1.0.0
 */
export const author = ClientCommand.make(
  "author",
  { id: authorId, ...shown },
  (o) => `author ${o.id}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    const fields = yield* OutputFlags.fields(o, Fields.authorLookup, [
      ...authorDefaults,
      "externalIds",
      "homepage",
      "url"
    ])
    yield* Output.one(o, yield* s2.getAuthor(o.id, { fields }))
  }
).pipe(Command.withDescription("Look up one author"))

/**
 * `s2 authors <id…>`: any number of ids, 1000 per request.
 *
 * @since 1.0.0
 */
export const authors = ClientCommand.make(
  "authors",
  { ids: authorId.pipe(Argument.variadic()), idsFile, ...listed },
  "authors batch",
  function*(o) {
    const s2 = yield* SemanticScholar
    const ids = yield* Ids.gather(o.ids, o.idsFile)
    const fields = yield* OutputFlags.fields(o, Fields.authorLookup, authorDefaults)
    yield* lookUp(o, ids, 1000, (chunk) => s2.getAuthors(chunk, { fields, returnNotFound: true }))
  }
).pipe(Command.withDescription("Look up many authors (ids as arguments and/or --ids-file), 1000 per request"))

/**
 * `s2 author-papers <id>`.
 *
 * @since 1.0.0
 */
export const authorPapers = ClientCommand.make(
  "author-papers",
  { id: authorId, publicationDateOrYear, ...listed },
  (o) => `papers of author ${o.id}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    const fields = yield* OutputFlags.fields(o, Fields.paperList, listDefaults)
    yield* Output.stream(
      o,
      s2.getAuthorPapers(o.id, {
        fields,
        limit: Output.pageSize(o, 1000),
        publicationDateOrYear: Option.getOrUndefined(o.publicationDateOrYear)
      })
    )
  }
).pipe(Command.withDescription("The papers of an author (streamed)"))

/**
 * `s2 search-author <query>`.
 *
 * @since 1.0.0
 */
export const searchAuthor = ClientCommand.make(
  "search-author",
  { query: Argument.String("query").pipe(Argument.withDescription("A name or part of one")), ...listed },
  (o) => `author search ${JSON.stringify(o.query)}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    const fields = yield* OutputFlags.fields(o, Fields.paperAuthors, authorDefaults)
    yield* Output.stream(o, s2.searchAuthor(o.query, { fields, limit: Output.pageSize(o, 1000) }))
  }
).pipe(Command.withDescription("Search authors by name"))
