/**
 * `BENCH_ONLY=jobs`: the issue 29 rows. Requests and wall time of the two library jobs
 * (`Resolve.references` of 1,000 references, `CitationGraph.crawl` to depth 2 from one seed)
 * against `s2-emulator --rate-limit 1/s --open-world`, beside the per-item loop a user writes
 * with the same client. At 1/s a naive loop takes about a second a request (about 1,000 s for the
 * references), so it runs on a sample: its requests are counted on the sample and computed for the
 * whole job, its wall time measured on the sample and extrapolated, and the rows say which is which.
 * One run each: at 1/s the wall time is the pacing, not the machine.
 */
import * as Os from "node:os"
import { startEmulator } from "./emulator.js"

export interface JobsTools {
  readonly runCase: (name: string, args: ReadonlyArray<string>) => Record<string, number>
  readonly fmt: (n: number, digits?: number) => string
}

const SAMPLE = 30

/** The section of RESULTS.md: heading, how it was run, the rows. */
export const jobsSection = async (tools: JobsTools): Promise<Array<string>> => {
  const load = Os.loadavg()[0] ?? 0
  const started = Date.now()
  const table = await measureJobs(tools)
  return [
    "## Resolving references and walking the citation graph (issue 29)",
    "",
    `\`BENCH_ONLY=jobs pnpm bench\` (packages/bench/src/jobs.ts, cases/jobs.ts) on ${
      new Date().toISOString().slice(0, 10)
    }, one run of each (${tools.fmt((Date.now() - started) / 1000, 0)} s; load average ${tools.fmt(load)} to ${
      tools.fmt(Os.loadavg()[0] ?? 0)
    } on ${Os.cpus().length} cores): \`s2-emulator --size 10000 --open-world --rate-limit 1/s\` as a process, the client`,
    "`NodeSemanticScholar.layer({ apiUrl, apiKey })` with its defaults (1 request/s for a key, the default retry policy).",
    "Requests and 429s are the emulator's count (`GET /__emulator/requests`). Fields `title,year`.",
    "",
    ...table.lines,
    ...(table.tooMany === 0 ? [] : ["", ...refusals])
  ]
}

/** Said under the table when the client met 429s although it paces itself to the emulator's rate. */
const refusals = [
  "**429s at the client's own pace.** The client leaves at least 1.02 s between requests, counted",
  "from when each one left (`RateLimit.perKey` and the pace's 2% margin); the emulator, like an API",
  "gateway's token bucket with a burst of 1, counts arrivals. A 429 here means two requests arrived",
  "closer than a second all the same; each then costs the default policy's 5 s back-off (never",
  "shorter than `Retry-After`). The gaps can be read in the emulator's request log (`recent[].at`).",
  "Wall times above include those waits; the request counts include the refused requests."
]

const measureJobs = async (tools: JobsTools) => {
  const emulator = await startEmulator(["--size", "10000", "--seed", "1", "--open-world", "--rate-limit", "1/s"])
  // Each case is a new process on the same key: one that starts within a second of the last
  // request of the one before would meet a 429 no pace of its own could avoid.
  const run = (mode: string) => {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1100)
    return tools.runCase("jobs", [emulator.url, mode, String(SAMPLE)])
  }
  let resolve: Record<string, number>, resolveNaive: Record<string, number>
  let crawl: Record<string, number>, crawlNaive: Record<string, number>
  try {
    resolve = run("resolve")
    resolveNaive = run("resolveNaive")
    crawl = run("crawl")
    crawlNaive = run("crawlNaive")
  } finally {
    emulator.stop()
  }
  const tooMany = [resolve, resolveNaive, crawl, crawlNaive].reduce((n, r) => n + (r.tooMany ?? 0), 0)
  return { lines: rows(tools.fmt, { resolve, resolveNaive, crawl, crawlNaive }), tooMany }
}

type Measured = Record<"resolve" | "resolveNaive" | "crawl" | "crawlNaive", Record<string, number>>

const rows = (fmt: JobsTools["fmt"], m: Measured): Array<string> => {
  const n = (r: Record<string, number>, key: string) => r[key] ?? 0
  const seconds = (r: Record<string, number>) => fmt(n(r, "ms") / 1000, 0)
  const answered = (r: Record<string, number>) => n(r, "requests") - n(r, "tooMany")
  // The naive jobs' wall time, extrapolated at the sample's seconds per answered request.
  const perAnswered = (r: Record<string, number>) => n(r, "ms") / 1000 / Math.max(1, answered(r))
  const inputs = n(m.resolve, "inputs")
  const naiveWalk = n(m.crawl, "nodes") + 2 * n(m.crawl, "expanded")
  return [
    "| job (issue 29), emulator at 1/s per key, client with an API key (it paces itself to 1/s) | requests | of which 429 | wall time (s) |",
    "|---|---|---|---|",
    `| \`Resolve.references\`, ${fmt(inputs, 0)} references (${
      fmt(n(m.resolve, "found"), 0)
    } found): ids in 8 forms, titles, repeats | ${fmt(n(m.resolve, "requests"), 0)} | ${
      fmt(n(m.resolve, "tooMany"), 0)
    } | ${seconds(m.resolve)} |`,
    `| naive loop, one \`getPaper\` / \`matchPaperTitle\` per reference: **measured** on the first ${
      n(m.resolveNaive, "inputs")
    } | ${fmt(n(m.resolveNaive, "requests"), 0)} | ${fmt(n(m.resolveNaive, "tooMany"), 0)} | ${
      seconds(m.resolveNaive)
    } |`,
    `| same loop, all ${
      fmt(inputs, 0)
    } references: **computed** (one request per reference) and **extrapolated** (the sample's ${
      fmt(perAnswered(m.resolveNaive), 2)
    } s per answered request) | ${fmt(inputs, 0)} answered, plus 429s | — | ~${
      fmt(inputs * perAnswered(m.resolveNaive), 0)
    } |`,
    `| \`CitationGraph.crawl\`, depth 2, \`perNode\` 20, both directions, one seed: ${
      fmt(n(m.crawl, "nodes"), 0)
    } nodes (${fmt(n(m.crawl, "expanded"), 0)} expanded), ${fmt(n(m.crawl, "edges"), 0)} edges | ${
      fmt(n(m.crawl, "requests"), 0)
    } | ${fmt(n(m.crawl, "tooMany"), 0)} | ${seconds(m.crawl)} |`,
    `| naive walk, \`getPaper\` per node and one citations and one references call per expanded node: **measured** on its first ${
      fmt(n(m.crawlNaive, "made"), 0)
    } calls | ${fmt(n(m.crawlNaive, "requests"), 0)} | ${fmt(n(m.crawlNaive, "tooMany"), 0)} | ${
      seconds(m.crawlNaive)
    } |`,
    `| same walk over the same nodes: **computed** (nodes + 2 × expanded, from the crawl's counts) and **extrapolated** (the sample's ${
      fmt(perAnswered(m.crawlNaive), 2)
    } s per answered request) | ${fmt(naiveWalk, 0)} answered, plus 429s | — | ~${
      fmt(naiveWalk * perAnswered(m.crawlNaive), 0)
    } |`
  ]
}
