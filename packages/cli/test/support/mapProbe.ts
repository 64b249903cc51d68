/**
 * What the map tests measure inside the page: how late the page's timers ran while it laid out
 * (event-loop lag: an input event waits as long), and whether two shown labels overlap.
 */
import type { launchChromium } from "@s2-effect/test-support/chromium"

type Page = Awaited<ReturnType<typeof launchChromium>>["page"]

/** The probe's period: a timer asked for every 20 ms; a gap beyond that is lag. */
const period = 20

/**
 * The longest lag a test accepts. An idle machine shows a frame of the page's work in tens of
 * milliseconds and the target is 200; the suite runs on a shared 2-core machine often 7 times
 * oversubscribed, where the same frame takes up to a second. The page this replaced held its
 * timers 4 to 10 s at a time (33,000 papers) and never came to rest.
 */
export const maxLag = 2000

/** Installs the probe before the page's own code runs: every timer's gap, with when it ended. */
export const installLagProbe = (page: Page) =>
  page.addInitScript((every: number) => {
    const gaps: Array<[number, number]> = []
    let last = performance.now()
    const tick = () => {
      const now = performance.now()
      gaps.push([now, now - last])
      last = now
      setTimeout(tick, every)
    }
    setTimeout(tick, every)
    Reflect.set(globalThis, "s2LagProbe", gaps)
  }, period)

/**
 * The longest lag (ms) between the first picture (`data-drawn-millis`) and the layout's rest
 * (`data-settled-millis`), and how many gaps were measured then.
 */
export const worstLag = (page: Page): Promise<{ worst: number; gaps: number; millis: number }> =>
  page.evaluate((every: number) => {
    const gaps: Array<[number, number]> = Reflect.get(globalThis, "s2LagProbe")
    const from = Number(document.body.dataset["drawnMillis"]), to = Number(document.body.dataset["settledMillis"])
    const during = gaps.filter(([end, gap]) => end - gap >= from && end <= to + every)
    return {
      worst: during.reduce((w, [, gap]) => Math.max(w, gap - every), 0),
      gaps: during.length,
      millis: to - from
    }
  }, period)

/** The shown labels' texts and the pairs of them whose boxes on screen overlap. */
export const labelOverlaps = (page: Page): Promise<{ labels: Array<string>; overlaps: Array<[string, string]> }> =>
  page.evaluate(() => {
    const shown = [...document.querySelectorAll("text.label")].filter((t) => getComputedStyle(t).display !== "none")
    const boxes = shown.map((t) => ({ text: t.textContent ?? "", r: t.getBoundingClientRect() }))
    const overlaps: Array<[string, string]> = []
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => {
        const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left)
        const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top)
        if (x > 0.5 && y > 0.5) overlaps.push([a.text, b.text])
      })
    )
    return { labels: boxes.map((b) => b.text), overlaps }
  })
