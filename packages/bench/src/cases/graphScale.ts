/**
 * The citation-graph jobs at scale (issue 47, point 5), against `s2-emulator` without a rate limit
 * and the client without pacing, so that the figures are the job's own work: `related` (the `top`
 * 20 of `CitationGraph.related` for the seeds given, e.g. the 20 most cited papers of the corpus)
 * and `crawl` (`CitationGraph.crawl` from the seeds given, both directions, depth 2, `perNode` as
 * given: a level of many overlapping edges). Wall time, requests (the emulator's count) and the
 * peak RSS of the process (`process.resourceUsage().maxRSS`).
 * argv: apiUrl mode perNode seed…
 */
import type { SemanticScholar } from "@s2-effect/core"
import { CitationGraph } from "@s2-effect/jobs"
import { NodeSemanticScholar } from "@s2-effect/node"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { report } from "./report.js"
import { watch } from "./requestLog.js"

const [apiUrl = "", mode = "related", perNodeArg = "100", ...seeds] = process.argv.slice(2)

const layer = NodeSemanticScholar.layer({ apiUrl, rateLimit: false })

const related = Effect.map(CitationGraph.related(seeds, { top: 20 }), (answer) => ({
  candidates: answer.candidates,
  citing: answer.citing,
  cited: answer.cited,
  similar: answer.similar.length,
  stopped: Number(answer.stopped)
}))

const crawl = Effect.map(
  Stream.runFold(
    CitationGraph.crawl(seeds, { direction: "both", depth: 2, perNode: Number(perNodeArg), fields: ["title"] }),
    () => ({ nodes: 0, edges: 0 }),
    (n, e) => {
      if (e._tag === "Node") n.nodes++
      if (e._tag === "Edge") n.edges++
      return n
    }
  ),
  (n) => ({ ...n })
)

const main = async () => {
  const stop = await watch(apiUrl)
  const started = performance.now()
  const chosen: Effect.Effect<Record<string, number>, unknown, SemanticScholar> = mode === "related" ? related : crawl
  const job = Effect.provide(chosen, layer)
  const outcome = await Effect.runPromise(job)
  const ms = performance.now() - started
  const { requests } = await stop()
  return { ...outcome, requests, ms, peakRssMB: process.resourceUsage().maxRSS / 1024 }
}

main().then(report)
