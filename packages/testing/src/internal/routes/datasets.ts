/**
 * Datasets API (`/datasets/v1`) and the file host its links point at. Releases are weekly; every
 * dataset of a release is a few gzipped JSON-lines files generated from the corpus on request.
 * Between releases some records are updated and a few deleted, and the diffs list exactly those,
 * keyed like the records (`corpusid` for the paper datasets), so applying the diffs of
 * `start → end` to `start` gives `end`.
 */
import { gzipSync } from "node:zlib"
import type { Corpus, PaperCore } from "../../Corpus.js"
import type { RouteContext } from "../context.js"
import { embeddingOf } from "../corpus/generate.js"
import { isInfluential } from "../corpus/graph.js"
import { DATASET_NAMES, TOPICS, type Venue } from "../corpus/vocabulary.js"
import { hash, hashString, Rng, unit } from "../prng.js"
import { type EmulatorRequest, type EmulatorResponse, error, forbidden, json } from "../wire.js"

/** Release ids: weekly dates from `start`, oldest first. */
export const releaseDates = (start: string, count: number): ReadonlyArray<string> => {
  const t0 = Date.parse(`${start}T00:00:00Z`)
  return Array.from({ length: count }, (_, k) => new Date(t0 + k * 7 * 86_400_000).toISOString().slice(0, 10))
}

const FILES_PER_RELEASE = 3
const FILES_PER_DIFF = 2
const UPDATE_RATE = 0.02
const DELETE_RATE = 0.01

const VENUES: ReadonlyArray<Venue> = [...new Map(TOPICS.flatMap((t) => t.venues).map((v) => [v.name, v])).values()]

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  "abstracts": "Paper abstract text, where available.",
  "authors": "The core attributes of an author (name, affiliation, paper count, etc.).",
  "citations":
    "Instances where the bibliography of one paper (the \"citingPaper\") mentions another paper (the \"citedPaper\").",
  "embeddings-specter_v1": "Dense vector embeddings of papers (SPECTER v1).",
  "embeddings-specter_v2": "Dense vector embeddings of papers (SPECTER v2).",
  "paper-ids": "Mapping from sha-based paper ids to corpus ids.",
  "papers": "The core attributes of a paper (title, authors, date, etc.).",
  "publication-venues": "Details about the venues in which papers are published.",
  "s2orc": "Full-body paper text parsed from open-access PDFs.",
  "s2orc_v2": "Full-body paper text parsed from open-access PDFs (v2).",
  "tldrs": "Short natural-language summaries of papers."
}

const readme = (name: string | undefined): string =>
  `Semantic Scholar Academic Graph Datasets (emulated)\n\n${
    name === undefined
      ? "These datasets provide a variety of information about research papers."
      : `The "${name}" dataset: ${DESCRIPTIONS[name] ?? ""}`
  }\nFiles are gzipped JSON lines.\n`

const deletedAt = (corpus: Corpus, dataset: string, k: number, releases: number): number => {
  const h = hash(corpus.seed, hashString(dataset), k, 67)
  return unit(h) < DELETE_RATE ? 1 + (hash(h, 71) % Math.max(1, releases - 1)) : Number.POSITIVE_INFINITY
}
const updatedIn = (corpus: Corpus, dataset: string, k: number, r: number): boolean =>
  r > 0 && unit(hash(corpus.seed, hashString(dataset), k, r, 73)) < UPDATE_RATE
const lastUpdate = (corpus: Corpus, dataset: string, k: number, r: number): number => {
  for (let x = r; x > 0; x--) if (updatedIn(corpus, dataset, k, x)) return x
  return 0
}

const citingOfEdge = (corpus: Corpus, e: number): number => {
  let lo = 0
  let hi = corpus.size - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (corpus.graph.refStart[mid]! <= e) lo = mid
    else hi = mid - 1
  }
  return lo
}

/**
 * What the routes need of a dataset: the field its records are keyed by (a deletion line holds only
 * that field), how many records it holds, and one record as of update `version` (a release index).
 */
interface DatasetShape {
  readonly key: string
  readonly count: (corpus: Corpus) => number
  readonly record: (corpus: Corpus, k: number, version: number) => Record<string, unknown>
}

