/**
 * `BENCH_ONLY=startup`: how soon an emulator answers (issue 28, point 5). The `s2-emulator` command
 * (bundled to plain JavaScript, as installed) with 200,000 papers: time to its ready line and peak
 * RSS then, then the first relevance search, which waits for the rest of the search index, and the
 * peak RSS after it. The in-memory `Emulator.layer({})` build, and `s2 paper … --emulator` as a
 * whole process (the bundle `npm i -g` installs).
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { startEmulator } from "./emulator.js"

interface Stat {
  readonly median: number
  readonly min: number
  readonly max: number
}

export interface StartupTools {
  readonly runs: number
  readonly bundle: (name: string) => string
  readonly runCase: (name: string, args: ReadonlyArray<string>) => Record<string, number>
  readonly runS2: (s2: string, args: ReadonlyArray<string>) => number
  readonly s2: string
  readonly stat: (xs: ReadonlyArray<number>) => Stat
  readonly cell: (s: Stat, digits?: number) => string
}

/** Peak RSS of a process so far (MB), from /proc on Linux; NaN elsewhere. */
const peakMB = (pid: number): number => {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(Fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kb === undefined ? Number.NaN : Number(kb) / 1024
  } catch {
    return Number.NaN
  }
}

interface EmulatorRun {
  readonly readyS: number
  readonly readyMB: number
  readonly lookupMs: number
  readonly searchS: number
  readonly indexedMB: number
}

const runEmulator = async (bin: string, size: number): Promise<EmulatorRun> => {
  const started = performance.now()
  const emulator = await startEmulator(["--size", String(size), "--seed", "1"], { bin, lazyIndex: false })
  const readyS = (performance.now() - started) / 1000
  const readyMB = peakMB(emulator.pid)
  const timed = async (path: string) => {
    const t = performance.now()
    await (await fetch(`${emulator.url}${path}`)).text()
    return performance.now() - t
  }
  try {
    const lookupMs = await timed("/graph/v1/paper/CorpusId:1015")
    const searchS = (await timed("/graph/v1/paper/search?query=neural+network")) / 1000
    return { readyS, readyMB, lookupMs, searchS, indexedMB: peakMB(emulator.pid) }
  } finally {
    emulator.stop()
  }
}

export const measureStartup = async (tools: StartupTools) => {
  const bin = tools.bundle("emulatorBin")
  const emulator: Array<EmulatorRun> = []
  await runEmulator(bin, 200_000)
  for (let i = 0; i < tools.runs; i++) emulator.push(await runEmulator(bin, 200_000))
  tools.runCase("emulatorLayer", [])
  const layer = Array.from({ length: tools.runs }, () => tools.runCase("emulatorLayer", []))
  const lookup = ["paper", "CorpusId:1015", "--emulator"]
  tools.runS2(tools.s2, lookup)
  const cli = Array.from({ length: tools.runs }, () => tools.runS2(tools.s2, lookup) / 1000)
  const of = (f: (r: EmulatorRun) => number, digits = 1) => tools.cell(tools.stat(emulator.map(f)), digits)
  const ofLayer = (key: string, digits = 1) => tools.cell(tools.stat(layer.map((r) => r[key] ?? 0)), digits)
  return [
    "## Emulator start-up",
    "",
    `\`BENCH_ONLY=startup pnpm bench\` (packages/bench/src/startup.ts) on ${
      new Date().toISOString().slice(0, 10)
    }, ${tools.runs} runs after a warm-up, median (min–max), load average ${
      (Os.loadavg()[0] ?? 0).toFixed(1)
    } at the end on ${Os.cpus().length} cores. The "before" column is commit 317e66a's`,
    "`s2-emulator`, bundled the same way and run once by hand. Same answers as before:",
    "packages/testing/test/Golden.test.ts.",
    "",
    "| emulator start-up (issue 28, point 5) | now | before: 317e66a, bundled the same way, one run by hand | target |",
    "|---|---|---|---|",
    `| \`s2-emulator --size 200000\`, spawn to ready line (s) | ${of((r) => r.readyS, 2)} | 19.07 | ≤ 5 |`,
    `| same, peak RSS at the ready line (MB) | ${of((r) => r.readyMB, 0)} | 1,423 | < 600 |`,
    `| same, first lookup after ready (ms) | ${of((r) => r.lookupMs)} | 10 | |`,
    `| same, first relevance search: finishes the search index built in the background (s) | ${
      of((r) => r.searchS, 2)
    } | 0.09 (index built before ready) | |`,
    `| same, peak RSS with the search index built (MB) | ${of((r) => r.indexedMB, 0)} | 1,434 | |`,
    `| in-memory \`Emulator.layer({})\` (1,000 papers), build in a loaded process (ms) | ${
      ofLayer("buildMs")
    } | | ≤ 300 |`,
    `| same, first lookup through it (ms) | ${ofLayer("lookupMs")} | | |`,
    `| \`s2 paper CorpusId:1015 --emulator\` (10,000 papers), installed bundle, whole process (s) | ${
      tools.cell(tools.stat(cli), 2)
    } | 0.5 (issue 28) | ≤ 1 |`,
    "",
    "The relevance-search index (typed arrays; MiniSearch before 1.2.0) is built after the ready line, in slices of 500 papers",
    "between requests; a relevance search that comes first finishes it, so the first search waits for it."
  ]
}

