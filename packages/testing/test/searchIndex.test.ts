/**
 * The corpus's relevance-search index (typed arrays, issue 47 point 4) finds and scores as the
 * MiniSearch index it replaced: the same papers, the same scores to the last bit, the same order
 * (ties included), for the three searches the emulator makes (relevance, title match, autocomplete)
 * and for the other combinations of fields, prefix and AND.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import MiniSearch from "minisearch"
import { Corpus, type SearchOptions } from "../src/index.js"
import { pieceText, textPiecesAt } from "../src/internal/corpus/generate.js"
import { SearchIndexBuilder } from "../src/internal/corpus/searchIndex.js"
import { queryBoost, queryWords, term } from "../src/internal/corpus/terms.js"

const corpus = Corpus.make({ seed: 3, size: 1500 })

/** The corpus's words as written (case kept), and their beginnings: what queries are made of. */
const words = (() => {
  const all = new Set<string>()
  for (const paper of corpus.papers) {
    for (const word of `${paper.title} ${paper.abstract ?? ""}`.split(/[^\p{L}\p{N}]+/u)) {
      if (word.length > 0) all.add(word)
    }
  }
  return [...all].sort()
})()

const word = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...words) },
  { weight: 2, arbitrary: fc.constantFrom(...words).chain((w) => fc.nat(w.length).map((n) => w.slice(0, n + 1))) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }
)
const separator = fc.constantFrom(" ", "  ", ", ", "-", ". ", " (", "\n")
const query = fc.array(fc.tuple(word, separator), { minLength: 0, maxLength: 8 }).map((parts) =>
  parts.map(([w, s]) => w + s).join("")
)
const options = fc.constantFrom<SearchOptions | undefined>(
  undefined,
  { fields: ["title"] },
  { fields: ["title"], prefix: true, combineWith: "AND" },
  { prefix: true },
  { combineWith: "AND" },
  { fields: ["abstract"], prefix: true }
)

const miniSearch = (text: string, asked: SearchOptions | undefined) =>
  corpus.search.search(
    text,
    asked === undefined ? undefined : { ...asked, fields: asked.fields?.slice() ?? ["title", "abstract"] }
  )
    .map((hit) => ({ id: hit.id as number, score: hit.score }))

/** Where two result lists first differ (id or score, to the bit), or -1; and their lengths. */
const difference = (text: string, asked: SearchOptions | undefined) => {
  const ours = corpus.searchIndex.search(text, asked)
  const theirs = miniSearch(text, asked)
  const at = theirs.findIndex((hit, k) => hit.id !== ours[k]?.id || !Object.is(hit.score, ours[k].score))
  return { at, ours: ours.length, theirs: theirs.length, found: theirs.length > 0 }
}

describe("Corpus.searchIndex", () => {
  it("reads a generated paper as the pieces its title and abstract are made of, which make that text", () => {
    const generated = Corpus.make({ seed: 5, size: 300, bulkSize: 400 })
    const landmarks = new Set(generated.landmarks)
    for (let i = 0; i < 400; i++) {
      if (landmarks.has(i)) continue
      const title: Array<number> = []
      const abstract: Array<number> = []
      textPiecesAt(5, i, title, abstract)
      const paper = generated.paper(i)
      expect([title.map(pieceText).join(""), abstract.map(pieceText).join("")]).toEqual([
        paper.title,
        paper.abstract ?? ""
      ])
    }
  })

  it("finds, scores and orders as MiniSearch did, on any query", () => {
    fc.assert(
      fc.property(query, options, (text, asked) => {
        const { at, ours, theirs } = difference(text, asked)
        expect({ at, ours }).toEqual({ at: -1, ours: theirs })
      }),
      { numRuns: 200 }
    )
  }, 120_000)

  it("on the queries people type: a few common words, a title, a word's beginning", () => {
    const title = corpus.paper(17).title
    for (const text of ["neural network", "learning", title, title.slice(0, 12), "graph neural networks networks"]) {
      for (const asked of [undefined, { fields: ["title"] as const }, { fields: ["title"] as const, prefix: true }]) {
        const { at, found, ours, theirs } = difference(text, asked)
        expect({ at, found, ours }).toEqual({ at: -1, found: true, ours: theirs })
      }
    }
  })

  it(
    "cuts any text into words as MiniSearch's tokenizer did: punctuation, tabs, symbols, other scripts, empty fields",
    () => {
      const char = fc.constantFrom("a", "b", "A", "é", "ß", " ", ".", "-", "\t", "$", "'", "1", "\u00a0", "\n", "_")
      const text = fc.array(char, { maxLength: 12 }).map((chars) => chars.join(""))
      fc.assert(
        fc.property(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 8 }), text, (docs, asked) => {
          const ms = new MiniSearch<{ id: number; title: string; abstract: string }>({
            fields: ["title", "abstract"],
            processTerm: (word) => term(word.toLowerCase()),
            searchOptions: { boost: { title: 2 }, tokenize: queryWords, boostTerm: queryBoost }
          })
          docs.forEach(([title, abstract], id) => ms.add({ id, title, abstract }))
          const index = new SearchIndexBuilder(docs.length, (i, field) => docs[i]![field === "title" ? 0 : 1]).finish()
          for (const query of [asked, ...docs.flat()]) {
            for (const options of [undefined, { prefix: true }]) {
              expect(index.search(query, options)).toEqual(
                ms.search(query, options).map((hit) => ({ id: hit.id as number, score: hit.score }))
              )
            }
          }
        }),
        { numRuns: 200 }
      )
    },
    120_000
  )
})
