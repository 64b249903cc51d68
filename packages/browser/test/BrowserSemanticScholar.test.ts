/// <reference types="node" />
/**
 * `BrowserSemanticScholar.layer` in a real browser: Debian's Chromium (headless, driven by
 * playwright-core) loads a page bundled from `browser/entry.ts`, served from one local port, and
 * calls the emulator's HTTP server on another port (so every call is a CORS request). The page runs
 * each scenario and reports plain JSON; the emulator's request log and a pass-through proxy give
 * the server-side view.
 */
import { waitFor } from "@s2-effect/test-support"
import type { Browser } from "@s2-effect/test-support/chromium"
import { launchChromium } from "@s2-effect/test-support/chromium"
import type { EmulatorServer } from "@s2-effect/testing"
import { Faults, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Outcome } from "./browser/protocol.js"
import type { Served, WatchingProxy } from "./harness.js"
import { bundle, recordingServer, serveFiles, watchingProxy } from "./harness.js"

const here = path.dirname(fileURLToPath(import.meta.url))

const scope = Effect.runSync(Scope.make())
let emulator: EmulatorServer
let site: Served
let proxy: WatchingProxy
let browser: Browser

beforeAll(async () => {
  emulator = await Effect.runPromise(Scope.provide(startEmulator({ seed: 1, size: 500, bulkSize: 2500 }), scope))
  proxy = await watchingProxy(emulator.url)
  const script = await bundle(path.join(here, "browser", "entry.ts"))
  site = await serveFiles({
    "/": {
      type: "text/html; charset=utf-8",
      body:
        `<!doctype html><html><head><meta charset="utf-8"><title>loading</title><link rel="icon" href="data:,"><script type="module" src="/entry.js"></script></head><body></body></html>`
    },
    "/entry.js": { type: "text/javascript; charset=utf-8", body: script }
  })
  browser = await launchChromium({ viewport: { width: 1100, height: 800 } })
  await browser.page.goto(site.url)
  await browser.page.waitForFunction(() => window.s2browser !== undefined, undefined, { timeout: 10_000 })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await proxy?.close()
  await site?.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
})

const loaded = <A>(value: A | undefined): A => {
  if (value === undefined) {
    throw new Error(`the page did not load its test API: ${[...browser.pageErrors, ...browser.console].join("; ")}`)
  }
  return value
}

const success = <A>(outcome: Outcome<A>): A => {
  if (!outcome.ok) {
    const recent = browser.console.slice(-5).join("\n")
    throw new Error(
      `expected success, the page failed with ${outcome.tag}: ${outcome.message}\nthe page's last console lines:\n${recent}`
    )
  }
  return outcome.value
}

/** The requests the emulator recorded for one path (under `/graph/v1`). */
const requestsTo = async (apiPath: string) =>
  (await Effect.runPromise(emulator.requests)).filter((r) => r.path === `/graph/v1${apiPath}`)

const setFaults = (config: Faults.Config) => Effect.runPromise(emulator.setFaults(config))

/** A corpus paper's id as the page sends it, and its path on the wire. */
const corpusPaper = (i: number) => {
  const paper = emulator.corpus.paper(i)
  return { paper, paperId: `CorpusId:${paper.corpusId}`, path: `/paper/CorpusId:${paper.corpusId}` }
}

