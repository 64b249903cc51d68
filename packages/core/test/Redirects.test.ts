/**
 * The API's redirects are never followed, whatever the platform client: the key goes to the API
 * root only. undici hands a 3xx back as it is; `fetch` follows by default, so the transport asks a
 * fetch-based client for `redirect: "manual"`, and a browser's opaque answer to that is a typed error.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as http from "node:http"
import { SemanticScholar } from "../src/index.js"

const key = "redirect-key-0123456789"

interface Seen {
  readonly path: string
  readonly key: string | undefined
}

/** A server on 127.0.0.1 (an origin of its own) recording each request's path and key. */
const server = (answer: (path: string, res: http.ServerResponse) => void) => {
  const seen: Array<Seen> = []
  const listening = http.createServer((req, res) => {
    const sent = req.headers["x-api-key"]
    seen.push({ path: req.url ?? "/", key: Array.isArray(sent) ? sent.join() : sent })
    answer(req.url ?? "/", res)
  })
  return { listening, seen }
}

const url = (s: http.Server) => {
  const address = s.address()
  if (address === null || typeof address === "string") throw new Error("no TCP port")
  return `http://127.0.0.1:${address.port}`
}

const elsewhere = server((_, res) => {
  res.writeHead(200, { "content-type": "application/json" })
  res.end(JSON.stringify({ paperId: "stolen", title: "the other host's answer" }))
})
const root = server((path, res) => {
  res.writeHead(Number(/(\d{3})$/.exec(path.split("?")[0]!)?.[1] ?? 307), {
    location: `${url(elsewhere.listening)}${path}`
  })
  res.end()
})

beforeAll(async () => {
  for (const { listening } of [root, elsewhere]) {
    await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve))
  }
})
afterAll(async () => {
  for (const { listening } of [root, elsewhere]) {
    listening.closeAllConnections()
    await new Promise((resolve) => listening.close(resolve))
  }
})

/** The client over fetch, as on Deno, Bun, workers or Node without undici's client. */
const overFetch = (apiUrl: string) =>
  SemanticScholar.layer({ apiUrl, apiKey: Redacted.make(key), retry: false }).pipe(
    Layer.provide(FetchHttpClient.layer)
  )

describe("the API's redirects over fetch", () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it.effect(`Node's fetch: a ${status} to another origin is not followed, and names where it pointed`, () =>
      Effect.gen(function*() {
        const before = elsewhere.seen.length
        const s2 = yield* SemanticScholar
        const error = yield* Effect.flip(s2.getPaper(`CorpusId:${status}`))
        expect(elsewhere.seen.slice(before)).toEqual([])
        expect(root.seen.at(-1)).toEqual({ path: expect.stringContaining(`/paper/CorpusId:${status}?`), key })
        expect(error._tag).toBe("UnexpectedStatus")
        expect(error.status).toBe(status)
        expect(error.message).toContain(`a redirect to ${new URL(url(elsewhere.listening)).host}`)
        expect(error.message).not.toContain(key)
      }).pipe(Effect.provide(Layer.unwrap(Effect.sync(() => overFetch(url(root.listening)))))))
  }

  it.effect("a fetch's own options are kept; only `redirect` is set to manual", () =>
    Effect.gen(function*() {
      const asked: Array<RequestInit | undefined> = []
      const fetch: typeof globalThis.fetch = (input, init) => {
        asked.push(init)
        return globalThis.fetch(input, init)
      }
      const s2 = yield* SemanticScholar
      yield* Effect.flip(s2.getPaper("CorpusId:307")).pipe(
        Effect.provideService(FetchHttpClient.Fetch, fetch),
        Effect.provideService(FetchHttpClient.RequestInit, { cache: "no-store", redirect: "follow" })
      )
      expect(asked.map((init) => [init?.redirect, init?.cache])).toEqual([["manual", "no-store"]])
    }).pipe(Effect.provide(Layer.unwrap(Effect.sync(() => overFetch(url(root.listening)))))))

  it.effect("a browser's opaque redirect (status 0) is an UnexpectedStatus saying so, not a lost request", () =>
    Effect.gen(function*() {
      // What Chromium answers to `redirect: "manual"` (the real one is tested in @s2-effect/browser).
      const opaque: typeof globalThis.fetch = () => {
        const response = new Response(null, { status: 200 })
        Object.defineProperty(response, "status", { value: 0 })
        Object.defineProperty(response, "type", { value: "opaqueredirect" })
        return Promise.resolve(response)
      }
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(
        s2.getPaper("CorpusId:1").pipe(Effect.provideService(FetchHttpClient.Fetch, opaque))
      )
      expect(error._tag).toBe("UnexpectedStatus")
      expect(error.status).toBe(0)
      expect(error.message).toContain("GET https://api.test/graph/v1/paper/CorpusId:1?")
      expect(error.message).toContain("a redirect whose status and location the browser does not reveal")
      expect(error.message).toContain("does not follow redirects from the API")
    }).pipe(Effect.provide(overFetch("https://api.test"))))
})
