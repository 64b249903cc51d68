/**
 * Memory of a bulk harvest through a deliberately slow consumer: the stream must hold about one
 * page, whatever the total. Reports the process's RSS before the harvest (runtime, code, client),
 * the peak RSS up to 100k records and up to the end, and the live heap after a full GC at 100k and
 * at the end — which shows what is retained, apart from how lazily V8 returns garbage.
 * argv: apiUrl records delayMsPerPage consumer   (run with --expose-gc)
 * consumer — "fn": the consumer is one `Effect.fn`, defined once; "genPerPage": the same body as a
 * new `Effect.gen` built for every page, which costs V8 a new map per page (see NOTES.md).
 */
import type { Paper } from "@s2-effect/core"
import { SemanticScholar } from "@s2-effect/core"
import { NodeSemanticScholar } from "@s2-effect/node"
import type { NonEmptyReadonlyArray } from "effect/Array"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { report } from "./report.js"

const [apiUrl = "", records = "1000000", delay = "5", consumer = "fn"] = process.argv.slice(2)

const mb = (bytes: number) => bytes / 2 ** 20
const liveHeap = () => {
  // Exposed by --expose-gc; without it the figure is the heap as it stands.
  const gc: unknown = Reflect.get(globalThis, "gc")
  if (typeof gc === "function") gc()
  return mb(process.memoryUsage().heapUsed)
}

let peak = 0
let peakAt100k = 0
let liveAt100k = 0
let seen = 0
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss))
const timer = setInterval(sample, 20)

function* store(page: NonEmptyReadonlyArray<Paper>) {
  const before = seen
  seen += page.length
  sample()
  if (seen <= 100_000) peakAt100k = peak
  if (before < 100_000 && seen >= 100_000) liveAt100k = liveHeap()
  // The slow consumer: each page takes a while to "store".
  yield* Effect.sleep(`${Number(delay)} millis`)
  return page
}
const slowConsumer = consumer === "genPerPage"
  ? (page: NonEmptyReadonlyArray<Paper>) =>
    Effect.gen(function*() {
      return yield* store(page)
    })
  : Effect.fn(store)

Effect.gen(function*() {
  const s2 = yield* SemanticScholar
  const baseline = mb(process.memoryUsage().rss)
  yield* s2.searchPaper("", { bulk: true, fields: ["title", "year", "authors", "citationCount"] }).pipe(
    Stream.take(Number(records)),
    Stream.mapArrayEffect(slowConsumer),
    Stream.runDrain
  )
  clearInterval(timer)
  return {
    records: seen,
    baselineMB: baseline,
    peakAt100kMB: mb(peakAt100k),
    peakMB: mb(peak),
    liveAt100kMB: liveAt100k,
    liveAtEndMB: liveHeap()
  }
}).pipe(
  Effect.provide(NodeSemanticScholar.layer({ apiUrl, rateLimit: false })),
  Effect.runPromise
).then(report)
