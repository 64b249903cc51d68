import type { OffsetPage, S2Error, Service, TokenPage } from "@s2-effect/core"
import { isS2Error, ObjectNotFound, Overrides, SemanticScholar, Timeout } from "@s2-effect/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import type { Handlers, Options, Pages, Records } from "../SemanticScholarStub.js"

type AnyRecord = Readonly<Record<string, unknown>>
type Match = (id: string, record: AnyRecord) => boolean

/** Id prefixes of the API and the `externalIds` key each one names. */
const externalIds: Readonly<Record<string, string>> = {
  DOI: "DOI",
  ARXIV: "ArXiv",
  MAG: "MAG",
  ACL: "ACL",
  PMID: "PubMed",
  PMCID: "PubMedCentral"
}

const paperMatch: Match = (id, paper) => {
  if (paper["paperId"] === id) return true
  const colon = id.indexOf(":")
  const prefix = id.slice(0, colon).toUpperCase()
  const value = id.slice(colon + 1)
  if (colon < 0) return false
  if (prefix === "CORPUSID") return String(paper["corpusId"]) === value
  if (prefix === "URL") return paper["url"] === value
  const key = externalIds[prefix]
  const ids = paper["externalIds"] as AnyRecord | null | undefined
  return key !== undefined && ids?.[key] === value
}

const authorMatch: Match = (id, author) => author["authorId"] === id

type Spec =
  | { readonly kind: "effect" }
  | { readonly kind: "lookup" | "batch"; readonly match: Match; readonly noun: string }
  | { readonly kind: "records" | "pages"; readonly sibling: keyof Service }

/**
 * Every operation of the service and how its stub behaves: the one place the list lives. The
 * `satisfies` makes a new operation of the service a compile error here until it is listed.
 */
const table = {
  getPaper: { kind: "lookup", match: paperMatch, noun: "paper" },
  getPapers: { kind: "batch", match: paperMatch, noun: "paper" },
  getAuthor: { kind: "lookup", match: authorMatch, noun: "author" },
  getAuthors: { kind: "batch", match: authorMatch, noun: "author" },
  getPaperAuthors: { kind: "records", sibling: "getPaperAuthorsPages" },
  getPaperAuthorsPages: { kind: "pages", sibling: "getPaperAuthors" },
  getPaperCitations: { kind: "records", sibling: "getPaperCitationsPages" },
  getPaperCitationsPages: { kind: "pages", sibling: "getPaperCitations" },
  getPaperReferences: { kind: "records", sibling: "getPaperReferencesPages" },
  getPaperReferencesPages: { kind: "pages", sibling: "getPaperReferences" },
  getAuthorPapers: { kind: "records", sibling: "getAuthorPapersPages" },
  getAuthorPapersPages: { kind: "pages", sibling: "getAuthorPapers" },
  searchAuthor: { kind: "records", sibling: "searchAuthorPages" },
  searchAuthorPages: { kind: "pages", sibling: "searchAuthor" },
  searchPaper: { kind: "records", sibling: "searchPaperPages" },
  searchPaperPages: { kind: "pages", sibling: "searchPaper" },
  matchPaperTitle: { kind: "effect" },
  getAutocomplete: { kind: "effect" },
  searchSnippet: { kind: "effect" },
  getRecommendedPapers: { kind: "effect" },
  getRecommendedPapersFromLists: { kind: "effect" },
  getAvailableReleases: { kind: "effect" },
  getRelease: { kind: "effect" },
  getDatasetDownloadLinks: { kind: "effect" },
  getDatasetDiffs: { kind: "effect" }
} as const satisfies Record<keyof Service, Spec>

export const operations = Object.keys(table) as ReadonlyArray<keyof Service>

const notStubbed = (name: string) =>
  `SemanticScholar.${name} is not stubbed in this test: give it to SemanticScholarStub.layer({ ${name}: … })`

type Given = unknown

/** A defect whose message says what is wrong (Effect 4 has no `Effect.dieMessage`). */
const dieMessage = (message: string) => Effect.die(new Error(message))

const given = (handler: Given, args: ReadonlyArray<unknown>): unknown =>
  typeof handler === "function" ? (handler as (...a: ReadonlyArray<unknown>) => unknown)(...args) : handler

/** An answer as an Effect. An S2Error is checked first: errors are Effects too, failing with themselves. */
const toEffect = (answer: unknown): Effect.Effect<unknown, S2Error> =>
  isS2Error(answer)
    ? Effect.fail(answer)
    : Effect.isEffect(answer)
    ? Effect.flatMap(answer as Effect.Effect<unknown, S2Error>, toEffect)
    : Effect.succeed(answer)

const isPages = (u: unknown): u is Pages<unknown> =>
  typeof u === "object" && u !== null && "_tag" in u && u._tag === "StubPages"

const tokenPrefix = "stub-offset:"

interface Paged {
  readonly pages: ReadonlyArray<ReadonlyArray<unknown>>
  readonly start: number
  readonly total: number | undefined
  readonly error: S2Error | undefined
}

/** Records cut into pages as the server would: from the offset (or token), `limit` a page. */
const paginate = (records: Records<unknown>, options: AnyRecord, bulk: boolean): Paged => {
  if (isPages(records)) return { pages: records.pages, start: 0, total: records.total, error: records.error }
  const all = records as ReadonlyArray<unknown>
  const cut = all.findIndex(isS2Error)
  const items = cut < 0 ? all : all.slice(0, cut)
  const token = typeof options["token"] === "string" ? Number(options["token"].slice(tokenPrefix.length)) : 0
  const start = bulk ? token : typeof options["offset"] === "number" ? options["offset"] : 0
  const size = bulk ? 1000 : typeof options["limit"] === "number" ? options["limit"] : 100
  const rest = items.slice(start)
  const pages = Array.from({ length: Math.ceil(rest.length / size) }, (_, i) => rest.slice(i * size, i * size + size))
  return { pages, start, total: undefined, error: cut < 0 ? undefined : all[cut] as S2Error }
}