/** A dataset with a record per paper, keyed by `corpusid`; `cap` bounds it (embedding lines are large). */
const perPaper = (
  cap: number,
  record: (p: PaperCore, corpus: Corpus, k: number, version: number) => Record<string, unknown>
): DatasetShape => ({
  key: "corpusid",
  count: (corpus) => Math.min(corpus.size, cap),
  record: (corpus, k, version) => record(corpus.paper(k), corpus, k, version)
})

const embeddings = (model: string): DatasetShape =>
  perPaper(1_000, (p, corpus, k) => ({
    corpusid: p.corpusId,
    model,
    vector: JSON.stringify(embeddingOf(corpus.seed, k, p.topic, model))
  }))

const s2orc = perPaper(10_000, (p) => ({
  corpusid: p.corpusId,
  externalids: p.externalIds,
  content: {
    source: { pdfurls: p.openAccess === null ? [] : [p.openAccess.url] },
    text: `${p.title}\n\n${p.abstract ?? ""}`,
    annotations: { title: `[{"start":0,"end":${p.title.length}}]` }
  }
}))

const papers = perPaper(10_000, (p, corpus, k, version) => ({
  corpusid: p.corpusId,
  externalids: p.externalIds,
  url: `https://www.semanticscholar.org/paper/${p.paperId}`,
  title: p.title,
  authors: p.authors.map((a) => ({ authorId: corpus.author(a).authorId, name: corpus.author(a).name })),
  venue: p.venue?.name ?? "",
  year: p.year,
  referencecount: corpus.referenceCount(k),
  citationcount: corpus.citationCount(k) + version,
  influentialcitationcount: corpus.influentialCitationCount(k),
  isopenaccess: p.openAccess !== null,
  s2fieldsofstudy: p.s2FieldsOfStudy,
  publicationtypes: p.publicationTypes,
  publicationdate: p.publicationDate,
  journal: p.journal
}))

const DATASETS: Readonly<Record<string, DatasetShape>> = {
  "abstracts": perPaper(10_000, (p) => ({
    corpusid: p.corpusId,
    openaccessinfo: p.openAccess === null
      ? null
      : { url: p.openAccess.url, status: p.openAccess.status, license: null },
    abstract: p.abstract
  })),
  "authors": {
    key: "authorid",
    count: (corpus) => Math.min(corpus.authorCount, 10_000),
    record: (corpus, k, version) => {
      const a = corpus.author(k)
      return {
        authorid: a.authorId,
        externalids: a.externalIds,
        url: `https://www.semanticscholar.org/author/${a.authorId}`,
        name: a.name,
        aliases: null,
        affiliations: a.affiliations,
        homepage: a.homepage,
        papercount: corpus.authorPaperCount(k),
        citationcount: corpus.authorCitationCount[k]! + version,
        hindex: corpus.authorHIndex[k]!
      }
    }
  },
  "citations": {
    key: "citationid",
    count: (corpus) => Math.min(corpus.graph.refTargets.length, 10_000),
    record: (corpus, k, version) => {
      const citing = citingOfEdge(corpus, k)
      const cited = corpus.graph.refTargets[k]!
      return {
        citationid: 1_000_000 + k,
        citingcorpusid: corpus.paper(citing).corpusId,
        citedcorpusid: corpus.paper(cited).corpusId,
        isinfluential: isInfluential(corpus.seed, citing, cited),
        contexts: version > 0 ? [`context revised in update ${version}`] : [],
        intents: []
      }
    }
  },
  "embeddings-specter_v1": embeddings("specter_v1"),
  "embeddings-specter_v2": embeddings("specter_v2"),
  "paper-ids": perPaper(10_000, (p) => ({ sha: p.paperId, corpusid: p.corpusId, primary: true })),
  "papers": papers,
  "publication-venues": {
    key: "id",
    count: () => VENUES.length,
    record: (_corpus, k) => {
      const v = VENUES[k]!
      return {
        id: `venue-${hashString(v.name).toString(16)}`,
        name: v.name,
        type: v.type,
        alternate_names: [v.short],
        issn: v.issn,
        url: `https://${v.host}/`,
        alternate_urls: []
      }
    }
  },
  "s2orc": s2orc,
  "s2orc_v2": s2orc,
  "tldrs": perPaper(10_000, (p) => ({ corpusid: p.corpusId, model: "tldr@v2.0.0", text: p.tldr }))
}

