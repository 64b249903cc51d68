import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Emulator } from "@s2-effect/testing"
import { Effect, Layer, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { TitleMatch, Verify } from "../src/index.js"
import { stopWords } from "../src/internal/text.js"
import { amongAuthors, firstFamily } from "../src/internal/verifyCompare.js"
import { json, testLayer } from "./support/Scripted.js"

const emulated = (size = 1000) => SemanticScholar.layer().pipe(Layer.provideMerge(Emulator.layer({ seed: 1, size })))

const TURING = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"
const ATTENTION = "204e3073870fae3d05bcbc2f6a8e263d9b72e776"
const LITERATURE_GRAPH = "649def34f8be52c8b66281af98ae884c09aef38b"

const verify = (inputs: ReadonlyArray<Verify.Input>) => Stream.runCollect(Verify.references(inputs))
const verifyBib = (text: string) => verify(Verify.fromBibtex(text))

const requests = Effect.map(Effect.flatMap(Emulator, (e) => e.requests), (rs) => rs.map((r) => r.url))
const clear = Effect.flatMap(Emulator, (e) => e.clearRequests)

const summary = (v: Verify.Verification) => ({
  key: v.key,
  status: v.status,
  differs: v.differs,
  paper: v.paper?.paperId
})

const REAL = String.raw`
@article{turing50,
  author = {Turing, Alan M.},
  title = {Computing Machinery and Intelligence},
  journal = {Mind},
  year = {1950},
  doi = {10.1093/mind/LIX.236.433}
}
@inproceedings{vaswani17,
  author = {Ashish Vaswani and Noam Shazeer and others},
  title = {Attention is All you Need},
  booktitle = {Advances in Neural Information Processing Systems},
  year = 2017,
  eprint = {1706.03762}, archivePrefix = {arXiv}
}
@inproceedings{ammar18,
  author = {Ammar, W. and Groeneveld, D. and others},
  title = {Construction of the Literature Graph in {S}emantic {S}cholar},
  booktitle = {Proc. of NAACL-HLT},
  year = {2018}
}`

describe("Verify.references", () => {
  it.effect("real entries are verified: each field agrees, the paper is the one cited", () =>
    Effect.gen(function*() {
      const results = yield* verifyBib(REAL)
      expect(results.map(summary)).toEqual([
        { key: "turing50", status: "verified", differs: [], paper: TURING },
        { key: "vaswani17", status: "verified", differs: [], paper: ATTENTION },
        { key: "ammar18", status: "verified", differs: [], paper: LITERATURE_GRAPH }
      ])
      expect(results.map((v) => v.similarity)).toEqual([1, 1, 1])
      expect(results.map((v) => v.input)).toEqual([
        "DOI:10.1093/mind/LIX.236.433",
        "ARXIV:1706.03762",
        "Construction of the Literature Graph in Semantic Scholar"
      ])
    }).pipe(Effect.provide(emulated())))

  // Changed with issue 45: "preprint" cited 2016 for a paper whose first version (arXiv 1706) is
  // of 2017, and named one of its eight authors without "and others"; it was verified, a defect.
  it.effect("a wrong year is a mismatch; one year after is a note; a year before the first version is a mismatch", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 1))
      const results = yield* verifyBib(String.raw`
@article{wrongYear, author = {Turing, A.}, title = {Computing machinery and intelligence}, year = {1962}, doi = {10.1093/mind/lix.236.433}}
@misc{preprint, author = {Vaswani, Ashish}, title = {Attention Is All You Need}, year = {2016}, journal = {arXiv preprint arXiv:1706.03762}}
@misc{published, author = {Vaswani, Ashish and others}, title = {Attention Is All You Need}, year = {2018}, journal = {arXiv preprint arXiv:1706.03762}}`)
      expect(results.map(summary)).toEqual([
        { key: "wrongYear", status: "mismatch", differs: ["year"], paper: TURING },
        { key: "preprint", status: "mismatch", differs: ["year", "authors"], paper: ATTENTION },
        { key: "published", status: "verified", differs: [], paper: ATTENTION }
      ])
      expect(results[1]!.differences?.[0]).toMatchObject({
        field: "year",
        given: "2016",
        record: "2017",
        why: "2016 is before the paper first appeared, in 2017"
      })
      expect(results[2]!.notes).toEqual([
        "year 2018 given, 2017 here: one year apart, as a preprint and its publication often are",
        "cited as a preprint; published in \"Neural Information Processing Systems\""
      ])
    }).pipe(Effect.provide(emulated())))

  it.effect("an invented reference is notFound, naming the nearest candidate and its similarity", () =>
    Effect.gen(function*() {
      const [invented] = yield* verifyBib(
        "@inproceedings{he16, author = {He, Kaiming}, title = {Deep residual learning for image recognition}, year = {2016}}"
      )
      expect(invented?.status).toBe("notFound")
      expect(invented?.paper).toBeUndefined()
      expect(invented?.nearest?.title).toBe(
        "Deep variational inference for speech recognition and image classification"
      )
      expect(invented?.similarity).toBeLessThan(TitleMatch.bound)
      expect(invented?.notes[0]).toMatch(/^no paper has this title; the nearest, "Deep variational/)
      // That note names the nearest, which a renderer shows with its similarity: the other notes are none.
      expect(invented?.nearestNote).toBe(invented?.notes[0])
      expect(invented?.notesBesideNearest).toEqual([])
    }).pipe(Effect.provide(emulated())))

  it.effect("wrong authors and a wrong venue are mismatches, each field named", () =>
    Effect.gen(function*() {
      const results = yield* verifyBib(String.raw`
@article{a, author = {Smith, John and Vaswani, Ashish}, title = {Attention is all you need}, year = {2017}, eprint = {arXiv:1706.03762}}
@article{b, author = {Turing, Alan}, title = {Computing machinery and intelligence}, journal = {Nature}, year = {1950}, doi = {10.1093/mind/lix.236.433}}`)
      expect(results.map(summary)).toEqual([
        { key: "a", status: "mismatch", differs: ["authors"], paper: ATTENTION },
        { key: "b", status: "mismatch", differs: ["venue"], paper: TURING }
      ])
    }).pipe(Effect.provide(emulated())))

  it.effect("an entry's id that is unknown, or names another title, is checked by the title too", () =>
    Effect.gen(function*() {
      const results = yield* verifyBib(String.raw`
@article{inventedDoi, title = {Computing Machinery and Intelligence}, doi = {10.9999/invented.1950}}
@article{otherPaper, title = {Attention Is All You Need}, doi = {10.1093/mind/lix.236.433}}
@article{garbled, title = {Deep residual learning for image recognition}, doi = {10.1093/mind/lix.236.433}}
@article{nothing, title = {Deep residual learning for image recognition}, doi = {10.9999/invented.2016}}`)
      expect(results.map(summary)).toEqual([
        { key: "inventedDoi", status: "mismatch", differs: ["doi"], paper: TURING },
        { key: "otherPaper", status: "mismatch", differs: ["doi"], paper: ATTENTION },
        { key: "garbled", status: "mismatch", differs: ["title"], paper: TURING },
        { key: "nothing", status: "notFound", differs: [], paper: undefined }
      ])
      expect(results[0]!.notes[0]).toBe(
        "not known to Semantic Scholar; found by the title"
      )
      expect(results[1]!.notes[0]).toBe(
        "DOI:10.1093/mind/lix.236.433 is \"Computing Machinery and Intelligence\", another title; found by the title"
      )
      expect(results[2]!.similarity).toBeLessThan(TitleMatch.bound)
      expect(results[3]!.nearest?.title).toMatch(/^Deep variational/)
      // Why the id failed stays beside the nearest; the title search's note, which names it, is apart.
      expect(results[3]!.notes).toHaveLength(2)
      expect(results[3]!.nearestNote).toMatch(/^the title: no paper has this title; the nearest, "Deep variational/)
      expect(results[3]!.notesBesideNearest).toEqual([
        "not known to Semantic Scholar"
      ])
      expect(results.slice(0, 3).map((v) => [v.nearestNote, v.notesBesideNearest])).toEqual(
        results.slice(0, 3).map((v) => [undefined, v.notes])
      )
    }).pipe(Effect.provide(emulated())))

  it.effect("lines are keyed by position (or their own key); an id line is verified when found", () =>
    Effect.gen(function*() {
      const results = yield* verify([
        "arXiv:1706.03762",
        { key: "7", text: "Construction of the Literature Graph in Semantic Scholar" },
        "DOI:10.9999/none"
      ])
      expect(results.map(summary)).toEqual([
        { key: "1", status: "verified", differs: [], paper: ATTENTION },
        { key: "7", status: "verified", differs: [], paper: LITERATURE_GRAPH },
        { key: "3", status: "notFound", differs: [], paper: undefined }
      ])
    }).pipe(Effect.provide(emulated())))

  // Changed with issue 45: an entry that cannot be read was `notFound` (likely invented): a failure
  // of ours to read it, now `unchecked`.
  it.effect("a broken entry and one with nothing to look up are unchecked without a request; the rest are read", () =>
    Effect.gen(function*() {
      yield* clear
      const results = yield* verifyBib(
        "@misc{notes, note = {to do}}\n@article{broken, title = {Open\n@misc{x, doi = {10.1093/mind/lix.236.433}}"
      )
      expect(results.map((v) => [v.key, v.status, v.notes])).toEqual([
        ["notes", "unchecked", ["the entry has no doi, eprint or title to check it by"]],
        ["broken", "unchecked", ["its braces do not balance: lines 2 to 2 skipped"]],
        ["x", "verified", []]
      ])
      // The one request: the batch for x's DOI.
      expect((yield* requests).map((u) => new URL(u).pathname)).toEqual(["/graph/v1/paper/batch"])
    }).pipe(Effect.provide(emulated())))

  it.effect("an entry whose title holds a control character is unchecked, never 'not found': it was never asked", () =>
    Effect.gen(function*() {
      yield* clear
      const results = yield* verifyBib(
        "@article{k, title = {Attention Is All You Need\u001b]0;pwn\u0007}, year = 2017}"
      )
      expect(results.map((v) => [v.key, v.status])).toEqual([["k", "unchecked"]])
      expect(yield* requests).toEqual([])
    }).pipe(Effect.provide(emulated())))

  it.effect(
    "requests as Resolve's: 300 entries by DOI-less title and 200 by id cost a few bulk searches and one batch",
    () =>
      Effect.gen(function*() {
        const papers = yield* Effect.map(Emulator, (e) => e.corpus.papers.slice(0, 500))
        const entries: Array<Verify.Input> = papers.slice(0, 300).map((p, i) => ({
          key: `e${i}`,
          fields: { title: `{${p.title}}` }
        }))
        const ids: Array<Verify.Input> = papers.slice(300).map((p, i) => ({ key: `id${i}`, text: p.paperId }))
        yield* clear
        const results = yield* verify([...entries, ...ids])
        expect(results.length).toBe(500)
        expect(results.filter((v) => v.status === "verified").length).toBe(500)
        const asked = yield* requests
        expect(asked.filter((u) => u.includes("/paper/batch")).length).toBe(1)
        expect(asked.filter((u) => u.includes("/paper/search/bulk")).length).toBeLessThanOrEqual(8)
        // Title match only for titles too short for a bulk search: never one request per entry.
        expect(asked.length).toBeLessThan(100)
      }).pipe(Effect.provide(emulated())),
    60_000
  )

  it.effect(
    "the entries whose id failed are asked by title in one pass, not one request each",
    () =>
      Effect.gen(function*() {
        const papers = yield* Effect.map(Emulator, (e) => e.corpus.papers.slice(0, 60))
        const bib = papers.map((p, i) => `@article{k${i}, title = {${p.title}}, doi = {10.9999/invented.${i}}}`).join(
          "\n"
        )
        yield* clear
        const results = yield* verifyBib(bib)
        expect(results.every((v) => v.status === "mismatch" && v.differs.join() === "doi")).toBe(true)
        const asked = yield* requests
        // One batch for the DOIs, then the titles: bulk searches, one batch for the papers they found,
        // title match for the short ones only.
        expect(asked.filter((u) => u.includes("/paper/batch")).length).toBe(2)
        expect(asked.length).toBeLessThan(30)
      }).pipe(Effect.provide(emulated())),
    60_000
  )

  it.effect(
    "property: a title with one content word changed is never verified (found by the title, or by the entry's id)",
    () =>
      Effect.gen(function*() {
        const papers = yield* Effect.map(Emulator, (e) => e.corpus.papers.slice(0, 200))
        // Enough of them have a DOI for the entries found by their id to be tried too.
        expect(papers.filter((p) => typeof p.externalIds["DOI"] === "string").length).toBeGreaterThan(50)
        const layer = emulated()
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.constantFrom(...papers),
              fc.nat(),
              fc.constantFrom("banana", "volcano", "sonnet", "gravity", "protein", "speech", "image", "kernel"),
              fc.boolean(),
              async (paper, k, word, byId) => {
                const words = TitleMatch.normalise(paper.title).split(" ")
                const content = words.flatMap((w, i) => stopWords.has(w) ? [] : [i])
                const at = content[k % content.length]!
                fc.pre(content.length > 0 && words[at] !== word)
                words[at] = word
                const title = words.join(" ")
                const doi = paper.externalIds["DOI"]
                const fields = byId && typeof doi === "string" ? { title, doi } : { title }
                const [result] = await Effect.runPromise(verify([{ key: "k", fields }]).pipe(Effect.provide(layer)))
                if (result?.status === "verified") {
                  // Only ever another paper that has this very title.
                  expect(result.paper?.paperId).not.toBe(paper.paperId)
                  expect(TitleMatch.compare(title, result.paper!.title!).same).toBe(true)
                }
                if (result?.paper?.paperId === paper.paperId) expect(result.differs).toContain("title")
              }
            ),
            { numRuns: 60 }
          )
        )
      }).pipe(Effect.provide(emulated())),
    120_000
  )
})

