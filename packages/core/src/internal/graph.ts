/**
 * The Academic Graph API: its endpoints as data, and the operations over them. Lookups may go
 * through the batching window; lists are streams of pages, and each record stream is derived from
 * its pages in one place (`Endpoint.recordsOf`).
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type * as Stream from "effect/Stream"
import { Author } from "../Author.js"
import { Citation, Reference } from "../Citation.js"
import * as Fields from "../Fields.js"
import * as Filters from "../Filters.js"
import type {
  BatchOptions,
  BatchResult,
  BulkSearchOptions,
  DatedPageOptions,
  FieldsOption,
  PageOptions,
  SearchPaperOptions,
  SnippetSearchOptions
} from "../Options.js"
import { OffsetPage, TokenPage } from "../Page.js"
import { Paper, PaperAuthor } from "../Paper.js"
import type { S2Error } from "../S2Error.js"
import { ObjectNotFound } from "../S2Error.js"
import type { Service } from "../SemanticScholar.js"
import type { SnippetResults } from "../Snippet.js"
import type { Check } from "../Validate.js"
import * as Endpoint from "./endpoint.js"
import { AutocompleteAnswer, MatchAnswer, SnippetAnswer } from "./envelopes.js"
import * as Lookups from "./lookups.js"
import * as Req from "./request.js"
import * as Validate from "./validate.js"

// ---------------------------------------------------------------------------------------------
// the endpoints

/** What a list or lookup is about: a paper id or an author id in the path, or a query. */
type Subject = "paper" | "author" | "query"

/** A one-record endpoint (`getPaper`, `getAuthor`), batched by `internal/lookups` when asked. */
interface SingleEndpoint<A, I> extends Endpoint.Endpoint {
  readonly subject: "paper" | "author"
  readonly schema: Schema.Codec<A, I>
}

export const getPaper: SingleEndpoint<Paper, typeof Paper.Encoded> = {
  name: "getPaper",
  api: "graph",
  method: "GET",
  path: "/paper/{id}",
  subject: "paper",
  fields: Fields.paperLookup,
  schema: Paper
}

export const getAuthor: SingleEndpoint<Author, typeof Author.Encoded> = {
  name: "getAuthor",
  api: "graph",
  method: "GET",
  path: "/author/{id}",
  subject: "author",
  fields: Fields.authorLookup,
  schema: Author
}

interface Batch<A, I> extends Endpoint.Endpoint, Lookups.BatchEndpoint<A, I> {
  readonly id: (id: string, parameter: string) => Check<string>
}

export const getPapers: Batch<Paper, typeof Paper.Encoded> = {
  name: "getPapers",
  api: "graph",
  method: "POST",
  path: "/paper/batch",
  fields: Fields.paperList,
  size: 500,
  schema: Paper,
  noun: "paper",
  id: Validate.paperId
}

export const getAuthors: Batch<Author, typeof Author.Encoded> = {
  name: "getAuthors",
  api: "graph",
  method: "POST",
  path: "/author/batch",
  fields: Fields.authorLookup,
  size: 1000,
  schema: Author,
  noun: "author",
  id: Validate.authorId
}

interface List<P, I> extends Endpoint.ListEndpoint<P, I> {
  readonly subject: Subject
  /** Takes `publicationDateOrYear`. */
  readonly dated: boolean
}

/** Offset lists: at most 1000 a page, 9,999 results in all; relevance search 100 and 1,000. */
const list = <A, I>(
  name: string,
  path: string,
  subject: Subject,
  fields: Fields.FieldSet,
  item: Schema.Codec<A, I>,
  more: { readonly label: string; readonly dated?: boolean; readonly maxLimit?: number; readonly ceiling?: number }
) => ({
  name,
  path,
  subject,
  fields,
  page: OffsetPage(item),
  maxLimit: more.maxLimit ?? 1000,
  ceiling: more.ceiling ?? 9999,
  label: more.label,
  dated: more.dated ?? false,
  method: "GET" as const,
  api: "graph" as const
})

