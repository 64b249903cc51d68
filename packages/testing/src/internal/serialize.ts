/** Wire JSON for papers, authors and citation edges, honouring a {@link FieldSpec}. */
import type { Corpus, PaperCore } from "../Corpus.js"
import { authorsYear, embeddingOf } from "./corpus/generate.js"
import { isInfluential } from "./corpus/graph.js"
import { TOPICS } from "./corpus/vocabulary.js"
import { AUTHOR_FIELDS, type FieldSpec, PAPER_FIELDS } from "./fields.js"
import { at, hash, hashString, Rng } from "./prng.js"

export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }
type JsonObject = { [key: string]: Json }

const NESTED_LIST_CAP = 10_000
const PAPER_DEFAULT_NESTED: ReadonlySet<string> = new Set(["paperId", "title"])
const AUTHOR_DEFAULT_NESTED: ReadonlySet<string> = new Set(["authorId", "name"])

/**
 * A nested selection of authors, as the API answers it: `authorId` and `name` always, plus what was
 * named. (A nested paper keeps only `paperId` and what was named: `citations.year` has no title.)
 */
const authorSelection = (named: ReadonlySet<string> | undefined): ReadonlySet<string> =>
  named === undefined ? AUTHOR_DEFAULT_NESTED : new Set([...AUTHOR_DEFAULT_NESTED, ...named])

