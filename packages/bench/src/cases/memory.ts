/**
 * Peak RSS of a bulk harvest through a deliberately slow consumer: the stream must hold about one
 * page, whatever the total. Samples RSS throughout; reports the peak up to 100k and up to the end.
 * argv: apiUrl records delayMsPerPage
 */
import { SemanticScholar } from "@s2-effect/core"
import { NodeSemanticScholar } from "@s2-effect/node"
import { Effect, Stream } from "effect"
import { report } from "./report.js"

const [apiUrl = "", records = "1000000", delay = "5"] = process.argv.slice(2)

let peak = 0
let peakAt100k = 0
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss))
const timer = setInterval(sample, 20)

Effect.gen(function*() {
  const s2 = yield* SemanticScholar
  let seen = 0
  yield* s2.searchPaper("", { bulk: true, fields: ["title", "year", "authors", "citationCount"] }).pipe(
    Stream.take(Number(records)),
    Stream.mapChunksEffect((page) =>
      Effect.gen(function*() {
        seen += page.length
        sample()
        if (seen <= 100_000) peakAt100k = peak
        // The slow consumer: each page takes a while to "store".
        yield* Effect.sleep(`${Number(delay)} millis`)
        return page
      })
    ),
    Stream.runDrain
  )
  clearInterval(timer)
  return { records: seen, peakAt100kMB: peakAt100k / 2 ** 20, peakMB: peak / 2 ** 20 }
}).pipe(
  Effect.provide(NodeSemanticScholar.layer({ apiUrl, rateLimit: false })),
  Effect.runPromise
).then(report)
