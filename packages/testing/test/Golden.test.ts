/**
 * Same seed, same answers: hashes of the emulator's answers to a fixed set of requests on seed 1.
 * The hashes were taken before the corpus was made lazy (issue 28, point 5); a change to how the
 * corpus is built or held must leave every one of them as it is.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { Emulator } from "../src/index.js"
import { call } from "./helpers.js"

const ALL_PAPER = "paperId,externalIds,corpusId,publicationVenue,url,title,abstract,venue,year,referenceCount," +
  "citationCount,influentialCitationCount,isOpenAccess,openAccessPdf,fieldsOfStudy,s2FieldsOfStudy,tldr," +
  "publicationTypes,publicationDate,journal,citationStyles,textAvailability,authors"
const ALL_AUTHOR = "authorId,externalIds,url,name,affiliations,homepage,paperCount,citationCount,hIndex"

type Req = readonly [method: "GET" | "POST", path: string, body?: unknown]

const requests = (corpus: Emulator["Service"]["corpus"]): ReadonlyArray<Req> => {
  const p = (i: number) => corpus.paper(i)
  const withId = (kind: string) => {
    for (let i = 0; i < corpus.size; i++) if (corpus.paper(i).externalIds[kind] !== undefined) return corpus.paper(i)
    throw new Error(`no paper with ${kind}`)
  }
  const ext = (kind: string, prefix: string) => `${prefix}:${String(withId(kind).externalIds[kind])}`
  const cited = corpus.graph.citationCount.indexOf(Math.max(...corpus.graph.citationCount))
  return [
    ["GET", `/graph/v1/paper/${p(5).paperId}?fields=${ALL_PAPER}`],
    ["GET", `/graph/v1/paper/${p(2999).paperId}?fields=${ALL_PAPER},embedding`],
    ["GET", `/graph/v1/paper/CorpusId:${p(17).corpusId}?fields=title,year,authors.name,authors.hIndex`],
    ["GET", `/graph/v1/paper/${ext("DOI", "DOI")}`],
    ["GET", `/graph/v1/paper/${ext("ArXiv", "ARXIV")}`],
    ["GET", `/graph/v1/paper/${ext("MAG", "MAG")}`],
    ["GET", `/graph/v1/paper/${ext("PubMed", "PMID")}`],
    ["GET", `/graph/v1/paper/${ext("PubMedCentral", "PMCID")}`],
    ["GET", `/graph/v1/paper/${ext("ACL", "ACL")}`],
    ["GET", `/graph/v1/paper/DOI:10.1093/mind/lix.236.433?fields=${ALL_PAPER}`],
    ["GET", `/graph/v1/paper/DOI:10.9999/nothing.2020.1`],
    ["GET", `/graph/v1/paper/${p(cited).paperId}/citations?fields=title,year,isInfluential,contexts&limit=100`],
    ["GET", `/graph/v1/paper/${p(cited).paperId}/citations?offset=100&limit=50`],
    ["GET", `/graph/v1/paper/${p(2500).paperId}/references?fields=title,citationCount,intents`],
    ["GET", `/graph/v1/paper/${p(40).paperId}/authors?fields=${ALL_AUTHOR}`],
    ["GET", `/graph/v1/paper/search?query=neural+network&fields=title,year,citationCount&limit=50`],
    ["GET", `/graph/v1/paper/search?query=transformer&year=2015-2020&fieldsOfStudy=Computer+Science&offset=10`],
    ["GET", `/graph/v1/paper/search?query=protein+folding&openAccessPdf&minCitationCount=2&fields=venue`],
    ["GET", `/graph/v1/paper/search/match?query=${encodeURIComponent(p(123).title)}`],
    ["GET", `/graph/v1/paper/autocomplete?query=${encodeURIComponent(p(321).title.slice(0, 12))}`],
    ["GET", `/graph/v1/paper/search/bulk?query=learning&fields=title,year`],
    ["GET", `/graph/v1/paper/search/bulk?query=graph+%2Bneural+-vision&sort=citationCount:desc&fields=citationCount`],
    ["GET", `/graph/v1/paper/search/bulk?query=%22deep+learning%22&sort=publicationDate:asc&year=2010-`],
    ["GET", `/graph/v1/paper/search/bulk?query=optim*&publicationTypes=JournalArticle&venue=Nature`],
    ["GET", `/graph/v1/paper/search/bulk?fields=title,year,externalIds`],
    ["GET", `/graph/v1/paper/search/bulk?sort=citationCount:desc&fields=title`],
    ["GET", `/graph/v1/author/${corpus.author(3).authorId}?fields=${ALL_AUTHOR}`],
    ["GET", `/graph/v1/author/${corpus.author(0).authorId}/papers?fields=title,year,citationCount&limit=100`],
    ["GET", `/graph/v1/author/search?query=${encodeURIComponent(corpus.author(7).name)}&fields=name,paperCount`],
    ["GET", `/graph/v1/author/1741101?fields=${ALL_AUTHOR},papers.title`],
    ["POST", `/graph/v1/paper/batch?fields=title,year,citationCount,referenceCount`, {
      ids: [p(1).paperId, `CorpusId:${p(2).corpusId}`, "nope", ext("DOI", "DOI"), p(2998).paperId]
    }],
    ["POST", `/graph/v1/author/batch?fields=name,hIndex`, { ids: [corpus.author(1).authorId, "1741101", "0"] }],
    ["GET", `/graph/v1/snippet/search?query=neural+network&limit=5`],
    ["GET", `/recommendations/v1/papers/forpaper/${p(cited).paperId}?fields=title,year&limit=20`],
    ["POST", `/recommendations/v1/papers?fields=title`, {
      positivePaperIds: [p(10).paperId, p(11).paperId],
      negativePaperIds: [p(12).paperId]
    }]
  ]
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16)

/** Prints the table below when run with S2_GOLDEN_PRINT=1 (how it was made). */
const answers = Effect.gen(function*() {
  const { corpus } = yield* Emulator
  const out: Array<string> = []
  for (const [method, path, body] of requests(corpus)) {
    const reply = yield* call(method, path, body === undefined ? {} : { body })
    out.push(`${reply.status} ${digest(reply.text)}`)
  }
  return out
})

