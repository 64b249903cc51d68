import { describe, expect, it, vi } from "@effect/vitest"
import { PaperId, SemanticScholar } from "@s2-effect/core"
import { Emulator, Faults } from "@s2-effect/testing"
import { Clock, Effect, Fiber, Layer, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { Resolve, TitleMatch, Verify } from "../src/index.js"
import { encodedBytes } from "../src/internal/resolveTitles.js"
import { stopWords } from "../src/internal/text.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const emulated = (size = 1000) => SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ seed: 1, size })))

const TURING = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"
const ATTENTION = "204e3073870fae3d05bcbc2f6a8e263d9b72e776"
const LITERATURE_GRAPH = "649def34f8be52c8b66281af98ae884c09aef38b"

const resolve = (inputs: ReadonlyArray<Resolve.Input>, options?: Resolve.ReferencesOptions) =>
  Stream.runCollect(Resolve.references(inputs, options))

const paths = Effect.map(
  Effect.flatMap(Emulator, (e) => e.requests),
  (rs) => rs.map((r) => new URL(r.url).pathname)
)

const clear = Effect.flatMap(Emulator, (e) => e.clearRequests)

/** The ids of the emulator's papers, as S2 ids, so that they are found. */
const corpusIds = (n: number) => Effect.map(Emulator, (e) => e.corpus.papers.slice(0, n).map((p) => p.paperId))

describe("Resolve.recognise", () => {
  it("is core's PaperId.recognise, so that the CLI, the assistant and the resolver read ids one way", () => {
    expect(Resolve.recognise).toBe(PaperId.recognise)
    expect(Resolve.recognise("arXiv:1706.03762")).toEqual({ _tag: "Id", id: "ARXIV:1706.03762" })
  })
})

describe("Resolve.references", () => {
  it.effect("landmarks by DOI, arXiv id and title, in input order, with how each was found", () =>
    Effect.gen(function*() {
      const results = yield* resolve([
        "Construction of the Literature Graph in Semantic Scholar",
        "https://doi.org/10.1093/mind/lix.236.433",
        "arXiv:1706.03762"
      ], { fields: ["title", "year"] })
      expect(results.map((r) => r._tag)).toEqual(["Found", "Found", "Found"])
      const found = results.filter((r): r is Resolve.Found => r._tag === "Found")
      expect(found.map((r) => r.paper.paperId)).toEqual([LITERATURE_GRAPH, TURING, ATTENTION])
      expect(found.map((r) => r.via)).toEqual(["title", "id", "id"])
      // Found by bulk search, checked: the same title.
      expect(found[0]!.similarity).toBe(1)
      expect(found[1]!.paper.year).toBe(1950)
      expect(found.map((r) => r.input)[1]).toBe("https://doi.org/10.1093/mind/lix.236.433")
    }).pipe(Effect.provide(emulated())))

  it.effect("a chunk where no id is known is NotFound results, not a failed stream", () =>
    Effect.gen(function*() {
      const results = yield* resolve(["DOI:10.9999/a", "CorpusId:999999999"])
      expect(results.map((r) => r._tag === "NotFound" && r.notFound)).toEqual(["unknownId", "unknownId"])
      // The input is printed before the message: the message does not repeat it.
      expect(results.map((r) => r._tag === "NotFound" && r.message)).toEqual([
        "not known to Semantic Scholar",
        "not known to Semantic Scholar"
      ])
    }).pipe(Effect.provide(emulated())))

  it.effect("a stream of inputs, and a lone string as one input", () =>
    Effect.gen(function*() {
      const fromStream = yield* Stream.runCollect(Resolve.references(Stream.make("arXiv:1706.03762", TURING)))
      expect(fromStream.map((r) => r._tag === "Found" && r.paper.paperId)).toEqual([ATTENTION, TURING])
      const lone = yield* Stream.runCollect(Resolve.references("arXiv:1706.03762"))
      expect(lone.map((r) => r.input)).toEqual(["arXiv:1706.03762"])
    }).pipe(Effect.provide(emulated())))

  it.effect("unknown ids, titles without a match and malformed lines are NotFound with a reason", () =>
    Effect.gen(function*() {
      const results = yield* resolve([
        "DOI:10.9999/no-such-paper",
        "zzqx qqxv wwzy nonexistent gibberish title 8812",
        "",
        "arXiv:1706.03762"
      ])
      expect(results.map((r) => r._tag === "NotFound" ? r.notFound : r._tag === "Found" ? r.via : r._tag)).toEqual([
        "unknownId",
        "noTitleMatch",
        "malformed",
        "id"
      ])
    }).pipe(Effect.provide(emulated())))

  it.effect("duplicates are asked once: one bulk search and one batch request", () =>
    Effect.gen(function*() {
      yield* clear
      const results = yield* resolve([
        "10.1093/mind/lix.236.433",
        "arXiv:1706.03762",
        "DOI:10.1093/mind/lix.236.433",
        "https://doi.org/10.1093/mind/lix.236.433",
        "Construction of the Literature Graph in Semantic Scholar",
        "construction of the  literature graph in semantic scholar",
        "ARXIV:1706.03762"
      ])
      expect(results.length).toBe(7)
      expect(results.every((r) => r._tag === "Found")).toBe(true)
      expect(yield* paths).toEqual(["/graph/v1/paper/search/bulk", "/graph/v1/paper/batch"])
    }).pipe(Effect.provide(emulated())))

  it.effect("an input repeated in a later chunk is not asked again", () =>
    Effect.gen(function*() {
      yield* clear
      const ids = yield* corpusIds(500)
      const results = yield* resolve([...ids, ids[0]!])
      expect(results.length).toBe(501)
      expect(results.every((r) => r._tag === "Found")).toBe(true)
      const last = results[500]
      expect(last?._tag === "Found" && last.paper.paperId).toBe(ids[0])
      expect((yield* paths).filter((p) => p.endsWith("/paper/batch")).length).toBe(1)
    }).pipe(Effect.provide(emulated())))

  it.effect("a failing title match or bulk search (not a 404, nor a refusal) fails the stream with its typed S2Error", () =>
    Effect.gen(function*() {
      for (const route of ["/paper/search/match", "/paper/search/bulk"]) {
        const error = yield* Effect.flip(
          resolve(["arXiv:1706.03762", "Attention Is All You Need", "Attention Needed"]).pipe(
            Effect.provide(
              SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({
                seed: 1,
                size: 1000,
                faults: { script: [{ route, fault: Faults.status(403) }] }
              })))
            )
          )
        )
        expect(error._tag).toBe("Forbidden")
      }
    }))

  it.effect("request budget: 1,000 ids cost two batch requests and nothing else", () =>
    Effect.gen(function*() {
      yield* clear
      const inputs = yield* corpusIds(1000)
      expect(inputs.length).toBe(1000)
      const results = yield* resolve(inputs)
      expect(results.map((r) => r.input)).toEqual(inputs)
      expect(results.map((r) => r._tag === "Found" && r.paper.paperId)).toEqual(inputs)
      const seen = yield* paths
      expect(seen).toEqual(["/graph/v1/paper/batch", "/graph/v1/paper/batch"])
    }).pipe(Effect.provide(emulated())))

  it.effect("pulled: nothing is asked before the consumer pulls, and one chunk per pull", () =>
    Effect.gen(function*() {
      yield* clear
      const inputs = Array.from({ length: 1500 }, (_, i) => `CorpusId:${i + 1}`)
      const stream = Resolve.references(inputs)
      expect((yield* paths).length).toBe(0)
      const first = yield* Stream.runCollect(Stream.take(stream, 10))
      expect(first.length).toBe(10)
      expect((yield* paths).length).toBe(1)
    }).pipe(Effect.provide(emulated())))

  it.effect("a concurrency that is no whole number ≥ 1 fails with BadQueryParameters before any request", () =>
    Effect.gen(function*() {
      yield* clear
      for (const concurrency of [0, -1, 1.5, Number.NaN]) {
        const error = yield* Effect.flip(resolve(["Attention Is All You Need"], { concurrency }))
        expect([error._tag, error.message]).toEqual([
          "BadQueryParameters",
          `concurrency ${concurrency} is invalid: give a whole number ≥ 1`
        ])
      }
      expect(yield* paths).toEqual([])
    }).pipe(Effect.provide(emulated())))

  it.effect(
    "property: output order is input order for any mix of ids, titles, repeats and junk",
    () =>
      Effect.gen(function*() {
        const pool = [
          "10.1093/mind/lix.236.433",
          "arXiv:1706.03762",
          "Construction of the Literature Graph in Semantic Scholar",
          "DOI:10.9999/none",
          "Attention Is All You Need",
          TURING,
          "",
          "CorpusId:14636783",
          "no such title at all qqzx"
        ]
        const layer = emulated()
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.array(fc.constantFrom(...pool), { maxLength: 30 }), async (inputs) => {
              const results = await Effect.runPromise(resolve(inputs).pipe(Effect.provide(layer)))
              expect(results.map((r) => r.input)).toEqual(inputs)
            }),
            { numRuns: 40 }
          )
        )
      }),
    120_000
  )
})

