/**
 * A record's author names as the API has them, read for the comparison: a link glued onto a name
 * (the API has "Michal Kosinskihttps://www.semanticscholar.org/me/account") is no part of it, so
 * an entry that names the author right is not an author mismatch (issue 45).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { TestClock } from "effect/testing"
import { Verify } from "../src/index.js"
import { displayName } from "../src/internal/verifyAuthors.js"
import { corpusServer } from "./support/CorpusServer.js"

const PAPER = {
  paperId: "c".repeat(40),
  title: "Evaluating Language Models on Theory of Mind Tasks",
  year: 2023,
  publicationDate: null,
  venue: "",
  citationCount: 3,
  externalIds: {},
  authors: [
    { authorId: "1", name: "Anna Ruiz https://example.org/profile" },
    { authorId: "2", name: "Jonas Weberwww.example.org/me" }
  ]
}

describe("record names with a link glued on", () => {
  it("the link is dropped: the name is the words before it", () => {
    expect(displayName("Michal Kosinskihttps://www.semanticscholar.org/me/account")).toMatchObject({
      family: ["kosinski"],
      given: ["michal"]
    })
  })

  it.effect("an entry naming the authors right is verified", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 10, 1))
      const bib = `@article{k,
  title = {Evaluating Language Models on Theory of Mind Tasks},
  author = {Ruiz, Anna and Weber, Jonas},
  year = {2023}
}`
      const [v] = yield* Stream.runCollect(Verify.references(Verify.fromBibtex(bib))).pipe(
        Effect.provide(corpusServer([PAPER], (p) => p))
      )
      expect(v?.status).toBe("verified")
    }))
})
