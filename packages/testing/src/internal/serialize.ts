/** Wire JSON for papers, authors and citation edges, honouring a {@link FieldSpec}. */
import type { AuthorCore, Corpus, PaperCore } from "../Corpus.js"
import { authorsYear, embeddingOf } from "./corpus/generate.js"
import { isInfluential } from "./corpus/graph.js"
import { TOPICS } from "./corpus/vocabulary.js"
import { AUTHOR_FIELDS, EDGE_FIELDS, type FieldSpec, PAPER_FIELDS } from "./fields.js"
import { at, hash, hashString, Rng } from "./prng.js"

export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }
type JsonObject = { [key: string]: Json }

const NESTED_LIST_CAP = 10_000
/**
 * A paper's nested `citations` / `references` hold its first 1,000 entries, as the live API's do
 * (the recorded fixture_Paper: 1,000 nested citations of a paper cited 10,059 times); the
 * paginated lists serve the rest.
 */
const LINKED_LIST_CAP = 1000
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

/** Where a field is read: paper `i` of `corpus`, generated as `p`, asked for with `spec`. */
interface PaperAt {
  readonly corpus: Corpus
  readonly i: number
  readonly p: PaperCore
  readonly spec: FieldSpec
}

const publicationVenueJson = (v: PaperCore["venue"]): Json => {
  if (v === null) return null
  const out: JsonObject = { id: uuidOf(hashString(v.name), 1), name: v.name, type: v.type, alternate_names: [v.short] }
  if (v.issn !== null) out.issn = v.issn
  out.url = `https://${v.host}/`
  return out
}

const citationStylesJson = ({ corpus, p }: PaperAt): Json => {
  const names = p.authors.map((a) => corpus.author(a).name)
  const last = (names[0]?.split(" ").at(-1) ?? "Anon").replace(/[^A-Za-z]/g, "")
  const key = `${last}${p.year}${p.title.split(" ").slice(0, 2).map((w) => w[0]?.toUpperCase() ?? "").join("")}`
  const kind = p.venue?.type === "conference" ? "Inproceedings" : "Article"
  return {
    bibtex: `@${kind}{${key},\n author = {${names.join(" and ")}},\n title = {${p.title}},\n year = {${p.year}}\n}\n`
  }
}

/** `citations` / `references`: the linked papers, then a reference's unresolved entries, 1,000 at most. */
const linkedPapersJson = (name: "citations" | "references") => ({ corpus, i, spec }: PaperAt): Json => {
  const sub: FieldSpec = { top: spec.nested.get(name) ?? PAPER_DEFAULT_NESTED, nested: new Map() }
  const ids = name === "citations" ? citingOf(corpus, i) : citedOf(corpus, i)
  const out: Array<Json> = []
  for (let k = 0; k < ids.length && k < LINKED_LIST_CAP; k++) out.push(paperJson(corpus, ids[k]!, sub))
  if (name === "references") {
    const unresolved = Math.min(unresolvedCount(corpus, i), LINKED_LIST_CAP - out.length)
    for (let u = 0; u < unresolved; u++) out.push(unresolvedJson(corpus, i, u, sub))
  }
  return out
}

/** How each paper field is answered. */
const PAPER_FIELD: { readonly [F in (typeof PAPER_FIELDS)[number]]: (at: PaperAt) => Json } = {
  paperId: ({ p }) => p.paperId,
  corpusId: ({ p }) => p.corpusId,
  externalIds: ({ p }) => p.externalIds,
  url: ({ p }) => `https://www.semanticscholar.org/paper/${p.paperId}`,
  title: ({ p }) => p.title,
  abstract: ({ p }) => p.abstract,
  venue: ({ p }) => p.venue?.name ?? "",
  publicationVenue: ({ p }) => publicationVenueJson(p.venue),
  year: ({ p }) => p.year,
  referenceCount: ({ corpus, i }) => corpus.referenceCount(i),
  citationCount: ({ corpus, i }) => corpus.citationCount(i),
  influentialCitationCount: ({ corpus, i }) => corpus.influentialCitationCount(i),
  isOpenAccess: ({ p }) => p.openAccess !== null,
  openAccessPdf: ({ p }) => p.openAccess === null ? null : { url: p.openAccess.url, status: p.openAccess.status },
  fieldsOfStudy: ({ p }) => p.fieldsOfStudy,
  s2FieldsOfStudy: ({ p }) => p.s2FieldsOfStudy,
  tldr: ({ p }) => p.tldr === null ? null : { model: "tldr@v2.0.0", text: p.tldr },
  publicationTypes: ({ p }) => p.publicationTypes,
  publicationDate: ({ p }) => p.publicationDate,
  journal: ({ p }) => p.journal,
  citationStyles: citationStylesJson,
  embedding: ({ corpus, i, p, spec }) => {
    const models = spec.nested.get("embedding")
    const model = models !== undefined && models.has("specter_v2") ? "specter_v2" : "specter_v1"
    return { model, vector: embeddingOf(corpus.seed, i, p.topic, model) }
  },
  textAvailability: ({ p }) => p.openAccess !== null ? "fulltext" : p.abstract !== null ? "abstract" : "none",
  authors: ({ corpus, p, spec }) => {
    const sub = authorSelection(spec.nested.get("authors"))
    return p.authors.map((a) => authorJson(corpus, a, { top: sub, nested: new Map() }))
  },
  citations: linkedPapersJson("citations"),
  references: linkedPapersJson("references")
}