const uuidOf = (h: number, h2: number): string => {
  const hex = new Rng(h ^ h2).hex(32)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

const paperField = (corpus: Corpus, i: number, p: PaperCore, name: string, spec: FieldSpec): Json | undefined => {
  switch (name) {
    case "paperId":
      return p.paperId
    case "corpusId":
      return p.corpusId
    case "externalIds":
      return p.externalIds
    case "url":
      return `https://www.semanticscholar.org/paper/${p.paperId}`
    case "title":
      return p.title
    case "abstract":
      return p.abstract
    case "venue":
      return p.venue?.name ?? ""
    case "publicationVenue": {
      const v = p.venue
      if (v === null) return null
      const out: JsonObject = {
        id: uuidOf(hashString(v.name), 1),
        name: v.name,
        type: v.type,
        alternate_names: [v.short]
      }
      if (v.issn !== null) out.issn = v.issn
      out.url = `https://${v.host}/`
      return out
    }
    case "year":
      return p.year
    case "referenceCount":
      return corpus.referenceCount(i)
    case "citationCount":
      return corpus.citationCount(i)
    case "influentialCitationCount":
      return corpus.influentialCitationCount(i)
    case "isOpenAccess":
      return p.openAccess !== null
    case "openAccessPdf":
      return p.openAccess === null ? null : { url: p.openAccess.url, status: p.openAccess.status }
    case "fieldsOfStudy":
      return p.fieldsOfStudy
    case "s2FieldsOfStudy":
      return p.s2FieldsOfStudy
    case "tldr":
      return p.tldr === null ? null : { model: "tldr@v2.0.0", text: p.tldr }
    case "publicationTypes":
      return p.publicationTypes
    case "publicationDate":
      return p.publicationDate
    case "journal":
      return p.journal
    case "citationStyles": {
      const names = p.authors.map((a) => corpus.author(a).name)
      const last = (names[0]?.split(" ").at(-1) ?? "Anon").replace(/[^A-Za-z]/g, "")
      const key = `${last}${p.year}${p.title.split(" ").slice(0, 2).map((w) => w[0]?.toUpperCase() ?? "").join("")}`
      const kind = p.venue?.type === "conference" ? "Inproceedings" : "Article"
      return {
        bibtex: `@${kind}{${key},\n author = {${
          names.join(" and ")
        }},\n title = {${p.title}},\n year = {${p.year}}\n}\n`
      }
    }
    case "embedding": {
      const models = spec.nested.get("embedding")
      const model = models !== undefined && models.has("specter_v2") ? "specter_v2" : "specter_v1"
      return { model, vector: embeddingOf(corpus.seed, i, p.topic, model) }
    }
    case "textAvailability":
      return p.openAccess !== null ? "fulltext" : p.abstract !== null ? "abstract" : "none"
    case "authors": {
      const sub = authorSelection(spec.nested.get("authors"))
      return p.authors.map((a) => authorJson(corpus, a, { top: sub, nested: new Map() }))
    }
    case "citations":
    case "references": {
      const sub: FieldSpec = { top: spec.nested.get(name) ?? PAPER_DEFAULT_NESTED, nested: new Map() }
      const ids = name === "citations" ? citingOf(corpus, i) : citedOf(corpus, i)
      const out: Array<Json> = []
      for (let k = 0; k < ids.length && k < NESTED_LIST_CAP; k++) out.push(paperJson(corpus, ids[k]!, sub))
      if (name === "references") {
        for (let u = 0; u < unresolvedCount(corpus, i); u++) out.push(unresolvedJson(corpus, i, u, sub))
      }
      return out
    }
  }
  return undefined
}

export const paperJson = (corpus: Corpus, i: number, spec: FieldSpec): JsonObject => {
  const p = corpus.paper(i)
  const out: JsonObject = { paperId: p.paperId }
  for (const name of PAPER_FIELDS) {
    if (name === "paperId" || !spec.top.has(name)) continue
    const value = paperField(corpus, i, p, name, spec)
    if (value !== undefined) out[name] = value
  }
  return out
}

export const citingOf = (corpus: Corpus, i: number): Int32Array =>
  i < corpus.size
    ? corpus.graph.citeSources.subarray(corpus.graph.citeStart[i]!, corpus.graph.citeStart[i + 1]!)
    : new Int32Array(0)
export const citedOf = (corpus: Corpus, i: number): Int32Array =>
  i < corpus.size
    ? corpus.graph.refTargets.subarray(corpus.graph.refStart[i]!, corpus.graph.refStart[i + 1]!)
    : new Int32Array(0)
export const unresolvedCount = (corpus: Corpus, i: number): number =>
  i < corpus.size ? corpus.graph.unresolvedRefs[i]! : 0

/** A reference the corpus cannot resolve: `paperId: null`, a title, other fields null. */
export const unresolvedJson = (corpus: Corpus, i: number, u: number, spec: FieldSpec): JsonObject => {
  const rng = new Rng(hash(corpus.seed, i, u, 37))
  const topic = at(TOPICS, corpus.paper(i).topic)
  const out: JsonObject = { paperId: null }
  for (const name of PAPER_FIELDS) {
    if (name === "paperId" || !spec.top.has(name)) continue
    out[name] = name === "title" ? `${rng.pick(topic.nouns)} and ${rng.pick(topic.nouns)}: a technical report` : null
  }
  return out
}

export const authorJson = (corpus: Corpus, j: number, spec: FieldSpec): JsonObject => {
  const a = corpus.author(j)
  const out: JsonObject = { authorId: a.authorId }
  for (const name of AUTHOR_FIELDS) {
    if (name === "authorId" || !spec.top.has(name)) continue
    switch (name) {
      case "externalIds":
        out.externalIds = a.externalIds
        break
      case "url":
        out.url = `https://www.semanticscholar.org/author/${a.authorId}`
        break
      case "name":
        out.name = a.name
        break
      case "affiliations":
        out.affiliations = a.affiliations
        break
      case "homepage":
        out.homepage = a.homepage
        break
      case "paperCount":
        out.paperCount = corpus.authorPaperCount(j)
        break
      case "citationCount":
        out.citationCount = corpus.authorCitationCount[j]!
        break
      case "hIndex":
        out.hIndex = corpus.authorHIndex[j]!
        break
      case "papers": {
        const sub = spec.nested.get("papers") ?? PAPER_DEFAULT_NESTED
        const subSpec: FieldSpec = { top: sub, nested: new Map() }
        const list: Array<Json> = []
        const from = corpus.authorPaperStart[j]!
        const to = Math.min(corpus.authorPaperStart[j + 1]!, from + NESTED_LIST_CAP)
        for (let k = from; k < to; k++) list.push(paperJson(corpus, corpus.authorPapers[k]!, subSpec))
        out.papers = list
        break
      }
    }
  }
  return out
}

const INTENTS = ["background", "methodology", "result"] as const

/** One citation edge; `side` names the other paper's key (`citingPaper` or `citedPaper`). */
export const edgeJson = (
  corpus: Corpus,
  citing: number,
  cited: number,
  side: "citingPaper" | "citedPaper",
  spec: FieldSpec
): JsonObject => {
  const out: JsonObject = {}
  const rng = new Rng(hash(corpus.seed, citing, cited, 41))
  const wantsText = spec.top.has("contexts") || spec.top.has("intents") || spec.top.has("contextsWithIntent")
  if (wantsText) {
    const topic = at(TOPICS, corpus.paper(cited).topic)
    const n = rng.int(4)
    const withIntent: Array<{ context: string; intents: Array<string> }> = []
    for (let k = 0; k < n; k++) {
      const context = `${rng.pick(["Prior work", "Following", "As shown in", "Unlike"])} [${1 + rng.int(40)}], ${
        rng.pick(topic.methods)
      } has been applied to ${rng.pick(topic.nouns)}`
      const intents = rng.chance(0.3) ? [] : [rng.pick(INTENTS)]
      withIntent.push({ context, intents })
    }
    if (spec.top.has("contexts")) out.contexts = withIntent.map((c) => c.context)
    if (spec.top.has("intents")) out.intents = [...new Set(withIntent.flatMap((c) => c.intents))]
    if (spec.top.has("contextsWithIntent")) out.contextsWithIntent = withIntent
  }
  if (spec.top.has("isInfluential")) out.isInfluential = isInfluential(corpus.seed, citing, cited)
  const paperTop = new Set(
    [...spec.top].filter((f) =>
      f !== "contexts" && f !== "intents" && f !== "contextsWithIntent" && f !== "isInfluential"
    )
  )
  if (paperTop.size === 0) paperTop.add("title")
  out[side] = paperJson(corpus, side === "citingPaper" ? citing : cited, { top: paperTop, nested: spec.nested })
  return out
}

export const unresolvedEdgeJson = (corpus: Corpus, citing: number, u: number, spec: FieldSpec): JsonObject => {
  const out: JsonObject = {}
  if (spec.top.has("contexts")) out.contexts = []
  if (spec.top.has("intents")) out.intents = []
  if (spec.top.has("contextsWithIntent")) out.contextsWithIntent = []
  if (spec.top.has("isInfluential")) out.isInfluential = false
  const paperTop = new Set(
    [...spec.top].filter((f) =>
      f !== "contexts" && f !== "intents" && f !== "contextsWithIntent" && f !== "isInfluential"
    )
  )
  if (paperTop.size === 0) paperTop.add("title")
  out.citedPaper = unresolvedJson(corpus, citing, u, { top: paperTop, nested: spec.nested })
  return out
}

export { authorsYear }
