/**
 * Search commands: `search` (relevance, or `--bulk`), `match`, `autocomplete`, `snippets`.
 *
 * @since 1.0.0
 */
import type { SnippetField } from "@s2-effect/core"
import { Fields, SemanticScholar } from "@s2-effect/core"
import { TitleMatch } from "@s2-effect/jobs"
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as ClientCommand from "../ClientCommand.js"
import { badInput, ExitCode, failed } from "../ExitCode.js"
import * as FilterFlags from "../flags/filters.js"
import { listDefaults, listed, shown } from "../flags/records.js"
import * as Ids from "../Ids.js"
import * as Output from "../Output.js"
import * as OutputFlags from "../OutputFlags.js"
import * as Parse from "../Parse.js"
import * as SharedFlags from "../SharedFlags.js"
import * as TextFlag from "../TextFlag.js"

const query = Argument.String("query").pipe(Argument.withDescription("The words to search for"))

/**
 * `s2 search <query>`: relevance search (at most 1,000 results), or with `--bulk` the bulk
 * endpoint (boolean query syntax, `--sort`, up to 10 million results).
 *
 * @since 1.0.0
 */
export const search = ClientCommand.make(
  "search",
  {
    query,
    ...listed,
    bulk: Flag.Boolean("bulk").pipe(
      Flag.withDescription("Use bulk search (token paging, --sort)"),
      Flag.withDefault(false)
    ),
    sort: FilterFlags.sort,
    ...FilterFlags.flags
  },
  (o) => `${o.bulk ? "bulk " : ""}search ${JSON.stringify(o.query)}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    const fields = yield* OutputFlags.fields(o, Fields.paperList, listDefaults)
    const filters = yield* FilterFlags.toFilters(o)
    if (!o.bulk && Option.isSome(o.sort)) {
      return yield* Effect.fail(badInput("--sort needs --bulk: relevance search is ranked"))
    }
    if (!o.bulk) {
      return yield* Output.stream(
        o,
        s2.searchPaper(o.query, { ...filters, fields, limit: Output.pageSize(o, 100) })
      )
    }
    const progress = yield* SharedFlags.progress()
    const max = yield* OutputFlags.max(o)
    const startedAt = Date.now()
    let records = 0
    let pages = 0
    // Pages, not records, so that the progress line counts pages and knows the total.
    const papers = s2.searchPaperPages(o.query, {
      ...filters,
      fields,
      bulk: true,
      sort: Option.getOrUndefined(o.sort)
    }).pipe(
      Stream.tap((page) => {
        pages++
        records += page.data.length
        return progress.update({
          records: max === undefined ? records : Math.min(records, max),
          pages,
          target: max === undefined ? page.total : Math.min(page.total, max),
          startRecords: 0,
          startedAt,
          now: Date.now()
        })
      }),
      Stream.flatMap((page) => Stream.fromIterable(page.data))
    )
    return yield* Output.stream(o, papers).pipe(Effect.ensuring(progress.stop))
  }
).pipe(Command.withDescription("Search papers (relevance; --bulk for the bulk endpoint)"))

/**
 * `s2 match <title>`: the paper with this title. The API's title match answers the nearest title it
 * has, however far (a title with one word changed gets another paper), so its paper is shown only
 * when it has the title given (`TitleMatch`); else the title is not found (exit 3), naming the
 * nearest and how similar it is, as `s2 resolve` does.
 *
 * @since 1.0.0
 */
export const match = ClientCommand.make(
  "match",
  {
    title: Argument.String("title").pipe(Argument.withDescription("A paper title")),
    ...shown,
    ...FilterFlags.flags
  },
  (o) => `title match ${JSON.stringify(o.title)}`,
  function*(o, what) {
    const s2 = yield* SemanticScholar
    // The paper is checked against its title: asked for whatever --fields names.
    const withTitle = Option.map(o.fields, (given) => given.trim() === "all" ? given : `${given},title`)
    const fields = yield* OutputFlags.fields({ fields: withTitle }, Fields.paperList, listDefaults)
    const filters = yield* FilterFlags.toFilters(o)
    const paper = yield* s2.matchPaperTitle(o.title, { ...filters, fields })
    const { same, similarity } = TitleMatch.compare(o.title, paper.title ?? "")
    if (!same) {
      return yield* Effect.fail(
        failed(
          what,
          TitleMatch.describeNearest(paper.title ?? "", similarity),
          "check the title, or look for it with s2 search",
          ExitCode.notFound
        )
      )
    }
    yield* Output.one(o, paper)
  }
).pipe(Command.withDescription("The paper with this title (exit 3 when none has it)"))

/**
 * `s2 autocomplete <text>`.
 *
 * @since 1.0.0
 */
export const autocomplete = ClientCommand.make(
  "autocomplete",
  {
    text: Argument.String("text").pipe(Argument.withDescription("The beginning of a title")),
    max: OutputFlags.maxFlag,
    format: OutputFlags.formatFlag
  },
  (o) => `autocomplete ${JSON.stringify(o.text)}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    yield* Output.many(o, yield* s2.getAutocomplete(o.text))
  }
).pipe(Command.withDescription("Title completions for a partial query"))

