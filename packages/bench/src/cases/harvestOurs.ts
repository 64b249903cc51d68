/**
 * Bulk harvest with the client: `searchPaper(…, { bulk: true })` drained to a JSON-lines file.
 * argv: apiUrl records outFile fields prefetch wire ("1": `wire: true`, the records as they came)
 */
import * as NodeSink from "@effect/platform-node/NodeSink"
import { type S2Error, SemanticScholar } from "@s2-effect/core"
import { NodeSemanticScholar } from "@s2-effect/node"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import { cpuMs, report } from "./report.js"

const [apiUrl = "", records = "0", out = "", fields = "title", prefetch = "0", wire = "0"] = process.argv.slice(2)

const program = Effect.gen(function*() {
  const s2 = yield* SemanticScholar
  const started = performance.now()
  const cpu = process.cpuUsage()
  const options = {
    bulk: true,
    fields: fields.split(",").map((f) => f as "title"),
    prefetch: Number(prefetch)
  } as const
  const papers: Stream.Stream<object, S2Error> = wire === "1"
    ? s2.searchPaper("", { ...options, wire: true })
    : s2.searchPaper("", options)
  yield* papers.pipe(
    Stream.take(Number(records)),
    // One string per page (the chunks of the stream are the pages), built as the hand loop builds it.
    Stream.mapArray((papers) => [papers.map((p) => JSON.stringify(p)).join("\n") + "\n"] as const),
    Stream.run(NodeSink.fromWritable({ evaluate: () => Fs.createWriteStream(out), onError: (e) => e }))
  )
  return { records: Number(records), ms: performance.now() - started, cpuMs: cpuMs(process.cpuUsage(cpu)) }
})

program.pipe(
  Effect.provide(NodeSemanticScholar.layer({ apiUrl, rateLimit: false })),
  Effect.runPromise
).then(report)
