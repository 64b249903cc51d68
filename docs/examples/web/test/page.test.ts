/// <reference types="node" />
/**
 * The example page, built by Vite as it ships, served from one local port and calling the
 * emulator's HTTP server on another (CORS), in Debian's headless Chromium driven by playwright-core.
 * It types a query, waits for streamed results, screenshots the page, and opens a paper's citations.
 */
import type { Browser } from "@s2-effect/test-support/chromium"
import { launchChromium } from "@s2-effect/test-support/chromium"
import type { EmulatorServer } from "@s2-effect/testing"
import { startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "vite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
/** Where the screenshot goes: `S2_ARTIFACTS_DIR` (e.g. CI's artifacts) or the system's temp folder. */
const artifacts = process.env["S2_ARTIFACTS_DIR"] ?? os.tmpdir()
export const screenshotPath = path.join(artifacts, "s2-effect-example-web.png")

const types: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json"
}

/** Serves a built folder on 127.0.0.1 (a port of its own: the emulator is another origin). */
const serveDir = (dir: string): Promise<{ readonly url: string; readonly server: http.Server }> =>
  new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => {
      const pathname = new URL(req.url ?? "/", "http://x").pathname
      const file = path.join(dir, pathname === "/" ? "index.html" : pathname)
      if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        res.writeHead(404)
        return void res.end()
      }
      res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" })
      fs.createReadStream(file).pipe(res)
    })
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      if (address === null || typeof address === "string") reject(new Error("the server has no TCP port"))
      else resolve({ url: `http://127.0.0.1:${address.port}`, server })
    })
  })

const scope = Effect.runSync(Scope.make())
let emulator: EmulatorServer
let site: { readonly url: string; readonly server: http.Server }
let browser: Browser
const temp = fs.mkdtempSync(path.join(os.tmpdir(), "s2-example-web-"))

beforeAll(async () => {
  // First: without Chromium the test fails at once, saying how to install it.
  browser = await launchChromium({ viewport: { width: 1100, height: 860 } })
  const outDir = path.join(temp, "dist")
  await build({ root, logLevel: "warn", build: { outDir, sourcemap: false, emptyOutDir: true } })
  site = await serveDir(outDir)
  emulator = await Effect.runPromise(Scope.provide(startEmulator({ seed: 1, size: 2000 }), scope))
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => site === undefined ? resolve() : site.server.close(() => resolve()))
  await Effect.runPromise(Scope.close(scope, Exit.void))
  fs.rmSync(temp, { recursive: true, force: true })
  // Closing Chromium and the servers: vitest's default 10 s for a hook is short on a busy machine.
}, 60_000)

/** What the emulator itself ranks first, asked directly (not through the page). */
const firstTitle = async (query: string): Promise<string> => {
  const url = `${emulator.url}/graph/v1/paper/search?query=${encodeURIComponent(query)}&fields=title&limit=1`
  const body: unknown = await (await fetch(url)).json()
  if (typeof body === "object" && body !== null && "data" in body && Array.isArray(body.data)) {
    const [first]: ReadonlyArray<unknown> = body.data
    if (typeof first === "object" && first !== null && "title" in first && typeof first.title === "string") {
      return first.title
    }
  }
  throw new Error(`the emulator found nothing for ${query}`)
}

describe("the example page (docs/examples/web) in headless Chromium", () => {
  it("searches, streams results page by page, and shows a paper's top citations", async () => {
    const { page } = browser
    // A word of a corpus title, so the search has results.
    const query = emulator.corpus.paper(0).title.split(/\W+/).find((w) => w.length >= 6) ?? "learning"
    const expectedFirst = await firstTitle(query)

    await page.goto(`${site.url}/?api=${encodeURIComponent(emulator.url)}`)
    await expect.poll(() => page.locator("#api-url").textContent()).toBe(emulator.url)
    await page.locator("#query").fill(query)
    await page.locator("#search button[type=submit]").click()
    await page.locator("#results[data-state=done], #results[data-state=error]").waitFor({
      state: "attached",
      timeout: 20_000
    })
    expect(await page.locator("#results").getAttribute("data-state"), await page.locator("#status").textContent() ?? "")
      .toBe("done")

    const titles = await page.locator("#results > li .paper-title").allTextContents()
    expect(titles.length).toBeGreaterThan(0)
    expect(titles[0]).toBe(expectedFirst)
    // Page by page: 20 a page, up to 5 pages, each a cross-origin request of its own from the page.
    const searches = (await Effect.runPromise(emulator.requests)).filter((r) =>
      r.path === "/graph/v1/paper/search" && r.headers["origin"] === site.url
    )
    expect(searches.length).toBe(Math.ceil(titles.length / 20))
    expect(searches.map((r) => r.query.find(([k]) => k === "offset")?.[1])).toEqual(
      searches.map((_, i) => String(i * 20))
    )
    const firstMeta = await page.locator("#results > li .meta").first().textContent()
    expect(firstMeta).toMatch(/^(\d{4}|year unknown) · .+ · [\d,]+ citations$/)
    expect(await page.locator("#status").textContent()).toMatch(/results \(page \d\)$/)

    // Click the most cited result: its citations, most cited first.
    const counts = await page.locator("#results > li .meta").allTextContents()
    const citationsOf = counts.map((m) => Number(/([\d,]+) citations$/.exec(m)?.[1]?.replaceAll(",", "") ?? "0"))
    const best = citationsOf.indexOf(Math.max(...citationsOf))
    await page.locator("#results > li .paper-title").nth(best).click()
    await page.locator("#citations[data-state=done], #citations[data-state=error]").waitFor({
      state: "attached",
      timeout: 20_000
    })
    expect(
      await page.locator("#citations").getAttribute("data-state"),
      await page.locator("#citations-of").textContent() ?? ""
    )
      .toBe("done")
    const cited = await page.locator("#citation-list > li").count()
    expect(cited).toBe(Math.min(10, citationsOf[best] ?? 0))
    expect(cited).toBeGreaterThan(0)
    const citingCounts = (await page.locator("#citation-list > li .meta").allTextContents()).map((m) =>
      Number(/([\d,]+) citations$/.exec(m)?.[1]?.replaceAll(",", "") ?? "-1")
    )
    expect(citingCounts).toEqual([...citingCounts].sort((a, b) => b - a))

    // The first results and the citations panel in view, as a person would see them after the search.
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.mouse.move(0, 0)
    fs.mkdirSync(artifacts, { recursive: true })
    await page.screenshot({ path: screenshotPath, fullPage: false })
    const png = fs.readFileSync(screenshotPath)
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG")
    expect(png.length).toBeGreaterThan(20_000)
    expect(browser.pageErrors).toEqual([])
    console.log(`screenshot: ${screenshotPath}`)
  }, 60_000)
})
