/**
 * Field selection. Every operation takes `fields`: the names the server should return. Known names
 * (including dotted nested names such as `authors.name`) are typed, so they autocomplete and a typo
 * is a type error; at run time an unknown name fails with `BadQueryParameters` before any request.
 * A field the server adds after this release can be asked for with {@link unchecked}.
 *
 * Naming fields is faster and lighter: when `fields` is omitted the client asks for every field the
 * endpoint serves, as the reference client does.
 *
 * @since 1.0.0
 */
import * as Effect from "effect/Effect"
import { excerpt } from "./internal/text.js"
import { BadQueryParameters } from "./S2Error.js"

/**
 * @category constants
 * @since 1.0.0
 */
export const paperSummaryFields = [
  "paperId",
  "corpusId",
  "externalIds",
  "url",
  "title",
  "abstract",
  "venue",
  "publicationVenue",
  "year",
  "referenceCount",
  "citationCount",
  "influentialCitationCount",
  "isOpenAccess",
  "openAccessPdf",
  "fieldsOfStudy",
  "s2FieldsOfStudy",
  "publicationTypes",
  "publicationDate",
  "journal",
  "citationStyles",
  "authors"
] as const

/**
 * @category constants
 * @since 1.0.0
 */
export const paperOnlyFields = ["citations", "references", "embedding", "tldr", "textAvailability"] as const

/**
 * @category constants
 * @since 1.0.0
 */
export const authorSummaryFields = [
  "authorId",
  "externalIds",
  "url",
  "name",
  "affiliations",
  "homepage",
  "paperCount",
  "citationCount",
  "hIndex"
] as const

/**
 * @category constants
 * @since 1.0.0
 */
export const citationEdgeFields = ["contexts", "intents", "contextsWithIntent", "isInfluential"] as const

/**
 * @category constants
 * @since 1.0.0
 */
export const embeddingModels = ["specter_v1", "specter_v2"] as const

/**
 * A top-level field of a paper that can also be asked for inside lists of papers.
 *
 * @category models
 * @since 1.0.0
 */
export type PaperSummaryField = typeof paperSummaryFields[number]
/**
 * @category models
 * @since 1.0.0
 */
export type AuthorSummaryField = typeof authorSummaryFields[number]
/**
 * @category models
 * @since 1.0.0
 */
export type CitationEdgeField = typeof citationEdgeFields[number]

/**
 * A field of a paper: top-level names and the nested names the API serves.
 *
 * @category models
 * @since 1.0.0
 */
export type PaperField =
  | PaperSummaryField
  | typeof paperOnlyFields[number]
  | `authors.${AuthorSummaryField}`
  | `citations.${PaperSummaryField}`
  | `references.${PaperSummaryField}`
  | `embedding.${typeof embeddingModels[number]}`

/**
 * A field of an author, with the nested names of the author's papers.
 *
 * @category models
 * @since 1.0.0
 */
export type AuthorField = AuthorSummaryField | "papers" | `papers.${PaperSummaryField}`

/**
 * A field of a citation or reference edge: the edge's own fields, or a field of the paper at the
 * other end (`title` asks for `citingPaper.title` on the citations endpoint).
 *
 * @category models
 * @since 1.0.0
 */
export type CitationField = CitationEdgeField | PaperSummaryField | `authors.${AuthorSummaryField}`

/**
 * A field name the client does not know, passed on unchecked.
 *
 * @category models
 * @since 1.0.0
 */
export interface Unchecked {
  readonly _tag: "Unchecked"
  readonly name: string
}

/**
 * The escape hatch for a field the server added after this release: it is sent as written.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Fields, SemanticScholar } from "@s2-effect/core"
 *
 * const program = SemanticScholar.pipe(
 *   Effect.flatMap((s2) => s2.getPaper("CorpusId:1", { fields: ["title", Fields.unchecked("newField")] }))
 * )
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const unchecked = (name: string): Unchecked => ({ _tag: "Unchecked", name })

const nested = (prefix: string, names: ReadonlyArray<string>) => names.map((name) => `${prefix}.${name}`)

/**
 * The names one kind of endpoint accepts, and what it asks for when `fields` is omitted.
 *
 * @category models
 * @since 1.0.0
 */
export interface FieldSet {
  readonly kind: string
  readonly known: ReadonlySet<string>
  readonly defaults: ReadonlyArray<string>
}

const fieldSet = (kind: string, known: ReadonlyArray<string>, defaults: ReadonlyArray<string>): FieldSet => ({
  kind,
  known: new Set(known),
  defaults: [...defaults].sort()
})

const allPaperFields: ReadonlyArray<string> = [
  ...paperSummaryFields,
  ...paperOnlyFields,
  ...nested("authors", authorSummaryFields),
  ...nested("citations", paperSummaryFields),
  ...nested("references", paperSummaryFields),
  ...nested("embedding", embeddingModels)
]

/** The paper summary set: what lists, searches, batches and recommendations of papers send by default. */
const summaryDefaults: ReadonlyArray<string> = paperSummaryFields

/** Every field of an author but `papers`: the default of a paper's author list. */
const authorDefaults: ReadonlyArray<string> = authorSummaryFields

/** A single paper: every field, with every field of its authors and the summary of its citations and references. */
const paperDefaults: ReadonlyArray<string> = [
  ...paperSummaryFields,
  "citations",
  "references",
  "embedding",
  "tldr",
  ...nested("authors", authorSummaryFields),
  ...nested("citations", paperSummaryFields),
  ...nested("references", paperSummaryFields)
]

