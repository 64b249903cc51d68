import type { Fields, Paper, S2Error, SemanticScholar } from "@s2-effect/core"
import * as Stream from "effect/Stream"
import * as Citable from "../Citable.js"
import type * as Resolve from "../Resolve.js"
import type * as Verify from "../Verify.js"
import * as bibtex from "./bibtex.js"
import * as resolve from "./resolve.js"
import { Verification } from "./verification.js"
import { compare, type Given, givenOfFields, type Lookup } from "./verifyCompare.js"

/** See `Verify.fields`: what the citation writers write from, which holds what the checks compare. */
export const fields: ReadonlyArray<Fields.PaperField> = Citable.fields

/** One input, read: what it says, what the first pass asks, and its verification when no request can help. */
interface Ask {
  readonly key: string
  readonly input: string
  readonly given: Given
  /** The kind of id `input` is, when it is a DOI or an arXiv id. */
  readonly id?: "doi" | "arxiv"
  readonly settled?: Verification
}

const idKind = (input: string): "doi" | "arxiv" | undefined => {
  const r = resolve.recognise(input)
  return r._tag !== "Id" ? undefined : r.id.startsWith("DOI:") ? "doi" : r.id.startsWith("ARXIV:") ? "arxiv" : undefined
}

/**
 * A reference not found: the `notes` that say why, then, when a search answered a paper with another
 * title, its `note` (which names that paper) as the last note and as `nearestNote`.
 */
const notFound = (
  key: string,
  input: string,
  notes: ReadonlyArray<string>,
  search?: { readonly note: string; readonly result: Resolve.NotFound }
) => {
  if (search === undefined) return new Verification({ key, input, status: "notFound", differs: [], notes })
  const { nearest, similarity } = search.result
  return new Verification({
    key,
    input,
    status: "notFound",
    differs: [],
    notes: [...notes, search.note],
    ...(nearest === undefined ? {} : { nearest, nearestNote: search.note }),
    ...(similarity === undefined ? {} : { similarity })
  })
}

const askOf = (input: Verify.Input, position: number): Ask => {
  if (typeof input === "string") return askOf({ key: String(position + 1), text: input }, position)
  if (!("fields" in input)) {
    const r = resolve.recognise(input.text)
    const given: Given = r._tag === "Title" ? { title: r.title } : {}
    const id = idKind(input.text)
    return { key: input.key, input: input.text, given, ...(id === undefined ? {} : { id }) }
  }
  if (input.problem !== undefined) {
    return { key: input.key, input: "", given: {}, settled: notFound(input.key, "", [input.problem]) }
  }
  const asked = bibtex.inputOf({ type: "", key: input.key, fields: input.fields, line: input.line ?? 0 })
  const given = givenOfFields(input.fields)
  if (asked.length === 0) {
    const why = "the entry has no doi, eprint or title to check it by"
    return { key: input.key, input: "", given, settled: notFound(input.key, "", [why]) }
  }
  const id = idKind(asked)
  return { key: input.key, input: asked, given, ...(id === undefined ? {} : { id }) }
}

/** What the first pass asks: an id with the title it should have, or the input alone. */
const firstInput = (ask: Ask): Resolve.Input =>
  ask.given.title !== undefined && ask.input !== ask.given.title
    ? { input: ask.input, title: ask.given.title }
    : ask.input

/** A paper found for a reference, compared with what it says. */
const checked = (ask: Ask, paper: Paper, lookup: Lookup, notes: ReadonlyArray<string> = []) => {
  const { differs, notes: more, similarity } = compare(ask.given, paper, lookup)
  return new Verification({
    key: ask.key,
    input: ask.input,
    status: differs.length === 0 ? "verified" : "mismatch",
    differs,
    notes: [...notes, ...more],
    paper,
    ...(similarity === undefined ? {} : { similarity })
  })
}

/** The first pass's answer: a verification, or undefined when the entry's title is to be asked too. */
const afterFirst = (ask: Ask, result: Resolve.Result): Verification | undefined => {
  const byTitleToo = ask.given.title !== undefined && ask.input !== ask.given.title
  switch (result._tag) {
    case "Found":
      return checked(ask, result.paper, result.via === "id" ? { ...idOf(ask), named: true } : { named: false })
    case "Mismatch":
      return undefined
    case "NotFound":
      return byTitleToo ? undefined : notFound(ask.key, ask.input, [], { note: result.message, result })
  }
}