export const lists = {
  getPaperAuthors: list("getPaperAuthors", "/paper/{id}/authors", "paper", Fields.paperAuthors, PaperAuthor, {
    label: "paper authors"
  }),
  getPaperCitations: list("getPaperCitations", "/paper/{id}/citations", "paper", Fields.citationList, Citation, {
    label: "citations",
    dated: true
  }),
  getPaperReferences: list("getPaperReferences", "/paper/{id}/references", "paper", Fields.citationList, Reference, {
    label: "references"
  }),
  getAuthorPapers: list("getAuthorPapers", "/author/{id}/papers", "author", Fields.paperList, Paper, {
    label: "author papers",
    dated: true
  }),
  searchAuthor: list("searchAuthor", "/author/search", "query", Fields.authorLookup, Author, {
    label: "author search"
  }),
  searchPaper: list("searchPaper", "/paper/search", "query", Fields.paperList, Paper, {
    label: "relevance search",
    maxLimit: 100,
    ceiling: 1000
  })
}

export const searchPaperBulk = {
  name: "searchPaper",
  api: "graph",
  method: "GET",
  path: "/paper/search/bulk",
  fields: Fields.paperList,
  page: TokenPage(Paper),
  label: "bulk search"
} as const

const single = (name: string, path: string, fields?: Fields.FieldSet): Endpoint.Endpoint => ({
  name,
  api: "graph",
  method: "GET",
  path,
  fields
})

export const matchPaperTitle = single("matchPaperTitle", "/paper/search/match", Fields.paperList)
export const getAutocomplete = single("getAutocomplete", "/paper/autocomplete")
export const searchSnippet = single("searchSnippet", "/snippet/search")

/** The server reads the first 100 characters of an autocomplete query; more would only lengthen the URL. */
const autocompleteLength = 100

// ---------------------------------------------------------------------------------------------
// validated requests

const idOf = (subject: "paper" | "author", id: string) =>
  Validate.inputEffect(subject === "paper" ? Validate.paperId(id) : Validate.authorId(id))

/** Bulk search may list everything (an empty query); the others need words to search for. */
const queryParam = (text: string, allowEmpty = false): Effect.Effect<Filters.QueryParam, S2Error> =>
  allowEmpty
    ? Effect.as(
      Validate.inputEffect(Validate.fitsUrl("query", text, "the words to search for")),
      ["query", text] as const
    )
    : Effect.as(
      Validate.inputEffect(Validate.nonBlank("query", text, "the words to search for")),
      ["query", text] as const
    )

/** Path and query of a list: subject, `extra` (search filters), fields, then the date range. */
const listRequest = <P, I>(
  endpoint: List<P, I>,
  subject: string,
  options: FieldsOption<string> & { readonly publicationDateOrYear?: string | undefined },
  extra: Effect.Effect<ReadonlyArray<Filters.QueryParam>, S2Error> = Effect.succeed([])
) =>
  Effect.gen(function*() {
    const query: Array<Filters.QueryParam> = []
    let path = endpoint.path
    if (endpoint.subject === "query") query.push(yield* queryParam(subject))
    else path = Endpoint.place(endpoint, yield* idOf(endpoint.subject, subject), endpoint.subject)
    query.push(...yield* extra, yield* Endpoint.fieldsParam(endpoint, options.fields))
    if (endpoint.dated && options.publicationDateOrYear !== undefined) {
      query.push([
        "publicationDateOrYear",
        yield* Validate.inputEffect(Validate.dateRange(options.publicationDateOrYear))
      ])
    }
    return { path, query }
  })

/** The search filters, and `sort`, which only bulk search takes. */
const searchFilters = (options: SearchPaperOptions) =>
  Effect.gen(function*() {
    const params = [...yield* Filters.render(options)]
    if (options.bulk === true) {
      if (options.sort !== undefined) params.push(["sort", yield* Filters.validateSort(options.sort)])
    } else if ("sort" in options && options.sort !== undefined) {
      return yield* Validate.inputEffect(
        Validate.refuse("sort", "sort is only allowed with bulk: true (relevance search is ranked)")
      )
    }
    return params
  })

const bulkQuery = (text: string, options: BulkSearchOptions) =>
  Effect.gen(function*() {
    const query: Array<Filters.QueryParam> = [yield* queryParam(text, true)]
    query.push(...yield* searchFilters(options), yield* Endpoint.fieldsParam(searchPaperBulk, options.fields))
    return query
  })

