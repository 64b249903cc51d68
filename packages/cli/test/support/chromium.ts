/**
 * Debian's Chromium, headless, for the tests of the HTML maps: launched as the browser package's
 * tests launch it (the same binary and flags; that package's test folder is its own), with the
 * page's uncaught errors and console messages collected.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { chromium } from "playwright-core"

/** Debian's `chromium` package; `CHROMIUM_PATH` overrides. Never a downloaded browser. */
export const chromiumPath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"

/** No sandbox as root; nothing in the background that would reach the network. */
const flags = [
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
  /** Console messages of the page, `type: text`. */
  readonly console: ReadonlyArray<string>
  /** Every request the page made (a map makes none but its own file). */
  readonly requests: ReadonlyArray<string>
  readonly close: () => Promise<void>
}

/**
 * Starts Chromium with a fresh profile. Fails (never skips) with the fix when the binary is
 * missing: CI installs Debian's package with apt.
 */
export const launchChromium = async (): Promise<Browser> => {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}. These tests need a real browser: install Debian's package ` +
        "(`apt-get install -y chromium`) or set CHROMIUM_PATH. Never download a browser (no `playwright install`)."
    )
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "s2-map-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: flags,
    viewport: { width: 1280, height: 800 }
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