describe("Resolve.fromBibtex", () => {
  it("reads doi, else arXiv eprint, else title; skips @comment/@string; survives junk", () => {
    const bib = String.raw`@comment{ignore @article{x, doi={1}} }
@string{mind = "Mind"}
@Article{turing50,
  author  = {Turing, A. M.},
  title   = {Computing Machinery and Intelligence},
  journal = mind,
  year    = 1950,
  doi     = {10.1093/mind/LIX.236.433},
}
@misc{vaswani17,
  title = "Attention Is {All} You Need",
  eprint = {1706.03762v5}, archivePrefix = {arXiv}
}
@inproceedings(ammar18, title = {Construction of the {L}iterature {G}raph in {S}emantic \textit{Scholar}},
  booktitle = "NAACL" # " 2018")
@book{empty, year = 2000}
@article{broken, title = {never closed`
    const refs = Resolve.fromBibtex(bib)
    expect(refs).toEqual([
      {
        key: "turing50",
        line: 3,
        input: "DOI:10.1093/mind/LIX.236.433",
        title: "Computing Machinery and Intelligence"
      },
      { key: "vaswani17", line: 10, input: "ARXIV:1706.03762", title: "Attention Is All You Need" },
      { key: "ammar18", line: 14, input: "Construction of the Literature Graph in Semantic Scholar" },
      { key: "empty", line: 16, input: "" },
      { key: "broken", line: 17, input: "", problem: "its braces do not balance: lines 17 to 17 skipped" }
    ])
  })

  it("titles with TeX accents and special letters become the Unicode a title match needs", () => {
    const bib = String.raw`@article{garcia20, title = {An{\'a}lisis de citaci\'{o}n cient{\'\i}fica en Espa\~na}}
@article{erdos59, title = {Erd{\H{o}}s, R{\'e}nyi, {\L}ukasz, Schr\"{o}dinger, Fran\c{c}ois, Stra\ss e, \AA ngstr{\"o}m}}
@book{knuth84, title = {The {\TeX}book and \LaTeX: Mu\~{n}oz \& Sons, 100\% {\textit{done}}}}`
    expect(Resolve.fromBibtex(bib).map((r) => r.input)).toEqual([
      "Análisis de citación científica en España",
      "Erdős, Rényi, Łukasz, Schrödinger, François, Straße, Ångström",
      "The TeXbook and LaTeX: Muñoz & Sons, 100% done"
    ])
  })

  it.effect("a .bib file resolves through Resolve.references", () =>
    Effect.gen(function*() {
      const refs = Resolve.fromBibtex(
        "@article{a, doi = {10.1093/mind/lix.236.433}}\n@misc{b, title = {Attention Is All You Need}}"
      )
      const results = yield* resolve(refs.map((r) => r.input))
      expect(results.map((r) => r._tag === "Found" && r.paper.paperId)).toEqual([TURING, ATTENTION])
    }).pipe(Effect.provide(emulated())))

  it("never hangs or throws on arbitrary text", () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => {
      expect(Array.isArray(Resolve.fromBibtex(`@article{k, ${text}`))).toBe(true)
    }))
  })
})