/** Snippet search's own options: `snippet.*` fields, up to 100 paper ids, 1 to 10 authors, a date. */
const snippetQuery = (text: string, options: SnippetSearchOptions) =>
  Effect.gen(function*() {
    const params: Array<Filters.QueryParam> = [yield* queryParam(text)]
    params.push(["limit", String(yield* Validate.inputEffect(Validate.limit(options.limit ?? 10, 1000)))])
    if (options.fields !== undefined) {
      const wrong = options.fields.filter((f) => !/^snippet\.[A-Za-z]/.test(f))
      if (options.fields.length === 0 || wrong.length > 0) {
        return yield* Validate.inputEffect(Validate.refuse(
          "fields",
          `snippet fields must be snippet.* paths such as snippet.text (score and paper always come back); got ${
            wrong.map((f) => JSON.stringify(f)).join(", ") || "an empty list"
          }`
        ))
      }
      params.push(["fields", options.fields.join(",")])
    }
    if (options.paperIds !== undefined) {
      yield* Validate.inputEffect(Validate.listSize("paperIds", options.paperIds, { min: 0, max: 100, noun: "ids" }))
      const ids = yield* Validate.inputEffect(Validate.ids(options.paperIds, Validate.paperId, "paperIds"))
      // One comma-joined value on the wire: an id with a comma would be read as two.
      const split = ids.findIndex((id) => id.includes(","))
      if (split >= 0) {
        return yield* Validate.inputEffect(
          Validate.refuse("paperIds", `paperIds[${split}] contains a comma, which the API would read as two ids`)
        )
      }
      params.push(["paperIds", ids.join(",")])
    }
    if (options.authors !== undefined) {
      yield* Validate.inputEffect(Validate.listSize("authors", options.authors, { min: 1, max: 10, noun: "names" }))
      params.push(["authors", yield* Validate.inputEffect(Validate.commaList("authors", options.authors, "name"))])
    }
    if (options.insertedBefore !== undefined) {
      params.push([
        "insertedBefore",
        yield* Validate.inputEffect(Validate.singleDate("insertedBefore", options.insertedBefore))
      ])
    }
    const { fieldsOfStudy, minCitationCount, publicationDateOrYear, venue, year } = options
    params.push(...yield* Filters.render({ fieldsOfStudy, minCitationCount, publicationDateOrYear, venue, year }))
    return params
  })

// ---------------------------------------------------------------------------------------------
// the operations

/** What the graph operations need besides the transport: the batching windows of lookups. */
export interface Context extends Endpoint.Context {
  readonly loaders: {
    readonly settings: Lookups.Settings
    readonly papers: Lookups.Loader<Paper>
    readonly authors: Lookups.Loader<Author>
  }
}

/** A batch lookup: ids checked, split by the endpoint's size, answers in input order. */
const batch = <A, I>(context: Context, endpoint: Batch<A, I>) => {
  const ask = Lookups.ask(endpoint, context.transport.execute)
  return Endpoint.fn(endpoint)(
    function*(ids: ReadonlyArray<string>, options: BatchOptions<string> = {}) {
      yield* Validate.inputEffect(Validate.ids(ids, endpoint.id, `${endpoint.noun}Ids`))
      const concurrency = yield* Validate.inputEffect(
        Validate.wholeNumber("concurrency", options.concurrency ?? 1, { min: 1 })
      )
      const [, fields] = yield* Endpoint.fieldsParam(endpoint, options.fields)
      const chunks = Array.from(
        { length: Math.ceil(ids.length / endpoint.size) },
        (_, i) => ids.slice(i * endpoint.size, (i + 1) * endpoint.size)
      )
      const answers = yield* Effect.forEach(chunks, (chunk) => ask(fields, chunk), { concurrency })
      const found: Array<A> = []
      const notFound: Array<string> = []
      answers.flat().forEach((entry, i) => entry === null ? notFound.push(ids[i] ?? "") : found.push(entry))
      // Asked which ids were not found, "all of them" is an answer; asked for papers only, an empty
      // list would be a silent empty result.
      if (found.length === 0 && options.returnNotFound !== true) {
        return yield* new ObjectNotFound({
          subject: `none of the ${ids.length} ${endpoint.noun} id(s)`,
          problem: `was found (first: ${JSON.stringify(ids[0])})`,
          request: `POST ${endpoint.path}`,
          method: "POST",
          url: endpoint.path
        })
      }
      return options.returnNotFound === true ? ({ found, notFound } satisfies BatchResult<A>) : found
    }
  )
}

/**
 * A single lookup, through the batching window when batching is on (with a cache, the window
 * stores each lookup on its own, under the key of this lookup's own request: see `lookups.ts`).
 */