/** The shape of a dataset of {@link DATASET_NAMES}; any other name reads as `papers`. */
const datasetShape = (dataset: string): DatasetShape => DATASETS[dataset] ?? papers

const signature = (corpus: Corpus, path: string): string =>
  `X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=${
    new Rng(hash(corpus.seed, hashString(path))).hex(64)
  }`

const link = (ctx: RouteContext, path: string): string => `${ctx.fileBase}/files/${path}?${signature(ctx.corpus, path)}`

export interface DatasetsConfig {
  readonly releases: ReadonlyArray<string>
}

const resolveRelease = (config: DatasetsConfig, id: string): number => {
  if (id === "latest") return config.releases.length - 1
  return config.releases.indexOf(id)
}

const hasKey = (request: EmulatorRequest): boolean => (request.headers["x-api-key"] ?? "") !== ""

/** GET /release/ */
export const listReleases = (config: DatasetsConfig): EmulatorResponse => json(200, config.releases)

/** GET /release/{id} */
export const getRelease = (config: DatasetsConfig, id: string): EmulatorResponse => {
  const r = resolveRelease(config, id)
  if (r < 0) return error(404, `Release ${id} not found`)
  return json(200, {
    release_id: config.releases[r]!,
    README: readme(undefined),
    datasets: DATASET_NAMES.map((name) => ({ name, description: DESCRIPTIONS[name] ?? "", README: readme(name) }))
  })
}

/** GET /release/{id}/dataset/{name} (key required) */
export const getDataset = (
  ctx: RouteContext,
  config: DatasetsConfig,
  request: EmulatorRequest,
  id: string,
  name: string
): EmulatorResponse => {
  if (!hasKey(request)) return forbidden()
  const r = resolveRelease(config, id)
  if (r < 0) return error(404, `Release ${id} not found`)
  if (!DATASET_NAMES.includes(name)) return error(404, `Dataset ${name} not found`)
  const release = config.releases[r]!
  return json(200, {
    name,
    description: DESCRIPTIONS[name] ?? "",
    README: readme(name),
    files: Array.from(
      { length: FILES_PER_RELEASE },
      (_, k) => link(ctx, `staging/${release}/${name}/part-${k}.jsonl.gz`)
    )
  })
}

/** GET /diffs/{start}/to/{end}/{name} (key required) */
export const getDiffs = (
  ctx: RouteContext,
  config: DatasetsConfig,
  request: EmulatorRequest,
  start: string,
  end: string,
  name: string
): EmulatorResponse => {
  if (!hasKey(request)) return forbidden()
  const from = resolveRelease(config, start)
  const to = resolveRelease(config, end)
  if (from < 0) return error(404, `Release ${start} not found`)
  if (to < 0) return error(404, `Release ${end} not found`)
  if (!DATASET_NAMES.includes(name)) return error(404, `Dataset ${name} not found`)
  if (to < from) return error(400, "The end release must not precede the start release")
  const diffs = []
  for (let r = from; r < to; r++) {
    const a = config.releases[r]!
    const b = config.releases[r + 1]!
    diffs.push({
      from_release: a,
      to_release: b,
      update_files: Array.from(
        { length: FILES_PER_DIFF },
        (_, k) => link(ctx, `diffs/${a}-to-${b}/${name}/updates-${k}.jsonl.gz`)
      ),
      delete_files: Array.from(
        { length: FILES_PER_DIFF },
        (_, k) => link(ctx, `diffs/${a}-to-${b}/${name}/deletes-${k}.jsonl.gz`)
      )
    })
  }
  return json(200, { dataset: name, start_release: config.releases[from]!, end_release: config.releases[to]!, diffs })
}

