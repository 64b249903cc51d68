/**
 * `pnpm bench`: every case against the emulator's HTTP server (a child process on 127.0.0.1), each
 * case in a fresh process, the median of 5 runs after a warm-up with min and max, written to
 * packages/bench/RESULTS.md.
 */
import { buildSync } from "esbuild"
import { execFileSync, spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import { SourceMap } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { bundleCli } from "../../cli/scripts/bundle.mjs"
import { accuracySection } from "./accuracy.js"
import { recordingsDir } from "./accuracy/papers.js"
import { startEmulator } from "./emulator.js"
import { graphScaleSection } from "./graphScale.js"
import { jobsSection } from "./jobs.js"
import { mapSection } from "./mapLarge.js"
import { mcpSection } from "./mcp.js"
import { relatedSection } from "./related.js"
import { measureCorpusCpu, measureStartup } from "./startup.js"

const runs = Number(process.env.BENCH_RUNS ?? 5)
/**
 * `BENCH_ONLY=harvest`: only the interleaved harvests (library, hand loop, `s2 harvest`), printed
 * and not written to RESULTS.md — for measuring a change to the harvest path without the whole run.
 * `BENCH_ONLY=startup`: only the emulator start-up rows, printed the same way.
 * `BENCH_ONLY=corpus`: only the emulator corpus's build and first search, in CPU time.
 * `BENCH_ONLY=jobs`: only the issue 29 rows (resolving references, walking the citation graph at
 * 1 request/s), printed the same way; about 15 minutes, most of it the rate limit.
 * `BENCH_ONLY=related`: only the issue 40 rows (related papers at 1 request/s, the HTML map's
 * drawing time in Chromium), printed the same way.
 * `BENCH_ONLY=map`: only the 33,000-paper HTML map rows (issue 44, point 8: longest task, click latency).
 * `BENCH_ONLY=graphScale`: only the graph jobs at scale (issue 47, point 5: related papers of 20
 * much-cited seeds, a crawl with a level of many overlapping edges), printed the same way.
 * `BENCH_ONLY=mcp`: only the `s2 mcp` rows (how soon a line over its limit is answered), printed the
 * same way.
 * `BENCH_ONLY=memory`: only the memory rows (1,000,000-record harvests into a slow consumer);
 * `BENCH_ONLY=promotion`: only the promoted-pages rows; printed the same way.
 * `BENCH_ONLY=accuracy`: only the verifier's accuracy rows (issue 45), printed the same way.
 * The section's name may also come as the argument: `pnpm bench accuracy`.
 */
const only = process.env.BENCH_ONLY ?? process.argv[2]
const here = import.meta.dirname
const tmp = Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-bench-"))
const harvestFields = "title,year,venue,citationCount,authors"

type Result = Record<string, number>

/**
 * Each case is bundled to plain JavaScript first, so that what runs (and what its RSS and profile
 * show) is the client, not a TypeScript loader.
 */
const bundle = (name: string): string => {
  const out = Path.join(tmp, "cases", `${name}.mjs`)
  if (!Fs.existsSync(out)) {
    buildSync({
      entryPoints: [Path.join(here, "cases", `${name}.ts`)],
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node22",
      keepNames: true,
      // Written beside the bundle for mapping profile frames back to sources; not loaded at run time.
      sourcemap: "external",
      // CommonJS dependencies bundled into ESM need a require.
      banner: {
        js:
          "import { createRequire as bannerRequire } from 'node:module'; const require = bannerRequire(import.meta.url);"
      }
    })
  }
  return out
}

/** Runs a case; `processMs` is the whole process's wall time, start-up included. */
const runCase = (name: string, args: ReadonlyArray<string>, nodeFlags: ReadonlyArray<string> = []): Result => {
  const started = performance.now()
  const out = execFileSync(process.execPath, [...nodeFlags, bundle(name), ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 24
  })
  const processMs = performance.now() - started
  const last = out.trim().split("\n").at(-1) ?? "{}"
  return { ...JSON.parse(last), processMs }
}

/** Runs the published `s2` (the bundle `npm i -g` installs); its wall time, start-up included. */
const runS2 = (s2: string, args: ReadonlyArray<string>): number => {
  const started = performance.now()
  execFileSync(process.execPath, [s2, ...args], { stdio: ["ignore", "ignore", "ignore"] })
  return performance.now() - started
}

/** Runs a case under `--trace-gc-nvp` and sums what its scavenges promoted to the old generation. */
const promotedMB = (name: string, args: ReadonlyArray<string>): number => {
  const out = execFileSync(process.execPath, ["--trace-gc-nvp", bundle(name), ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 26
  })
  let bytes = 0
  for (const line of out.split("\n")) {
    if (line.includes(" gc=s ")) bytes += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0)
  }
  return bytes / 2 ** 20
}