describe("Resolve.references gives each result when it is known", () => {
  it.effect("the id's result comes after the bulk search and the batch, before the titles' matches end; in input order", () =>
    Effect.gen(function*() {
      const at: Array<readonly [string, number]> = []
      const fiber = yield* Effect.forkChild(Stream.runForEach(
        Resolve.references([TURING, "No such paper one", "No such paper two"]),
        (r) => Effect.map(Clock.currentTimeMillis, (now) => void at.push([r.input, now]))
      ))
      for (let second = 0; second < 40; second++) yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
      // Every request takes 10 s: the bulk search ends at 10 s, the batch at 20 s, the two matches (at once) at 30 s.
      expect(at).toEqual([[TURING, 20_000], ["No such paper one", 30_000], ["No such paper two", 30_000]])
    }).pipe(Effect.provide(
      SemanticScholar.layer().pipe(Layer.provideMerge(
        Emulator.layer({ seed: 1, size: 1000, faults: { script: [{ fault: Faults.latency("10 seconds") }] } })
      ))
    )))
})

/** The emulator's papers: title, id, and how many content words their title has. */
const corpusPapers = (n: number) =>
  Effect.map(Emulator, (e) =>
    e.corpus.papers.slice(0, n).map((p) => ({
      paperId: p.paperId,
      title: p.title,
      words: TitleMatch.normalise(p.title).split(" ").filter((w) => !stopWords.has(w)).length
    })))