/** An author looked up or searched: every field, and the summary of each paper (less its BibTeX). */
const authorWithPapersDefaults: ReadonlyArray<string> = [
  ...authorSummaryFields,
  "papers",
  ...nested("papers", paperSummaryFields.filter((name) => name !== "citationStyles"))
]

const allAuthorFields: ReadonlyArray<string> = [
  ...authorSummaryFields,
  "papers",
  ...nested("papers", paperSummaryFields)
]

/**
 * A single paper: when omitted, every field, nested ones included.
 *
 * @category constants
 * @since 1.0.0
 */
export const paperLookup = fieldSet("paper", allPaperFields, paperDefaults)
/**
 * Lists, searches (bulk too: the summary set is what the bulk endpoint serves), batches and
 * recommendations of papers: when omitted, the paper summary set.
 *
 * @category constants
 * @since 1.0.0
 */
export const paperList = fieldSet("paper", allPaperFields, summaryDefaults)
/**
 * A single author, a batch or a search of authors: when omitted, every field with the papers' summary.
 *
 * @category constants
 * @since 1.0.0
 */
export const authorLookup = fieldSet("author", allAuthorFields, authorWithPapersDefaults)
/**
 * The authors of a paper: when omitted, every author field but `papers`.
 *
 * @category constants
 * @since 1.0.0
 */
export const paperAuthors = fieldSet("author", allAuthorFields, authorDefaults)

/**
 * Citation and reference edges: when omitted, the edge fields and the other paper's summary.
 *
 * @category constants
 * @since 1.0.0
 */
export const citationList = fieldSet(
  "citation",
  [...citationEdgeFields, ...paperSummaryFields, ...nested("authors", authorSummaryFields)],
  [...citationEdgeFields, ...summaryDefaults]
)

/**
 * Checks a selection against the endpoint's names and renders the wire value (comma-joined, in the
 * caller's order, duplicates dropped). Fails with `BadQueryParameters` naming the unknown field and
 * what is allowed.
 *
 * @category utils
 * @since 1.0.0
 */
export const render = (
  set: FieldSet,
  fields: ReadonlyArray<string | Unchecked> | Selection | undefined
): Effect.Effect<string, BadQueryParameters> => {
  if (fields === undefined) return Effect.succeed(set.defaults.join(","))
  if (isSelection(fields)) {
    return fields.kind === set.kind
      ? Effect.succeed(fields.value)
      : Effect.fail(
        new BadQueryParameters({
          subject: "fields",
          problem: `were selected for a ${fields.kind}, but this operation returns a ${set.kind}`,
          parameter: "fields"
        })
      )
  }
  if (fields.length === 0) {
    return Effect.fail(
      new BadQueryParameters({
        subject: "fields",
        problem: "is empty",
        advice: "name at least one field, or omit fields to get every field",
        parameter: "fields"
      })
    )
  }
  const names: Array<string> = []
  for (const field of fields) {
    const name = typeof field === "string" ? field : field.name
    if (name.length === 0 || name.includes(",")) {
      return Effect.fail(
        new BadQueryParameters({
          subject: `field name ${JSON.stringify(excerpt(name, 200))}`,
          problem: "is invalid",
          advice: "give one non-empty name per entry, without commas",
          parameter: "fields"
        })
      )
    }
    if (typeof field === "string" && !set.known.has(name)) {
      const problem = `unknown ${set.kind} field ${JSON.stringify(excerpt(name, 200))}; known fields: ${
        [...set.known].filter((known) => !known.includes(".")).join(", ")
      } (and dotted nested names such as authors.name)`
      const advice = `use Fields.unchecked(${JSON.stringify(excerpt(name, 200))}) for a field newer than this client`
      // In parts: the `s2` command gives its own advice (`--fields all`).
      return Effect.fail(
        new BadQueryParameters({ problem, advice, parameter: "fields" })
      )
    }
    names.push(name)
  }
  return Effect.succeed([...new Set(names)].join(","))
}

/**
 * A field selection checked once, e.g. from a command line: give it as `fields` to any operation
 * returning the same kind of record, and it is sent as is, without a second check.
 *
 * @category models
 * @since 1.0.0
 */
export interface Selection {
  readonly _tag: "Selection"
  /** The kind of record it was checked for (`paper`, `author`, `citation`). */
  readonly kind: string
  /** The wire value: the names comma-joined, duplicates dropped. */
  readonly value: string
}

/**
 * Checks names against a field set once, giving a {@link Selection}; unknown names fail with
 * `BadQueryParameters` as in an operation. Omitted names select the set's defaults.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Fields } from "@s2-effect/core"
 *
 * const selection = Fields.select(Fields.paperList, ["title", "year"]) // Effect<Selection, BadQueryParameters>
 * ```
 * @category constructors
 * @since 1.0.0
 */
export const select = (
  set: FieldSet,
  fields: ReadonlyArray<string | Unchecked> | undefined
): Effect.Effect<Selection, BadQueryParameters> =>
  Effect.map(render(set, fields), (value): Selection => ({ _tag: "Selection", kind: set.kind, value }))

/**
 * @category guards
 * @since 1.0.0
 */
export const isSelection = (u: unknown): u is Selection =>
  typeof u === "object" && u !== null && "_tag" in u && u._tag === "Selection"
