/**
 * `BENCH_ONLY=related`: the issue 40 rows. Requests and wall time of `CitationGraph.related` (three
 * landmark DOIs) against `s2-emulator --rate-limit 1/s`, beside the per-paper loop a user writes with
 * the same client (measured on a sample, computed and extrapolated for the whole, as the jobs rows
 * do); and the HTML map of 500 related papers (`s2 related --top 500 --format html`) opened from
 * file:// in Debian's Chromium: its size, the time from navigation to the first picture and to the
 * layout at rest, the slices the layout ran in, and the longest a timer of the page waited while it
 * laid out (how long a reader's click waits: the tests count slices, the bench times them).
 */
import { launchChromium } from "@s2-effect/test-support/chromium"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"
import { bundleCli } from "../../cli/scripts/bundle.mjs"
import { seeds } from "./cases/relatedInputs.js"
import { startEmulator } from "./emulator.js"
import type { JobsTools } from "./jobs.js"

const SAMPLE = 30

/** The section of RESULTS.md: heading, how it was run, the rows. */
export const relatedSection = async (tools: JobsTools, tmp: string): Promise<Array<string>> => {
  const load = Os.loadavg()[0] ?? 0
  const started = Date.now()
  const jobs = await measureJobs(tools)
  const map = await measureMap(tmp)
  const n = (r: Record<string, number>, key: string) => r[key] ?? 0
  const seconds = (r: Record<string, number>) => tools.fmt(n(r, "ms") / 1000, 0)
  const perRequest = n(jobs.naive, "ms") / 1000 / Math.max(1, n(jobs.naive, "requests") - n(jobs.naive, "tooMany"))
  return [
    "## Related papers and the map (issue 40)",
    "",
    `\`BENCH_ONLY=related pnpm bench\` (packages/bench/src/related.ts, cases/related.ts) on ${
      new Date().toISOString().slice(0, 10)
    } (${tools.fmt((Date.now() - started) / 1000, 0)} s; load average ${tools.fmt(load)} to ${
      tools.fmt(Os.loadavg()[0] ?? 0)
    } on ${Os.cpus().length} cores): \`s2-emulator --size 10000 --rate-limit 1/s\` as a process, the client with a key`,
    "(it paces itself to 1/s). Seeds: the three landmark DOIs (Turing 1950, the Literature Graph 2018, microfinance 2013).",
    "",
    "| related papers of three seeds, emulator at 1/s per key | requests | of which 429 | wall time (s) |",
    "|---|---|---|---|",
    `| \`CitationGraph.related\`, the 20 best of ${tools.fmt(n(jobs.related, "candidates"), 0)} candidates (${
      tools.fmt(n(jobs.related, "citing"), 0)
    } papers citing a seed, ${tools.fmt(n(jobs.related, "cited"), 0)} cited by one, ${
      tools.fmt(n(jobs.related, "cut"), 0)
    } list cut at 1,000) | ${tools.fmt(n(jobs.related, "requests"), 0)} | ${
      tools.fmt(n(jobs.related, "tooMany"), 0)
    } | ${seconds(jobs.related)} |`,
    `| per-paper loop (each seed's lists, then one list call per neighbour): **measured** on its first ${
      tools.fmt(n(jobs.naive, "made"), 0)
    } requests | ${tools.fmt(n(jobs.naive, "requests"), 0)} | ${tools.fmt(n(jobs.naive, "tooMany"), 0)} | ${
      seconds(jobs.naive)
    } |`,
    `| same loop, all ${tools.fmt(n(jobs.naive, "citing") + n(jobs.naive, "cited"), 0)} neighbours: **computed** (${
      tools.fmt(n(jobs.naive, "needed"), 0)
    } requests at least) and **extrapolated** (the sample's ${tools.fmt(perRequest, 2)} s per answered request) | ${
      tools.fmt(n(jobs.naive, "needed"), 0)
    } | — | ~${tools.fmt(n(jobs.naive, "needed") * perRequest, 0)} |`,
    "",
    `| HTML map, ${tools.fmt(map.papers, 0)} papers and ${tools.fmt(map.links, 0)} citations (${
      tools.fmt(map.bytes / 1024, 0)
    } KiB, from \`s2 related --top 500 --format html\`), file:// in Chromium, ${map.drawn.length} page loads | median (ms) | min | max |`,
    "|---|---|---|---|",
    timing("from navigation to the first picture (the layout's first slice, then the SVG)", map.drawn, tools.fmt),
    timing("from navigation to the layout at rest (d3-force, a slice of it per frame)", map.settled, tools.fmt),
    timing(
      `the longest a 20 ms timer waited beyond its time between the first picture and the rest (${
        map.slices[0] ?? 0
      } slices of at most ${tools.fmt(map.most[0] ?? 0, 0)} node-steps)`,
      map.lag,
      tools.fmt
    )
  ]
}

