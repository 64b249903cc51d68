/**
 * The accuracy benchmark's generator and server, on a small list of papers written here (the
 * benchmark itself reads ../shared/s2-recordings, absent in CI): the same seed gives the same set,
 * every kind, variant, style and format is there, each text reads as its format says, and a
 * reference verified against the server is found or not as its label says.
 */
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Verify } from "@s2-effect/jobs"
import * as Effect from "effect/Effect"
import * as HttpBody from "effect/http/HttpBody"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as fc from "fast-check"
import * as Os from "node:os"
import * as Path from "node:path"
import { generate, type GenerateOptions } from "../src/accuracy/generate.js"
import { badKinds, realVariants, respelled } from "../src/accuracy/kinds.js"
import { loadPapers, papersOf, type RecordedPaper } from "../src/accuracy/papers.js"
import { precisionAt, score } from "../src/accuracy/score.js"
import { makeServer } from "../src/accuracy/server.js"
import { styles } from "../src/accuracy/styles.js"

const hex = (i: number) => i.toString(16).padStart(40, "0")
const paper = (i: number, p: Partial<RecordedPaper> & { title: string }): RecordedPaper => ({
  paperId: hex(i + 1),
  corpusId: 1000 + i,
  authors: [{ authorId: "1", name: "Ada Lovelace" }, { authorId: "2", name: "Charles Babbage" }, {
    authorId: null,
    name: "Mary Somerville"
  }],
  year: 2020 + (i % 4),
  venue: "Journal of Machine Learning Research",
  journal: { name: "Journal of Machine Learning Research", volume: String(10 + i), pages: `${i}1-${i}9` },
  publicationDate: `${2020 + (i % 4)}-05-0${1 + (i % 9)}`,
  externalIds: { DOI: `10.5555/jmlr.${i}`, CorpusId: 1000 + i },
  ...p
})

const papers: ReadonlyArray<RecordedPaper> = [
  paper(0, { title: "Optimising Neural Networks for Low-Resource Translation: A Study of Transfer" }),
  paper(1, {
    title: "Attention Is All You Need",
    venue: "arXiv.org",
    journal: { name: "ArXiv", volume: "abs/1706.03762" },
    externalIds: { ArXiv: "1706.03762", DOI: "10.48550/arXiv.1706.03762", CorpusId: 1001 }
  }),
  paper(2, {
    title: "Modeling the Behavior of Large Language Models under Distribution Shift",
    venue: "International Conference on Machine Learning",
    journal: null
  }),
  paper(3, {
    title: "Graph Colouring Heuristics for Register Allocation in Compilers",
    authors: [{ authorId: "3", name: "Noam M. Shazeer" }]
  }),
  paper(4, {
    title: "Deep Residual Learning for Image Recognition",
    externalIds: { ArXiv: "1512.03385", DOI: "10.1109/cvpr.2016.90", CorpusId: 1004 },
    venue: "Computer Vision and Pattern Recognition",
    authors: ["Kaiming He", "X. Zhang", "Shaoqing Ren", "Jian Sun"].map((name, i) => ({ authorId: `4${i}`, name }))
  }),
  paper(5, {
    title: "Scaling Laws for Autoregressive Generative Modeling of Images and Text",
    venue: "arXiv.org",
    journal: { name: "ArXiv", volume: "abs/2010.14701" },
    externalIds: { ArXiv: "2010.14701", CorpusId: 1005 }
  }),
  paper(6, { title: "Analysing Citation Networks with Random Walks: Methods and Applications" }),
  paper(7, { title: "Protein Structure Prediction with Evolutionary Sequence Models and Geometry" }),
  paper(8, { title: "Federated Learning of Medical Image Segmentation across Hospitals", venue: "Nature Medicine" }),
  paper(9, {
    title: "Language Models are Few-Shot Learners",
    venue: "arXiv.org",
    journal: { name: "ArXiv", volume: "abs/2005.14165" },
    externalIds: { ArXiv: "2005.14165", CorpusId: 1009 }
  }),
  paper(10, { title: "Reinforcement Learning from Human Feedback for Dialogue Agents", venue: "Science" }),
  paper(11, { title: "Causal Inference in Observational Studies of Education Outcomes", venue: "Econometrica" })
]

