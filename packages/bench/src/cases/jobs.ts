/**
 * The two jobs of issue 29 against `s2-emulator --rate-limit 1/s --open-world`, the client
 * configured with an API key as a user configures it (so it paces itself to the key's 1/s):
 * `resolve` (Resolve.references of 1,000 references), `resolveNaive` (one getPaper or
 * matchPaperTitle per reference, on the first `sample`), `crawl` (CitationGraph.crawl, depth 2,
 * `perNode` 20, both directions, from one seed), `crawlNaive` (getPaper per node and one citations
 * and one references call per node, breadth first, for the first `sample` requests).
 * Requests and 429s are the emulator's own count (`GET /__emulator/requests`).
 * argv: apiUrl mode sample [paceMs]
 */
import { SemanticScholar } from "@s2-effect/core"
import { CitationGraph, Resolve } from "@s2-effect/jobs"
import { NodeSemanticScholar } from "@s2-effect/node"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { corpus } from "./jobsInputs.js"
import { report } from "./report.js"
import { watch } from "./requestLog.js"

const [apiUrl = "", mode = "resolve", sampleArg = "30", paceMs] = process.argv.slice(2)
const sample = Number(sampleArg)
const fields = ["title", "year"] as const
const perNode = 20

// `paceMs` (for experiments, not a row): one request per that many ms instead of the key's default.
const layer = NodeSemanticScholar.layer({
  apiUrl,
  apiKey: Redacted.make("bench-key"),
  ...(paceMs === undefined ? {} : { rateLimit: { requests: 1, per: `${Number(paceMs)} millis` as const } })
})

const resolve = (references: ReadonlyArray<string>) =>
  Stream.runFold(Resolve.references(references, { fields }), () => 0, (n, r) => r._tag === "Found" ? n + 1 : n)

/** What a user writes without the library's job: one call per reference, nothing shared. */
const resolveNaive = (references: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    let found = 0
    for (const input of references) {
      const recognised = Resolve.recognise(input)
      const call = recognised._tag === "Id"
        ? s2.getPaper(recognised.id, { fields })
        : s2.matchPaperTitle(input, { fields })
      if (yield* Effect.option(call).pipe(Effect.map((o) => o._tag === "Some"))) found++
    }
    return found
  })

const crawl = (seed: string) =>
  Stream.runFold(
    CitationGraph.crawl([seed], { direction: "both", depth: 2, perNode, fields }),
    () => ({ nodes: 0, expanded: 0, edges: 0 }),
    (acc, e) =>
      e._tag === "Node"
        ? { ...acc, nodes: acc.nodes + 1, expanded: acc.expanded + (e.depth < 2 ? 1 : 0) }
        : e._tag === "Edge"
        ? { ...acc, edges: acc.edges + 1 }
        : acc
  )

/** The hand walk, breadth first, stopped once it has made `budget` requests. */
const crawlNaive = (seed: string, budget: number) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const seen = new Set([seed])
    let frontier = [seed]
    let made = 0
    for (let depth = 0; depth <= 2 && made < budget; depth++) {
      const next: Array<string> = []
      for (const id of frontier) {
        if (made >= budget) break
        yield* s2.getPaper(id, { fields })
        made++
        if (depth === 2 || made + 2 > budget) continue
        const page = { fields: ["paperId"] as const, limit: perNode }
        const citing = yield* Stream.runCollect(Stream.take(s2.getPaperCitations(id, page), perNode))
        const cited = yield* Stream.runCollect(Stream.take(s2.getPaperReferences(id, page), perNode))
        made += 2
        for (const p of [...citing.map((c) => c.citingPaper), ...cited.map((r) => r.citedPaper)]) {
          if (typeof p.paperId === "string" && !seen.has(p.paperId)) {
            seen.add(p.paperId)
            next.push(p.paperId)
          }
        }
      }
      frontier = next
    }
    return { made }
  })

const main = async () => {
  const { references, seed } = await corpus(apiUrl)
  const stop = await watch(apiUrl)
  const started = performance.now()
  const job: Effect.Effect<Record<string, number>, unknown, SemanticScholar> = mode === "resolve"
    ? Effect.map(resolve(references), (found) => ({ inputs: references.length, found }))
    : mode === "resolveNaive"
    ? Effect.map(resolveNaive(references.slice(0, sample)), (found) => ({ inputs: sample, found }))
    : mode === "crawl"
    ? crawl(seed)
    : crawlNaive(seed, sample)
  const outcome = await Effect.runPromise(Effect.provide(job, layer))
  const ms = performance.now() - started
  return { ...outcome, ...(await stop()), ms }
}

main().then(report)
