/**
 * From the client's records to the compact answers: the paper and author summaries, and the
 * fields the tools ask the API for to make them.
 */
import type { Fields, Paper, PaperRef } from "@s2-effect/core"
import type { AuthorSummary, PaperDetail, PaperSummary } from "../Answers.js"
import { bounds } from "./answerParts.js"
import * as text from "./text.js"

/** `{ [key]: value }` when the value is there, else nothing: optional keys stay absent, never null. */
export const some = <K extends string, V>(key: K, value: V | null | undefined): { readonly [P in K]?: V } =>
  (value === null || value === undefined ? {} : { [key]: value }) as { readonly [P in K]?: V }

export const str = (value: string | null | undefined, max: number) =>
  value === null || value === undefined ? undefined : text.cut(value, max)

export const nonNegative = (n: number | null | undefined) => n === null || n === undefined || n < 0 ? undefined : n

type AnyPaper = Paper | PaperRef

export const paperSummary = (paper: AnyPaper): PaperSummary => {
  const authors = paper.authors ?? []
  return {
    paperId: text.cut(paper.paperId ?? "", bounds.id),
    title: text.cut(paper.title ?? "", bounds.title),
    ...some("year", paper.year),
    ...some("venue", str(paper.venue === "" ? undefined : paper.venue, bounds.venue)),
    authors: authors.slice(0, 5).map((author) => text.cut(author.name ?? "", bounds.name)),
    authorCount: authors.length,
    ...some("citationCount", nonNegative(paper.citationCount)),
    ...some("doi", str(paper.externalIds?.DOI, bounds.id)),
    ...some("arxiv", str(paper.externalIds?.ArXiv, bounds.id)),
    ...some("openAccessPdf", str(paper.openAccessPdf?.url === "" ? undefined : paper.openAccessPdf?.url, bounds.url)),
    ...some("url", str(paper.url, bounds.url))
  }
}

const firstNames = (values: ReadonlyArray<string> | null | undefined, max: number) =>
  values === null || values === undefined ? undefined : values.slice(0, max).map((v) => text.cut(v, bounds.name))

export const paperDetail = (paper: Paper): PaperDetail => ({
  ...paperSummary(paper),
  ...some("abstract", str(paper.abstract, bounds.abstract)),
  ...some("tldr", str(paper.tldr?.text, bounds.tldr)),
  ...some("fieldsOfStudy", firstNames(paper.fieldsOfStudy, 10)),
  ...some("referenceCount", nonNegative(paper.referenceCount)),
  ...some("influentialCitationCount", nonNegative(paper.influentialCitationCount)),
  ...some("publicationDate", str(paper.publicationDate, bounds.name)),
  ...some("publicationTypes", firstNames(paper.publicationTypes, 10)),
  ...some("journal", str(paper.journal?.name, bounds.journal))
})

interface AuthorLike {
  readonly authorId: string | null
  readonly name?: string | null | undefined
  readonly affiliations?: ReadonlyArray<string> | null | undefined
  readonly paperCount?: number | null | undefined
  readonly citationCount?: number | null | undefined
  readonly hIndex?: number | null | undefined
  readonly url?: string | null | undefined
  readonly homepage?: string | null | undefined
}

export const authorSummary = (author: AuthorLike): AuthorSummary => ({
  authorId: text.cut(author.authorId ?? "", bounds.id),
  name: text.cut(author.name ?? "", bounds.name),
  affiliations: (author.affiliations ?? []).slice(0, 3).map((a) => text.cut(a, bounds.venue)),
  ...some("paperCount", nonNegative(author.paperCount)),
  ...some("citationCount", nonNegative(author.citationCount)),
  ...some("hIndex", nonNegative(author.hIndex)),
  ...some("url", str(author.url, bounds.url)),
  ...some("homepage", str(author.homepage, bounds.url))
})

export const summaryFields = [
  "title",
  "year",
  "venue",
  "authors",
  "citationCount",
  "externalIds",
  "openAccessPdf",
  "url"
] as const satisfies ReadonlyArray<Fields.PaperField>

export const detailFields = [
  ...summaryFields,
  "abstract",
  "tldr",
  "fieldsOfStudy",
  "referenceCount",
  "influentialCitationCount",
  "publicationDate",
  "publicationTypes",
  "journal"
] as const satisfies ReadonlyArray<Fields.PaperField>

export const authorFields = [
  "name",
  "affiliations",
  "paperCount",
  "citationCount",
  "hIndex",
  "url",
  "homepage"
] as const satisfies ReadonlyArray<Fields.AuthorField>
