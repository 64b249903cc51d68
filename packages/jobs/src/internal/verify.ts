import type { Fields, Paper, S2Error, SemanticScholar } from "@s2-effect/core"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Citable from "../Citable.js"
import * as ReferenceInput from "../ReferenceInput.js"
import type * as Resolve from "../Resolve.js"
import { Difference, Verification, Written } from "../Verification.js"
import type * as Verify from "../Verify.js"
import * as bibtex from "./bibtex.js"
import * as resolve from "./resolve.js"
import { compare, type Given, givenOfFields, type Lookup, type TitlePairs, titlePairs } from "./verifyCompare.js"

/** See `Verify.fields`: what the citation writers write from, which holds what the checks compare. */
export const fields: ReadonlyArray<Fields.PaperField> = Citable.fields

/** One input, read: what it says, what the first pass asks, and its verification when no request can help. */
interface Ask {
  readonly key: string
  readonly input: string
  readonly given: Given
  /** What the first pass asks, read once (absent when `settled`). */
  readonly first?: resolve.Asked
  /** The kind of id `input` is, when it is a DOI or an arXiv id. */
  readonly id?: "doi" | "arxiv"
  readonly settled?: Verification
  /** The entry as written (absent for a line). */
  readonly entry?: Written
  /** The entry's title against each paper's, compared once. */
  readonly titles: TitlePairs
}

const entryOf = (ask: Ask): { readonly entry?: Written } => ask.entry === undefined ? {} : { entry: ask.entry }

/** A reference that could not be checked: never `notFound`, which says it is likely invented. */
const unchecked = (key: string, input: string, why: string, entry?: Written) =>
  new Verification({
    key,
    input,
    status: "unchecked",
    differs: [],
    notes: [why],
    ...(entry === undefined ? {} : { entry })
  })

const idKind = (asked: resolve.Asked): { readonly id?: "doi" | "arxiv" } => {
  const r = asked.recognised
  const id = r._tag !== "Id"
    ? undefined
    : r.id.startsWith("DOI:")
    ? "doi"
    : r.id.startsWith("ARXIV:")
    ? "arxiv"
    : undefined
  return id === undefined ? {} : { id }
}

/**
 * A reference not found: the `notes` that say why, then, when a search answered a paper with another
 * title, its `note` (which names that paper) as the last note and as `nearestNote`.
 */
const notFound = (
  ask: Ask,
  notes: ReadonlyArray<string>,
  search?: { readonly note: string; readonly result: Resolve.NotFound }
) => {
  const { input, key } = ask
  if (search === undefined) {
    return new Verification({ key, input, status: "notFound", differs: [], notes, ...entryOf(ask) })
  }
  const { nearest, similarity } = search.result
  return new Verification({
    key,
    input,
    status: "notFound",
    differs: [],
    notes: [...notes, search.note],
    ...(nearest === undefined ? {} : { nearest, nearestNote: search.note }),
    ...(similarity === undefined ? {} : { similarity }),
    ...entryOf(ask)
  })
}

const writtenOf = (input: ReferenceInput.Entry): Written =>
  new Written({
    key: input.key,
    fields: { ...input.fields },
    ...(input.type === undefined ? {} : { type: input.type }),
    ...(input.line === undefined ? {} : { line: input.line })
  })

/** A line or a query: looked up by its text, checked against its title (a title's own, or the one given with an id). */
const askOfQuery = (key: string, query: ReferenceInput.Query): Ask => {
  if (query.problem !== undefined) {
    return { key, input: "", given: {}, titles: titlePairs(""), settled: unchecked(key, "", query.problem) }
  }
  const r = resolve.recognise(query.input)
  const title = r._tag === "Title" ? r.title : query.title
  const given: Given = title === undefined ? {} : { title }
  const titles = titlePairs(given.title ?? "")
  if (r._tag === "Malformed") {
    return { key, input: query.input, given, titles, settled: unchecked(key, query.input, r.message) }
  }
  const first: resolve.Asked = { recognised: r, input: query.input, ...(r._tag === "Id" ? given : {}) }
  return { key, input: query.input, given, titles, first, ...idKind(first) }
}

