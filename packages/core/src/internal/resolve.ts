import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import type * as Fields from "../Fields.js"
import type { Paper } from "../Paper.js"
import type * as Resolve from "../Resolve.js"
import { Found, NotFound } from "../Resolve.js"
import type { S2Error } from "../S2Error.js"
import { SemanticScholar } from "../SemanticScholar.js"
import { papersById } from "./papersById.js"
import * as Validate from "./validate.js"

/** The batch endpoint's limit: a chunk of inputs never needs more than one POST. */
export const chunkSize = 500

// Omitted: the client's paper summary set for both the batch and the title match, so a paper looks
// the same whichever way it was found (`citationStyles` included, for BibTeX).
type FieldList = ReadonlyArray<Fields.PaperField | Fields.Unchecked> | undefined

type Recognised = Resolve.Recognised

const doiUrl = /^https?:\/\/(?:dx\.)?doi\.org\/(10\..+)$/i
const arxivUrl = /^https?:\/\/(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf)\/(.+?)(?:v\d+)?(?:\.pdf)?\/?$/i
const s2Url = /^https?:\/\/(?:www\.)?semanticscholar\.org\/paper\/(?:[^/]*\/)?([0-9a-f]{40})\/?$/i
const bareDoi = /^10\.\d{4,9}\/\S+$/
const hex40 = /^[0-9a-f]{40}$/i
const knownPrefix = /^(CorpusId|DOI|ARXIV|MAG|ACL|PMID|PMCID|URL):/i
const otherUrl = /^https?:\/\/\S+$/i

/** Recognises an id in any form the API accepts (and the URL forms people paste); else a title. */
export const recognise = (input: string): Recognised => {
  const line = input.trim()
  if (line.length === 0 || /[\u0000-\u001f\u007f]/.test(line)) {
    const check = Validate.paperId(input, "input")
    return { _tag: "Malformed", message: Result.isFailure(check) ? check.failure.message : "input is empty" }
  }
  const id = asId(line)
  if (id === undefined) return { _tag: "Title", title: line.replace(/\s+/g, " ") }
  const check = Validate.paperId(id, "input")
  return Result.isSuccess(check) ? { _tag: "Id", id } : { _tag: "Malformed", message: check.failure.message }
}

// A pasted URL may hold a stray "%": kept as typed rather than thrown from inside the stream.
const decodeOrKeep = (text: string): string => {
  try {
    return decodeURI(text)
  } catch {
    return text
  }
}

const asId = (line: string): string | undefined => {
  const doi = doiUrl.exec(line) ?? (bareDoi.test(line) ? [line, line] : undefined)
  if (doi) return `DOI:${decodeOrKeep(doi[1]!)}`
  const arxiv = arxivUrl.exec(line)
  if (arxiv) return `ARXIV:${arxiv[1]}`
  const s2 = s2Url.exec(line)
  if (s2) return s2[1]!.toLowerCase()
  if (hex40.test(line)) return line.toLowerCase()
  const prefix = knownPrefix.exec(line)
  // A known prefix followed by text is an id, even if the server then does not know it; a title
  // such as "BERT: Pre-training …" has an unknown prefix and stays a title.
  if (prefix) {
    return `${prefix[1]!.toUpperCase() === "CORPUSID" ? "CorpusId" : prefix[1]!.toUpperCase()}:${
      line.slice(prefix[0].length).trim()
    }`
  }
  if (otherUrl.test(line)) return `URL:${line}`
  return undefined
}

/** Ids are compared without case (DOIs, arXiv ids and hex ids are case-insensitive), except URLs. */
const idKey = (id: string): string => `id ${id.startsWith("URL:") ? id : id.toLowerCase()}`

/** The key under which an input is looked up once: ids by their spelling, titles without case. */
const keyOf = (r: Recognised): string =>
  r._tag === "Id" ? idKey(r.id) : r._tag === "Title" ? `title ${r.title.toLowerCase()}` : "malformed"