const idOf = (ask: Ask): { readonly id?: "doi" | "arxiv" } => ask.id === undefined ? {} : { id: ask.id }

/** Why the entry's id did not do: it named a paper of another title, or of none, or no paper. */
const idFailed = (ask: Ask, first: Resolve.Mismatch | Resolve.NotFound): string =>
  first._tag === "NotFound"
    ? `${ask.input}: ${first.message}`
    : typeof first.paper.title === "string" && first.paper.title.trim().length > 0
    ? `${ask.input} is ${resolve.shown(first.paper.title)}, another title`
    : `${ask.input} is a paper without a title`

/** The second pass's answer, for an entry whose id did not name a paper with its title. */
const afterTitle = (ask: Ask, first: Resolve.Mismatch | Resolve.NotFound, result: Resolve.Result): Verification => {
  if (result._tag === "Found") {
    return checked(ask, result.paper, { ...idOf(ask), named: false }, [`${idFailed(ask, first)}; found by the title`])
  }
  const why = result._tag === "NotFound" ? result.message : "no paper has the title"
  if (first._tag === "Mismatch") {
    return checked(ask, first.paper, { ...idOf(ask), named: true }, [`the title: ${why}`])
  }
  const title = `the title: ${why}`
  return result._tag === "NotFound"
    ? notFound(ask.key, ask.input, [idFailed(ask, first)], { note: title, result })
    : notFound(ask.key, ask.input, [idFailed(ask, first), title])
}

interface Pending {
  readonly index: number
  readonly first: Resolve.Mismatch | Resolve.NotFound
}

/**
 * One chunk: the first pass over the entries a request can help, then one pass over the titles of
 * those whose id did not do. Each verification is emitted as soon as it and those before it are
 * known (so a caller with a time limit keeps what was verified).
 */
const verifyChunk = (options: Resolve.ReferencesOptions) =>
(
  [inputs, n]: readonly [ReadonlyArray<Verify.Input>, number]
): Stream.Stream<Verification, S2Error, SemanticScholar> =>
  Stream.suspend(() => {
    const asks = inputs.map((input, i) => askOf(input, n * resolve.chunkSize + i))
    const out: Array<Verification | undefined> = asks.map((ask) => ask.settled)
    const pending: Array<Pending> = []
    let next = 0
    const ready = (): ReadonlyArray<Verification> => {
      const done: Array<Verification> = []
      while (next < out.length && out[next] !== undefined) done.push(out[next++]!)
      return done
    }
    const asked = asks.flatMap((ask, i) => ask.settled === undefined ? [i] : [])
    const first = Stream.zipWithIndex(resolve.references(asked.map((i) => firstInput(asks[i]!)), options)).pipe(
      Stream.map(([result, k]) => {
        const index = asked[k]!
        const verified = afterFirst(asks[index]!, result)
        if (verified !== undefined) out[index] = verified
        else pending.push({ index, first: result as Resolve.Mismatch | Resolve.NotFound })
        return ready()
      })
    )
    const second = Stream.suspend(() =>
      Stream.zipWithIndex(resolve.references(pending.map((p) => asks[p.index]!.given.title!), options)).pipe(
        Stream.map(([result, k]) => {
          const { first, index } = pending[k]!
          out[index] = afterTitle(asks[index]!, first, result)
          return ready()
        })
      )
    )
    return Stream.flattenIterable(Stream.concat(Stream.concat(Stream.sync(ready), first), second))
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
  inputs: Iterable<Verify.Input> | Stream.Stream<Verify.Input, S2Error, SemanticScholar>,
  options?: Verify.ReferencesOptions
): Stream.Stream<Verification, S2Error, SemanticScholar> => {
  // A string is iterable too: one string is one input, not one input per character.
  const source: Stream.Stream<Verify.Input, S2Error, SemanticScholar> = Stream.isStream(inputs)
    ? inputs
    : Stream.fromIterable(typeof inputs === "string" ? [inputs] : inputs)
  const resolveOptions = { fields: fieldsWith(options?.fields), concurrency: options?.concurrency }
  return source.pipe(
    Stream.grouped(resolve.chunkSize),
    Stream.zipWithIndex,
    Stream.flatMap(verifyChunk(resolveOptions))
  )
}
