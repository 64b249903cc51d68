/**
 * The forms people write a paper id in (links, bare DOIs, arXiv ids new and old style, prefixes in
 * any case) and the API's spelling of each; one copy, read by the CLI's id arguments, the
 * assistant's tools and the reference resolver.
 */
import * as Result from "effect/Result"
import type * as PaperId from "../PaperId.js"
import * as Validate from "./validate.js"

/** What stands before a DOI in a link or a citation: a resolver's address (`https://doi.org/`, `http://dx.doi.org/`) or `doi:`. */
const doiPrefix = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/i

export const withoutDoiPrefix = (text: string): string => text.replace(doiPrefix, "")

export const isDoi = (text: string): boolean => /^10\.\d{4,9}\/\S+$/.test(text)

/** A DOI link, with or without its scheme: what follows the resolver's address. */
const doiLink = /^(?:https?:\/\/)?(?:www\.|dx\.)?doi\.org\/(.*)$/is
const arxivLink = /^(?:https?:\/\/)?(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf|html)\/([^?#]+)/i
const s2Url = /^https?:\/\/(?:www\.)?semanticscholar\.org\/paper\/(?:[^/?#]*\/)?([0-9a-f]{40})\/?(?:[?#].*)?$/is
/** The corpus link Semantic Scholar's own BibTeX gives as `url` (`https://api.semanticscholar.org/CorpusID:…`). */
const corpusLink = /^(?:https?:\/\/)?api\.semanticscholar\.org\/CorpusID:(\d{1,15})\/?(?:[?#].*)?$/is
const hex40 = /^[0-9a-f]{40}$/i
const knownPrefix = /^(CorpusId|DOI|ARXIV|MAG|ACL|PMID|PMCID|URL):/i
const otherUrl = /^https?:\/\/\S+$/i

/**
 * An arXiv id as people write it: new style (`2305.02115`), old style (`hep-th/9901001`, with a
 * subject class `math.GT/0309136`), a version (`v2`), a listing's category (`[cs.CL]`); the API
 * knows the id without version or class (`math/0309136`).
 */
const arxivId =
  /^(?:(\d{2}(?:0[1-9]|1[0-2])\.\d{4,5})|([a-z]+(?:-[a-z]+)?)(?:\.[a-z-]{2,})?\/(\d{7}))(?:v\d+)?(?:\s*\[[a-z-]+(?:\.[a-z-]+)?\])?$/i

/** The API's arXiv id in `text`, or `undefined` when it is not one. */
const readArxiv = (text: string): string | undefined => {
  const match = arxivId.exec(text.trim())
  if (match === null) return undefined
  return match[1] ?? `${match[2]!.toLowerCase()}/${match[3]}`
}

/** `arXiv:2405.05667v1 [cs.CL]`, as a reference list or Google Scholar's `arXiv preprint arXiv:…` writes it. */
const arxivCited = /^(?:arxiv\s+preprint\s+)?arxiv\s*:\s*(.+)$/is

/** The DOI arXiv gives its papers (`10.48550/arXiv.2602.12271v1`): the paper is the arXiv id. */
const arxivDoi = /^10\.48550\/arxiv\.(.+)$/is

// Runs of `%XX` decoded where they are UTF-8; a stray "%" in a pasted link is kept as typed.
const decodePercent = (text: string): string =>
  text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })

/**
 * Longer than any id, and than any title a request can carry (the API's URLs end at 8,192 bytes): a
 * line past it is a title as given, so that reading it stays one cheap pass, and is refused (as too
 * long to send) before any work on its words.
 */
const longest = 8192

export const recognise = (input: string): PaperId.Recognised => {
  const line = input.trim()
  if (line.length > longest) return { _tag: "Title", title: line }
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
  if (recognised._tag === "Id") return recognised.id
  // A link names its id even where the check refuses that id (`%2E%2E` decodes to a ".." segment):
  // the operation then refuses the id for what is wrong with it, not the link for its `https:`.
  return recognised._tag === "Malformed" ? linkedId(input.trim()) ?? input : input
}

/** A DOI as the API asks for it: an arXiv DOI as its arXiv id (the API knows every arXiv paper by it). */
const doiId = (doi: string): string => {
  const arxiv = arxivDoi.exec(doi)
  const id = arxiv === null ? undefined : readArxiv(arxiv[1]!)
  return id === undefined ? `DOI:${doi}` : `ARXIV:${id}`
}

/**
 * The id a link names: its path decoded, its query and fragment dropped (a DOI holds `?` or `#`
 * only percent-encoded in its link, and arXiv's ids never do).
 */
const linkedId = (line: string): string | undefined => {
  const doi = doiLink.exec(line)
  if (doi !== null) {
    const path = decodePercent(doi[1]!.split(/[?#]/, 1)[0]!)
    return /^10\../s.test(path) ? doiId(path) : undefined
  }
  const arxiv = arxivLink.exec(line)
  if (arxiv !== null) {
    const path = decodePercent(arxiv[1]!).replace(/(?:\.pdf)?\/?$/i, "")
    return `ARXIV:${readArxiv(path) ?? path.split(/v\d+$/, 1)[0]}`
  }
  const corpus = corpusLink.exec(line)
  if (corpus !== null) return `CorpusId:${corpus[1]}`
  const s2 = s2Url.exec(line)
  return s2 === null ? undefined : s2[1]!.toLowerCase()
}

/** `PREFIX:rest` in the API's spelling: the prefix as the API spells it, an arXiv id or DOI read as above. */
const prefixedId = (prefix: string, rest: string): string => {
  const name = prefix.toUpperCase() === "CORPUSID" ? "CorpusId" : prefix.toUpperCase()
  if (name === "ARXIV") return `ARXIV:${readArxiv(rest) ?? rest}`
  if (name === "DOI") return doiId(rest)
  return `${name}:${rest}`
}

const asId = (line: string): string | undefined => {
  const linked = linkedId(line)
  if (linked !== undefined) return linked
  if (isDoi(line)) return doiId(line)
  const arxiv = readArxiv(line) ?? readArxiv(arxivCited.exec(line)?.[1] ?? "")
  if (arxiv !== undefined) return `ARXIV:${arxiv}`
  if (hex40.test(line)) return line.toLowerCase()
  const prefix = knownPrefix.exec(line)
  // A known prefix followed by text is an id, even if the server then does not know it; a title
  // such as "BERT: Pre-training …" has an unknown prefix and stays a title.
  if (prefix) return prefixedId(prefix[1]!, line.slice(prefix[0].length).trim())
  if (otherUrl.test(line)) return `URL:${line}`
  return undefined
}