const requestsOf = Effect.map(Effect.flatMap(Emulator, (e) => e.requests), (rs) => rs.map((r) => r.url))

describe("Resolve.references checks every title and asks titles in groups (issue 37)", () => {
  it.effect(
    "property: a title with one content word changed never resolves to that paper",
    () =>
      Effect.gen(function*() {
        const papers = (yield* corpusPapers(200)).filter((p) => p.words >= 1)
        const layer = emulated()
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.constantFrom(...papers),
              fc.nat(),
              fc.constantFrom("banana", "volcano", "sonnet", "gravity", "protein", "speech", "image", "kernel"),
              async (paper, k, word) => {
                const words = TitleMatch.normalise(paper.title).split(" ")
                const content = words.flatMap((w, i) => stopWords.has(w) ? [] : [i])
                const at = content[k % content.length]!
                fc.pre(words[at] !== word)
                words[at] = word
                const changed = words.join(" ")
                const [result] = await Effect.runPromise(resolve([changed]).pipe(Effect.provide(layer)))
                if (result?._tag === "Found") {
                  expect(result.paper.paperId).not.toBe(paper.paperId)
                  expect(TitleMatch.compare(changed, result.paper.title!).same).toBe(true)
                } else expect(result?._tag).toBe("NotFound")
              }
            ),
            // A resolve per run: 60 runs took 24 s at load 14 on 2 cores; 30 keep the check.
            { numRuns: 30 }
          )
        )
      }).pipe(Effect.provide(emulated())),
    120_000
  )

  it.effect("a title match with another title is NotFound, naming the nearest paper and its similarity", () =>
    Effect.gen(function*() {
      const [result] = yield* resolve(["Deep residual learning for image recognition"], { fields: ["year"] })
      expect(result?._tag).toBe("NotFound")
      const notFound = result as Resolve.NotFound
      expect(notFound.notFound).toBe("noTitleMatch")
      expect(notFound.nearest?.title).toBe(
        "Deep variational inference for speech recognition and image classification"
      )
      expect(notFound.similarity).toBeLessThan(TitleMatch.bound)
      expect(notFound.message).toMatch(
        /^no paper has this title; the nearest, "Deep variational inference .*", is 0\.\d\d similar/
      )
    }).pipe(Effect.provide(emulated())))

  it.effect("an id given with another title is a Mismatch, not the reference; with its own title, Found", () =>
    Effect.gen(function*() {
      const results = yield* resolve([
        { input: "arXiv:1706.03762", title: "Deep residual learning for image recognition" },
        { input: "10.1093/mind/lix.236.433", title: "Computing machinery and intelligence." },
        { input: "arXiv:1706.03762" }
      ])
      expect(results.map((r) => r._tag)).toEqual(["Mismatch", "Found", "Found"])
      const mismatch = results[0] as Resolve.Mismatch
      expect(mismatch.paper.paperId).toBe(ATTENTION)
      expect(mismatch.title).toBe("Deep residual learning for image recognition")
      expect(mismatch.message).toMatch(/^the paper is "Attention Is All You Need", 0\.\d\d similar to the title given$/)
      expect((results[1] as Resolve.Found).similarity).toBe(1)
      expect((results[2] as Resolve.Found).similarity).toBeUndefined()
    }).pipe(Effect.provide(emulated())))

  it.effect("request budget: 150 titles and 100 ids cost a few bulk searches and one batch; title match only for short titles", () =>
    Effect.gen(function*() {
      const papers = yield* corpusPapers(250)
      const titles = papers.slice(0, 150)
      const ids = papers.slice(150).map((p) => p.paperId)
      yield* clear
      const results = yield* resolve([...titles.map((p) => p.title), ...ids])
      expect(results.every((r) => r._tag === "Found")).toBe(true)
      const asked = yield* requestsOf
      const bulk = asked.filter((u) => u.includes("/paper/search/bulk"))
      const short = new Set(titles.filter((p) => p.words < 3).map((p) => p.title.toLowerCase())).size
      expect(bulk.length).toBeLessThanOrEqual(4)
      expect(asked.filter((u) => u.includes("/paper/batch")).length).toBe(1)
      expect(asked.filter((u) => u.includes("/paper/search/match")).length).toBe(short)
      // Every bulk query within the bound, as quoted titles ORed.
      for (const url of bulk) {
        const query = new URL(url).searchParams.get("query")!
        expect(encodeURIComponent(query).length).toBeLessThanOrEqual(4000)
        expect(query).toMatch(/^"[^"]+"( \| "[^"]+")*$/)
      }
      expect(asked.length).toBeLessThan(20)
    }).pipe(Effect.provide(emulated())))

  it.effect("a bulk search the server refuses (414) is asked title by title; nothing else is lost", () =>
    Effect.gen(function*() {
      const papers = (yield* corpusPapers(40)).filter((p) => p.words >= 3).slice(0, 10)
      const results = yield* resolve([TURING, ...papers.map((p) => p.title)]).pipe(
        Effect.provide(
          SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({
            seed: 1,
            size: 1000,
            faults: { script: [{ route: "/paper/search/bulk", fault: Faults.status(414) }] }
          })))
        )
      )
      expect(results.every((r) => r._tag === "Found")).toBe(true)
      expect(results.map((r) => (r as Resolve.Found).via)).toEqual(["id", ...papers.map(() => "title")])
    }).pipe(Effect.provide(emulated())))

  it.effect("a title too long to send is that reference's NotFound (tooLong), never sent; the others resolve", () =>
    Effect.gen(function*() {
      yield* clear
      const long = "word ".repeat(4000).trim()
      const cjk = "文献".repeat(1000)
      const results = yield* resolve([long, "Attention Is All You Need", cjk, TURING])
      expect(results.map((r) => r._tag === "NotFound" ? r.notFound : r._tag)).toEqual([
        "tooLong",
        "Found",
        "tooLong",
        "Found"
      ])
      expect((results[2] as Resolve.NotFound).message).toBe("too long to send: 18000 bytes URL-encoded, at most 4000")
      for (const url of yield* requestsOf) expect(url.length).toBeLessThan(8192)
    }).pipe(Effect.provide(emulated())))

  it.effect("a title too long to send is tooLong before anything reads its words, letters or none", () =>
    Effect.gen(function*() {
      yield* clear
      const results = yield* resolve(["!?".repeat(3000), `A study of ${"word ".repeat(2_000_000)}`])
      expect(results.map((r) => r._tag === "NotFound" ? r.notFound : r._tag)).toEqual(["tooLong", "tooLong"])
      expect((results[1] as Resolve.NotFound).message).toBe(
        "too long to send: 14000014 bytes URL-encoded, at most 4000"
      )
      expect(yield* requestsOf).toEqual([])
    }).pipe(Effect.provide(emulated())))

  it("a .bib title longer than any field is not read as TeX: asked as written, and so refused as too long", () => {
    const tex = String.raw`{\'e}t{\'e} `.repeat(10_000).trim()
    const [entry] = Resolve.fromBibtex(`@article{k, title = {${tex}}}`)
    expect(entry!.input).toBe(tex)
    // A long abstract-sized title is still read as TeX.
    const [short] = Resolve.fromBibtex(String.raw`@article{k, title = {{\'e}t{\'e}}}`)
    expect(short!.input).toBe("été")
  })

  it("the bytes of a title in a URL are its UTF-8 bytes, unreserved ones 1 and others 3 (property)", () => {
    // Any UTF-16 units: pairs, lone surrogates (sent as U+FFFD), ASCII.
    const units = fc.array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0, max: 0xffff })), {
      maxLength: 60
    })
    fc.assert(
      fc.property(units.map((codes) => String.fromCharCode(...codes)), (text) => {
        const expected = [...new TextEncoder().encode(text)].reduce(
          (n, byte) => n + (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? 1 : 3),
          0
        )
        expect(encodedBytes(text)).toBe(expected)
      })
    )
  })

  it.effect("a title match the server refuses (400) is that title's NotFound (refused); the others resolve", () =>
    Effect.gen(function*() {
      const results = yield* resolve(["Attention Everywhere", "Attention Needed", TURING], { concurrency: 1 }).pipe(
        Effect.provide(
          SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({
            seed: 1,
            size: 1000,
            faults: { script: [{ route: "/paper/search/match", requests: 1, fault: Faults.status(400) }] }
          })))
        )
      )
      expect(results.map((r) => r._tag === "NotFound" ? r.notFound : r._tag)).toEqual([
        "refused",
        "NotFound" === results[1]!._tag ? (results[1] as Resolve.NotFound).notFound : "Found",
        "Found"
      ])
      expect((results[0] as Resolve.NotFound).message).toBe("the server refused it (HTTP 400)")
    }))

  it.effect("a bulk page cut at 1,000 papers is asked again in halves, so a common phrase does not lose the others", () =>
    Effect.gen(function*() {
      const papers = (yield* corpusPapers(60)).filter((p) => p.words >= 3).slice(0, 8)
      yield* clear
      // In a sentence of thousands of the emulator's abstracts.
      const results = yield* resolve(["In near linear time", ...papers.map((p) => p.title)])
      expect(results.slice(1).every((r) => r._tag === "Found" && r.via === "title")).toBe(true)
      const asked = yield* requestsOf
      expect(asked.filter((u) => u.includes("/paper/search/match")).length).toBeLessThanOrEqual(1)
      expect(asked.filter((u) => u.includes("/paper/search/bulk")).length).toBeLessThanOrEqual(8)
    }).pipe(Effect.provide(emulated(5000))))

  it.effect("an empty-worded title is NotFound without a request", () =>
    Effect.gen(function*() {
      yield* clear
      const [result] = yield* resolve(["?!…"])
      expect(result).toMatchObject({ _tag: "NotFound", notFound: "noTitleMatch" })
      expect(yield* requestsOf).toEqual([])
    }).pipe(Effect.provide(emulated())))
})

