import type { Fields, Paper, S2Error } from "@s2-effect/core"
import { excerpt, PaperId, SemanticScholar, Validate } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import type * as ReferenceInput from "../ReferenceInput.js"
import type * as Resolve from "../Resolve.js"
import { Found, Mismatch, NotFound } from "../ResolveResult.js"
import * as bibtex from "./bibtex.js"
import { papersById } from "./papersById.js"
import { bulkTitles, encodedBytes, isRefusal, phrase, queryBytes, withTitle } from "./resolveTitles.js"
import * as TitleMatch from "./titleMatch.js"

/** The batch endpoint's limit: a chunk of inputs never needs more than one POST. */
export const chunkSize = 500

// Omitted: the client's paper summary set for both the batch and the title match, so a paper looks
// the same whichever way it was found (`citationStyles` included, for BibTeX).
type FieldList = ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined

type Recognised = Resolve.Recognised

/** Recognises an id in any form the API accepts (and the URL forms people paste); else a title. */
export const recognise = PaperId.recognise

/**
 * An input read once: what it is (`recognised`), its text as given (`input`, what a result
 * repeats) and, for an id, the title it should have. What a caller has already read (a .bib
 * entry's ids, the title of an entry whose id did not do) is passed so, never as text parsed again:
 * a title such as "ACL: A Library…" is not then taken for an id.
 */
export interface Asked {
  readonly recognised: Recognised
  readonly input: string
  readonly title?: string | undefined
}

/** Why an input cannot be asked, as a result says it. */
const malformed = (message: string): Asked => ({ recognised: { _tag: "Malformed", message }, input: "" })

/** A public input, read: an entry by its ids, else its title (never its title parsed as an id). */
const askedOf = (input: ReferenceInput.ReferenceInput): Asked => {
  if (typeof input === "string") return { recognised: recognise(input), input }
  if ("text" in input) return { recognised: recognise(input.text), input: input.text }
  if (input.problem !== undefined) return malformed(input.problem)
  if ("fields" in input) {
    const ids = bibtex.idsOf(input.fields)
    const title = bibtex.plain(input.fields["title"] ?? "")
    const id = ids.doi ?? ids.arxiv
    if (id !== undefined) return asId(id, title.length > 0 ? title : undefined)
    return title.length > 0 ? asTitle(title) : malformed("the entry has no doi, eprint or title to look it up by")
  }
  return { recognised: recognise(input.input), input: input.input, title: input.title }
}

/** Text known to be a title, as `recognise` gives one: malformed when empty or holding a control character. */
export const asTitle = (text: string): Asked => {
  const line = text.trim()
  const recognised: Recognised = line.length === 0 || /[\u0000-\u001f\u007f]/.test(line)
    ? recognise(text)
    : { _tag: "Title", title: line.replace(/\s+/g, " ") }
  return { recognised, input: text }
}

/** An id already in the API's spelling (a .bib entry's, read by `bibtex.idsOf`), validated as `recognise` validates one. */
export const asId = (id: string, title?: string): Asked => {
  const check = Validate.paperId(id, "input")
  const recognised: Recognised = Result.isSuccess(check)
    ? { _tag: "Id", id }
    : { _tag: "Malformed", message: check.failure.message }
  return { recognised, input: id, ...(title === undefined ? {} : { title }) }
}

/** A paper found for a title, with the similarity its check measured (so that nobody measures it again). */
export interface Scored {
  readonly paper: Paper
  readonly similarity: number
}

/** Ids are compared without case (DOIs, arXiv ids and hex ids are case-insensitive), except URLs. */
const idKey = (id: string): string => `id ${id.startsWith("URL:") ? id : id.toLowerCase()}`

/** The key under which an input is looked up once: ids by their spelling, titles without case. */
const keyOf = (r: Recognised): string =>
  r._tag === "Id" ? idKey(r.id) : r._tag === "Title" ? `title ${r.title.toLowerCase()}` : "malformed"

type Outcome =
  | {
    readonly _tag: "Paper"
    readonly paper: Paper
    readonly via: "id" | "title"
    readonly score?: number
    readonly similarity?: number
    /** The other papers a bulk search found with the same title. */
    readonly others?: ReadonlyArray<Scored>
  }
  | {
    readonly _tag: "Missing"
    readonly reason: Resolve.Reason
    readonly message: string
    readonly nearest?: Paper
    readonly similarity?: number
  }

