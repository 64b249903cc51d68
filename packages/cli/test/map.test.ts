/**
 * The HTML map (render/Map.ts) in Debian's Chromium, opened from file:// as a user opens it: it
 * loads with no error and no request, draws every paper as a `data-paper-id` node, shows a paper's
 * title on a click, searches, labels papers without overlap, answers its reader while it lays out,
 * and shows what a server sent as text, never as markup.
 */
import { describe, expect, it } from "@effect/vitest"
import { launchChromium } from "@s2-effect/test-support/chromium"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import * as Map from "../src/render/Map.js"
import { clickMidLayout, expectAnsweredMidLayout, labelOverlaps } from "./support/mapProbe.js"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-map-"))

const hostile = "</script><script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\"> & \u2028"

/** `count` papers (the first three seeds) with titles, authors and venues, and about 3 links each. */
const papers = (count: number): Array<Map.MapLine> => {
  const out: Array<Map.MapLine> = [{ type: "title", text: `A map of ${count} papers ${hostile}` }]
  for (let i = 0; i < count; i++) {
    out.push({
      type: "paper",
      paperId: i.toString(16).padStart(40, "0"),
      title: i === 7 ? hostile : `A study of citation graphs, part ${i}`,
      year: 1990 + (i % 35),
      authors: [`Author ${i}`, i === 9 ? hostile : `Second Author ${i}`],
      authorCount: 2 + (i % 4),
      venue: i % 3 === 0 ? null : `Journal ${i % 17}`,
      citationCount: (i * 37) % 1000,
      seed: i < 3,
      score: i < 3 ? 0 : 1 / (1 + i),
      coCitation: i % 13,
      coupling: i % 7,
      citesSeed: i % 2 === 0,
      citedBySeed: i % 5 === 0
    })
  }
  for (let i = 3; i < count; i++) {
    for (const j of [i % 3, (i * 7) % count, (i * 13 + 5) % count]) {
      out.push({ type: "link", from: i.toString(16).padStart(40, "0"), to: j.toString(16).padStart(40, "0") })
    }
  }
  return out
}

const write = (name: string, text: string) => {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

describe("the map's data", () => {
  it("a line cannot end its <script> element and reads back as it was", () => {
    const record: Map.MapLine = { type: "title", text: hostile }
    const text = Map.line(record)
    expect(text).not.toMatch(/[<>&\u2028\u2029]/)
    expect(text.endsWith("\n")).toBe(true)
    expect(JSON.parse(text)).toEqual(record)
  })
})

describe("the map in Chromium", () => {
  it(
    "500 papers: under 1 MB, no error and no request from file://, every paper drawn, a click shows its title, " +
      "labels apart, answering while it lays out",
    async () => {
      const html = await Effect.runPromise(Map.page(papers(500)))
      expect(Buffer.byteLength(html)).toBeLessThan(1_000_000)
      const file = write("map-500.html", html)
      const browser = await launchChromium()
      try {
        const { page } = browser
        await clickMidLayout(page, (99).toString(16).padStart(40, "0"), 2)
        await page.goto(pathToFileURL(file).href)
        await page.waitForSelector("body[data-settled-millis]", { timeout: 60_000 })
        // Responsive, whatever the machine's speed: the layout ran as many slices, each a bounded
        // amount of work (ticks times papers), and a click queued after its second slice was
        // answered (its card shown) before the layout came to rest. The bench times the slices.
        await expectAnsweredMidLayout(page, "A study of citation graphs, part 99")
        // The biggest papers are labelled, and no two labels overlap on screen.
        const labels = await labelOverlaps(page)
        expect(labels.labels.length).toBeGreaterThan(20)
        expect(labels.overlaps).toEqual([])
        expect(labels.labels).toContain("0 1990") // seed 0, by "Author 0": the family name is the last word
        expect(browser.pageErrors).toEqual([])
        expect(browser.console.filter((m) => m.startsWith("error"))).toEqual([])
        expect(browser.requests).toEqual([pathToFileURL(file).href])
        expect(await page.locator("[data-paper-id]").count()).toBe(500)
        expect(await page.locator("circle.node.seed").count()).toBe(3)
        expect(await page.locator("#list li").count()).toBe(500)
        expect(await page.locator("line.link").count()).toBeGreaterThan(1000)
        const node = page.locator(`[data-paper-id="${(42).toString(16).padStart(40, "0")}"]`)
        await node.click({ force: true })
        expect(await page.locator("#card-title").textContent()).toBe("A study of citation graphs, part 42")
        expect(await page.locator("#card a").getAttribute("href")).toBe(
          `https://www.semanticscholar.org/paper/${(42).toString(16).padStart(40, "0")}`
        )
        // What the server sent is text: shown as written, never run.
        await page.locator(`[data-paper-id="${(7).toString(16).padStart(40, "0")}"]`).click({ force: true })
        expect(await page.locator("#card-title").textContent()).toBe(hostile)
        expect(await page.locator("#heading").textContent()).toBe(`A map of 500 papers ${hostile}`)
        expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
        expect(await page.locator("img").count()).toBe(0)
        // The search keeps what matches in the list and dims the other nodes.
        await page.locator("#search").fill("part 137")
        expect(await page.locator("#list li:not(.hidden)").count()).toBe(1)
        expect(await page.locator("circle.node:not(.dim)").count()).toBe(1)
        await page.locator("#search").fill("")
        expect(await page.locator("#list li.hidden").count()).toBe(0)
      } finally {
        await browser.close()
      }
    },
    120_000
  )

  it("an empty map and a map without years load without error", async () => {
    const bare: Array<Map.MapLine> = [{
      type: "paper",
      paperId: "a".repeat(40),
      title: null,
      year: null,
      authors: [],
      authorCount: 0,
      venue: null,
      citationCount: null,
      seed: true
    }]
    const browser = await launchChromium()
    try {
      for (const [name, lines] of [["empty.html", []], ["bare.html", bare]] as const) {
        await browser.page.goto(pathToFileURL(write(name, await Effect.runPromise(Map.page(lines)))).href)
        await browser.page.waitForSelector("body[data-settled-millis]", { timeout: 30_000 })
        expect(await browser.page.locator("[data-paper-id]").count()).toBe(lines.length)
      }
      expect(browser.pageErrors).toEqual([])
      expect(browser.console.filter((m) => m.startsWith("error"))).toEqual([])
    } finally {
      await browser.close()
    }
  }, 120_000)
})
