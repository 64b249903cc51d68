/**
 * The programs whose bundles `bundle-size.ts` measures and `test/BundleSize.test.ts` checks: a typical
 * client program in a page, and Effect's own Fetch client alone as the baseline.
 */
export interface Entry {
  readonly name: string
  readonly source: string
}

export const entries: ReadonlyArray<Entry> = [
  {
    name: "typical import: `BrowserSemanticScholar.layer` + `getPaper` + `searchPaper`",
    source: `
      import { BrowserSemanticScholar } from "@s2-effect/browser"
      import { SemanticScholar } from "@s2-effect/core"
      import { Effect, Stream } from "effect"
      const program = Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const paper = yield* s2.getPaper("CorpusId:215416146", { fields: ["title", "year"] })
        const hits = yield* Stream.runCollect(Stream.take(s2.searchPaper("graph neural networks", { fields: ["title"] }), 20))
        return [paper, hits]
      })
      Effect.runPromise(Effect.provide(program, BrowserSemanticScholar.layer({ apiUrl: "/s2" }))).then(console.log)
    `
  },
  {
    name: "baseline: Effect + `effect/http`'s Fetch client, one JSON GET",
    source: `
      import * as FetchHttpClient from "effect/http/FetchHttpClient"
      import * as HttpClient from "effect/http/HttpClient"
      import { Effect } from "effect"
      const program = Effect.flatMap(HttpClient.HttpClient, (client) => Effect.flatMap(client.get("/s2/graph/v1/paper/CorpusId:1"), (res) => res.json))
      Effect.runPromise(Effect.provide(program, FetchHttpClient.layer)).then(console.log)
    `
  }
]