const envelopes = (paged: Paged, bulk: boolean): ReadonlyArray<OffsetPage<unknown> | TokenPage<unknown>> => {
  const count = paged.pages.reduce((n, page) => n + page.length, 0)
  let offset = paged.start
  return paged.pages.map((data, i) => {
    const next = offset + data.length
    const last = i === paged.pages.length - 1 && paged.error === undefined
    const page = bulk
      ? { total: paged.total ?? paged.start + count, token: last ? null : `${tokenPrefix}${next}`, data }
      : { offset, ...(last ? {} : { next }), ...(paged.total === undefined ? {} : { total: paged.total }), data }
    offset = next
    return page
  })
}

const ending = <A>(stream: Stream.Stream<A, S2Error>, error: S2Error | undefined) =>
  error === undefined ? stream : Stream.concat(stream, Stream.fail(error))

/** One call of an operation: each attempt calls the handler again; time-out and retry as the client would. */
type Attempt = (name: string, answer: () => unknown) => Effect.Effect<unknown, S2Error>

const makeAttempt = (options: Options): Attempt => {
  const timeoutDefault = options.timeout === undefined ? undefined : Duration.fromInputUnsafe(options.timeout)
  const retryDefault = options.retry ?? false
  return Effect.fn(function*(name: string, answer: () => unknown) {
    const overrides = yield* Overrides.current
    const timeout = overrides.timeout ?? timeoutDefault
    const policy = overrides.retry ?? retryDefault
    const once = Effect.suspend(() => toEffect(answer()))
    const timed = timeout === undefined ? once : Effect.timeoutOrElse(once, {
      duration: timeout,
      orElse: () =>
        Effect.fail(
          new Timeout({
            subject: `the stub of ${name}`,
            problem: `did not answer within ${Duration.format(timeout)}`,
            timeoutMillis: Duration.toMillis(timeout)
          })
        )
    })
    return yield* policy === false ? timed : Effect.retry(timed, policy)
  })
}

interface LookupSpec {
  readonly match: Match
  readonly noun: string
}

const lookup =
  (attempt: Attempt, name: string, spec: LookupSpec, handler: Given) => (...args: ReadonlyArray<unknown>) =>
    attempt(name, () => {
      if (!Array.isArray(handler)) return given(handler, args)
      const id = String(args[0])
      return handler.find((record: AnyRecord) => spec.match(id, record)) ??
        new ObjectNotFound({
          subject: `${spec.noun} ${id}`,
          problem: `is not among the records stubbed for ${name}`,
          status: 404
        })
    })

const batch = (attempt: Attempt, name: string, spec: LookupSpec, handler: Given) =>
  Effect.fn(function*(ids: ReadonlyArray<string>, batchOptions: AnyRecord = {}) {
    const answer = yield* attempt(name, () =>
      Array.isArray(handler)
        ? ids.map((id) => handler.find((record: AnyRecord) => spec.match(id, record)) ?? null)
        : given(handler, [ids, batchOptions]))
    if (!Array.isArray(answer) || answer.length !== ids.length) {
      return yield* dieMessage(`the stub of ${name} must answer one record or null per id (${ids.length})`)
    }
    const found = answer.filter((entry) => entry !== null)
    const notFound = ids.filter((_, i) => answer[i] === null)
    // As the client: with returnNotFound, none found is an answer.
    if (found.length === 0 && batchOptions["returnNotFound"] !== true) {
      return yield* new ObjectNotFound({
        subject: `none of the ${ids.length} ${spec.noun} id(s)`,
        problem: `was found (first: ${JSON.stringify(ids[0])})`
      })
    }
    return batchOptions["returnNotFound"] === true ? { found, notFound } : found
  })

const stream = (attempt: Attempt, name: string, kind: "records" | "pages", handler: Given) =>
(
  first: unknown,
  streamOptions: AnyRecord = {}
) =>
  Stream.unwrap(Effect.map(attempt(name, () => given(handler, [first, streamOptions])), (records) => {
    const bulk = streamOptions["bulk"] === true
    const paged = paginate(records as Records<unknown>, streamOptions, bulk)
    return ending(
      kind === "pages"
        ? Stream.fromIterable(envelopes(paged, bulk))
        : Stream.fromArrays(...paged.pages),
      paged.error
    )
  }))

export const make = (handlers: Handlers, options: Options = {}): Service => {
  const attempt = makeAttempt(options)
  const build = (name: keyof Service, spec: Spec): unknown => {
    const own = handlers[name] as Given
    switch (spec.kind) {
      case "effect":
        return own === undefined
          ? () => dieMessage(notStubbed(name))
          : (...args: ReadonlyArray<unknown>) => attempt(name, () => given(own, args))
      case "lookup":
      case "batch":
        return own === undefined
          ? () => dieMessage(notStubbed(name))
          : spec.kind === "lookup"
          ? lookup(attempt, name, spec, own)
          : batch(attempt, name, spec, own)
      case "records":
      case "pages": {
        // One set of records serves both forms of a list.
        const handler = own ?? (handlers[spec.sibling] as Given)
        return handler === undefined
          ? () => Stream.die(new Error(notStubbed(name)))
          : stream(attempt, name, spec.kind, handler)
      }
    }
  }
  return Object.fromEntries(
    operations.map((name) => [name, build(name, table[name])])
  ) as unknown as Service
}

export const layer = (handlers: Handlers, options?: Options): Layer.Layer<SemanticScholar> =>
  Layer.sync(SemanticScholar, () => make(handlers, options))
