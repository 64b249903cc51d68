/**
 * Related papers (issue 40) against `s2-emulator --rate-limit 1/s`, the client configured with an
 * API key as a user configures it (so it paces itself to the key's 1/s): `related`
 * (`CitationGraph.related` of three landmark DOIs, the 20 best), `relatedNaive` (the per-paper loop a
 * user writes with the same client: each seed's lists, then one references call per paper citing a
 * seed and one citations call per paper a seed cites, counting as it goes), stopped after `sample`
 * requests. Requests and 429s are the emulator's own count (`GET /__emulator/requests`).
 * argv: apiUrl mode sample
 */
import { type OffsetPage, SemanticScholar } from "@s2-effect/core"
import { CitationGraph } from "@s2-effect/jobs"
import { NodeSemanticScholar } from "@s2-effect/node"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { seeds } from "./relatedInputs.js"
import { report } from "./report.js"
import { watch } from "./requestLog.js"

const [apiUrl = "", mode = "related", sampleArg = "30"] = process.argv.slice(2)
const sample = Number(sampleArg)

const layer = NodeSemanticScholar.layer({ apiUrl, apiKey: Redacted.make("bench-key") })

const related = Effect.map(CitationGraph.related(seeds, { top: 20 }), (answer) => ({
  papers: answer.papers.length,
  candidates: answer.candidates,
  citing: answer.citing,
  cited: answer.cited,
  cut: answer.truncated.length
}))

/**
 * The loop without the job: every list read with the list endpoints, one paper at a time, the
 * counts kept in maps; stopped once it has made `budget` requests (a page is one). `needed` is what
 * the whole loop makes at least: the seeds (a lookup and their pages), then a page per neighbour.
 */
const relatedNaive = (budget: number) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    let made = 0
    const page = { fields: ["paperId"] as const, limit: 1000 }
    const read = <A>(pages: Stream.Stream<OffsetPage<A>, unknown>, id: (a: A) => string | null) =>
      Stream.runFold(pages, (): Array<string> => [], (all, p) => {
        made++
        for (const x of p.data.map(id)) if (x !== null) all.push(x)
        return all
      })
    const citing = new Set<string>()
    const cited = new Set<string>()
    for (const seed of seeds) {
      const found = yield* s2.getPaper(seed, { fields: ["paperId"] })
      made++
      for (const x of yield* read(s2.getPaperCitationsPages(found.paperId, page), (c) => c.citingPaper.paperId)) {
        citing.add(x)
      }
      for (const x of yield* read(s2.getPaperReferencesPages(found.paperId, page), (r) => r.citedPaper.paperId)) {
        cited.add(x)
      }
    }
    const needed = made + citing.size + cited.size
    const counts = new Map<string, number>()
    for (const id of [...citing, ...cited]) {
      if (made >= budget) break
      const listed = citing.has(id)
        ? yield* read(s2.getPaperReferencesPages(id, page), (r) => r.citedPaper.paperId)
        : yield* read(s2.getPaperCitationsPages(id, page), (c) => c.citingPaper.paperId)
      for (const x of listed) counts.set(x, (counts.get(x) ?? 0) + 1)
    }
    return { made, needed, citing: citing.size, cited: cited.size }
  })

const main = async () => {
  const stop = await watch(apiUrl)
  const started = performance.now()
  const job: Effect.Effect<Record<string, number>, unknown, SemanticScholar> = mode === "related"
    ? related
    : relatedNaive(sample)
  const outcome = await Effect.runPromise(Effect.provide(job, layer))
  const ms = performance.now() - started
  return { ...outcome, ...(await stop()), ms }
}

main().then(report)