describe("a field written twice (issue 44 point 3)", () => {
  // BibTeX prints the first title and year; the last ones are the real paper's.
  const FAKE = String.raw`@article{fake,
  author = {Turing, Alan M.}, title = {A Theory of Everything Machines}, year = {2031},
  title = {Computing Machinery and Intelligence}, journal = {Mind}, year = {1950},
  doi = {10.1093/mind/LIX.236.433}
}
@article{twice, author = {Turing, Alan M.}, title = {Computing Machinery and Intelligence}, year = {1950}, year = 1950,
  doi = {10.1093/mind/LIX.236.433}}`

  it("is read as BibTeX reads it, its first value kept; different values are the entry's problem, the same a warning", () => {
    const [fake, twice] = Verify.fromBibtex(FAKE)
    expect(fake!.fields["title"]).toBe("A Theory of Everything Machines")
    expect(fake!.fields["year"]).toBe("2031")
    expect(fake!.problem).toBe(
      "title, year are written twice with different values: BibTeX uses the first and warns, so the entry is read so; say which one is meant"
    )
    expect(twice!.problem).toBeUndefined()
    expect(twice!.warnings).toEqual(["year is written twice with the same value: BibTeX uses the first and warns"])
  })

  it("after a field name BibTeX reads (x/y, ti$tle, a;b), the fields and their repeats are read as BibTeX reads them", () => {
    // Real bibtex, on this entry, prints "Real" and warns "I'm ignoring k's extra "title" field".
    const [entry] = Verify.fromBibtex("@article{k, x/y = {1}, ti$tle = {2}, a;b = 3, title = {Real}, title = {Fake}}")
    expect(entry!.fields).toEqual({ "x/y": "1", "ti$tle": "2", "a;b": "3", title: "Real" })
    expect(entry!.problem).toMatch(/^title is written twice with different values/)
  })

  it.effect("with different values the entry is never verified: it is flagged with the problem", () =>
    Effect.gen(function*() {
      const [fake, twice] = yield* verifyBib(FAKE)
      expect(fake!.status).not.toBe("verified")
      expect(fake!.notes.join(" ")).toMatch(/title, year are written twice with different values/)
      expect(twice!.status).toBe("verified")
      // Read alike, so verified, but what BibTeX warns of is said with it.
      expect(twice!.notes).toEqual(["year is written twice with the same value: BibTeX uses the first and warns"])
    }).pipe(Effect.provide(emulated())))
})