const small: GenerateOptions = { seed: 7, perStyle: 2, perVariant: 3, perKind: 3 }

describe("the accuracy benchmark's generator", () => {
  it("gives the same set for the same seed, another for another seed", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        expect(generate(papers, { ...small, seed })).toEqual(generate(papers, { ...small, seed }))
      }),
      { numRuns: 20 }
    )
    expect(generate(papers, small)).not.toEqual(generate(papers, { ...small, seed: 8 }))
  })

  it("writes every bad kind, every real variant, at least 20 styles and every format", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const cases = generate(papers, { ...small, seed })
        const kinds = new Set(cases.filter((c) => c.label === "bad").map((c) => c.kind))
        expect([...kinds].sort()).toEqual(badKinds.map((k) => k.name).sort())
        const variants = new Set(cases.filter((c) => c.label === "real").map((c) => c.kind))
        expect([...variants].sort()).toEqual(realVariants.map((v) => v.name).sort())
        const realStyles = new Set(cases.filter((c) => c.label === "real").map((c) => c.style))
        expect(realStyles.size).toBe(styles.length)
        expect(realStyles.size).toBeGreaterThanOrEqual(20)
        expect(new Set(cases.map((c) => c.format))).toEqual(new Set(["bibtex", "ris", "csl-json", "formatted", "line"]))
        expect(new Set(cases.map((c) => c.key)).size).toBe(cases.length)
      }),
      { numRuns: 20 }
    )
  })

  it("writes each reference as its format reads", () => {
    for (const c of generate(papers, small)) {
      if (c.format === "bibtex") {
        const entries = Verify.fromBibtex(c.text)
        expect(entries.map((e) => [e.key, e.problem])).toEqual([[c.key, undefined]])
      }
      if (c.format === "csl-json") expect(JSON.parse(c.text)[0].id).toBe(c.key)
      if (c.format === "ris") expect(c.text.split("\n").filter((l) => /^(TY|ER) {2}- /.test(l)).length).toBe(2)
      if (c.format === "line") expect(c.text).not.toContain("\n")
    }
  })

  it("deals each style distinct papers while it has papers it fits", () => {
    const cases = generate(papers, small).filter((c) => c.label === "real" && c.kind === "as recorded")
    for (const style of styles) {
      const ids = cases.filter((c) => c.style === style.name).map((c) => c.paperId)
      expect(new Set(ids).size).toBe(ids.length)
    }
  })

  it("never writes a bad reference as the paper it is built on says it", () => {
    const cases = generate(papers, { ...small, perKind: 10 })
    const real = new Set(cases.filter((c) => c.label === "real").map((c) => c.text))
    for (const c of cases.filter((c) => c.label === "bad")) {
      const own = papers.find((p) => p.paperId === c.paperId)!
      expect(c.text).not.toBe(own.title)
      expect(real.has(c.text)).toBe(false)
    }
  })

  it("respells British and American words, and leaves titles without them", () => {
    expect(respelled("Optimising Neural Networks")).toBe("Optimizing Neural Networks")
    expect(respelled("Modeling Sea Ice")).toBe("Modelling Sea Ice")
    expect(respelled("The Behavior of Markets")).toBe("The Behaviour of Markets")
    expect(respelled("Graph Colouring Heuristics")).toBe("Graph Coloring Heuristics")
    expect(respelled("Raising the Noise Floor")).toBeUndefined()
  })
})