/**
 * `s2 snippets <query>`: passages of text matching a query.
 *
 * @since 1.0.0
 */
export const snippets = ClientCommand.make(
  "snippets",
  {
    query,
    fields: TextFlag.optional(
      "fields",
      "list",
      "Comma-separated snippet fields to return (snippet.text, snippet.section, …); `all` for every field"
    ),
    max: OutputFlags.maxFlag,
    format: OutputFlags.formatFlag,
    paperIds: TextFlag.optional("paper-ids", "list", "Comma-separated paper ids to search in"),
    authors: TextFlag.optional("authors", "list", "Comma-separated author names (all must match)"),
    minCitationCount: FilterFlags.flags.minCitationCount,
    insertedBefore: TextFlag.optional("inserted-before", "date", "Only snippets inserted before YYYY[-MM[-DD]]"),
    year: FilterFlags.flags.year,
    venue: FilterFlags.flags.venue,
    fieldsOfStudy: FilterFlags.flags.fieldsOfStudy,
    publicationDateOrYear: FilterFlags.publicationDateOrYear
  },
  (o) => `snippet search ${JSON.stringify(o.query)}`,
  function*(o) {
    const s2 = yield* SemanticScholar
    const names = Option.getOrUndefined(
      Option.map(Option.filter(o.fields, (f) => f.trim() !== "all"), Parse.splitList)
    )
    const filters = yield* FilterFlags.toFilters({
      year: Option.none(),
      publicationTypes: Option.none(),
      openAccessPdf: false,
      venue: Option.none(),
      fieldsOfStudy: o.fieldsOfStudy,
      publicationDateOrYear: Option.none(),
      minCitationCount: Option.none()
    })
    const max = yield* OutputFlags.max(o)
    yield* Output.many(
      o,
      yield* s2.searchSnippet(o.query, {
        // The client checks that each is a snippet.* path (exit 2 naming the others), once.
        fields: names as ReadonlyArray<SnippetField> | undefined,
        paperIds: Option.getOrUndefined(Option.map(o.paperIds, (list) => Parse.splitList(list).map(Ids.paperId))),
        authors: Option.getOrUndefined(Option.map(o.authors, Parse.splitList)),
        minCitationCount: Option.getOrUndefined(o.minCitationCount),
        insertedBefore: Option.getOrUndefined(o.insertedBefore),
        year: Option.getOrUndefined(o.year),
        venue: Option.getOrUndefined(Option.map(o.venue, Parse.splitList)),
        fieldsOfStudy: filters.fieldsOfStudy,
        publicationDateOrYear: Option.getOrUndefined(o.publicationDateOrYear),
        limit: max === undefined ? undefined : Math.min(max, 1000)
      })
    )
  }
).pipe(Command.withDescription("Passages of text matching a query"))