describe("a key written twice (issue 44 point 3)", () => {
  // BibTeX prints the first turing and warns "Repeated entry" at the second (keys compared without
  // case): the second, an invented paper, is never printed, and must not be reported verified.
  const BIB = String.raw`@article{turing, author = {Turing, Alan M.}, title = {Computing Machinery and Intelligence},
  journal = {Mind}, year = {1950}, doi = {10.1093/mind/LIX.236.433}}
@article{Turing, author = {Turing, Alan M.}, title = {Computing Machinery and Intelligence},
  journal = {Mind}, year = {1950}, doi = {10.1093/mind/LIX.236.433}}
@article{turing, author = {Turing, Alan M.}, title = {A Theory of Everything Machines}, year = {1951}}`

  it("is read as BibTeX reads it: a later entry that differs has the problem, one written alike a warning", () => {
    const [first, alike, other] = Verify.fromBibtex(BIB)
    expect(first!.problem).toBeUndefined()
    expect(first!.warnings).toBeUndefined()
    expect(alike!.problem).toBeUndefined()
    expect(alike!.warnings).toEqual([
      "key written twice (first on line 1, as turing), alike: BibTeX prints the first and warns \"Repeated entry\""
    ])
    expect(other!.problem).toBe(
      "key written twice (first on line 1): BibTeX prints that entry, warns \"Repeated entry\" and drops this one; give it a key of its own"
    )
  })

  it.effect("the entry BibTeX drops is never verified; its notes say why", () =>
    Effect.gen(function*() {
      const results = yield* verifyBib(BIB)
      expect(results.map((v) => v.status)).toEqual(["verified", "verified", "unchecked"])
      expect(results[1]!.notes[0]).toMatch(/^key written twice \(first on line 1, as turing\), alike/)
      expect(results[2]!.notes.join(" ")).toMatch(/Repeated entry/)
    }).pipe(Effect.provide(emulated())))
})