describe("Resolve.fromBibtex (issues 36 and 39)", () => {
  it("an unbalanced brace ends its entry at the next @entry line: that entry is reported by line, the rest read", () => {
    const bib = String.raw`@article{good1, title = {Attention Is All You Need}}

@article{broken,
  title = {Deep {Residual Learning for Image Recognition},
  year = 2016
}
@article{good2,
  doi = {10.1093/mind/lix.236.433}
}
  @misc{good3, title = "Construction of the Literature Graph in Semantic Scholar"}`
    expect(Resolve.fromBibtex(bib)).toEqual([
      { key: "good1", line: 1, input: "Attention Is All You Need" },
      { key: "broken", line: 3, input: "", problem: "its braces do not balance: lines 3 to 6 skipped" },
      { key: "good2", line: 7, input: "DOI:10.1093/mind/lix.236.433" },
      { key: "good3", line: 10, input: "Construction of the Literature Graph in Semantic Scholar" }
    ])
  })

  it("eprint = {arXiv:…} is the arXiv id, with or without archivePrefix", () => {
    const bib = String.raw`@misc{a, title = {Attention Is All You Need}, eprint = {arXiv:1706.03762}}
@misc{b, title = {Attention Is All You Need}, eprint = {arXiv:1706.03762v5}, archivePrefix = {arXiv}}
@misc{c, title = {Old style}, eprint = {hep-th/9901001}, eprinttype = {arxiv}}
@misc{d, title = {Not arXiv}, eprint = {12345}}`
    expect(Resolve.fromBibtex(bib).map((r) => r.input)).toEqual([
      "ARXIV:1706.03762",
      "ARXIV:1706.03762",
      "ARXIV:hep-th/9901001",
      "Not arXiv"
    ])
  })

  it("@string macros are expanded, also with #; $\\alpha$ is α, not $$", () => {
    const bib = String.raw`@string{ att = "Attention" }
@STRING(need = {Need})
@misc{a, title = att # " Is All You " # need}
@misc{b, title = {{$\alpha$}-Synuclein and $\beta$-amyloid: a \$100 study}}
@misc{c, title = undefinedmacro}`
    expect(Resolve.fromBibtex(bib).map((r) => r.input)).toEqual([
      "Attention Is All You Need",
      "α-Synuclein and β-amyloid: a $100 study",
      "undefinedmacro"
    ])
  })

  it("a macro named like a prototype property does not reach Object.prototype", () => {
    const refs = Resolve.fromBibtex(String.raw`@string{__proto__ = "x", constructor = "y"}
@misc{a, title = constructor # " " # __proto__ # " " # toString}`)
    expect(refs.map((r) => r.input)).toEqual(["y x toString"])
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined()
  })
})

