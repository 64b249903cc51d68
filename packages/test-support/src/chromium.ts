/**
 * Debian's Chromium, headless, driven by playwright-core: the browser of every test that runs a page
 * (the browser package's layer, the CLI's HTML maps, the example web page). Imported as
 * `@s2-effect/test-support/chromium`, so that tests that drive no browser never load playwright.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { chromium } from "playwright-core"

/** Debian's `chromium` package; `CHROMIUM_PATH` overrides. Never a downloaded browser. */
export const chromiumPath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"

/** No sandbox as root; nothing in the background that would reach the network. */
export const chromiumFlags: ReadonlyArray<string> = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic"
]

export interface Browser {
  readonly context: BrowserContext
  readonly page: Page
  /** Uncaught errors of the page. */
  readonly pageErrors: ReadonlyArray<string>
  /** Console messages of the page (`type: text`), to explain a failure. */
  readonly console: ReadonlyArray<string>
  /** Every request the page made. */
  readonly requests: ReadonlyArray<string>
  /** Closes the browser and removes its profile. */
  readonly close: () => Promise<void>
}

export interface LaunchOptions {
  /** The page's size (1280 × 800 unless given): screenshots made by tests have the size they ask for. */
  readonly viewport?: { readonly width: number; readonly height: number }
}

/**
 * Starts Chromium with a fresh profile, its first page collecting uncaught errors, console messages
 * and requests. Fails (never skips) with the fix when the binary is missing: CI installs Debian's
 * package with apt (packages/browser/scripts/ensure-chromium.mjs).
 */
export const launchChromium = async (options: LaunchOptions = {}): Promise<Browser> => {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}. These tests need a real browser: install Debian's package ` +
        "(`apt-get update && apt-get install -y chromium`; .ci/run does this when it is missing) or set CHROMIUM_PATH. " +
        "Never download a browser (no `playwright install`)."
    )
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "s2-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumFlags],
    viewport: { ...(options.viewport ?? { width: 1280, height: 800 }) }
  }).catch((error: unknown) => {
    fs.rmSync(profile, { recursive: true, force: true })
    throw error
  })
  const pageErrors: Array<string> = []
  const messages: Array<string> = []
  const requests: Array<string> = []
  const page = context.pages()[0] ?? (await context.newPage())
  page.on("pageerror", (error) => pageErrors.push(error.message))
  page.on("console", (message) => messages.push(`${message.type()}: ${message.text()}`))
  page.on("request", (request) => requests.push(request.url()))
  return {
    context,
    page,
    pageErrors,
    console: messages,
    requests,
    close: async () => {
      await context.close()
      fs.rmSync(profile, { recursive: true, force: true })
    }
  }
}