interface Stat {
  readonly median: number
  readonly min: number
  readonly max: number
}
const stat = (xs: ReadonlyArray<number>): Stat => {
  const sorted = [...xs].sort((a, b) => a - b)
  return { median: sorted[Math.floor(sorted.length / 2)] ?? 0, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0 }
}
const repeat = (f: () => Result, warmup = true): Array<Result> => {
  if (warmup) f()
  return Array.from({ length: runs }, f)
}
const fmt = (n: number, digits = 1) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
const cell = (s: Stat, digits = 1) => `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`

/** Maps a frame of a bundled case back to its source file and line. */
const sourceOf = (url: string, line: number, column: number): string | undefined => {
  const file = url.startsWith("file://") ? new URL(url).pathname : url
  if (!Fs.existsSync(`${file}.map`)) return undefined
  const map = new SourceMap(JSON.parse(Fs.readFileSync(`${file}.map`, "utf8")))
  const entry = map.findEntry(line, column)
  if (!("originalSource" in entry)) return undefined
  const source = entry.originalSource.replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "").replace(
    /^.*\/packages\//,
    "packages/"
  )
  return `${source}:${entry.originalLine + 1}`
}

/** Top self-time frames of a CPU profile written by `node --cpu-prof`. */
const topFrames = (dir: string, n: number) => {
  const file = Fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))
  if (file === undefined) return []
  const profile: {
    nodes: Array<
      { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }
    >
    samples: Array<number>
    timeDeltas: Array<number>
  } = JSON.parse(Fs.readFileSync(Path.join(dir, file), "utf8"))
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame
    const dt = profile.timeDeltas[i] ?? 0
    total += dt
    if (frame === undefined) return
    const where = frame.url === ""
      ? ""
      : ` ${sourceOf(frame.url, frame.lineNumber, frame.columnNumber) ?? `${frame.url}:${frame.lineNumber + 1}`}`
    const key = `${frame.functionName || "(anonymous)"}${where}`
    self.set(key, (self.get(key) ?? 0) + dt)
  })
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([frame, us]) => ({
    frame,
    share: us / total
  }))
}

