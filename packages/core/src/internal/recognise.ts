/**
 * The forms people write a paper id in (links, bare DOIs, prefixes in any case) and the API's
 * spelling of each; one copy, read by the CLI's id arguments, the assistant's tools and the
 * reference resolver.
 */
import * as Result from "effect/Result"
import type * as PaperId from "../PaperId.js"
import * as Validate from "./validate.js"

/** What stands before a DOI in a link or a citation: a resolver's address (`https://doi.org/`, `http://dx.doi.org/`) or `doi:`. */
const doiPrefix = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/i

export const withoutDoiPrefix = (text: string): string => text.replace(doiPrefix, "")

export const isDoi = (text: string): boolean => /^10\.\d{4,9}\/\S+$/.test(text)

const arxivUrl = /^https?:\/\/(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf)\/(.+?)(?:v\d+)?(?:\.pdf)?\/?$/i
const s2Url = /^https?:\/\/(?:www\.)?semanticscholar\.org\/paper\/(?:[^/]*\/)?([0-9a-f]{40})\/?$/i
const hex40 = /^[0-9a-f]{40}$/i
const knownPrefix = /^(CorpusId|DOI|ARXIV|MAG|ACL|PMID|PMCID|URL):/i
const otherUrl = /^https?:\/\/\S+$/i

export const recognise = (input: string): PaperId.Recognised => {
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

export const spelled = (input: string): string => {
  const recognised = recognise(input)
  return recognised._tag === "Id" ? recognised.id : input
}

// A pasted URL may hold a stray "%": kept as typed rather than thrown from inside a stream.
const decodeOrKeep = (text: string): string => {
  try {
    return decodeURI(text)
  } catch {
    return text
  }
}

const asId = (line: string): string | undefined => {
  // A DOI link (`https://doi.org/10.…`) or a bare DOI; `doi:10.…` is a known prefix, below.
  const doi = /^https?:/i.test(line) ? withoutDoiPrefix(line) : line
  if ((doi !== line && /^10\../s.test(doi)) || isDoi(line)) return `DOI:${decodeOrKeep(doi)}`
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