const askOf = (input: ReferenceInput.ReferenceInput, position: number): Ask => {
  const key = ReferenceInput.keyOf(input, position)
  if (typeof input === "string") return askOfQuery(key, { input })
  if (!("fields" in input)) return askOfQuery(key, "text" in input ? { input: input.text } : input)
  const entry = writtenOf(input)
  if (input.problem !== undefined) {
    const settled = unchecked(input.key, "", input.problem, entry)
    return { key: input.key, input: "", given: {}, titles: titlePairs(""), entry, settled }
  }
  // The entry's ids, read once, passed on as ids; else its title, as a title.
  const ids = bibtex.idsOf(input.fields)
  const read = givenOfFields(input.fields, ids)
  // A formatted reference or a line may cite a paper by its first author alone ("Vaswani 2017").
  const given = input.format === "formatted" || input.format === "lines" ? { ...read, firstAlone: true } : read
  const titles = titlePairs(given.title ?? "")
  const id = ids.doi ?? ids.arxiv
  const first = id !== undefined
    ? resolve.asId(id, given.title)
    : given.title !== undefined
    ? resolve.asTitle(given.title)
    : undefined
  if (first === undefined) {
    const why = "the entry has no doi, eprint or title to check it by"
    return { key: input.key, input: "", given, titles, entry, settled: unchecked(input.key, "", why, entry) }
  }
  return { key: input.key, input: first.input, given, titles, entry, first, ...idKind(first) }
}

/** A paper found for a reference, compared with what it says. */
const checked = (ask: Ask, paper: Paper, lookup: Lookup, today: number, notes: ReadonlyArray<string> = []) => {
  const { differs, notes: more, similarity } = compare(ask.given, paper, lookup, today, ask.titles)
  return new Verification({
    key: ask.key,
    input: ask.input,
    status: differs.length === 0 ? "verified" : "mismatch",
    differs: differs.map((d) => d.field),
    notes: [...notes, ...more],
    paper,
    ...(similarity === undefined ? {} : { similarity }),
    ...(differs.length === 0 ? {} : { differences: differs.map((d) => new Difference(d)) }),
    ...entryOf(ask)
  })
}

/**
 * The paper a title search found, or one of the other papers of that title it found: the one the
 * entry's authors and year (and every other field) disagree with least, the search's first on a tie.
 */
const chosen = (
  ask: Ask,
  paper: Paper,
  others: ReadonlyArray<resolve.Scored>,
  today: number,
  notes: ReadonlyArray<string> = []
) => {
  for (const other of others) ask.titles.seed(other.paper.title, other.similarity)
  const all = [paper, ...others.map((o) => o.paper)].map((p) =>
    checked(ask, p, { ...idOf(ask), named: false }, today, notes)
  )
  const best = all.reduce((a, b) => b.differs.length < a.differs.length ? b : a)
  if (others.length === 0) return best
  const why = `${others.length + 1} papers have this title: the one whose authors and year agree most was taken`
  return new Verification({ ...best, notes: [...best.notes, why] })
}

/**
 * A title search's answer that no request could give: too long to send, refused by the server, or
 * a text no request can carry (a control character in a .bib title): what was never asked is
 * `unchecked`, never "no such paper".
 */
const notAsked = (result: Resolve.NotFound): boolean =>
  result.notFound === "tooLong" || result.notFound === "refused" || result.notFound === "malformed"

/**
 * The nearest paper of a title search, when the entry's title is it word for word but for spelling,
 * a leading article or a subtitle (title match's own rule wants the same content words): then it is
 * compared as the paper found, and the authors and year decide.
 */
const nearestToCheck = (
  ask: Ask,
  result: Resolve.NotFound,
  near: ReadonlyArray<resolve.Scored>
): Paper | undefined => {
  for (const other of near) ask.titles.seed(other.paper.title, other.similarity)
  const related = (paper: Paper | undefined) =>
    ask.given.title !== undefined && typeof paper?.title === "string" && ask.titles.relation(paper.title) !== "other"
  return related(result.nearest) ? result.nearest : near.find((n) => related(n.paper))?.paper
}

const sameButSubtitle = (ask: Ask, paper: Paper): boolean =>
  ask.given.title !== undefined && typeof paper.title === "string" && ask.titles.relation(paper.title) === "subtitle"