describe("Verify.references never passes a title it did not compare", () => {
  const ENTRY_TITLE = "Attention over graphs of citations for ranking papers"
  const A = "a".repeat(40)
  const B = "b".repeat(40)
  /** DOI:10.1000/a is A with `titleOfA`; the entry's title is B's, found by bulk search when `findB`. */
  const server = (titleOfA: string | null, findB: boolean) =>
    testLayer((request) => {
      const path = request.url.pathname
      if (path.endsWith("/paper/search/bulk")) {
        const data = findB ? [{ paperId: B, title: ENTRY_TITLE, citationCount: 1 }] : []
        return Effect.succeed(json({ total: data.length, token: null, data }))
      }
      if (path.endsWith("/paper/batch")) {
        const ids = (request.body as { ids: ReadonlyArray<string> }).ids
        return Effect.succeed(json(ids.map((id) =>
          id === "DOI:10.1000/a"
            ? { paperId: A, title: titleOfA }
            : id === B
            ? { paperId: B, title: ENTRY_TITLE }
            : null
        )))
      }
      return Effect.succeed(json({ error: "Title match not found" }, 404))
    })
  const entry = `@article{k, title = {${ENTRY_TITLE}}, doi = {10.1000/a}}`

  it.effect("an entry's id whose paper has no title is a mismatch on the title, never verified", () =>
    Effect.gen(function*() {
      const [v] = yield* verifyBib(entry)
      expect(v).toMatchObject({ status: "mismatch", differs: ["title"], paper: { paperId: A } })
      expect(v!.notes).toContain("the paper has no title to compare with the entry's")
    }).pipe(Effect.provide(server(null, false))))

  it.effect("found by its title instead, the note names the id's paper as one without a title", () =>
    Effect.gen(function*() {
      const [v] = yield* verifyBib(entry)
      expect(v).toMatchObject({ status: "mismatch", differs: ["doi"], paper: { paperId: B } })
      expect(v!.notes[0]).toBe("DOI:10.1000/a is a paper without a title; found by the title")
    }).pipe(Effect.provide(server(null, true))))

  it.effect("the other title in a note is cut whole: never half of a surrogate pair", () =>
    Effect.gen(function*() {
      const [v] = yield* verifyBib(entry)
      const note = v!.notes[0]!
      expect(note).toBe(`DOI:10.1000/a is "${"x".repeat(98)}…", another title; found by the title`)
      // Half a pair, JSON.stringify'd, was the text "\ud83d" in the note.
      expect(note).not.toContain("\\ud83d")
    }).pipe(Effect.provide(server(`${"x".repeat(98)}\u{1F600} and more words after it`, true))))
})