const EXPECTED: ReadonlyArray<string> = [
  "200 252e7c4d8a04f0c7",
  "200 70e4969cd4012b3e",
  "200 4510b18dcd27cf5c",
  "200 faec9885cde7e02d",
  "200 c560024019dd9eaf",
  "200 faec9885cde7e02d",
  "200 c7574206bf6ea725",
  "200 3f4f9d15cef92e8e",
  "200 f0f01d962aa64e6c",
  "200 951f7458cd2d22ac",
  "404 0623fcf901aa0133",
  "200 7ae1e346c868528c",
  "200 79ae1595e0d90549",
  "200 216b1c23be9fddf6",
  "200 6574bc0ffb8c0245",
  "200 7507f7a73e50f1a9",
  "200 db0140264a37af6c",
  "200 23f9f8d20f155fc2",
  "200 b6ef7d1530da987f",
  "200 c2f374dcdde93436",
  "200 bb9363a9479df961",
  "200 3d237773ab1a4d41",
  "200 861e775111cf92b1",
  "200 861e775111cf92b1",
  "200 b8987a7e8942bc72",
  "200 d56d271aef6c39e6",
  "200 5f56e9d5a115059e",
  "200 987f3792bb2efac3",
  "200 badc8a92e364da0c",
  "200 451b9e8b6a1d5c66",
  "200 9d95a1fe3a61c258",
  "200 a772a006da66e697",
  "200 de82a29a5614ea9d",
  "200 8e0d5ce7df60fb6d",
  "200 79f1db3b5423f93e"
]

/** Everything the corpus of seed 1 holds: papers, authors, graph and author statistics. */
const contentDigest = (corpus: Emulator["Service"]["corpus"]): string => {
  const hash = createHash("sha256")
  for (let i = 0; i < corpus.size; i++) hash.update(JSON.stringify(corpus.paper(i)))
  for (let j = 0; j < corpus.authorCount; j++) {
    hash.update(JSON.stringify([corpus.author(j), corpus.authorPaperCount(j)]))
    hash.update(JSON.stringify([corpus.authorCitationCount[j], corpus.authorHIndex[j]]))
  }
  const g = corpus.graph
  for (const a of [g.refStart, g.refTargets, g.citeStart, g.citeSources, g.citationCount, g.influentialCount]) {
    hash.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
  }
  hash.update(new Uint8Array(g.unresolvedRefs))
  for (const i of [0, 2999, 3000, 49_999]) hash.update(JSON.stringify(corpus.paper(i)))
  return hash.digest("hex").slice(0, 16)
}

describe("same seed, same answers", () => {
  it.effect("seed 1: the corpus content hashes as it did", () =>
    Effect.gen(function*() {
      const { corpus } = yield* Emulator
      if (process.env.S2_GOLDEN_PRINT === "1") console.log(contentDigest(corpus))
      expect(contentDigest(corpus)).toBe("407e367629e59a78")
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 3000, bulkSize: 50_000 }))))

  it.effect("seed 1: answers to a fixed set of requests hash as they did", () =>
    Effect.gen(function*() {
      const got = yield* answers
      if (process.env.S2_GOLDEN_PRINT === "1") console.log(JSON.stringify(got, null, 2))
      expect(got).toEqual(EXPECTED)
    }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 3000, bulkSize: 50_000 }))))
})
