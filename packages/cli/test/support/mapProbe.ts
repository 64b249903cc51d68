/**
 * What the map tests read inside the page: how its layout was split into slices (the page's own
 * counts, `data-layout-*` on the body), whether a task queued while it laid out ran before it came
 * to rest, and whether two shown labels overlap. Counts and the order of events, never a clock:
 * the same on an idle machine and on a busy one (the bench times the map).
 */
import type { launchChromium } from "@s2-effect/test-support/chromium"
import { expect } from "vitest"

type Page = Awaited<ReturnType<typeof launchChromium>>["page"]

/**
 * The most node-steps (ticks of d3-force times drawn papers) one slice of the layout may take:
 * layout.js's `sliceWork`, written here again so that a change of the page's budget is a change
 * of this test too.
 */
export const sliceWork = 2400

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

/** What {@link watchTasks} saw. */
export interface TaskWatch {
  /** The click queued when the page had read its first step of data: the steps run then and when it ran. */
  readonly readClick: { readonly queuedAt: number; readonly ranAt: number; readonly drawn: boolean } | undefined
  /** Slice counts seen at the end of a task whose picture was already drawn for that slice (the same task drew it). */
  readonly drawnWithSlice: ReadonlyArray<number>
  /** Slice counts seen in all. */
  readonly slicesSeen: number
}

/**
 * Installs, before the page's code runs, two watches: when the page has prepared its first step
 * of data (`data-prepare-steps`), a new task (a message, no timer) clicks the search box and notes
 * how many steps had run then and whether the picture was drawn; and at the end of each task that
 * counted a slice (a mutation observer runs at the end of the task), whether that task also drew
 * the picture (`data-picture-slices` already equal to `data-layout-slices`).
 */
export const watchTasks = (page: Page) =>
  page.addInitScript(() => {
    const seen: { readClick?: TaskWatch["readClick"]; drawnWithSlice: Array<number>; slicesSeen: number } = {
      drawnWithSlice: [],
      slicesSeen: 0
    }
    Reflect.set(globalThis, "s2TaskWatch", seen)
    const channel = new MessageChannel()
    let queuedAt = -1
    channel.port1.onmessage = () => {
      const body = document.body.dataset
      document.getElementById("search")?.dispatchEvent(new MouseEvent("click", { bubbles: true }))
      seen.readClick = { queuedAt, ranAt: Number(body["prepareSteps"]), drawn: body["drawnMillis"] !== undefined }
    }
    new MutationObserver((records) => {
      const body = document.body?.dataset
      if (body === undefined) return
      if (queuedAt < 0 && Number(body["prepareSteps"] ?? 0) >= 1) {
        queuedAt = Number(body["prepareSteps"])
        channel.port2.postMessage(null)
      }
      if (!records.some((r) => r.attributeName === "data-layout-slices")) return
      seen.slicesSeen += 1
      if (body["pictureSlices"] === body["layoutSlices"]) seen.drawnWithSlice.push(Number(body["layoutSlices"]))
    }).observe(document, {
      attributes: true,
      subtree: true,
      attributeFilter: ["data-prepare-steps", "data-layout-slices"]
    })
  })

/** What {@link watchTasks} saw, and the page's final counts of its preparation and drawing. */
export const tasksSeen = (page: Page) =>
  page.evaluate(() => ({
    ...(Reflect.get(globalThis, "s2TaskWatch") as TaskWatch),
    prepareSteps: Number(document.body.dataset["prepareSteps"]),
    pictureDraws: Number(document.body.dataset["pictureDraws"]),
    pictureSlices: Number(document.body.dataset["pictureSlices"])
  }))

/**
 * Asserts that the page stayed responsive while it laid out, counted, not timed: the layout ran in
 * at least ten slices of bounded work, and the click queued after its second slice (by
 * {@link clickMidLayout}) showed `card` before the layout came to rest. Answers the slices seen.
 */
export const expectAnsweredMidLayout = async (page: Page, card: string): Promise<Slices> => {
  const slices = await layoutSlices(page)
  expect(slices.slices, JSON.stringify(slices)).toBeGreaterThanOrEqual(10)
  expect(slices.most, JSON.stringify(slices)).toBeLessThanOrEqual(sliceWork)
  expect(slices.most, JSON.stringify(slices)).toBeGreaterThan(0)
  const click = await midLayoutClick(page)
  expect(click, JSON.stringify({ click, slices })).toMatchObject({ queuedAt: 2, settled: false, card })
  expect(click!.ranAt, JSON.stringify({ click, slices })).toBeLessThan(slices.slices)
  return slices
}