describe("BrowserSemanticScholar in headless Chromium, against the emulator over HTTP (CORS)", () => {
  it("getPaper: a cross-origin GET from the page returns the corpus's paper", async () => {
    await setFaults({})
    const { paper, paperId, path: apiPath } = corpusPaper(3)
    const outcome = await browser.page.evaluate((t) => window.s2browser?.getPaper(t), {
      apiUrl: emulator.url,
      paperId
    })
    const value = success(loaded(outcome))
    expect(value.title).toBe(paper.title)
    expect(value.paperId).toBe(paper.paperId)
    // One GET and no preflight: a keyless GET from the page is a simple cross-origin request.
    const [request, ...more] = await requestsTo(apiPath)
    expect(more).toEqual([])
    expect(request?.method).toBe("GET")
    // Sent by Chromium from the page's origin: a real cross-origin request.
    expect(request?.headers["origin"]).toBe(site.url)
    expect(request?.headers["user-agent"]).toMatch(/Chrome\//)
    expect(request?.query).toEqual([["fields", "title,year"]])
  }, 20_000)

  it("a paginated stream: every citation of the most cited paper, 25 a page", async () => {
    await setFaults({})
    const corpus = emulator.corpus
    let top = 0
    for (let i = 1; i < corpus.size; i++) if (corpus.citationCount(i) > corpus.citationCount(top)) top = i
    const { paperId, path: apiPath } = corpusPaper(top)
    const expected = corpus.citationCount(top)
    expect(expected).toBeGreaterThan(50)
    const outcome = await browser.page.evaluate((t) => window.s2browser?.citations(t), {
      apiUrl: emulator.url,
      paperId,
      limit: 25
    })
    const value = success(loaded(outcome))
    expect(value.count).toBe(expected)
    expect(value.distinct).toBe(expected)
    const pages = await requestsTo(`${apiPath}/citations`)
    expect(pages.map((r) => r.query.find(([k]) => k === "offset")?.[1])).toEqual(
      Array.from({ length: Math.ceil(expected / 25) }, (_, i) => String(i * 25))
    )
  }, 20_000)

  it("a bulk search over several pages (token paging, 1000 a page)", async () => {
    await setFaults({})
    const outcome = await browser.page.evaluate((input) => window.s2browser?.bulk(input), {
      apiUrl: emulator.url,
      query: ""
    })
    const value = success(loaded(outcome))
    expect(value.total).toBe(2500)
    expect(value.pageSizes).toEqual([1000, 1000, 500])
    expect(value.distinct).toBe(2500)
    const calls = await requestsTo("/paper/search/bulk")
    expect(calls.map((r) => r.query.some(([k]) => k === "token"))).toEqual([false, true, true])
    expect(calls.every((r) => r.outcome === 200)).toBe(true)
  }, 30_000)

  it("a 429 is retried after the policy's wait, and the retry succeeds", async () => {
    const { paper, paperId, path: apiPath } = corpusPaper(10)
    await setFaults({ script: [{ route: apiPath, requests: 1, fault: Faults.tooManyRequests() }] })
    const outcome = await browser.page.evaluate((t) => window.s2browser?.retried(t), {
      apiUrl: emulator.url,
      paperId,
      baseMillis: 150
    })
    const value = success(loaded(outcome))
    expect(value.title).toBe(paper.title)
    expect(loaded(outcome).elapsedMillis).toBeGreaterThanOrEqual(150)
    const calls = await requestsTo(apiPath)
    expect(calls.map((r) => r.outcome)).toEqual([429, 200])
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(140)
  }, 20_000)

  it("a 429's Retry-After is readable cross-origin (CORS exposes it) and waited for", async () => {
    const { paper, paperId, path: apiPath } = corpusPaper(11)
    await setFaults({ script: [{ route: apiPath, requests: 1, fault: Faults.tooManyRequests({ retryAfter: 1 }) }] })
    const outcome = await browser.page.evaluate((t) => window.s2browser?.retried(t), {
      apiUrl: emulator.url,
      paperId,
      baseMillis: 50
    })
    const value = success(loaded(outcome))
    expect(value.title).toBe(paper.title)
    const calls = await requestsTo(apiPath)
    expect(calls.map((r) => r.outcome)).toEqual([429, 200])
    // The policy alone would wait 50 ms: the 1 s wait comes from the header the page could read.
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(990)
  }, 20_000)

  it("a time-out: a hanging answer fails with Timeout, and the browser drops the request", async () => {
    const { paperId, path: apiPath } = corpusPaper(12)
    await setFaults({ script: [{ route: apiPath, fault: Faults.hang }] })
    const abort = proxy.nextAbort(10_000)
    const outcome = loaded(
      await browser.page.evaluate((t) => window.s2browser?.timeout(t), {
        apiUrl: proxy.url,
        paperId,
        timeoutMillis: 300
      })
    )
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.tag).toBe("Timeout")
    expect(outcome.elapsedMillis).toBeGreaterThanOrEqual(290)
    expect((await abort).path).toMatch(new RegExp(`^/graph/v1${apiPath}\\?`))
    expect((await requestsTo(apiPath)).map((r) => r.outcome)).toEqual(["hang"])
  }, 20_000)

  it("interrupting the fiber aborts the request in flight (the server sees the connection close)", async () => {
    const { paperId, path: apiPath } = corpusPaper(13)
    await setFaults({ script: [{ route: apiPath, fault: Faults.hang }] })
    const before = proxy.aborted.length
    await browser.page.evaluate((t) => window.s2browser?.start(t), { apiUrl: proxy.url, paperId })
    await waitFor(async () => (await requestsTo(apiPath)).length === 1, { what: "the emulator to hold the request" })
    // Still in flight: nothing aborted yet.
    expect(proxy.aborted.length).toBe(before)
    const abort = proxy.nextAbort(10_000)
    const failed = browser.page.waitForEvent("requestfailed", {
      predicate: (request) => request.url().includes(`/graph/v1${apiPath}?`),
      timeout: 10_000
    })
    const result = await browser.page.evaluate(() => window.s2browser?.interrupt())
    expect(loaded(result).interrupted).toBe(true)
    expect((await abort).path).toMatch(new RegExp(`^/graph/v1${apiPath}\\?`))
    expect((await requestsTo(apiPath)).map((r) => r.outcome)).toEqual(["hang"])
    // And the browser's side: Chromium's network stack reports the fetch aborted.
    expect((await failed).failure()?.errorText).toBe("net::ERR_ABORTED")
    expect(browser.pageErrors).toEqual([])
  }, 20_000)
})

describe("BrowserSemanticScholar never follows the API's redirects (the key goes to the API root only)", () => {
  const key = "browser-key-0123456789"

  for (const status of [301, 302, 303, 307, 308]) {
    it(
      `an API root answering ${status} to another origin: that origin gets nothing, the page a typed error`,
      async () => {
        // Another origin that would answer as the API does, with CORS open to any header (the key too).
        const elsewhere = await recordingServer(() => ({
          status: 200,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ paperId: "stolen", title: "the other host's answer" })
        }))
        const root = await recordingServer((path) => ({ status, headers: { location: `${elsewhere.url}${path}` } }))
        try {
          const outcome = loaded(
            await browser.page.evaluate((t) => window.s2browser?.getPaper(t), {
              apiUrl: root.url,
              paperId: "CorpusId:1",
              apiKey: key
            })
          )
          // The root got the key (a preflight, then the GET); the other origin got no request at all.
          expect(elsewhere.requests).toEqual([])
          expect(root.requests.map((r) => r.method)).toEqual(["OPTIONS", "GET"])
          expect(root.requests[1]?.headers["x-api-key"]).toBe(key)
          expect(outcome.ok ? outcome.value : undefined).toBeUndefined()
          if (outcome.ok) return
          expect(outcome.tag).toBe("UnexpectedStatus")
          expect(outcome.message).toContain("redirect")
          expect(outcome.message).toContain(`GET ${root.url}/graph/v1/paper/CorpusId:1`)
          expect(outcome.message).not.toContain(key)
        } finally {
          await root.close()
          await elsewhere.close()
        }
      },
      20_000
    )
  }
})