/** The interleaved harvests: the library (with and without prefetch), the hand loop, `s2 harvest`. */
const measureHarvests = async (emulatorUrl: string) => {
  const harvestArgs = (out: string, prefetch = "0", wire = "0") => [
    emulatorUrl,
    "200000",
    Path.join(tmp, out),
    harvestFields,
    prefetch,
    wire
  ]
  // Interleaved, so a drift of the machine or of the emulator's caches hits all sides alike.
  const s2 = await bundleCli(Path.join(tmp, "s2"))
  const s2Harvest = (out: string) => [
    "harvest",
    "",
    "--out",
    Path.join(tmp, out),
    "--overwrite",
    "--max",
    "200000",
    "--fields",
    harvestFields,
    "--api-url",
    emulatorUrl
  ]
  const harvest: Array<[Result, Result, Result, number, Result]> = []
  runCase("harvestOurs", harvestArgs("warm-ours.jsonl"))
  runCase("harvestHand", harvestArgs("warm-hand.jsonl"))
  runS2(s2, s2Harvest("warm-s2.jsonl"))
  for (let i = 0; i < runs; i++) {
    harvest.push([
      runCase("harvestOurs", harvestArgs("ours.jsonl")),
      runCase("harvestHand", harvestArgs("hand.jsonl")),
      runCase("harvestOurs", harvestArgs("ours-prefetch.jsonl", "1")),
      runS2(s2, s2Harvest("s2.jsonl")),
      runCase("harvestOurs", harvestArgs("ours-wire.jsonl", "1", "1"))
    ])
  }
  const read = (f: string) => Fs.readFileSync(Path.join(tmp, f), "utf8")
  const same = read("ours.jsonl") === read("hand.jsonl") && read("ours-prefetch.jsonl") === read("hand.jsonl") &&
    read("s2.jsonl") === read("hand.jsonl") && read("ours-wire.jsonl") === read("hand.jsonl")
  runS2(s2, ["--help"])
  const rate = (r: Result) => (r.records ?? 0) / ((r.ms ?? 1) / 1000)
  return {
    same,
    s2Seconds: stat(harvest.map(([, , , ms]) => ms / 1000)),
    handSeconds: stat(harvest.map(([, h]) => (h.processMs ?? 0) / 1000)),
    s2Ratios: stat(harvest.map(([, h, , ms]) => (h.processMs ?? 0) / ms)),
    help: stat(Array.from({ length: Math.max(runs, 10) }, () => runS2(s2, ["--help"]) / 1000)),
    bare: stat(Array.from({ length: Math.max(runs, 10) }, () => runS2("-e", ["0"]) / 1000)),
    oursRate: stat(harvest.map(([o]) => rate(o))),
    handRate: stat(harvest.map(([, h]) => rate(h))),
    prefetchRate: stat(harvest.map(([, , p]) => rate(p))),
    ratios: stat(harvest.map(([o, h]) => rate(o) / rate(h))),
    prefetchRatios: stat(harvest.map(([, h, p]) => rate(p) / rate(h))),
    wireRate: stat(harvest.map(([, , , , w]) => rate(w))),
    wireRatios: stat(harvest.map(([, h, , , w]) => rate(w) / rate(h))),
    wireCpuRatios: stat(harvest.map(([, h, , , w]) => (h.cpuMs ?? 0) / (w.cpuMs ?? 1))),
    /** The hand loop's CPU time over the library's, for the same records (≥ 1 when the library costs less). */
    cpuRatios: stat(harvest.map(([o, h]) => (h.cpuMs ?? 0) / (o.cpuMs ?? 1))),
    oursCpuMs: stat(harvest.map(([o]) => o.cpuMs ?? 0)),
    handCpuMs: stat(harvest.map(([, h]) => h.cpuMs ?? 0)),
    profile: () => {
      const profileDir = Path.join(tmp, "profile")
      runCase("harvestOurs", harvestArgs("profiled.jsonl"), ["--cpu-prof", `--cpu-prof-dir=${profileDir}`])
      return topFrames(profileDir, 5)
    }
  }
}
type Harvests = Awaited<ReturnType<typeof measureHarvests>>

/** Decoding, single lookups and batches. */
const measureCalls = (emulatorUrl: string) => ({
  decode: repeat(() => runCase("decode", [emulatorUrl, "50"])),
  lookups: repeat(() => runCase("lookups", [emulatorUrl, "2000"])),
  batch1: repeat(() => runCase("batches", [emulatorUrl, "50000", "1"])),
  batch4: repeat(() => runCase("batches", [emulatorUrl, "50000", "4"]))
})

/** Peak RSS of a 1,000,000-record harvest into a slow consumer, against its own emulator. */
const measureMemory = async () => {
  const memoryEmulator = await startEmulator(["--size", "1000", "--bulk-size", "1000000", "--seed", "2"])
  try {
    const memoryArgs = (consumer: string) => [memoryEmulator.url, "1000000", "2", consumer]
    return {
      memory: repeat(() => runCase("memory", memoryArgs("fn"), ["--expose-gc"]), false),
      memoryHand: repeat(() => runCase("memoryHand", [memoryEmulator.url, "1000000", "2"]), false),
      genPerPage: repeat(() => runCase("memory", memoryArgs("genPerPage"), ["--expose-gc"]), false)
    }
  } finally {
    memoryEmulator.stop()
  }
}