const missing = (reason: Resolve.Reason, message: string): Outcome => ({ _tag: "Missing", reason, message })

/** A title in a message: cut (never inside a surrogate pair), so that an error line stays one short line. */
export const shown = (title: string): string => JSON.stringify(excerpt(title, 100))

const rounded = (similarity: number): string => similarity.toFixed(2)

/** Checks the paper title match answered for `title`: the same title, or the nearest that was not. */
const checked = (title: string, paper: Paper): Outcome => {
  const { same, similarity } = TitleMatch.compare(title, paper.title ?? "")
  const score = paper.matchScore === undefined ? {} : { score: paper.matchScore }
  return same
    ? { _tag: "Paper", paper, via: "title", similarity, ...score }
    : {
      _tag: "Missing",
      reason: "noTitleMatch",
      message: TitleMatch.describeNearest(paper.title ?? "", similarity),
      nearest: paper,
      similarity
    }
}

const lookupTitle = (title: string, fields: FieldList) =>
  Effect.flatMap(SemanticScholar, (client) => client.matchPaperTitle(title, { fields })).pipe(
    Effect.map((paper) => checked(title, paper)),
    // No match, or a title the server will not take, is an answer about this input, not a failure of the job.
    Effect.catchTag("ObjectNotFound", () => Effect.succeed(missing("noTitleMatch", "no paper matches the title"))),
    Effect.catchIf(isRefusal, (error) =>
      Effect.succeed(missing(
        "refused",
        `the server refused it (${error.status === undefined ? error._tag : `HTTP ${error.status}`})`
      )))
  )

/** What settles a title without a request: nothing to match, or too long to send. */
const unaskable = (title: string): Outcome | undefined => {
  // The length first: it is one pass without a copy, and a title too long to send gets no other work.
  const bytes = encodedBytes(title)
  if (bytes > queryBytes) {
    return missing("tooLong", `too long to send: ${bytes} bytes URL-encoded, at most ${queryBytes}`)
  }
  return phrase(title).length === 0 ? missing("noTitleMatch", "the title has no letters or digits to match") : undefined
}

const lookupIds = Effect.fnUntraced(function*(
  ids: ReadonlyArray<string>,
  fields: FieldList
) {
  const out = new Map<string, Paper | undefined>()
  if (ids.length === 0) return out
  for (const [id, paper] of yield* papersById(yield* SemanticScholar, ids, fields)) out.set(idKey(id), paper)
  return out
})

/**
 * Settles a chunk's new ids and titles up to title match: the titles a request cannot help, the
 * bulk searches, and one batch POST for the ids and the papers the bulk searches found.
 */
const settleChunk = Effect.fnUntraced(function*(
  recognised: ReadonlyArray<Recognised>,
  seen: Map<string, Outcome>,
  near: Map<string, ReadonlyArray<Scored>>,
  fields: FieldList,
  concurrency: number
) {
  const ids = new Map<string, string>()
  const titles = new Map<string, string>()
  for (const r of recognised) {
    const key = keyOf(r)
    if (seen.has(key)) continue
    if (r._tag === "Id") ids.set(key, r.id)
    else if (r._tag === "Title") {
      const settled = unaskable(r.title)
      if (settled === undefined) titles.set(key, r.title)
      else seen.set(key, settled)
    }
  }
  const found = yield* bulkTitles([...titles].map(([key, title]) => ({ key, title })), concurrency)
  const { candidates, others } = found
  const needed = [...ids.values(), ...[...candidates.values()].map((c) => c.paperId)]
  // The other papers of a title, then those of a title left open but for a subtitle, only where the
  // chunk's one batch has room: never a request more.
  const more = [...new Set([...others.values(), ...found.near.values()].flat())].slice(
    0,
    Math.max(0, chunkSize - needed.length)
  )
  const papers = yield* lookupIds([...needed, ...more], fields)
  for (const [key, id] of ids) {
    const paper = papers.get(idKey(id))
    seen.set(
      key,
      paper === undefined
        ? missing("unknownId", "not known to Semantic Scholar")
        : { _tag: "Paper", paper, via: "id" }
    )
  }
  for (const [key, candidate] of candidates) {
    const paper = papers.get(idKey(candidate.paperId))
    // The search page's title chose it, but the batch's record is what is printed and cited: checked
    // again. Gone between the two, or another title now, it is left to title match.
    const outcome = paper === undefined ? undefined : checked(titles.get(key)!, paper)
    const same = (others.get(key) ?? []).flatMap((id): ReadonlyArray<Scored> => {
      const other = papers.get(idKey(id))
      const o = other === undefined ? undefined : checked(titles.get(key)!, other)
      return o?._tag === "Paper" ? [{ paper: o.paper, similarity: o.similarity ?? 0 }] : []
    })
    if (outcome?._tag === "Paper") seen.set(key, same.length === 0 ? outcome : { ...outcome, others: same })
  }
  for (const [key, nearIds] of found.near) {
    const title = titles.get(key)!
    const nearPapers = nearIds.flatMap((id) => papers.get(idKey(id)) ?? [])
    const scored = nearPapers.flatMap((paper): ReadonlyArray<Scored> =>
      typeof paper.title === "string"
        ? [{ paper, similarity: TitleMatch.compare(title, paper.title).similarity }]
        : []
    )
    if (scored.length > 0) near.set(key, scored)
  }
})