type Outcome =
  | { readonly _tag: "Paper"; readonly paper: Paper; readonly via: "id" | "title"; readonly score?: number }
  | { readonly _tag: "Missing"; readonly reason: Resolve.Reason; readonly message: string }

const lookupIds = Effect.fnUntraced(function*(
  ids: ReadonlyArray<string>,
  fields: FieldList
) {
  const out = new Map<string, Outcome>()
  if (ids.length === 0) return out
  for (const [id, paper] of yield* papersById(yield* SemanticScholar, ids, fields)) {
    out.set(
      idKey(id),
      paper === undefined
        ? { _tag: "Missing", reason: "unknownId", message: `${id} is not known to Semantic Scholar` }
        : { _tag: "Paper", paper, via: "id" }
    )
  }
  return out
})

const lookupTitle = (title: string, fields: FieldList) =>
  Effect.flatMap(SemanticScholar, (client) => client.matchPaperTitle(title, { fields })).pipe(
    Effect.map((paper): Outcome => ({
      _tag: "Paper",
      paper,
      via: "title",
      ...(paper.matchScore === undefined ? {} : { score: paper.matchScore })
    })),
    // No match is an answer about this input, not a failure of the job.
    Effect.catchTag(
      "ObjectNotFound",
      () => Effect.succeed<Outcome>({ _tag: "Missing", reason: "noTitleMatch", message: `no paper matches the title` })
    )
  )

/**
 * Resolves one chunk of inputs: one batch POST for its new ids, then each input in order, a new
 * title matched when it comes (`concurrency` at once; a title repeated is matched once). Each
 * result is emitted as soon as it and those before it are known, rather than with the whole chunk:
 * a caller with a time limit (the assistant's `resolve_references`) keeps what was resolved.
 */
const resolveChunk = (
  seen: Map<string, Outcome>,
  fields: FieldList,
  concurrency: number
) =>
(inputs: ReadonlyArray<string>): Stream.Stream<Resolve.Result, S2Error, SemanticScholar> =>
  Stream.unwrap(Effect.gen(function*() {
    const recognised = inputs.map(recognise)
    const ids = new Map<string, string>()
    for (const r of recognised) {
      if (r._tag === "Id" && !seen.has(keyOf(r))) ids.set(idKey(r.id), r.id)
    }
    for (const [key, outcome] of yield* lookupIds([...ids.values()], fields)) seen.set(key, outcome)
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
      Stream.mapEffect((r, i) => Effect.map(settle(r), () => toResult(inputs[i]!, r, seen)), { concurrency })
    )
  }))

const toResult = (input: string, r: Recognised, seen: Map<string, Outcome>): Resolve.Result => {
  if (r._tag === "Malformed") return new NotFound({ input, notFound: "malformed", message: r.message })
  const o = seen.get(keyOf(r))!
  return o._tag === "Paper"
    ? new Found({ input, paper: o.paper, via: o.via, ...(o.score === undefined ? {} : { score: o.score }) })
    : new NotFound({ input, notFound: o.reason, message: o.message })
}

/** See {@link Resolve.references}. */
export const references = (
  inputs: Iterable<string> | Stream.Stream<string, S2Error, SemanticScholar>,
  options?: Resolve.ReferencesOptions
): Stream.Stream<Resolve.Result, S2Error, SemanticScholar> =>
  Stream.unwrap(Effect.gen(function*() {
    // Refused before any request, as the client refuses its own options, rather than guessed at.
    const concurrency = yield* Validate.inputEffect(
      Validate.wholeNumber("concurrency", options?.concurrency ?? 4, { min: 1 })
    )
    const seen = new Map<string, Outcome>()
    const fields = options?.fields
    // A string is iterable too: one string is one input, not one input per character.
    const source = Stream.isStream(inputs)
      ? inputs
      : Stream.fromIterable(typeof inputs === "string" ? [inputs] : inputs)
    return source.pipe(
      Stream.grouped(chunkSize),
      Stream.flatMap(resolveChunk(seen, fields, concurrency))
    )
  }))