/** Records (JSON lines, uncompressed) of one file, or undefined when the path names no file. */
export const fileLines = (corpus: Corpus, config: DatasetsConfig, path: string): string | undefined => {
  const R = config.releases.length
  const staging = /^staging\/([^/]+)\/([^/]+)\/part-(\d+)\.jsonl\.gz$/.exec(path)
  const diff = /^diffs\/(\d{4}-\d{2}-\d{2})-to-(\d{4}-\d{2}-\d{2})\/([^/]+)\/(updates|deletes)-(\d+)\.jsonl\.gz$/.exec(
    path
  )
  const lines: Array<string> = []
  if (staging !== null) {
    const [, release = "", dataset = "", part = ""] = staging
    const r = config.releases.indexOf(release)
    const k = Number(part)
    if (r < 0 || !DATASET_NAMES.includes(dataset) || k >= FILES_PER_RELEASE) return undefined
    const { count, record } = datasetShape(dataset)
    const n = count(corpus)
    for (let item = k; item < n; item += FILES_PER_RELEASE) {
      if (deletedAt(corpus, dataset, item, R) <= r) continue
      lines.push(JSON.stringify(record(corpus, item, lastUpdate(corpus, dataset, item, r))))
    }
    return lines.join("\n") + (lines.length > 0 ? "\n" : "")
  }
  if (diff !== null) {
    const [, a = "", b = "", dataset = "", kind, part = ""] = diff
    const r = config.releases.indexOf(a)
    const k = Number(part)
    if (r < 0 || config.releases[r + 1] !== b || !DATASET_NAMES.includes(dataset) || k >= FILES_PER_DIFF) {
      return undefined
    }
    const { count, key, record } = datasetShape(dataset)
    const n = count(corpus)
    for (let item = k; item < n; item += FILES_PER_DIFF) {
      const gone = deletedAt(corpus, dataset, item, R)
      if (kind === "deletes") {
        if (gone === r + 1) lines.push(JSON.stringify({ [key]: record(corpus, item, 0)[key] }))
      } else if (gone > r + 1 && updatedIn(corpus, dataset, item, r + 1)) {
        lines.push(JSON.stringify(record(corpus, item, r + 1)))
      }
    }
    return lines.join("\n") + (lines.length > 0 ? "\n" : "")
  }
  return undefined
}

const parseRange = (
  header: string,
  size: number
): { readonly start: number; readonly end: number } | "invalid" | undefined => {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (m === null) return undefined
  const [, a = "", b = ""] = m
  if (a === "" && b === "") return "invalid"
  if (a === "") {
    const n = Math.min(Number(b), size)
    return n === 0 ? "invalid" : { start: size - n, end: size - 1 }
  }
  const start = Number(a)
  const end = b === "" ? size - 1 : Math.min(Number(b), size - 1)
  return start >= size || end < start ? "invalid" : { start, end }
}

/** GET/HEAD /files/{path}: gzipped JSON lines, with `Range` support. No key needed. */
export const serveFile = (
  ctx: RouteContext,
  config: DatasetsConfig,
  request: EmulatorRequest,
  path: string
): EmulatorResponse => {
  const bytes = ctx.files.get(path, () => {
    const lines = fileLines(ctx.corpus, config, path)
    return lines === undefined ? new Uint8Array(0) : new Uint8Array(gzipSync(Buffer.from(lines, "utf8")))
  })
  if (bytes.length === 0) {
    return {
      status: 404,
      headers: { "content-type": "application/xml" },
      body: "<Error><Code>NoSuchKey</Code></Error>"
    }
  }
  const base = {
    "content-type": "application/octet-stream",
    "accept-ranges": "bytes",
    "etag": `"${hashString(path).toString(16)}"`
  }
  const head = request.method === "HEAD"
  const range = request.headers["range"]
  if (range !== undefined) {
    const parsed = parseRange(range, bytes.length)
    if (parsed === "invalid") {
      return { status: 416, headers: { ...base, "content-range": `bytes */${bytes.length}` }, body: "" }
    }
    if (parsed !== undefined) {
      const slice = bytes.subarray(parsed.start, parsed.end + 1)
      return {
        status: 206,
        headers: {
          ...base,
          "content-range": `bytes ${parsed.start}-${parsed.end}/${bytes.length}`,
          "content-length": String(slice.length)
        },
        body: head ? "" : slice
      }
    }
  }
  return { status: 200, headers: { ...base, "content-length": String(bytes.length) }, body: head ? "" : bytes }
}