/** What each way of consuming pages makes V8 promote, with no HTTP and no client code. */
const measurePromotion = () => ({
  promotion: [
    ["loop", "an Effect loop"],
    ["stream", "a `Stream` into `runForEachArray`"],
    ["effectfulStage", "the same with `mapArrayEffect` before the sink"],
    ["genPerPage", "a `Stream` into a consumer that builds a new `Effect.gen` per page"],
    ["assignedClosure", "plain JavaScript: each page captured by a function literal assigned to a property"],
    ["localClosure", "plain JavaScript: the same function literal bound to a local first"]
  ].map(([mode = "", row]) => ({
    row,
    promoted: stat(Array.from({ length: runs }, () => promotedMB("promotion", [mode])))
  }))
})

const header = (loadAtStart: number): Array<string> => {
  const cpu = Os.cpus()[0]?.model ?? "unknown"
  return [
    "# Benchmarks",
    "",
    `Machine: ${Os.cpus().length} cores (${cpu}), ${
      fmt(Os.totalmem() / 2 ** 30, 0)
    } GiB, Node ${process.version}, ${Os.platform()} ${Os.release()}.`,
    `Run: \`pnpm bench\` on ${
      new Date().toISOString().slice(0, 10)
    }; ${runs} runs per case after a warm-up, each in a fresh process; median (min–max).`,
    "The emulator runs as a separate process (`s2-emulator`, 200,000 materialized papers) on 127.0.0.1, so client and server each have a core.",
    `Load average (1 min) at the start and at the end of the run: ${fmt(loadAtStart)} and ${
      fmt(Os.loadavg()[0] ?? 0)
    } on ${Os.cpus().length} cores.`,
    ""
  ]
}

const harvestRows = (h: Harvests): Array<string> => [
  "| case | s2-effect | baseline | ratio (ours ÷ baseline speed) |",
  "|---|---|---|---|",
  `| bulk harvest, 200,000 records to JSON lines (records/s; fields ${harvestFields}) | ${
    cell(h.oursRate, 0)
  } | hand loop: fetch + JSON.parse + write: ${cell(h.handRate, 0)} | ${cell(h.ratios, 2)} |`,
  `| same harvest with \`prefetch: 1\` (the next page's request goes out as soon as this page's token is known) | ${
    cell(h.prefetchRate, 0)
  } | same hand loop | ${cell(h.prefetchRatios, 2)} |`,
  `| same harvest with \`wire: true\` and \`prefetch: 1\` (each record checked, handed over as the parsed object: what \`Harvest.run\` reads) | ${
    cell(h.wireRate, 0)
  } | same hand loop | ${cell(h.wireRatios, 2)} |`,
  `| \`s2 harvest\`, the same 200,000 records, whole process: the bundled CLI from start to exit (s) | ${
    cell(h.s2Seconds, 2)
  } | hand loop, whole process: ${cell(h.handSeconds, 2)} | ${cell(h.s2Ratios, 2)} |`,
  `| start-up: \`s2 --help\`, the bundle \`npm i -g\` installs, wall time (s) | ${cell(h.help, 2)} | \`node -e 0\`: ${
    cell(h.bare, 2)
  } | target: ≤ 0.3 |`
]

const callRows = (c: ReturnType<typeof measureCalls>): Array<string> => {
  const of = (rows: Array<Result>, key: string, digits: number) => cell(stat(rows.map((r) => r[key] ?? 0)), digits)
  const seconds = (rows: Array<Result>) => cell(stat(rows.map((b) => (b.ms ?? 0) / 1000)), 2)
  return [
    `| decode one page of 1,000 papers, summary fields, ${
      fmt((c.decode[0]?.bytes ?? 0) / 1e6, 2)
    } MB (ms) | client page path: ${of(c.decode, "clientMs", 2)}; Schema's general decoder: ${
      of(c.decode, "schemaMs", 2)
    } | JSON.parse alone: ${of(c.decode, "parseMs", 2)} | — |`,
    `| 2,000 sequential getPaper, p50 per call (ms) | ${of(c.lookups, "oursP50", 3)} | raw fetch: ${
      of(c.lookups, "rawP50", 3)
    } | — |`,
    `| 2,000 sequential getPaper, p99 per call (ms) | ${of(c.lookups, "oursP99", 3)} | raw fetch: ${
      of(c.lookups, "rawP99", 3)
    } | — |`,
    `| getPapers, 50,000 ids (100 calls), concurrency 1 (s) | ${seconds(c.batch1)} | | |`,
    `| getPapers, 50,000 ids (100 calls), concurrency 4 (s) | ${seconds(c.batch4)} | | |`
  ]
}