/**
 * The corpus figures before this step of issue 47 point 4: commit 891ee35 (papers made at build),
 * the same case bundled the same way, median of 3 by hand (2026-11-29, load 13): built, from its file.
 */
const CORPUS_BEFORE: Readonly<Record<number, readonly [number, number, number, number]>> = {
  10_000: [442, 94, 384, 117],
  100_000: [2034, 229, 1130, 270],
  200_000: [4514, 385, 2099, 446]
}
const CORPUS_FILE_BEFORE: Readonly<Record<number, readonly [number, number, number, number]>> = {
  10_000: [368, 94, 159, 102],
  100_000: [1442, 240, 273, 249],
  200_000: [3045, 368, 193, 399]
}

/**
 * `BENCH_ONLY=corpus`: the corpus behind an emulator (issue 47 point 4), in CPU time, which a busy
 * machine inflates far less than wall time: `Corpus.make` for 10,000, 100,000 and 200,000 papers,
 * then the first relevance search, which builds the search index (src/cases/corpusStart.ts).
 */
export const measureCorpusCpu = (tools: Pick<StartupTools, "runs" | "runCase" | "stat" | "cell">) => {
  const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-bench-corpora-"))
  const row = (size: number, label: string, args: ReadonlyArray<string>, before: ReadonlyArray<number | string>) => {
    const runs = Array.from({ length: tools.runs }, () => tools.runCase("corpusStart", [String(size), "1", ...args]))
    const of = (key: string, digits = 0) => tools.cell(tools.stat(runs.map((r) => r[key] ?? 0)), digits)
    return `| ${size.toLocaleString("en-US")}${label} | ${of("buildCpuMs")} | ${before[0]} | ${of("buildPeakMB")} | ${
      before[1]
    } | ${of("searchCpuMs")} | ${before[2]} | ${of("searchPeakMB")} | ${before[3]} |`
  }
  const sizes = [10_000, 100_000, 200_000]
  const built = sizes.map((size) => row(size, "", [], CORPUS_BEFORE[size]!))
  // One run writes each corpus's file; the runs measured read it, as a second command does.
  const read = sizes.map((size) => {
    tools.runCase("corpusStart", [String(size), "1", directory])
    return row(size, ", from its file", [directory], CORPUS_FILE_BEFORE[size]!)
  })
  Fs.rmSync(directory, { recursive: true, force: true })
  return [
    "## Emulator corpus: build and first search, CPU",
    "",
    `\`BENCH_ONLY=corpus pnpm bench\` (packages/bench/src/cases/corpusStart.ts) on ${
      new Date().toISOString().slice(0, 10)
    }, ${tools.runs} runs, median (min–max), load average ${
      (Os.loadavg()[0] ?? 0).toFixed(1)
    } at the end on ${Os.cpus().length} cores. CPU is user + system time of the process; peak is its VmHWM. "Before" is commit 891ee35`,
    "(every paper and author made at build), the same case bundled the same way, median of 3 runs by hand. Same corpus byte for byte and",
    "same search answers: packages/testing/test/Golden.test.ts, searchIndex.test.ts. \"From its file\": `CorpusCache.make` reading the corpus file",
    "an earlier run wrote (graph, authors' tables, search index; papers and authors made from the seed when read), as a second `--emulator` command does.",
    "",
    "| papers | build CPU (ms) | before | peak after build (MB) | before | first search CPU (ms) | before | peak after it (MB) | before |",
    "|---|---|---|---|---|---|---|---|---|",
    ...built,
    ...read
  ]
}