describe("what the renderers share", () => {
  it("notesBesideNearest: every note but the nearest's, in order, wherever that one is", () => {
    const note = fc.string({ maxLength: 20 })
    fc.assert(
      fc.property(fc.array(note, { maxLength: 6 }), fc.array(note, { maxLength: 6 }), note, (before, after, near) => {
        const plain = new Verify.Verification({ key: "k", input: "", status: "notFound", differs: [], notes: before })
        expect(plain.notesBesideNearest).toEqual(before)
        const v = new Verify.Verification({
          key: "k",
          input: "",
          status: "notFound",
          differs: [],
          notes: [...before, near, ...after.filter((n) => n !== near)],
          nearestNote: near
        })
        expect(v.notesBesideNearest).toEqual([...before, ...after.filter((n) => n !== near)])
      })
    )
  })

  it("differ: the fields, then differs for one and differ for more", () => {
    expect(Verify.differ(["year"])).toBe("year differs")
    expect(Verify.differ(["title", "year", "venue"])).toBe("title, year, venue differ")
  })
})

describe("the comparisons", () => {
  it("the first author's family name, as BibTeX reads a name", () => {
    expect(firstFamily("Turing, Alan M. and Other, A.")).toBe("Turing")
    expect(firstFamily("Ashish Vaswani and Noam Shazeer")).toBe("Vaswani")
    expect(firstFamily("Ludwig van Beethoven")).toBe("van Beethoven")
    expect(firstFamily("van der Maaten, Laurens")).toBe("van der Maaten")
    expect(firstFamily("{Barnes and Noble} and Smith, J.")).toBe("Barnes and Noble")
    expect(firstFamily("Martin Luther King Jr.")).toBe("King")
    expect(firstFamily("Vaswani A and Shazeer N")).toBe("Vaswani")
    expect(firstFamily(String.raw`Erd{\H{o}}s, Paul`)).toBe("Erdős")
    expect(firstFamily("{OpenAI}")).toBe("OpenAI")
    expect(firstFamily("others")).toBeUndefined()
    expect(firstFamily("  ")).toBeUndefined()
  })

  it("a family name is among the authors with accents, hyphens, particles and initials forgiven", () => {
    expect(amongAuthors("Erdős", ["P. Erdos"])).toBe(true)
    expect(amongAuthors("García-Pérez", ["M. A. Garcia Perez"])).toBe(true)
    expect(amongAuthors("van der Maaten", ["L. Maaten"])).toBe(true)
    expect(amongAuthors("O'Neil", ["Cathy O’Neil"])).toBe(true)
    expect(amongAuthors("Vaswani", ["Ashish Vaswani", "Noam M. Shazeer"])).toBe(true)
    expect(amongAuthors("Smith", ["Ashish Vaswani", "Noam M. Shazeer"])).toBe(false)
    expect(amongAuthors("Vaswan", ["Ashish Vaswani"])).toBe(false)
  })
})