/** A row of page-load times: median, min, max. */
const timing = (what: string, times: ReadonlyArray<number>, fmt: JobsTools["fmt"]) => {
  const sorted = [...times].sort((x, y) => x - y)
  return `| ${what} | ${fmt(sorted[Math.floor(sorted.length / 2)] ?? 0, 0)} | ${fmt(sorted[0] ?? 0, 0)} | ${
    fmt(sorted.at(-1) ?? 0, 0)
  } |`
}

const measureJobs = async (tools: JobsTools) => {
  const emulator = await startEmulator(["--size", "10000", "--seed", "1", "--rate-limit", "1/s"])
  // A new process on the same key right after the last request of the one before would meet a 429.
  const run = (mode: string) => {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1100)
    return tools.runCase("related", [emulator.url, mode, String(SAMPLE)])
  }
  try {
    return { related: run("related"), naive: run("relatedNaive") }
  } finally {
    emulator.stop()
  }
}

/** Writes the map with the published bundle against the in-process emulator, then opens it 5 times. */
const measureMap = async (tmp: string) => {
  const bin = await bundleCli(Path.join(tmp, "s2-bin"))
  const file = Path.join(tmp, "related-map.html")
  execFileSync(process.execPath, [
    bin,
    "related",
    ...seeds,
    "--emulator",
    "--top",
    "500",
    "--format",
    "html",
    "--out",
    file
  ], {
    stdio: "ignore"
  })
  const text = Fs.readFileSync(file, "utf8")
  const count = (type: string) => text.split("\n").filter((l) => l.startsWith(`{"type":"${type}"`)).length
  // Debian's Chromium as the tests drive it (test-support's launcher: its flags, a profile removed on close).
  const browser = await launchChromium()
  const context = browser.context
  const drawn: Array<number> = [], settled: Array<number> = [], lag: Array<number> = []
  const slices: Array<number> = [], most: Array<number> = []
  try {
    await context.addInitScript({ content: lagProbe })
    for (let i = 0; i < 6; i++) {
      const page = await context.newPage()
      await page.goto(pathToFileURL(file).href)
      const body = await page.waitForSelector("body[data-settled-millis]", { timeout: 120_000 })
      // The first load warms the browser's caches; the five after it are the rows.
      if (i > 0) {
        const read = async (name: string) => Number(await body.getAttribute(`data-${name}`))
        drawn.push(await read("drawn-millis"))
        settled.push(await read("settled-millis"))
        slices.push(await read("layout-slices"))
        most.push(await read("layout-most"))
        lag.push(await page.evaluate(worstLag, lagPeriod))
      }
      await page.close()
    }
  } finally {
    await browser.close()
  }
  return {
    bytes: Buffer.byteLength(text),
    papers: count("paper"),
    links: count("link"),
    drawn,
    settled,
    lag,
    slices,
    most
  }
}

/** The lag probe's period: a timer asked for every 20 ms; a gap beyond that is lag. */
const lagPeriod = 20

/**
 * Run in the page before its own code: every timer's gap, with when it ended. Text, not a function:
 * tsx names the functions it compiles with a helper (`__name`) the page does not have.
 */
const lagProbe = `{
  const gaps = []
  let last = performance.now()
  const tick = () => {
    const now = performance.now()
    gaps.push([now, now - last])
    last = now
    setTimeout(tick, ${lagPeriod})
  }
  setTimeout(tick, ${lagPeriod})
  globalThis.s2LagProbe = gaps
}`

/** Run in the page: the longest lag (ms) between the first picture and the layout's rest. */
const worstLag = (every: number) => {
  const gaps: Array<[number, number]> = Reflect.get(globalThis, "s2LagProbe")
  const from = Number(document.body.dataset["drawnMillis"]), to = Number(document.body.dataset["settledMillis"])
  return gaps.filter(([end, gap]) => end - gap >= from && end <= to + every)
    .reduce((w, [, gap]) => Math.max(w, gap - every), 0)
}