describe("Resolve.fromBibtex reads as BibTeX reads (issue 44)", () => {
  it("a field written twice keeps its first value, as BibTeX does (it prints the first)", () => {
    const bib = String
      .raw`@article{fake, title = {Computing Machinery and Intelligence}, doi = {10.1093/mind/lix.236.433},
  title = {A Paper That Does Not Exist}, doi = {10.1000/fake}}`
    expect(Resolve.fromBibtex(bib)).toEqual([
      { key: "fake", line: 1, input: "DOI:10.1093/mind/lix.236.433", title: "Computing Machinery and Intelligence" }
    ])
  })

  it("a key or a field name longer than any window keeps the entry's fields", () => {
    const key = "k".repeat(5000)
    const name = `x${"y".repeat(300)}`
    const bib = `@article{${key}, ${name} = {1}, title = {Attention Is All You Need}, note = ${
      "9".repeat(300)
    }, year = 2017}`
    const [ref] = Resolve.fromBibtex(bib)
    expect(ref).toEqual({ key, line: 1, input: "Attention Is All You Need" })
    const [entry] = Verify.fromBibtex(bib)
    expect(entry!.fields).toEqual({
      [name]: "1",
      title: "Attention Is All You Need",
      note: "9".repeat(300),
      year: "2017"
    })
  })
})