const lookup = <A, I>(context: Context, endpoint: SingleEndpoint<A, I>, loader: Lookups.Loader<A>) =>
  Endpoint.fn(endpoint)(function*(id: string, options: FieldsOption<string> = {}) {
    const checked = yield* idOf(endpoint.subject, id)
    const [, fields] = yield* Endpoint.fieldsParam(endpoint, options.fields)
    // Batched or not, a lookup stands for this request: the response cache keys it by it.
    const request = Req.get("graph", Endpoint.place(endpoint, checked, endpoint.subject), [["fields", fields]])
    const scope = yield* Lookups.BatchingOverride
    if (!(scope.enabled ?? context.loaders.settings.enabled)) {
      return yield* context.transport.execute(request, endpoint.schema)
    }
    return yield* loader(checked, fields, request)
  })

/** The pages of an offset list of `subject` (an id, or the query of a search). */
const offsetPages = <A, P extends OffsetPage<A>, I>(
  context: Context,
  endpoint: List<P, I>,
  subject: string,
  options: FieldsOption<string> & DatedPageOptions,
  extra?: Effect.Effect<ReadonlyArray<Filters.QueryParam>, S2Error>
): Stream.Stream<P, S2Error> =>
  Endpoint.offsetList(context, endpoint, listRequest(endpoint, subject, options, extra), options)

/** The lists of the graph, as streams of pages. */
const pageOperations = (context: Context) => ({
  getPaperAuthorsPages: (paperId: string, options: FieldsOption<string> & PageOptions = {}) =>
    offsetPages(context, lists.getPaperAuthors, paperId, options),
  getPaperCitationsPages: (paperId: string, options: FieldsOption<string> & DatedPageOptions = {}) =>
    offsetPages(context, lists.getPaperCitations, paperId, options),
  getPaperReferencesPages: (paperId: string, options: FieldsOption<string> & PageOptions = {}) =>
    offsetPages(context, lists.getPaperReferences, paperId, options),
  getAuthorPapersPages: (authorId: string, options: FieldsOption<string> & DatedPageOptions = {}) =>
    offsetPages(context, lists.getAuthorPapers, authorId, options),
  searchAuthorPages: (query: string, options: FieldsOption<string> & PageOptions = {}) =>
    offsetPages(context, lists.searchAuthor, query, options),
  searchPaperPages: (
    query: string,
    options: SearchPaperOptions = {}
  ): Stream.Stream<TokenPage<Paper> | OffsetPage<Paper>, S2Error> =>
    options.bulk === true
      ? Endpoint.tokenList(context, searchPaperBulk, bulkQuery(query, options), options)
      : offsetPages(context, lists.searchPaper, query, options, searchFilters(options))
})

/** The graph operations of the service. */
export const make = (context: Context) => {
  const pages = pageOperations(context)
  return {
    ...pages,
    ...Endpoint.recordsOf(pages),
    // The overloads are the service's, written once there; the implementations take their union.
    searchPaperPages: pages.searchPaperPages as Service["searchPaperPages"],
    getPapers: batch(context, getPapers) as Service["getPapers"],
    getAuthors: batch(context, getAuthors) as Service["getAuthors"],
    getPaper: lookup(context, getPaper, context.loaders.papers),
    getAuthor: lookup(context, getAuthor, context.loaders.authors),
    matchPaperTitle: Endpoint.fn(matchPaperTitle)(
      function*(text: string, options: Filters.SearchFilters & FieldsOption<string> = {}) {
        const params = [yield* queryParam(text), ...yield* Filters.render(options)]
        params.push(yield* Endpoint.fieldsParam(matchPaperTitle, options.fields))
        const answer = yield* context.transport.execute(Req.get("graph", matchPaperTitle.path, params), MatchAnswer)
        const [best] = answer.data
        return best ??
          (yield* new ObjectNotFound({ subject: "no paper title", problem: `matches ${JSON.stringify(text)}` }))
      }
    ),
    getAutocomplete: Endpoint.fn(getAutocomplete)(function*(text: string) {
      const [name, value] = yield* queryParam(text)
      const cut = Array.from(value).slice(0, autocompleteLength).join("")
      const answer = yield* Endpoint.call(
        context,
        getAutocomplete,
        Req.get("graph", getAutocomplete.path, [[name, cut]]),
        AutocompleteAnswer
      )
      return answer.matches
    }),
    searchSnippet: Endpoint.fn(searchSnippet)(function*(text: string, options: SnippetSearchOptions = {}) {
      const params = yield* snippetQuery(text, options)
      const request = Req.get("graph", searchSnippet.path, params)
      const answer = yield* Endpoint.call(context, searchSnippet, request, SnippetAnswer)
      const results: SnippetResults = Object.assign([...answer.data], { retrievalVersion: answer.retrievalVersion })
      return results
    })
  } satisfies Partial<Service>
}
