/**
 * `BENCH_ONLY=graphScale`: the citation-graph jobs at scale (issue 47, point 5), cases/graphScale.ts
 * against `s2-emulator --size 200000` without a rate limit: `CitationGraph.related` of the corpus's
 * 20 most cited papers, and `CitationGraph.crawl` from its most cited paper (both directions, depth
 * 2, `perNode` 300: a level of some 100,000 overlapping edges). Each case `runs` times after a
 * warm-up, in a fresh process: median (min–max) of the wall time and the peak RSS.
 */
import { Corpus } from "@s2-effect/testing"
import * as Os from "node:os"
import { startEmulator } from "./emulator.js"
import type { JobsTools } from "./jobs.js"

const SIZE = 200_000
const PER_NODE = 300

/** The corpus's most cited papers, as `CorpusId:` seeds. */
const mostCited = (n: number) => {
  const corpus = Corpus.make({ seed: 1, size: SIZE })
  const order = Array.from({ length: SIZE }, (_, i) => i).sort((a, b) =>
    corpus.citationCount(b) - corpus.citationCount(a) || a - b
  )
  return order.slice(0, n).map((i) => `CorpusId:${corpus.paper(i).corpusId}`)
}

const spread = (values: ReadonlyArray<number>, fmt: JobsTools["fmt"], digits = 0) => {
  const sorted = [...values].sort((x, y) => x - y)
  return `${fmt(sorted[Math.floor(sorted.length / 2)] ?? 0, digits)} (${fmt(sorted[0] ?? 0, digits)}–${
    fmt(sorted.at(-1) ?? 0, digits)
  })`
}

/** The rows: what each job answered, its requests, wall time and peak RSS. */
export const graphScaleSection = async (tools: JobsTools, runs: number): Promise<Array<string>> => {
  const load = Os.loadavg()[0] ?? 0
  const seeds = mostCited(20)
  const emulator = await startEmulator(["--size", String(SIZE), "--seed", "1"])
  const measure = (mode: string, args: ReadonlyArray<string>) => {
    tools.runCase("graphScale", [emulator.url, mode, String(PER_NODE), ...args])
    return Array.from(
      { length: runs },
      () => tools.runCase("graphScale", [emulator.url, mode, String(PER_NODE), ...args])
    )
  }
  try {
    const related = measure("related", seeds)
    const crawl = measure("crawl", seeds.slice(0, 1))
    const n = (r: ReadonlyArray<Record<string, number>>, key: string) => r.map((x) => x[key] ?? 0)
    const first = (r: ReadonlyArray<Record<string, number>>, key: string) => tools.fmt(r[0]?.[key] ?? 0, 0)
    return [
      "## The graph jobs at scale (issue 47, point 5)",
      "",
      `\`BENCH_ONLY=graphScale pnpm bench\` on ${new Date().toISOString().slice(0, 10)}, load average ${
        tools.fmt(load)
      } to ${
        tools.fmt(Os.loadavg()[0] ?? 0)
      } on ${Os.cpus().length} cores: \`s2-emulator --size ${SIZE}\` without a rate limit, the client unpaced; ${runs} runs after a warm-up, median (min–max).`,
      "",
      "| job | answer | requests | wall time (s) | peak RSS (MB) |",
      "|---|---|---|---|---|",
      `| \`CitationGraph.related\`, the 20 most cited papers as seeds, top 20 | ${
        first(related, "candidates")
      } candidates, ${first(related, "similar")} similar links | ${first(related, "requests")} | ${
        spread(n(related, "ms").map((x) => x / 1000), tools.fmt, 2)
      } | ${spread(n(related, "peakRssMB"), tools.fmt)} |`,
      `| \`CitationGraph.crawl\`, the most cited paper, both directions, depth 2, \`perNode\` ${PER_NODE} | ${
        first(crawl, "nodes")
      } nodes, ${first(crawl, "edges")} edges | ${first(crawl, "requests")} | ${
        spread(n(crawl, "ms").map((x) => x / 1000), tools.fmt, 2)
      } | ${spread(n(crawl, "peakRssMB"), tools.fmt)} |`
    ]
  } finally {
    emulator.stop()
  }
}
