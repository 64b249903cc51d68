/**
 * The map of `s2 related` (commands/related.ts `mapLines`, render/Map.ts) from a hand-filled answer,
 * in Debian's Chromium: papers linked by how similar they read, sized by citations or score,
 * labelled without overlap, a year legend, lists with scores and counts that sort, prior and
 * derivative works beside them; and the picture in docs/jobs.md (docs/images/related-map.png, when
 * `S2_MAP_SCREENSHOT` names it).
 */
import { describe, expect, it } from "@effect/vitest"
import { launchChromium } from "@s2-effect/test-support/chromium"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { mapLines } from "../src/commands/related.js"
import * as Map from "../src/render/Map.js"
import { labelOverlaps, layoutSlices, sliceWork } from "./support/mapProbe.js"
import { hostile, relatedAnswer } from "./support/relatedFixture.js"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-map-related-"))

describe("the related map in Chromium", () => {
  it(
    "similar pairs as lines, labels apart, sizes, the year legend, sortable lists, prior and derivative works",
    async () => {
      const answer = relatedAnswer()
      const file = path.join(dir, "related.html")
      fs.writeFileSync(file, await Effect.runPromise(Map.page(mapLines(answer))))
      const browser = await launchChromium({ viewport: { width: 1400, height: 860 } })
      try {
        const { page } = browser
        await page.goto(pathToFileURL(file).href)
        await page.waitForSelector("body[data-settled-millis]", { timeout: 60_000 })
        expect(browser.pageErrors).toEqual([])
        expect(browser.console.filter((m) => m.startsWith("error"))).toEqual([])
        expect(browser.requests).toEqual([pathToFileURL(file).href])
        // No slice of its layout took more than the page's bounded work (its own counts, not a clock).
        const slices = await layoutSlices(page)
        expect(slices.slices).toBeGreaterThan(0)
        expect(slices.most).toBeLessThanOrEqual(sliceWork)
        expect(await page.locator("[data-paper-id]").count()).toBe(28)
        // The links are the similarity the ranking uses; citations are a second kind, hidden at first.
        expect(await page.locator("#map line.similar").count()).toBe(answer.similar.length)
        expect(await page.locator("g.citation-lines.off").count()).toBe(1)
        await page.locator("#show-citations").check()
        expect(await page.locator("g.citation-lines.off").count()).toBe(0)
        expect(await page.locator("#map line.link").count()).toBe(answer.links.length)
        await page.locator("#show-citations").uncheck()
        // Sized by citations: the most cited paper is drawn larger than the least cited.
        const radius = (id: string) => page.locator(`[data-paper-id="${id}"]`).getAttribute("r").then(Number)
        const byCitations = [...answer.papers].sort((a, b) =>
          (b.paper.citationCount ?? 0) - (a.paper.citationCount ?? 0)
        )
        expect(await radius(byCitations[0]!.paper.paperId)).toBeGreaterThan(
          2 * (await radius(byCitations.at(-1)!.paper.paperId))
        )
        // ...or by score, the reader's choice.
        await page.locator("#size-by").selectOption("score")
        expect(await radius(answer.papers[0]!.paper.paperId)).toBeGreaterThan(
          2 * (await radius(answer.papers.at(-1)!.paper.paperId))
        )
        await page.locator("#size-by").selectOption("citations")
        await page.waitForSelector("body[data-settled-millis]", { timeout: 60_000 })
        // Labelled as people name papers, the seeds among them, none overlapping another.
        const labels = await labelOverlaps(page)
        expect(labels.labels).toEqual(expect.arrayContaining(["Vaswani 2017", "Devlin 2019", "Brown 2020"]))
        expect(labels.labels.length).toBeGreaterThan(12)
        expect(labels.overlaps).toEqual([])
        // The legend: a year gradient with its first and last year, and the seeds explained.
        expect(await page.locator("#legend .bar").count()).toBe(1)
        const ticks = await page.locator("#legend .ticks span").allTextContents()
        expect(ticks[0]).toBe("2014")
        expect(ticks.at(-1)).toBe("2022")
        expect(await page.locator("#legend").textContent()).toContain("seed (ringed)")
        // The list shows the score and both counts, and sorts by each.
        const first = answer.papers[0]!
        expect(await page.locator(`#list li[data-list-id="${first.paper.paperId}"] .counts`).textContent()).toContain(
          `score ${first.score.toFixed(3)} \u00b7 co-cited ${first.coCitation} \u00b7 coupled ${first.coupling}`
        )
        await page.locator("#sort").selectOption("coupling")
        const listed = await page.locator("#list li:not(.seed)").evaluateAll((items) =>
          items.map((item) => item.getAttribute("data-list-id"))
        )
        const couplings = listed.map((id) => answer.papers.find((p) => p.paper.paperId === id)!.coupling)
        expect(couplings).toEqual([...couplings].sort((a, b) => b - a))
        expect(couplings[0]).toBeGreaterThan(couplings.at(-1)!)
        // Prior and derivative works, with their counts; a click shows the card; markup stays text.
        await page.locator("#tabs [data-view=prior]").click()
        expect(await page.locator("#list").isHidden()).toBe(true)
        expect(await page.locator("#prior li").count()).toBe(answer.foundations.length)
        expect(await page.locator("#prior li .counts").first().textContent()).toBe(
          `cited by ${answer.foundations[0]!.count} of the map's papers`
        )
        await page.locator("#prior li").nth(2).click()
        expect(await page.locator("#card-title").textContent()).toBe(hostile)
        expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
        await page.locator("#tabs [data-view=derivative]").click()
        expect(await page.locator("#derivative li .counts").first().textContent()).toBe(
          `cites ${answer.derivatives[0]!.count} of the map's papers`
        )
        // The picture for the docs: the related list beside the map, a paper's card open.
        await page.locator("#tabs [data-view=list]").click()
        await page.locator("#sort").selectOption("rank")
        await page.locator(`[data-paper-id="${answer.seeds[0]!.paperId}"]`).click({ force: true })
        expect(await page.locator("#card-title").textContent()).toBe("Attention Is All You Need")
        const shot = process.env["S2_MAP_SCREENSHOT"]
        if (shot !== undefined && shot !== "") await page.screenshot({ path: shot })
        expect(browser.pageErrors).toEqual([])
      } finally {
        await browser.close()
      }
    },
    180_000
  )
})