/**
 * Resolves one chunk of inputs: the bulk searches and one batch POST for its new ids and titles,
 * then each input in order, a title still open matched when it comes (`concurrency` at once; a
 * title repeated is matched once). Each result is emitted as soon as it and those before it are
 * known, rather than with the whole chunk: a caller with a time limit (the assistant's
 * `resolve_references`) keeps what was resolved.
 */
const resolveChunk = (
  seen: Map<string, Outcome>,
  near: Map<string, ReadonlyArray<Scored>>,
  fields: FieldList,
  concurrency: number
) =>
(inputs: ReadonlyArray<Asked>): Stream.Stream<WithOthers, S2Error, SemanticScholar> =>
  Stream.unwrap(Effect.gen(function*() {
    const recognised = inputs.map((input) => input.recognised)
    yield* settleChunk(recognised, seen, near, fields, concurrency)
    // The match of each title in flight, so that a repeat waits for it instead of asking again.
    const matching = new Map<string, Effect.Effect<void, S2Error, SemanticScholar>>()
    const settle = (r: Recognised): Effect.Effect<void, S2Error, SemanticScholar> => {
      const key = keyOf(r)
      if (r._tag !== "Title" || seen.has(key)) return Effect.void
      let match = matching.get(key)
      if (match === undefined) {
        match = Effect.runSync(Effect.cached(Effect.map(lookupTitle(r.title, fields), (o) => void seen.set(key, o))))
        matching.set(key, match)
      }
      return match
    }
    return Stream.fromIterable(recognised).pipe(
      Stream.mapEffect((r, i) => Effect.map(settle(r), () => withOthers(inputs[i]!, r, seen, near)), { concurrency })
    )
  }))

/**
 * A found paper's result; for an id given with a title, a {@link Mismatch} when the paper's title
 * is another, or when it has none (the title given was then never compared).
 */
const foundResult = (input: Asked, o: Outcome & { readonly _tag: "Paper" }): Resolve.Result => {
  const given = input.title
  const extra = {
    ...(o.score === undefined ? {} : { score: o.score }),
    ...(o.similarity === undefined ? {} : { similarity: o.similarity })
  }
  if (o.via === "id" && given !== undefined && TitleMatch.normalise(given).length > 0) {
    const title = o.paper.title
    const mismatch = (similarity: number, message: string) =>
      new Mismatch({ input: input.input, paper: o.paper, title: given, similarity, message })
    if (typeof title !== "string" || title.trim().length === 0) {
      return mismatch(0, "the paper has no title to compare with the title given")
    }
    const { same, similarity } = TitleMatch.compare(given, title)
    if (!same) {
      return mismatch(similarity, `the paper is ${shown(title)}, ${rounded(similarity)} similar to the title given`)
    }
    return new Found({ input: input.input, paper: o.paper, via: o.via, ...extra, similarity })
  }
  return new Found({ input: input.input, paper: o.paper, via: o.via, ...extra })
}