describe("the accuracy benchmark's papers and figures", () => {
  it("merges a paper's fields across recordings and keeps only complete records, in paperId order", () => {
    const merged = papersOf([
      [{ paperId: "b", title: "B", year: null }, { paperId: "a", title: "A" }],
      { data: [{ paperId: "b", title: "B", year: 2020, authors: [{ name: "X Y" }] }] },
      { paperId: "a", title: "A", authors: [], year: 2021 }
    ])
    expect(merged.map((p) => [p.paperId, p.year])).toEqual([["b", 2020]])
  })

  it("finds no papers where there are no recordings, so the case skips itself", () => {
    expect(loadPapers(Path.join(Os.tmpdir(), "s2-bench-no-such-recordings"))).toBeUndefined()
  })

  it("counts a reference flagged unless every input of it is verified", () => {
    const cases = generate(papers, small).slice(0, 3)
    const statuses: Record<string, ReadonlyArray<string>> = {
      [cases[0]!.key]: ["verified"],
      [cases[1]!.key]: ["verified", "notFound"]
    }
    const scored = score(cases, (key) => statuses[key] ?? [], (c) => c.key !== cases[0]!.key)
    expect([scored.real.n, scored.real.flagged]).toEqual([3, 2])
    expect(scored.real.read).toEqual({ n: 2, flagged: 2 })
    expect(precisionAt(0.01, 1, 0)).toBe(1)
    expect(precisionAt(0.01, 0.99, 0.01)).toBeCloseTo(0.5, 2)
  })
})

describe("the accuracy benchmark's server", () => {
  const server = makeServer(papers)
  const layer = SemanticScholar.layer({ rateLimit: false, retry: false }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, server.client))
  )
  it.effect("answers the verifier as the API would: a real reference verified, an invented one not found", () =>
    Effect.gen(function*() {
      const checked = yield* Stream.runCollect(Verify.references([
        "10.1109/cvpr.2016.90",
        "Deep Residual Learning for Image Recognition",
        "Towards Quantum Gardening for Medieval Poetry",
        "10.5555/does-not-exist"
      ]))
      expect(checked.map((v) => v.status)).toEqual(["verified", "verified", "notFound", "notFound"])
      expect(server.counts.total).toBeGreaterThan(0)
      expect(Object.keys(server.counts.byPath).every((path) => path.includes("/graph/v1/paper/"))).toBe(true)
    }).pipe(Effect.provide(layer)))

  it.effect("answers title match, batch and bulk search as S2-WIRE.md says", () =>
    Effect.gen(function*() {
      const root = "https://api.semanticscholar.org/graph/v1/paper"
      const get = (path: string) =>
        server.client.get(`${root}${path}`).pipe(Effect.flatMap((r) => Effect.map(r.json, (body) => [r.status, body])))
      expect(yield* get("/search/match?query=Quantum%20Gardening%20for%20Poetry")).toEqual([404, {
        error: "Title match not found"
      }])
      const [status, body] = yield* get(
        "/search/match?query=deep%20residual%20learning%20image%20recognition&fields=year"
      )
      expect([status, (body as { data: Array<{ paperId: string; year: number }> }).data[0]]).toMatchObject([200, {
        paperId: papers[4]!.paperId,
        year: papers[4]!.year
      }])
      expect(yield* get(`/search/bulk?query=${encodeURIComponent("\"attention is all\" | \"no such phrase\"")}`))
        .toEqual([200, { total: 1, token: null, data: [{ paperId: papers[1]!.paperId, title: papers[1]!.title }] }])
      const batch = yield* server.client.post(`${root}/batch?fields=year`, {
        body: HttpBody.text(JSON.stringify({ ids: ["ARXIV:1706.03762", "DOI:10.1109/CVPR.2016.90", "CorpusId:1"] }))
      }).pipe(Effect.flatMap((r) => r.json))
      expect(batch).toEqual([
        { paperId: papers[1]!.paperId, year: papers[1]!.year },
        { paperId: papers[4]!.paperId, year: papers[4]!.year },
        null
      ])
    }))
})
