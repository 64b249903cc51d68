/**
 * Per-call overhead: 2,000 sequential getPaper calls, and the same with raw fetch + JSON.parse.
 * argv: apiUrl calls
 */
import { SemanticScholar } from "@s2-effect/core"
import { NodeSemanticScholar } from "@s2-effect/node"
import * as Effect from "effect/Effect"
import { paperIds } from "./ids.js"
import { report } from "./report.js"

const [apiUrl = "", callsArg = "2000"] = process.argv.slice(2)
const calls = Number(callsArg)

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0

const ours = (ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const times: Array<number> = []
    for (const id of ids) {
      const t = performance.now()
      yield* s2.getPaper(id, { fields: ["title", "year"] })
      times.push(performance.now() - t)
    }
    return times.sort((a, b) => a - b)
  }).pipe(Effect.provide(NodeSemanticScholar.layer({ apiUrl, rateLimit: false })))

const raw = async (ids: ReadonlyArray<string>) => {
  const times: Array<number> = []
  for (const id of ids) {
    const t = performance.now()
    const response = await fetch(`${apiUrl}/graph/v1/paper/${id}?fields=title,year`)
    JSON.parse(await response.text())
    times.push(performance.now() - t)
  }
  return times.sort((a, b) => a - b)
}

const main = async () => {
  const ids = await paperIds(apiUrl, calls)
  const mine = await Effect.runPromise(ours(ids))
  const theirs = await raw(ids)
  return {
    oursP50: percentile(mine, 0.5),
    oursP99: percentile(mine, 0.99),
    rawP50: percentile(theirs, 0.5),
    rawP99: percentile(theirs, 0.99)
  }
}

main().then(report)