/** The first pass's answer: a verification, or undefined when the entry's title is to be asked too. */
/** What a search measured of the entry's title and the paper it answered: kept, so that it is not measured again. */
const seeded = (ask: Ask, result: Resolve.Result): void =>
  ask.titles.seed(result._tag === "NotFound" ? result.nearest?.title : result.paper.title, result.similarity)

const afterFirst = (ask: Ask, [result, others]: resolve.WithOthers, today: number): Verification | undefined => {
  seeded(ask, result)
  const byTitleToo = ask.given.title !== undefined && ask.first?.recognised._tag !== "Title"
  switch (result._tag) {
    case "Found":
      return result.via === "id"
        ? checked(ask, result.paper, { ...idOf(ask), named: true }, today)
        : chosen(ask, result.paper, others, today)
    case "Mismatch":
      // The id names the paper whose title is the entry's but for a subtitle added or dropped: it is
      // that paper (as a title search would find it), and the authors and year decide, without a
      // second request. Any other title is asked for.
      return sameButSubtitle(ask, result.paper)
        ? checked(ask, result.paper, { ...idOf(ask), named: true }, today)
        : undefined
    case "NotFound": {
      if (byTitleToo) return undefined
      if (notAsked(result)) return unchecked(ask.key, ask.input, result.message, ask.entry)
      const nearest = nearestToCheck(ask, result, others)
      return nearest !== undefined
        ? checked(ask, nearest, { named: false }, today)
        : notFound(ask, [], { note: result.message, result })
    }
  }
}

const idOf = (ask: Ask): { readonly id?: "doi" | "arxiv" } => ask.id === undefined ? {} : { id: ask.id }

/**
 * Why the entry's id did not do: it named a paper of another title, or of none, or no paper (said
 * without the id, which the verification's `input` is and a report prints before its notes).
 */
const idFailed = (ask: Ask, first: Resolve.Mismatch | Resolve.NotFound): string =>
  first._tag === "NotFound"
    ? first.message
    : typeof first.paper.title === "string" && first.paper.title.trim().length > 0
    ? `${ask.input} is ${resolve.shown(first.paper.title)}, another title`
    : `${ask.input} is a paper without a title`

/** The second pass's answer, for an entry whose id did not name a paper with its title. */
const afterTitle = (
  ask: Ask,
  first: Resolve.Mismatch | Resolve.NotFound,
  [result, others]: resolve.WithOthers,
  today: number
): Verification => {
  seeded(ask, result)
  const nearest = result._tag === "NotFound" ? nearestToCheck(ask, result, others) : undefined
  const paper = result._tag === "Found" ? result.paper : nearest
  if (paper !== undefined) {
    // The papers of the title to choose among are a found title's: a nearest is one paper.
    const among = result._tag === "Found" ? others : []
    return chosen(ask, paper, among, today, [`${idFailed(ask, first)}; found by the title`])
  }
  const why = result._tag === "NotFound" ? result.message : "no paper has the title"
  if (first._tag === "Mismatch") {
    return checked(ask, first.paper, { ...idOf(ask), named: true }, today, [`the title: ${why}`])
  }
  if (result._tag === "NotFound" && notAsked(result)) {
    return unchecked(ask.key, ask.input, `${idFailed(ask, first)}; the title: ${why}`, ask.entry)
  }
  const title = `the title: ${why}`
  return result._tag === "NotFound"
    ? notFound(ask, [idFailed(ask, first)], { note: title, result })
    : notFound(ask, [idFailed(ask, first), title])
}

/** A verification with what the reader warned of in its entry (a field written twice alike) first in its notes. */
const warned = (input: ReferenceInput.ReferenceInput, v: Verification): Verification => {
  const warnings = typeof input === "object" && "fields" in input ? input.warnings ?? [] : []
  return warnings.length === 0 ? v : new Verification({ ...v, notes: [...warnings, ...v.notes] })
}

interface Pending {
  readonly index: number
  readonly first: Resolve.Mismatch | Resolve.NotFound
}

/**
 * Whether an error is the server failing us (rate limit past the retries, 5xx, time-out, the
 * network, an answer that cannot be read): the references it leaves are `unchecked`, never
 * `notFound`. Other errors (a key refused, options refused) fail the stream: every reference would
 * fail alike.
 */
