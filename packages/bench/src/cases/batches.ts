/**
 * getPapers with 50,000 ids (100 batch calls of 500) at a given concurrency.
 * argv: apiUrl ids concurrency
 */
import { SemanticScholar } from "@s2-effect/core"
import { NodeSemanticScholar } from "@s2-effect/node"
import * as Effect from "effect/Effect"
import { paperIds } from "./ids.js"
import { report } from "./report.js"

const [apiUrl = "", count = "50000", concurrency = "1"] = process.argv.slice(2)

const run = (ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const started = performance.now()
    const papers = yield* s2.getPapers(ids, { fields: ["title", "year"], concurrency: Number(concurrency) })
    return { ids: papers.length, ms: performance.now() - started }
  }).pipe(Effect.provide(NodeSemanticScholar.layer({ apiUrl, rateLimit: false })))

paperIds(apiUrl, Number(count)).then((ids) => Effect.runPromise(run(ids))).then(report)