const memoryRows = (m: Awaited<ReturnType<typeof measureMemory>>): Array<string> => {
  const mem = (rows: Array<Result>, key: string) => cell(stat(rows.map((r) => r[key] ?? 0)), 0)
  const byHand = "hand loop, no library (`node:http`, `JSON.parse`):"
  return [
    `| RSS before the harvest: runtime, code, client (MB) | ${mem(m.memory, "baselineMB")} | ${byHand} ${
      mem(m.memoryHand, "baselineMB")
    } | |`,
    `| peak RSS, bulk harvest into a slow consumer, at 100k records (MB) | ${
      mem(m.memory, "peakAt100kMB")
    } | ${byHand} ${mem(m.memoryHand, "peakAt100kMB")} | target: flat, < 150 |`,
    `| peak RSS, same harvest, at 1,000,000 records (MB) | ${mem(m.memory, "peakMB")} | ${byHand} ${
      mem(m.memoryHand, "peakMB")
    } | target: flat, < 150 |`,
    `| live heap after a full GC, at 100k / at 1,000,000 records (MB) | ${mem(m.memory, "liveAt100kMB")} / ${
      mem(m.memory, "liveAtEndMB")
    } | | flat: what the stream retains |`,
    `| peak RSS at 1,000,000 records, the consumer a new \`Effect.gen\` per page (MB) | ${
      mem(m.genPerPage, "peakMB")
    } | | see NOTES.md: a generator closure per page |`
  ]
}

const promotionSection = (p: ReturnType<typeof measurePromotion>): Array<string> => [
  "## Pages promoted to the old generation",
  "",
  "The `promotion` case, with no HTTP and no client code: 300 pages of 1,000 parsed records, 15 ms apart, run under `--trace-gc-nvp`; MB that scavenges promoted to the old generation; see NOTES.md.",
  "",
  "| the pages consumed by | promoted (MB) |",
  "|---|---|",
  ...p.promotion.map(({ promoted, row }) => `| ${row} | ${cell(promoted, 0)} |`)
]

const framesSection = (frames: ReturnType<typeof topFrames>): Array<string> => [
  "## Where the time goes",
  "",
  "Top 5 frames by self time in a CPU profile of one 200,000-record harvest (`node --cpu-prof`):",
  "",
  "| share | frame |",
  "|---|---|",
  ...frames.map(({ frame, share }) => `| ${fmt(share * 100)}% | \`${frame}\` |`)
]

/** `BENCH_ONLY=harvest`: the harvest figures, printed. */
const printHarvests = (h: Harvests, loadAtStart: number) => {
  const line = (label: string, value: string) => console.log(`${label}: ${value}`)
  line("load average (1 min) at the start and the end", `${fmt(loadAtStart)} and ${fmt(Os.loadavg()[0] ?? 0)}`)
  line("bulk harvest (records/s), ratio to the hand loop", `${cell(h.oursRate, 0)}; ${cell(h.ratios, 2)}`)
  line(
    "CPU of the harvest (ms): library; hand loop; hand ÷ library",
    `${cell(h.oursCpuMs, 0)}; ${cell(h.handCpuMs, 0)}; ${cell(h.cpuRatios, 2)}`
  )
  line("same with prefetch: 1, ratio", `${cell(h.prefetchRate, 0)}; ${cell(h.prefetchRatios, 2)}`)
  line(
    "same with wire: true and prefetch: 1, ratio; hand ÷ library CPU",
    `${cell(h.wireRate, 0)}; ${cell(h.wireRatios, 2)}; ${cell(h.wireCpuRatios, 2)}`
  )
  line("s2 harvest, whole process (s)", cell(h.s2Seconds, 2))
  line("hand loop, whole process (s)", cell(h.handSeconds, 2))
  line("s2 harvest ÷ hand loop speed", cell(h.s2Ratios, 2))
  line("output check", h.same ? "byte-identical" : "DIFFERENT")
}

