/**
 * Ids in paths: whatever an id holds (`$'`, `$&`, `%2e%2e`, `\`, `?`, `#`, slashes), the request
 * goes to the endpoint the operation names, with the id in its place and nothing resolved away.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Ref, Stream } from "effect"
import * as fc from "fast-check"
import type { S2Error } from "../src/index.js"
import { SemanticScholar } from "../src/index.js"
import type { Seen } from "./support/Scripted.js"
import { json, Requests, testLayer } from "./support/Scripted.js"

const sha = "0".repeat(40)

/** An answer each endpoint decodes, by the end of its path. */
const answer = (request: Seen) => {
  const path = request.url.pathname
  if (path.startsWith("/recommendations/")) return json({ recommendedPapers: [] })
  if (/\/(authors|citations|references|papers)$/.test(path)) return json({ offset: 0, data: [] })
  return json(path.startsWith("/graph/v1/author/") ? { authorId: "1" } : { paperId: sha })
}

type Run = (s2: SemanticScholar["Service"], id: string) => Effect.Effect<unknown, S2Error>

/** Every operation with an id in its path: the prefix before the id, the rest after it, and whose id it is. */
const endpoints: ReadonlyArray<readonly [string, string, string, "paper" | "author", Run]> = [
  ["getPaper", "/graph/v1/paper/", "", "paper", (s2, id) => s2.getPaper(id)],
  ["getPaperAuthors", "/graph/v1/paper/", "/authors", "paper", (s2, id) => Stream.runDrain(s2.getPaperAuthors(id))],
  [
    "getPaperCitations",
    "/graph/v1/paper/",
    "/citations",
    "paper",
    (s2, id) => Stream.runDrain(s2.getPaperCitations(id))
  ],
  [
    "getPaperReferences",
    "/graph/v1/paper/",
    "/references",
    "paper",
    (s2, id) => Stream.runDrain(s2.getPaperReferences(id))
  ],
  ["getAuthor", "/graph/v1/author/", "", "author", (s2, id) => s2.getAuthor(id)],
  ["getAuthorPapers", "/graph/v1/author/", "/papers", "author", (s2, id) => Stream.runDrain(s2.getAuthorPapers(id))],
  [
    "getRecommendedPapers",
    "/recommendations/v1/papers/forpaper/",
    "",
    "paper",
    (s2, id) => s2.getRecommendedPapers(id)
  ]
]

const segments = (path: string) => path.split("/").length

/** What a request path would hold if an id could reach another path: replacement patterns, dots, escapes. */
const hostile = fc.stringMatching(/^(?:\$'|\$&|\$`|\$\$|\$1|\.\.|\.|\/|%2e|%2E|%2f|\\|\?|#|datasets|v1|[a-z0-9]|:)*$/)

const layer = testLayer((request) => Effect.succeed(answer(request)), { retry: false })

/** The requests `run` sent for `id`, or `undefined` when it was refused before sending. */
const sent = (run: Run, id: string) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const exit = yield* Effect.exit(run(s2, id))
    const seen = yield* Ref.get(yield* Requests)
    if (Exit.isFailure(exit)) {
      expect(seen).toHaveLength(0)
      return undefined
    }
    return seen
  }).pipe(Effect.provide(Layer.fresh(layer)))

describe("an id is its own path segment(s) of the endpoint, whatever it holds", () => {
  it.effect("the replacement patterns of String.replace ($') in an id reach no other API", () =>
    Effect.gen(function*() {
      const id = "..$'/..$'/..$'/datasets/v1/release/latest"
      for (const [name, prefix, rest, subject, run] of endpoints) {
        const seen = yield* sent(run, id)
        expect(seen, name).toHaveLength(1)
        const placed = subject === "paper" ? id : encodeURIComponent(id)
        expect(seen![0]!.url.pathname, name).toBe(`${prefix}${placed}${rest}`)
      }
    }))

  for (const [name, prefix, rest, subject, run] of endpoints) {
    it.effect(`${name}: any id is sent under ${prefix}…${rest} with exactly its own segments (property)`, () =>
      Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.oneof(hostile, fc.string({ unit: "grapheme", maxLength: 20 })), async (id) => {
            const seen = await Effect.runPromise(sent(run, id))
            if (seen === undefined) return
            expect(seen).toHaveLength(1)
            const path = seen[0]!.url.pathname
            expect(path.startsWith(prefix)).toBe(true)
            expect(path.endsWith(rest)).toBe(true)
            const placed = path.slice(prefix.length, path.length - rest.length)
            expect(decodeURIComponent(placed)).toBe(id)
            // A paper id keeps its slashes (a DOI's `/` is a separator on the wire); an author id is one segment.
            const own = subject === "paper" ? segments(id) : 1
            expect(segments(path)).toBe(segments(prefix) - 1 + own + segments(rest) - 1)
          }),
          { numRuns: 60 }
        )
      ))
  }
})