describe("Resolve.fromBibtex bounds what @string macros expand to", () => {
  /** `lines` macros, each the one before joined to itself: the last is 2^lines times the first. */
  const doubling = (lines: number, base = "abcdefgh") =>
    [`@string{m0 = "${base}"}`, ...Array.from({ length: lines }, (_, k) => `@string{m${k + 1} = m${k} # m${k}}`)]
      .join("\n")

  it("a value that doubles at each line stops at 10,000 characters: its entry is reported by line, the next read", () => {
    const bib = `${doubling(12)}
@misc{big, title = m12}
@misc{small, title = m0 # " and " # m0}`
    expect(Resolve.fromBibtex(bib)).toEqual([
      {
        key: "big",
        line: 14,
        input: "",
        problem: "its title expands past 10,000 characters (@string macros joined with #): the entry at line 14 skipped"
      },
      { key: "small", line: 15, input: "abcdefgh and abcdefgh" }
    ])
  })

  it("60 doublings (a value of 2^63 characters) neither throw nor grow: the entry is reported", () => {
    const refs = Resolve.fromBibtex(
      `${doubling(60)}\n@article{huge, journal = m60, title = {Attention Is All You Need}}`
    )
    expect(refs).toEqual([{
      key: "huge",
      line: 62,
      input: "",
      problem: "its journal expands past 10,000 characters (@string macros joined with #): the entry at line 62 skipped"
    }])
  })

  it("the macros of a whole file add at most 1,000,000 characters; a long title written out is no expansion", () => {
    const entries = Array.from({ length: 150 }, (_, k) => `@misc{e${k}, title = long}`)
    const written = "word ".repeat(4000).trim()
    const refs = Resolve.fromBibtex(
      [`@string{long = "${"x".repeat(9_000)}"}`, ...entries, `@misc{written, title = {${written}}}`].join("\n")
    )
    // 9,000 characters each: the 112th would pass the file's million.
    expect(refs.slice(0, 111).every((r) => r.problem === undefined && r.input.length === 9_000)).toBe(true)
    expect(refs[111]).toEqual({
      key: "e111",
      line: 113,
      input: "",
      problem: "its title expands past the 1,000,000 characters the file's @string macros may add in all " +
        "(@string macros joined with #): the entry at line 113 skipped"
    })
    expect(refs.at(-1)).toEqual({ key: "written", line: 152, input: written })
  })

  it("entries sharing one line are each read, the text searched for the next entry's line once, not once an entry", () => {
    const n = 2_000
    const text = Array.from({ length: n }, (_, k) => `@a{k${k},title={x${k}}}`).join("") + "\n@b{last, title = {y}}"
    const exec = vi.spyOn(RegExp.prototype, "exec")
    try {
      const refs = Resolve.fromBibtex(text)
      expect(refs.map((r) => r.key)).toEqual([...Array.from({ length: n }, (_, k) => `k${k}`), "last"])
      expect(refs[n - 1]).toEqual({ key: `k${n - 1}`, line: 1, input: `x${n - 1}` })
      // Only the search for a line that starts an entry runs over the whole text: each entry
      // searching to the end again made a line of entries quadratic (600 KB took 4 s).
      expect(exec.mock.calls.filter(([s]) => s === text).length).toBeLessThanOrEqual(2)
    } finally {
      exec.mockRestore()
    }
  })

  it("property: whatever macros a file defines and joins, no value outgrows the bounds and nothing throws", () => {
    const part = fc.oneof(
      fc.nat({ max: 30 }).map((k) => `m${k}`),
      fc.constantFrom("__proto__", "constructor", "toString", "jan"),
      fc.string({ maxLength: 12 }).map((s) => `{${s.replace(/[{}\\]/g, "")}}`)
    )
    const value = fc.array(part, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(" # "))
    const bib = fc.array(
      fc.oneof(
        fc.tuple(fc.nat({ max: 30 }), value).map(([k, v]) => `@string{m${k} = ${v}}`),
        fc.tuple(fc.constantFrom("title", "journal", "doi", "author"), value).map(([f, v]) => `@misc{k, ${f} = ${v}}`)
      ),
      { maxLength: 60 }
    ).map((lines) => lines.join("\n"))
    fc.assert(fc.property(bib, (text) => {
      const entries = Verify.fromBibtex(text)
      let total = 0
      for (const entry of entries) {
        for (const v of Object.values(entry.fields)) {
          expect(v.length).toBeLessThanOrEqual(Math.max(10_000, text.length))
          total += v.length
        }
      }
      expect(total).toBeLessThanOrEqual(1_000_000 + text.length)
    }))
  })
})