/** The emulator start-up rows (src/startup.ts); `BENCH_ONLY=startup` prints only them. */
const startupRows = async () =>
  measureStartup({
    runs,
    bundle: (name) => bundle(name),
    runCase,
    runS2,
    s2: await bundleCli(Path.join(tmp, "s2")),
    stat,
    cell
  })

/** The issue 29 rows (src/jobs.ts); `BENCH_ONLY=jobs` prints only them. */
const jobsRows = () => jobsSection({ runCase, fmt })

/** The issue 40 rows (src/related.ts); `BENCH_ONLY=related` prints only them. */
const relatedRows = () => relatedSection({ runCase, fmt }, tmp)

/** The issue 45 rows (src/accuracy.ts); `BENCH_ONLY=accuracy` prints only them. */
const accuracyRows = () => accuracySection({ runCase, fmt }, recordingsDir(Path.resolve(here, "..")))

/** The `s2 mcp` rows (src/mcp.ts); `BENCH_ONLY=mcp` prints only them. */
const mcpRows = async () => mcpSection({ runs, s2: await bundleCli(Path.join(tmp, "s2")), fmt })

/** The sections `BENCH_ONLY` runs alone: each prints only its rows, and the temp files go after. */
const alone: Record<string, () => ReadonlyArray<string> | Promise<ReadonlyArray<string>>> = {
  graphScale: () => graphScaleSection({ runCase, fmt }, runs),
  mcp: mcpRows,
  accuracy: accuracyRows,
  related: relatedRows,
  map: () => mapSection({ fmt }, tmp, runs),
  jobs: jobsRows,
  memory: async () => memoryRows(await measureMemory()),
  promotion: () => promotionSection(measurePromotion()),
  startup: startupRows,
  corpus: () => measureCorpusCpu({ runs, runCase, stat, cell })
}

const main = async () => {
  const section = only === undefined || !Object.hasOwn(alone, only) ? undefined : alone[only]
  if (section !== undefined) {
    for (const line of await Promise.resolve().then(section).finally(() => spawnSync("rm", ["-rf", tmp]))) {
      console.log(line)
    }
    return
  }
  const started = Date.now()
  // Other work on the machine inflates wall times and spreads the ratios: said with the figures.
  const loadAtStart = Os.loadavg()[0] ?? 0
  console.log(`runs per case: ${runs} (+1 warm-up); temp files in ${tmp}`)
  const emulator = await startEmulator(["--size", "200000", "--seed", "1"])
  let lines: Array<string>
  try {
    const harvests = await measureHarvests(emulator.url)
    if (only === "harvest") return printHarvests(harvests, loadAtStart)
    const calls = measureCalls(emulator.url)
    const frames = harvests.profile()
    emulator.stop()
    const memory = await measureMemory()
    const promotion = measurePromotion()
    const startup = await startupRows()
    const jobs = await jobsRows()
    const related = await relatedRows()
    const mcp = await mcpRows()
    const accuracy = accuracyRows()
    lines = [
      ...header(loadAtStart),
      ...harvestRows(harvests),
      ...callRows(calls),
      ...memoryRows(memory),
      "",
      `Output check: the last harvest files of all five are ${harvests.same ? "byte-identical" : "DIFFERENT"}.`,
      "",
      ...promotionSection(promotion),
      "",
      ...startup,
      "",
      ...jobs,
      "",
      ...related,
      "",
      ...mcp,
      "",
      ...accuracy,
      "",
      ...framesSection(frames),
      "",
      `(Total bench time ${fmt((Date.now() - started) / 1000, 0)} s.)`
    ]
  } finally {
    emulator.stop()
    if (only === "harvest") spawnSync("rm", ["-rf", tmp])
  }
  for (const line of lines) console.log(line)
  const notes = Fs.existsSync(Path.join(here, "../NOTES.md"))
    ? Fs.readFileSync(Path.join(here, "../NOTES.md"), "utf8")
    : ""
  Fs.writeFileSync(Path.join(here, "../RESULTS.md"), lines.join("\n") + "\n" + (notes === "" ? "" : `\n${notes}`))
  spawnSync("rm", ["-rf", tmp])
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