const isOurs = (error: S2Error): boolean =>
  error.isRetryable || error._tag === "DecodeError" || error._tag === "UnexpectedStatus" ||
  error._tag === "ProtocolError" || error._tag === "RateLimiterUnavailable"

/** Why the references left by a failure were not checked. */
const failedWhy = (error: S2Error): string => `not checked: the server failed (${error._tag}: ${error.message})`

/**
 * One chunk: the first pass over the entries a request can help, then one pass over the titles of
 * those whose id did not do. Each verification is emitted as soon as it and those before it are
 * known (so a caller with a time limit keeps what was verified). A failure of the server's ends the
 * chunk with the references left `unchecked`.
 */
const verifyChunk = (options: Resolve.ReferencesOptions, today: number) =>
(
  [inputs, n]: readonly [ReadonlyArray<ReferenceInput.ReferenceInput>, number]
): Stream.Stream<Verification, S2Error, SemanticScholar> =>
  Stream.suspend(() => {
    const asks = inputs.map((input, i) => askOf(input, n * resolve.chunkSize + i))
    const out: Array<Verification | undefined> = asks.map((ask) => ask.settled)
    const pending: Array<Pending> = []
    let next = 0
    const ready = (): ReadonlyArray<Verification> => {
      const done: Array<Verification> = []
      for (; next < out.length && out[next] !== undefined; next++) done.push(warned(inputs[next]!, out[next]!))
      return done
    }
    const asked = asks.flatMap((ask, i) => ask.settled === undefined ? [i] : [])
    const first = Stream.zipWithIndex(resolve.referencesWithOthers(asked.map((i) => asks[i]!.first!), options))
      .pipe(
        Stream.map(([result, k]) => {
          const index = asked[k]!
          const verified = afterFirst(asks[index]!, result, today)
          if (verified !== undefined) out[index] = verified
          else pending.push({ index, first: result[0] as Resolve.Mismatch | Resolve.NotFound })
          return ready()
        })
      )
    const second = Stream.suspend(() =>
      Stream.zipWithIndex(
        resolve.referencesWithOthers(pending.map((p) => resolve.asTitle(asks[p.index]!.given.title!)), options)
      ).pipe(
        Stream.map(([result, k]) => {
          const { first, index } = pending[k]!
          out[index] = afterTitle(asks[index]!, first, result, today)
          return ready()
        })
      )
    )
    const left = (error: S2Error) =>
      Stream.sync(() => {
        out.forEach((v, i) => {
          if (v === undefined) out[i] = unchecked(asks[i]!.key, asks[i]!.input, failedWhy(error), asks[i]!.entry)
        })
        return ready()
      })
    return Stream.flattenIterable(
      Stream.concat(Stream.concat(Stream.sync(ready), first), second).pipe(Stream.catchIf(isOurs, left))
    )
  })

/** The fields asked: {@link fields} and the caller's, once each. */
const fieldsWith = (
  more: ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined
): ReadonlyArray<Fields.PaperField | Fields.Unchecked> => {
  const names = new Set<string>(fields)
  return [...fields, ...(more ?? []).filter((f) => !names.has(typeof f === "string" ? f : f.name))]
}

/** See `Verify.references`. */
export const references = (
  inputs:
    | Iterable<ReferenceInput.ReferenceInput>
    | Stream.Stream<ReferenceInput.ReferenceInput, S2Error, SemanticScholar>,
  options?: Verify.ReferencesOptions
): Stream.Stream<Verification, S2Error, SemanticScholar> => {
  // A string is iterable too: one string is one input, not one input per character.
  const source: Stream.Stream<ReferenceInput.ReferenceInput, S2Error, SemanticScholar> = Stream.isStream(inputs)
    ? inputs
    : Stream.fromIterable(typeof inputs === "string" ? [inputs] : inputs)
  const resolveOptions = { fields: fieldsWith(options?.fields), concurrency: options?.concurrency }
  // This year, from the Clock, once: a year after it is never a paper's.
  return Stream.unwrap(Effect.map(Clock.currentTimeMillis, (now) =>
    source.pipe(
      Stream.grouped(resolve.chunkSize),
      Stream.zipWithIndex,
      Stream.flatMap(verifyChunk(resolveOptions, new Date(now).getUTCFullYear()))
    )))
}
