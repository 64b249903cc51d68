/**
 * `BENCH_ONLY=map`: the issue 44 point 8 rows. A walk's map of 33,000 papers and 99,000 citations
 * (the same shape as packages/cli/test/mapLarge.test.ts) opened from file:// in Debian's Chromium,
 * clicked every time the last click was answered from navigation until its layout is at rest: the
 * longest main-thread task (Long Tasks API, 50 ms and over; the first one is reading the data),
 * and the longest a click waited for its answer (Event Timing: from the input to the paint after
 * its handlers). The tests count slices and order events; this times them.
 */
import { launchChromium } from "@s2-effect/test-support/chromium"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"
import type { BrowserContext } from "playwright-core"
import * as MapPage from "../../cli/src/render/Map.js"
import { walk } from "../../cli/test/support/largeWalk.js"
import type { JobsTools } from "./jobs.js"

/** Writes the 33,000-paper map to `file` (also for profiling it by hand). */
export const writeLargeMap = async (file: string): Promise<string> => {
  await Effect.runPromise(MapPage.ready)
  Fs.writeFileSync(file, MapPage.header + walk() + MapPage.footer())
  return file
}

/**
 * Run in the page before its own code (text: tsx's `__name` helper is not in the page): every long
 * task and every click's timing, kept for the bench to read.
 */
const probe = `{
  const seen = { tasks: [], clicks: [] }
  globalThis.s2MapProbe = seen
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) seen.tasks.push([e.startTime, e.duration])
  }).observe({ type: "longtask", buffered: true })
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === "click") seen.clicks.push([e.startTime, e.duration, e.processingStart - e.startTime])
  }).observe({ type: "event", durationThreshold: 16, buffered: true })
  addEventListener("click", (ev) => { seen.clicks.push([ev.timeStamp, -1, performance.now() - ev.timeStamp]) }, true)
}`

interface Run {
  readonly drawn: number
  readonly settled: number
  readonly longest: number
  readonly first: number
  readonly afterDrawn: number
  readonly click: number
  readonly clickDelay: number
  readonly clicks: number
  readonly slices: number
}

const measureRun = async (context: BrowserContext, url: string) => {
  const page = await context.newPage()
  const loading = page.goto(url, { timeout: 300_000 })
  let clicks = 0
  let settled = false
  void page.waitForSelector("body[data-settled-millis]", { timeout: 300_000 }).then(() => settled = true)
  // A reader clicking the picture's empty corner again as soon as the last click was answered.
  await page.waitForSelector("#map", { state: "attached", timeout: 300_000 })
  while (!settled) {
    await page.mouse.click(60, 700)
    clicks++
  }
  await loading
  const seen: { tasks: Array<[number, number]>; clicks: Array<[number, number, number]> } = await page.evaluate(
    () => Reflect.get(globalThis, "s2MapProbe")
  )
  const body = (name: string) => page.evaluate((n) => Number(document.body.dataset[n]), name)
  const drawn = await body("drawnMillis")
  const run: Run = {
    drawn,
    settled: await body("settledMillis"),
    slices: await body("layoutSlices"),
    longest: Math.max(0, ...seen.tasks.map(([, d]) => d)),
    first: seen.tasks.length === 0 ? 0 : Math.max(0, ...seen.tasks.filter(([s]) => s < drawn).map(([, d]) => d)),
    afterDrawn: Math.max(0, ...seen.tasks.filter(([s]) => s >= drawn).map(([, d]) => d)),
    click: Math.max(0, ...seen.clicks.filter(([, d]) => d >= 0).map(([, d]) => d)),
    clickDelay: Math.max(0, ...seen.clicks.filter(([, d]) => d < 0).map(([, , w]) => w)),
    clicks
  }
  await page.close()
  return run
}

/** The section of RESULTS.md: heading, how it was run, the rows. */
export const mapSection = async (tools: Pick<JobsTools, "fmt">, tmp: string, runs = 3): Promise<Array<string>> => {
  const load = Os.loadavg()[0] ?? 0
  const file = await writeLargeMap(Path.join(tmp, "map-33000.html"))
  // Debian's Chromium as the tests drive it (test-support's launcher: its flags, a profile removed on close).
  const browser = await launchChromium()
  const context = browser.context
  const results: Array<Run> = []
  try {
    await context.addInitScript({ content: probe })
    for (let i = 0; i <= runs; i++) {
      const run = await measureRun(context, pathToFileURL(file).href)
      // The first load warms the browser's caches.
      if (i > 0) results.push(run)
      console.error(`map run ${i}: ${JSON.stringify(run)} load ${Os.loadavg()[0]?.toFixed(1)}`)
    }
  } finally {
    await browser.close()
  }
  const row = (what: string, pick: (r: Run) => number) => {
    const sorted = results.map(pick).sort((x, y) => x - y)
    return `| ${what} | ${tools.fmt(sorted[Math.floor(sorted.length / 2)] ?? 0, 0)} | ${
      tools.fmt(sorted[0] ?? 0, 0)
    } | ${tools.fmt(sorted.at(-1) ?? 0, 0)} |`
  }
  return [
    "## The 33,000-paper map answers its reader (issue 44, point 8)",
    "",
    `\`BENCH_ONLY=map pnpm bench\` (packages/bench/src/mapLarge.ts) on ${
      new Date().toISOString().slice(0, 10)
    } (load average ${tools.fmt(load)} to ${tools.fmt(Os.loadavg()[0] ?? 0)} on ${Os.cpus().length} cores): ${
      tools.fmt(Fs.statSync(file).size / 1024 / 1024, 1)
    } MB file, file:// in Chromium, clicked again as soon as each click was answered until the layout's rest; ${results.length} page loads after a warm-up.`,
    "",
    "| 33,000 papers, 99,000 citations | median (ms) | min | max |",
    "|---|---|---|---|",
    row("longest main-thread task (Long Tasks, ≥ 50 ms)", (r) => r.longest),
    row("longest task before the first picture (reading the data)", (r) => r.first),
    row("longest task from the first picture to the rest (layout, drawing)", (r) => r.afterDrawn),
    row("longest click: input to the paint after its handler (Event Timing)", (r) => r.click),
    row("longest click: input to its handler", (r) => r.clickDelay),
    row("clicks answered during the load", (r) => r.clicks),
    row("navigation to the first picture", (r) => r.drawn),
    row("navigation to the layout at rest", (r) => r.settled),
    row("layout slices", (r) => r.slices)
  ]
}
