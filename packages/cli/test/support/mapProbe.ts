/**
 * What the map tests read inside the page: how its layout was split into slices (the page's own
 * counts, `data-layout-*` on the body), whether a task queued while it laid out ran before it came
 * to rest, and whether two shown labels overlap. Counts and the order of events, never a clock:
 * the same on an idle machine and on a busy one (the bench times the map).
 */
import type { launchChromium } from "@s2-effect/test-support/chromium"

type Page = Awaited<ReturnType<typeof launchChromium>>["page"]

/**
 * The most node-steps (ticks of d3-force times drawn papers) one slice of the layout may take:
 * layout.js's `sliceWork`, written here again so that a change of the page's budget is a change
 * of this test too.
 */
export const sliceWork = 6000

/** How the page's layout ran: slices, ticks in all, the most node-steps in one slice. */
export interface Slices {
  readonly slices: number
  readonly ticks: number
  readonly most: number
}

/** The page's counts of its layout's slices (after `data-settled-millis`: the whole layout). */
export const layoutSlices = (page: Page): Promise<Slices> =>
  page.evaluate(() => ({
    slices: Number(document.body.dataset["layoutSlices"]),
    ticks: Number(document.body.dataset["layoutTicks"]),
    most: Number(document.body.dataset["layoutMost"])
  }))

/** What the click queued mid-layout saw when its handler had run. */
export interface MidLayoutClick {
  /** The slices run when the page counted `after` and queued the click. */
  readonly queuedAt: number
  /** The slices run when the click's task ran, and whether the layout was at rest then. */
  readonly ranAt: number
  readonly settled: boolean
  /** The card's title right after the click (the node's click handler fills it). */
  readonly card: string | null
}

/**
 * Installs, before the page's code runs, a watch on its slice count: when the page has run `after`
 * slices, a new task (a message to itself, so no timer and no clock) clicks the node of `paperId`
 * and notes what the card then shows, how many slices had run and whether the layout had come to
 * rest. A page that laid out in one task, or never yielded between slices, runs that task only
 * after its rest.
 */
export const clickMidLayout = (page: Page, paperId: string, after: number) =>
  page.addInitScript(([id, at]: [string, number]) => {
    const channel = new MessageChannel()
    let queuedAt = 0
    channel.port1.onmessage = () => {
      const body = document.body
      document.querySelector(`[data-paper-id="${id}"]`)?.dispatchEvent(new MouseEvent("click", { bubbles: true }))
      Reflect.set(globalThis, "s2MidLayoutClick", {
        queuedAt,
        ranAt: Number(body.dataset["layoutSlices"]),
        settled: body.dataset["settledMillis"] !== undefined,
        card: document.getElementById("card-title")?.textContent ?? null
      })
    }
    new MutationObserver((_, observer) => {
      const slices = Number(document.body?.dataset["layoutSlices"] ?? 0)
      if (slices < at) return
      observer.disconnect()
      queuedAt = slices
      channel.port2.postMessage(null)
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-layout-slices"] })
  }, [paperId, after] as [string, number])

/** What {@link clickMidLayout} saw (undefined when its click never ran). */
export const midLayoutClick = (page: Page): Promise<MidLayoutClick | undefined> =>
  page.evaluate(() => Reflect.get(globalThis, "s2MidLayoutClick") as MidLayoutClick | undefined)

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
