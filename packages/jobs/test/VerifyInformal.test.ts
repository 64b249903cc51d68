/**
 * References as people write them informally, one per line ("Title. Vaswani 2017", "Vaswani et
 * al. (2017) Title", a title and its venue and year, lower case, a trailing link): the real ones
 * verified, and the same forms saying something wrong still flagged. Against the emulator's
 * landmark papers, at library level: `Verify.read` then `Verify.references`.
 */
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Emulator } from "@s2-effect/testing"
import { Effect, Layer, Result, Stream } from "effect"
import { Verify } from "../src/index.js"

const emulated = SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ seed: 1, size: 1000 })))

const ATTENTION = "204e3073870fae3d05bcbc2f6a8e263d9b72e776"
const TURING = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"
const GRAPH = "649def34f8be52c8b66281af98ae884c09aef38b"
const MICROFINANCE = "cb1ebd913c3724c599f6b276b14b5c6253da68f3"
const DID = "c31c87c591a25c64fbaa82e8ac6a81831b6ac7ce"

/** Each informal form of a real paper, and the paper it is. */
const real: ReadonlyArray<readonly [string, string]> = [
  ["Attention is all you need. Vaswani 2017", ATTENTION],
  ["Attention Is All You Need - Vaswani et al., 2017", ATTENTION],
  ["Attention is all you need (Vaswani et al. 2017)", ATTENTION],
  ["Attention is all you need, Vaswani et al. 2017", ATTENTION],
  ["Vaswani et al. 2017. Attention is all you need", ATTENTION],
  ["Vaswani et al. (2017) Attention is all you need", ATTENTION],
  ["Vaswani (2017) Attention Is All You Need", ATTENTION],
  ["Vaswani, A. (2017). Attention is all you need.", ATTENTION],
  ["attention is all you need", ATTENTION],
  ["Attention is all you need. NeurIPS 2017", ATTENTION],
  ["Attention is all you need, NIPS, 2017", ATTENTION],
  ["Attention is all you need. arXiv:1706.03762", ATTENTION],
  ["Attention is all you need https://arxiv.org/abs/1706.03762", ATTENTION],
  ["Bertrand, Duflo and Mullainathan, How much should we trust differences-in-differences estimates?, 2001", DID],
  ["Duflo et al. (2013) The miracle of microfinance? Evidence from a randomized evaluation", MICROFINANCE],
  [
    "The Miracle of Microfinance? Evidence from a Randomized Evaluation. Duflo, Banerjee, Glennerster and Kinnan 2013",
    MICROFINANCE
  ],
  ["Computing Machinery and Intelligence. Turing, 1950", TURING],
  ["Turing, Computing Machinery and Intelligence, Mind 1950", TURING],
  ["Turing (1950) Computing machinery and intelligence. Mind", TURING],
  ["Ammar et al. 2018, Construction of the Literature Graph in Semantic Scholar, NAACL", GRAPH],
  ["Construction of the literature graph in Semantic Scholar (Ammar et al., NAACL 2018)", GRAPH]
]

/** The same forms saying what no paper bears out: each must be flagged. */
const bad: ReadonlyArray<string> = [
  "Attention is all you need. Smith 2017",
  "Attention is all you need. Vaswani 2009",
  "Smith et al. 2017. Attention is all you need",
  "Vaswani, A. & Smith, J. (2017). Attention is all you need.",
  "Attention is all you need for graphs. Vaswani 2017",
  "Computing Machinery and Intelligence. Shannon, 1950",
  "Turing 1950 Computing machinery and consciousness",
  "Attention is all you need. Nature 2017"
]

const verifyOne = (text: string) =>
  Effect.gen(function*() {
    const read = Verify.read(text)
    if (Result.isFailure(read)) return yield* Effect.die(read.failure)
    return yield* Stream.runCollect(Verify.references(read.success.inputs))
  })

const statuses = (vs: ReadonlyArray<Verify.Verification>) => vs.map((v) => `${v.status} ${v.differs.join(",")}`.trim())

describe("Verify: informal references", () => {
  it.effect("each real one is verified as its paper", () =>
    Effect.gen(function*() {
      const got = yield* Effect.forEach(real, ([text]) => verifyOne(text))
      expect(got.map((vs, i) => ({ text: real[i]![0], status: statuses(vs), paper: vs.map((v) => v.paper?.paperId) })))
        .toEqual(real.map(([text, paper]) => ({ text, status: ["verified"], paper: [paper] })))
    }).pipe(Effect.provide(emulated)))

  it.effect("each bad one is flagged", () =>
    Effect.gen(function*() {
      const got = yield* Effect.forEach(bad, verifyOne)
      const verified = got.flatMap((vs, i) => vs.every((v) => v.status === "verified") ? [bad[i]!] : [])
      expect(verified).toEqual([])
    }).pipe(Effect.provide(emulated)))

  it.effect("an entry's own id naming the paper shows a subtitle added or dropped to be the paper's", () =>
    Effect.gen(function*() {
      const checked = yield* Stream.runCollect(Verify.references(Verify.fromBibtex(
        "@misc{v, title = {Attention is all you need: A Study}, eprint = {1706.03762}, archiveprefix = {arXiv}}\n" +
          "@misc{w, title = {Attention is all you need for graphs}, eprint = {1706.03762}, archiveprefix = {arXiv}}"
      )))
      expect(statuses(checked)).toEqual(["verified", "mismatch title"])
      expect(checked[0]!.notes.at(-1)).toMatch(/a subtitle added or dropped; its arXiv id names the paper/)
    }).pipe(Effect.provide(emulated)))

  it.effect("a first author named alone is a note in a formatted reference, a difference in a .bib entry", () =>
    Effect.gen(function*() {
      const [typed] = yield* verifyOne("Vaswani, A. (2017). Attention is all you need.")
      expect(typed!.status).toBe("verified")
      expect(typed!.notes).toContain("only the first author is named; the paper has 8")
      const [bib] = yield* Stream.runCollect(Verify.references(Verify.fromBibtex(
        "@article{v, author = {Vaswani, Ashish}, title = {Attention is all you need}, year = {2017}}"
      )))
      expect(statuses([bib!])).toEqual(["mismatch authors"])
      // Two names or more are written out: a list that leaves the others out differs.
      const [two] = yield* verifyOne("Vaswani and Shazeer, Attention is all you need, NeurIPS 2017")
      expect(statuses([two!])).toEqual(["mismatch authors"])
    }).pipe(Effect.provide(emulated)))
})
