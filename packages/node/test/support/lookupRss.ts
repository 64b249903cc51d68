/**
 * Run as its own process by Hostile.test.ts, so that the RSS it reports is the client's alone:
 * one lookup against the URL in argv, RSS sampled every few milliseconds. Prints one JSON line.
 */
import { SemanticScholar } from "@s2-effect/core"
import { Cause, Effect, Exit, Option } from "effect"
import { NodeSemanticScholar } from "../../src/index.js"

const url = process.argv[2] ?? ""
const lookup = (apiUrl: string) =>
  Effect.runPromiseExit(
    Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1")).pipe(
      Effect.provide(NodeSemanticScholar.layer({ apiUrl, retry: false }))
    )
  )
// A first lookup (to a closed port) loads and compiles the client and undici; then the baseline.
await lookup("http://127.0.0.1:9")
globalThis.gc?.()
const before = process.memoryUsage.rss()
let peak = before
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5)
const exit = await lookup(url)
clearInterval(timer)
peak = Math.max(peak, process.memoryUsage.rss())
const error = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined
process.stdout.write(JSON.stringify({ growth: peak - before, error: error ?? String(exit._tag) }) + "\n")
