/**
 * The emulator's relevance search survives any query: each word is searched once (its repeats
 * weigh as before) and only the first MAX_QUERY_WORDS distinct words are searched (a search cost
 * about 0.4 MB per word, repeats included: 4,000 words took 1.76 GB, 20,000 ran out of memory).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { stemmer } from "stemmer"
import { Corpus, Emulator } from "../src/index.js"
import { MAX_QUERY_WORDS } from "../src/internal/corpus/corpus.js"
import { arr, call, obj } from "./helpers.js"

const corpus = Corpus.make({ seed: 1, size: 2000 })

/** The corpus's words (lower case, one per stem), most frequent first: what queries are made of. */
const vocabulary = (() => {
  const counts = new Map<string, { word: string; count: number }>()
  for (const paper of corpus.papers) {
    for (const word of `${paper.title} ${paper.abstract ?? ""}`.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      const entry = counts.get(stemmer(word))
      if (entry !== undefined) entry.count++
      else if (word.length > 2) counts.set(stemmer(word), { word, count: 1 })
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count).map(({ word }) => word)
})()

const searched = (text: string) => corpus.searchIndex.search(text).map((hit) => [hit.id, hit.score] as const)

describe("the emulator's relevance search, bounded", () => {
  it("a word repeated is searched once and weighs as its repeats did: a query twice over, scores twice", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...vocabulary.slice(0, 60)), { minLength: 1, maxLength: 12 }), (words) => {
        const once = searched(words.join(" "))
        const twice = searched([...words, ...words].join(" "))
        expect(twice.map(([id]) => id)).toEqual(once.map(([id]) => id))
        twice.forEach(([, score], i) => expect(score).toBeCloseTo(2 * once[i]![1], 9))
      }),
      { numRuns: 30 }
    )
  })

  it("only the first distinct words are searched: a word after them changes nothing", () => {
    expect(vocabulary.length).toBeGreaterThan(MAX_QUERY_WORDS)
    const first = vocabulary.slice(0, MAX_QUERY_WORDS)
    const later = vocabulary[vocabulary.length - 1]!
    expect(searched(later).length).toBeGreaterThan(0)
    expect(searched([...first, later].join(" "))).toEqual(searched(first.join(" ")))
  })

  it.effect(
    "a query of 20,000 words, one repeated, through the route: the answer of the word alone",
    () =>
      Effect.gen(function*() {
        const word = vocabulary[0]!
        const page = (query: string) =>
          call("GET", `/graph/v1/paper/search?query=${encodeURIComponent(query)}&limit=100`).pipe(
            Effect.map((reply) => {
              expect(reply.status).toBe(200)
              return obj(reply.json)
            })
          )
        const alone = yield* page(word)
        expect(arr(alone["data"]).length).toBeGreaterThan(0)
        expect(yield* page(Array.from({ length: 20_000 }, () => word).join(" "))).toEqual(alone)
      }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 2000 }))),
    60_000
  )
})
