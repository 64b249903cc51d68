/** `fields` query parameter: parsing, validation against the wire's field lists, defaults. */
import * as Data from "effect/Data"

export const PAPER_FIELDS = [
  "paperId",
  "externalIds",
  "corpusId",
  "publicationVenue",
  "url",
  "title",
  "abstract",
  "venue",
  "year",
  "referenceCount",
  "citationCount",
  "influentialCitationCount",
  "isOpenAccess",
  "openAccessPdf",
  "fieldsOfStudy",
  "s2FieldsOfStudy",
  "tldr",
  "publicationTypes",
  "publicationDate",
  "journal",
  "citationStyles",
  "embedding",
  "textAvailability",
  "authors",
  "citations",
  "references"
] as const

export const AUTHOR_FIELDS = [
  "authorId",
  "externalIds",
  "url",
  "name",
  "affiliations",
  "homepage",
  "paperCount",
  "citationCount",
  "hIndex",
  "papers"
] as const

export const EDGE_FIELDS = ["contexts", "intents", "contextsWithIntent", "isInfluential"] as const

const PAPER_SCALARS = new Set<string>(
  PAPER_FIELDS.filter((f) => f !== "citations" && f !== "references" && f !== "authors" && f !== "embedding")
)
const AUTHOR_SCALARS = new Set<string>(AUTHOR_FIELDS.filter((f) => f !== "papers"))
const EMBEDDING_MODELS = new Set(["specter_v1", "specter_v2"])

/** A validated selection: top-level names and, per nested field, its sub-selection. */
export interface FieldSpec {
  readonly top: ReadonlySet<string>
  readonly nested: ReadonlyMap<string, ReadonlySet<string>>
}

export type FieldContext = "paper" | "author" | "edge"

export type FieldsResult = Data.TaggedEnum<{
  Ok: { readonly spec: FieldSpec }
  Unknown: { readonly names: ReadonlyArray<string> }
}>

const FieldsResult = Data.taggedEnum<FieldsResult>()

const nestedAllowed = (context: FieldContext, parent: string, child: string): boolean => {
  if (context === "author") return parent === "papers" && (PAPER_SCALARS.has(child) || child === "authors")
  switch (parent) {
    case "authors":
      return AUTHOR_SCALARS.has(child)
    case "citations":
    case "references":
      return context === "paper" && (PAPER_SCALARS.has(child) || child === "authors")
    case "embedding":
      return EMBEDDING_MODELS.has(child)
    default:
      return false
  }
}

const topAllowed = (context: FieldContext, name: string): boolean => {
  switch (context) {
    case "paper":
      return (PAPER_FIELDS as ReadonlyArray<string>).includes(name)
    case "author":
      return (AUTHOR_FIELDS as ReadonlyArray<string>).includes(name)
    case "edge":
      return (EDGE_FIELDS as ReadonlyArray<string>).includes(name) ||
        (PAPER_FIELDS as ReadonlyArray<string>).includes(name) && name !== "citations" && name !== "references"
  }
}

export const defaultFields = (context: FieldContext): FieldSpec => ({
  top: new Set(context === "author" ? ["authorId", "name"] : ["paperId", "title"]),
  nested: new Map()
})

/** Parses `fields`; `undefined` (parameter absent) or empty gives the wire defaults. */
export const parseFields = (raw: string | undefined, context: FieldContext): FieldsResult => {
  if (raw === undefined || raw.trim() === "") return FieldsResult.Ok({ spec: defaultFields(context) })
  const top = new Set<string>()
  const nested = new Map<string, Set<string>>()
  const unknown: Array<string> = []
  for (const part of raw.split(",")) {
    const name = part.trim()
    if (name === "") continue
    const dot = name.indexOf(".")
    if (dot < 0) {
      if (topAllowed(context, name)) top.add(name)
      else unknown.push(name)
      continue
    }
    const parent = name.slice(0, dot)
    const child = name.slice(dot + 1)
    if (topAllowed(context, parent) && nestedAllowed(context, parent, child)) {
      top.add(parent)
      let set = nested.get(parent)
      if (set === undefined) nested.set(parent, set = new Set())
      set.add(child)
    } else {
      unknown.push(name)
    }
  }
  if (unknown.length > 0) return FieldsResult.Unknown({ names: unknown })
  return FieldsResult.Ok({ spec: { top, nested } })
}

export const unknownFieldsMessage = (names: ReadonlyArray<string>): string =>
  `Unrecognized or unsupported fields: [${names.join(", ")}]`