/** A record's JSON: its id, then each field of `names` that `top` asks for, in `names` order. */
const selectedJson = <F extends string, At>(
  id: F,
  names: ReadonlyArray<F>,
  field: { readonly [K in F]: (at: At) => Json },
  at: At,
  top: ReadonlySet<string>
): JsonObject => {
  const out: JsonObject = { [id]: field[id](at) }
  for (const name of names) {
    if (name !== id && top.has(name)) out[name] = field[name](at)
  }
  return out
}

export const paperJson = (corpus: Corpus, i: number, spec: FieldSpec): JsonObject =>
  selectedJson("paperId", PAPER_FIELDS, PAPER_FIELD, { corpus, i, p: corpus.paper(i), spec }, spec.top)

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

/** Where an author field is read: author `j` of `corpus`, generated as `a`, asked for with `spec`. */
interface AuthorAt {
  readonly corpus: Corpus
  readonly j: number
  readonly a: AuthorCore
  readonly spec: FieldSpec
}

/** How each author field is answered. */
const AUTHOR_FIELD: { readonly [F in (typeof AUTHOR_FIELDS)[number]]: (at: AuthorAt) => Json } = {
  authorId: ({ a }) => a.authorId,
  externalIds: ({ a }) => a.externalIds,
  url: ({ a }) => `https://www.semanticscholar.org/author/${a.authorId}`,
  name: ({ a }) => a.name,
  affiliations: ({ a }) => a.affiliations,
  homepage: ({ a }) => a.homepage,
  paperCount: ({ corpus, j }) => corpus.authorPaperCount(j),
  citationCount: ({ corpus, j }) => corpus.authorCitationCount[j]!,
  hIndex: ({ corpus, j }) => corpus.authorHIndex[j]!,
  papers: ({ corpus, j, spec }) => {
    const subSpec: FieldSpec = { top: spec.nested.get("papers") ?? PAPER_DEFAULT_NESTED, nested: new Map() }
    const list: Array<Json> = []
    const from = corpus.authorPaperStart[j]!
    const to = Math.min(corpus.authorPaperStart[j + 1]!, from + NESTED_LIST_CAP)
    for (let k = from; k < to; k++) list.push(paperJson(corpus, corpus.authorPapers[k]!, subSpec))
    return list
  }
}

export const authorJson = (corpus: Corpus, j: number, spec: FieldSpec): JsonObject =>
  selectedJson("authorId", AUTHOR_FIELDS, AUTHOR_FIELD, { corpus, j, a: corpus.author(j), spec }, spec.top)

const INTENTS = ["background", "methodology", "result"] as const

/** The other paper's selection in an edge: what is not an edge field, or its title when nothing is. */
const edgePaperSpec = (spec: FieldSpec): FieldSpec => {
  const top = new Set([...spec.top].filter((f) => !(EDGE_FIELDS as ReadonlyArray<string>).includes(f)))
  if (top.size === 0) top.add("title")
  return { top, nested: spec.nested }
}

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
  out[side] = paperJson(corpus, side === "citingPaper" ? citing : cited, edgePaperSpec(spec))
  return out
}

export const unresolvedEdgeJson = (corpus: Corpus, citing: number, u: number, spec: FieldSpec): JsonObject => {
  const out: JsonObject = {}
  if (spec.top.has("contexts")) out.contexts = []
  if (spec.top.has("intents")) out.intents = []
  if (spec.top.has("contextsWithIntent")) out.contextsWithIntent = []
  if (spec.top.has("isInfluential")) out.isInfluential = false
  out.citedPaper = unresolvedJson(corpus, citing, u, edgePaperSpec(spec))
  return out
}

export { authorsYear }