const toResult = (input: Asked, r: Recognised, seen: Map<string, Outcome>): Resolve.Result => {
  if (r._tag === "Malformed") return new NotFound({ input: input.input, notFound: "malformed", message: r.message })
  const o = seen.get(keyOf(r))!
  if (o._tag === "Paper") return foundResult(input, o)
  return new NotFound({
    input: input.input,
    notFound: o.reason,
    message: o.message,
    ...(o.nearest === undefined ? {} : { nearest: o.nearest }),
    ...(o.similarity === undefined ? {} : { similarity: o.similarity })
  })
}

/**
 * A result, and the other papers of the title found (a bulk search's, for `Verify` to choose
 * among), or, for a title not found, the papers a bulk search found of that title but for a
 * subtitle (for `Verify`, whose authors and year decide).
 */
export type WithOthers = readonly [Resolve.Result, ReadonlyArray<Scored>]

const withOthers = (
  input: Asked,
  r: Recognised,
  seen: Map<string, Outcome>,
  near: Map<string, ReadonlyArray<Scored>>
): WithOthers => {
  const o = r._tag === "Malformed" ? undefined : seen.get(keyOf(r))
  const more = o?._tag === "Paper" ? o.others ?? [] : o === undefined ? [] : near.get(keyOf(r)) ?? []
  return [toResult(input, r, seen), more]
}

/** See {@link Resolve.references}. */
export const references = (
  inputs:
    | Iterable<ReferenceInput.ReferenceInput>
    | Stream.Stream<ReferenceInput.ReferenceInput, S2Error, SemanticScholar>,
  options?: Resolve.ReferencesOptions
): Stream.Stream<Resolve.Result, S2Error, SemanticScholar> =>
  Stream.map(
    referencesWithOthers(
      Stream.map(
        // A string is iterable too: one string is one input, not one input per character.
        Stream.isStream(inputs) ? inputs : Stream.fromIterable(typeof inputs === "string" ? [inputs] : inputs),
        askedOf
      ),
      options
    ),
    ([result]) => result
  )

/** {@link references} of inputs already read, each result with the other papers of its title. */
export const referencesWithOthers = (
  inputs: Iterable<Asked> | Stream.Stream<Asked, S2Error, SemanticScholar>,
  options?: Resolve.ReferencesOptions
): Stream.Stream<WithOthers, S2Error, SemanticScholar> =>
  Stream.unwrap(Effect.gen(function*() {
    // Refused before any request, as the client refuses its own options, rather than guessed at.
    const concurrency = yield* Effect.fromResult(Result.mapError(
      Validate.wholeNumber("concurrency", options?.concurrency ?? 4, { min: 1 }),
      Validate.asInput
    ))
    const seen = new Map<string, Outcome>()
    const near = new Map<string, ReadonlyArray<Scored>>()
    const fields = withTitle(options?.fields)
    const source: Stream.Stream<Asked, S2Error, SemanticScholar> = Stream.isStream(inputs)
      ? inputs
      : Stream.fromIterable(inputs)
    return source.pipe(
      Stream.grouped(chunkSize),
      Stream.flatMap(resolveChunk(seen, near, fields, concurrency))
    )
  }))

const thousands = (n: number): string => n.toLocaleString("en-US")

/** Why a broken entry is skipped, with its lines. */
export const brokenWhy = (line: number, broken: NonNullable<bibtex.BibEntry["broken"]>): string => {
  if (broken.reason === "braces") return `its braces do not balance: lines ${line} to ${broken.lastLine} skipped`
  const past = broken.over === "value"
    ? `${thousands(bibtex.maxExpanded)} characters`
    : `the ${thousands(bibtex.maxExpandedInFile)} characters the file's @string macros may add in all`
  return `its ${broken.field} expands past ${past} (@string macros joined with #): the entry at line ${line} skipped`
}

type Placed = ReferenceInput.Query & { readonly key: string; readonly line: number }

/** See {@link Resolve.fromBibtex}. */
export const fromBibtex = (text: string): ReadonlyArray<Placed> =>
  bibtex.parse(text).map((entry): Placed => {
    if (entry.broken !== undefined) {
      return { key: entry.key, line: entry.line, input: "", problem: brokenWhy(entry.line, entry.broken) }
    }
    const input = bibtex.inputOf(entry)
    const title = bibtex.plain(entry.fields["title"] ?? "")
    const byId = recognise(input)._tag === "Id" && title.length > 0
    return { key: entry.key, line: entry.line, input, ...(byId ? { title } : {}) }
  })