describe("Resolve.references checks the record it gives, not only what found it", () => {
  const TITLE = "Attention over graphs of citations for ranking papers"
  const OTHER = "0123456789abcdef0123456789abcdef01234567"
  /** Bulk search finds OTHER under TITLE; the batch's record of OTHER has `batchTitle`; title match has nothing. */
  const server = (batchTitle: string | null) =>
    testLayer((request) => {
      const path = request.url.pathname
      if (path.endsWith("/paper/search/bulk")) {
        return Effect.succeed(
          json({ total: 1, token: null, data: [{ paperId: OTHER, title: TITLE, citationCount: 3 }] })
        )
      }
      if (path.endsWith("/paper/batch")) return Effect.succeed(json([{ paperId: OTHER, title: batchTitle }]))
      return Effect.succeed(json({ error: "Title match not found" }, 404))
    })

  it.effect("a paper bulk search found whose batch record has another title is not Found; title match is asked", () =>
    Effect.gen(function*() {
      const [result] = yield* resolve([TITLE])
      expect(result).toMatchObject({ _tag: "NotFound", notFound: "noTitleMatch" })
      const asked = (yield* requests).map((r) => r.url.pathname)
      expect(asked.filter((p) => p.endsWith("/paper/search/match")).length).toBe(1)
    }).pipe(Effect.provide(server("Graph neural networks for molecules"))))

  it.effect("with the same title in the batch record, it is Found by title, with no title match", () =>
    Effect.gen(function*() {
      const [result] = yield* resolve([TITLE])
      expect(result).toMatchObject({ _tag: "Found", via: "title", similarity: 1 })
      expect((yield* requests).map((r) => r.url.pathname).some((p) => p.endsWith("/paper/search/match"))).toBe(false)
    }).pipe(Effect.provide(server(TITLE))))

  it.effect("a batch record without a title is not taken for the title bulk search found", () =>
    Effect.gen(function*() {
      const [result] = yield* resolve([TITLE])
      expect(result).toMatchObject({ _tag: "NotFound", notFound: "noTitleMatch" })
    }).pipe(Effect.provide(server(null))))

  it.effect("an id given with a title, whose paper has no title, is a Mismatch saying so, never Found unchecked", () =>
    Effect.gen(function*() {
      const results = yield* resolve([
        { input: "DOI:10.1000/untitled", title: TITLE },
        { input: "DOI:10.1000/empty", title: TITLE },
        { input: "DOI:10.1000/untitled" }
      ])
      expect(results.map((r) => r._tag)).toEqual(["Mismatch", "Mismatch", "Found"])
      for (const r of results.slice(0, 2)) {
        expect(r).toMatchObject({
          title: TITLE,
          similarity: 0,
          message: "the paper has no title to compare with the title given"
        })
      }
    }).pipe(Effect.provide(testLayer((request) => {
      const ids = (request.body as { ids: ReadonlyArray<string> }).ids
      return Effect.succeed(json(ids.map((id) => ({ paperId: OTHER, title: id.endsWith("empty") ? " " : null }))))
    }))))
})
