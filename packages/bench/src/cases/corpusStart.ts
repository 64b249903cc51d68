/**
 * The corpus behind an emulator of `size` papers (issue 47, point 4): CPU time (user + system, which a
 * loaded machine does not inflate as it does wall time) to build it, and to answer the first relevance
 * search, which builds the search index; peak RSS after each.
 * argv: size, seed, and a directory of corpus files (optional): with it, the corpus comes from
 * `CorpusCache.make` (read from its file there, or built and written when there is none), as a
 * second `--emulator` command's does. Prints { buildCpuMs, buildPeakMB, searchCpuMs, searchPeakMB,
 * hits, fromFile }.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Corpus, CorpusCache, Emulator } from "@s2-effect/testing"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import { report } from "./report.js"

/** Peak RSS of this process so far (MB), from /proc on Linux; the current RSS elsewhere. */
const peakMB = (): number => {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(Fs.readFileSync("/proc/self/status", "utf8"))?.[1]
    if (kb !== undefined) return Number(kb) / 1024
  } catch {
    // not Linux
  }
  return process.memoryUsage().rss / 2 ** 20
}

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

const size = Number(process.argv[2] ?? "200000")
const seed = Number(process.argv[3] ?? "1")
const directory = process.argv[4]
const started = process.cpuUsage()
const corpus = directory === undefined
  ? Corpus.make({ seed, size })
  : await Effect.runPromise(CorpusCache.make({ seed, size, directory }).pipe(Effect.provide(NodeFileSystem.layer)))
const buildCpuMs = cpuMs(started)
const buildPeakMB = peakMB()
const program = Effect.scoped(Effect.gen(function*() {
  const { client } = yield* Emulator.make({ corpus })
  const t = process.cpuUsage()
  const response = yield* client.get("https://api.semanticscholar.org/graph/v1/paper/search?query=neural+network")
  const body = (yield* response.json) as { readonly total?: number }
  return { searchCpuMs: cpuMs(t), hits: body.total ?? 0 }
}))

const fromFile = (corpus as { readonly fromFile?: boolean }).fromFile === true ? 1 : 0
Effect.runPromise(program).then((r) => report({ buildCpuMs, buildPeakMB, ...r, searchPeakMB: peakMB(), fromFile }))
