/**
 * The page under test: bundled with esbuild and loaded in headless Chromium. Each scenario builds
 * `BrowserSemanticScholar.layer` (the Fetch API) against the API root the test gives it.
 */
import type { Options, S2Error } from "@s2-effect/core"
import { RetryPolicy, SemanticScholar } from "@s2-effect/core"
import { Effect, Exit, Fiber, Redacted, Stream } from "effect"
import { BrowserSemanticScholar } from "../../src/index.js"
import type { BrowserApi, Outcome } from "./protocol.js"

const run = <A>(
  options: Options,
  program: Effect.Effect<A, S2Error, SemanticScholar>
): Promise<Outcome<A>> => {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  return program.pipe(
    Effect.provide(BrowserSemanticScholar.layer(options)),
    Effect.match({
      onFailure: (e): Outcome<A> => ({ ok: false, tag: e._tag, message: e.message, elapsedMillis: elapsed() }),
      onSuccess: (value): Outcome<A> => ({ ok: true, value, elapsedMillis: elapsed() })
    }),
    Effect.runPromise
  )
}

const paperTitle = (paperId: string) =>
  Effect.flatMap(SemanticScholar, (s2) => s2.getPaper(paperId, { fields: ["title", "year"] }))

let inFlight: Fiber.Fiber<unknown, unknown> | undefined

const api: BrowserApi = {
  getPaper: ({ apiKey, apiUrl, paperId }) =>
    run(
      { apiUrl, retry: false, ...(apiKey === undefined ? {} : { apiKey: Redacted.make(apiKey) }) },
      Effect.map(paperTitle(paperId), (p) => ({ paperId: p.paperId, title: p.title ?? "" }))
    ),
  citations: ({ apiUrl, limit, paperId }) =>
    run(
      { apiUrl, retry: false },
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const all = yield* Stream.runCollect(s2.getPaperCitations(paperId, { fields: ["title"], limit }))
        const ids = all.map((c) => c.citingPaper.paperId ?? "")
        return { count: all.length, distinct: new Set(ids).size }
      })
    ),
  bulk: ({ apiUrl, query }) =>
    run(
      { apiUrl, retry: false },
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const pages = yield* Stream.runCollect(s2.searchPaperPages(query, { bulk: true, fields: ["title"] }))
        const ids = pages.flatMap((page) => page.data.map((p) => p.paperId))
        return {
          pageSizes: pages.map((page) => page.data.length),
          total: pages[0]?.total ?? 0,
          distinct: new Set(ids).size
        }
      })
    ),
  retried: ({ apiUrl, baseMillis, paperId }) =>
    run(
      { apiUrl, retry: RetryPolicy.make({ times: 3, base: `${baseMillis} millis`, cap: "2 seconds" }) },
      Effect.map(paperTitle(paperId), (p) => ({ title: p.title ?? "" }))
    ),
  timeout: ({ apiUrl, paperId, timeoutMillis }) =>
    run(
      { apiUrl, retry: false, timeout: `${timeoutMillis} millis` },
      Effect.map(paperTitle(paperId), (p) => ({ title: p.title ?? "" }))
    ),
  start: ({ apiUrl, paperId }) => {
    const fiber = paperTitle(paperId).pipe(
      Effect.provide(BrowserSemanticScholar.layer({ apiUrl, retry: false, timeout: "1 hour" })),
      Effect.runFork
    )
    inFlight = fiber
  },
  interrupt: () => {
    const fiber = inFlight
    if (fiber === undefined) return Promise.reject(new Error("interrupt: no request was started"))
    inFlight = undefined
    const at = performance.now()
    // v4's Fiber.interrupt answers void: the fiber's Exit comes from Fiber.await.
    return Effect.runPromise(Effect.map(Effect.andThen(Fiber.interrupt(fiber), Fiber.await(fiber)), (exit) => ({
      interrupted: Exit.hasInterrupts(exit),
      elapsedMillis: Math.round(performance.now() - at)
    })))
  }
}

window.s2browser = api
document.title = "s2-effect browser test: ready"
