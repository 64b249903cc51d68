import { describe, expect, it } from "@effect/vitest"
import { RetryPolicy, SemanticScholar } from "@s2-effect/core"
import { Faults, startEmulator } from "@s2-effect/testing"
import { ConfigProvider, Effect, Layer, Redacted, Stream } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { NodeSemanticScholar } from "../src/index.js"

interface Hit {
  readonly method: string
  readonly url: string
  readonly key: string | undefined
  readonly port: number
  readonly body: string
}

/** A real HTTP server on 127.0.0.1 that answers like the Graph API, closed with the scope. */
const server = Effect.acquireRelease(
  Effect.callback<{ readonly url: string; readonly hits: Array<Hit>; readonly server: Http.Server }>((resume) => {
    const hits: Array<Hit> = []
    const srv = Http.createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        const key = req.headers["x-api-key"]
        hits.push({
          method: req.method ?? "",
          url: req.url ?? "",
          key: typeof key === "string" ? key : undefined,
          port: req.socket.remotePort ?? 0,
          body
        })
        const url = new URL(req.url ?? "/", "http://x")
        const send = (status: number, value: unknown) => {
          res.writeHead(status, { "content-type": "application/json" })
          res.end(JSON.stringify(value) + "\n")
        }
        if (url.pathname === "/graph/v1/paper/CorpusId:404") {
          return send(404, { error: "Paper with id CorpusId:404 not found" })
        }
        if (url.pathname.startsWith("/graph/v1/paper/batch")) {
          const ids: Array<string> = JSON.parse(body).ids
          return send(200, ids.map((id, i) => ({ paperId: String(i).padStart(40, "0"), title: id })))
        }
        if (url.pathname.endsWith("/citations")) {
          const offset = Number(url.searchParams.get("offset"))
          return send(200, {
            offset,
            ...(offset < 20 ? { next: offset + 10 } : {}),
            data: Array.from({ length: 10 }, (_, i) => ({ citingPaper: { paperId: null, title: `c${offset + i}` } }))
          })
        }
        return send(200, { paperId: "f".repeat(40), title: `paper at ${url.pathname}` })
      })
    })
    srv.listen(
      0,
      "127.0.0.1",
      () =>
        resume(Effect.succeed({ url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, hits, server: srv }))
    )
  }),
  ({ server }) =>
    Effect.callback<void>((resume) => {
      server.close(() => resume(Effect.void))
    })
)

describe("NodeSemanticScholar over a real local HTTP server", () => {
  it.live("layerConfig reads S2_API_URL and S2_API_KEY; lookups, batches and streams work end to end", () =>
    Effect.gen(function*() {
      const { hits, url } = yield* server
      const provider = ConfigProvider.fromEnv({ env: { S2_API_URL: url, S2_API_KEY: "node-key" } })
      const layer = NodeSemanticScholar.layerConfig({ rateLimit: false }).pipe(
        Layer.provide(ConfigProvider.layer(provider))
      )
      yield* Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const paper = yield* s2.getPaper("10.1093/mind/lix.236.433", { fields: ["title"] })
        expect(paper.title).toBe("paper at /graph/v1/paper/10.1093/mind/lix.236.433")
        const papers = yield* s2.getPapers(["CorpusId:1", "CorpusId:2"], { fields: ["title"] })
        expect(papers.map((p) => p.title)).toEqual(["CorpusId:1", "CorpusId:2"])
        const citing = yield* Stream.runCollect(s2.getPaperCitations("CorpusId:1", { fields: ["title"], limit: 10 }))
        expect(citing.length).toBe(30)
        const missing = yield* Effect.flip(s2.getPaper("CorpusId:404"))
        expect(missing._tag).toBe("ObjectNotFound")
        expect(missing.status).toBe(404)
      }).pipe(Effect.provide(layer))
      expect(hits.map((h) => h.key)).toEqual(Array(hits.length).fill("node-key"))
      expect(hits[1]?.body).toBe("{\"ids\":[\"CorpusId:1\",\"CorpusId:2\"]}")
      // Keep-alive: six sequential requests share the pool's connections (undici opens a second for POST).
      expect(hits).toHaveLength(6)
      expect(new Set(hits.map((h) => h.port)).size).toBeLessThanOrEqual(2)
    }))

  it.live("a user name or password in S2_API_URL or apiUrl is refused before any request, and never shown", () =>
    Effect.gen(function*() {
      const { hits, url } = yield* server
      const withPassword = url.replace("http://", "http://someone:hunter2secret@")
      const fromEnv = NodeSemanticScholar.layerConfig({ rateLimit: false }).pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { S2_API_URL: withPassword } })))
      )
      const inCode = NodeSemanticScholar.layer({ apiUrl: withPassword, rateLimit: false })
      for (const layer of [fromEnv, inCode]) {
        const error = yield* Effect.flip(Layer.build(layer).pipe(Effect.scoped))
        if (error._tag !== "InvalidOptions") return expect.unreachable(String(error))
        expect(error.option).toBe("apiUrl")
        expect(error.message).toContain(`apiUrl "http://***@127.0.0.1:`)
        expect(error.message).toContain("has a user name or password")
        expect(JSON.stringify(error)).not.toMatch(/someone|hunter2/)
      }
      expect(hits).toEqual([])
    }))

  it.live("layer takes options in code; a refused connection is a TransportError", () =>
    Effect.gen(function*() {
      const { server: srv, url } = yield* server
      yield* Effect.callback<void>((resume) => {
        srv.close(() => resume(Effect.void))
      })
      const error = yield* Effect.flatMap(SemanticScholar, (s2) => Effect.flip(s2.getPaper("CorpusId:1"))).pipe(
        Effect.provide(NodeSemanticScholar.layer({ apiUrl: url, apiKey: Redacted.make("k"), retry: false }))
      )
      expect(error._tag).toBe("TransportError")
      expect(error._tag === "TransportError" && error.reason).toBe("refused")
      expect(error.message).toContain(`connection refused by ${url.replace("http://", "")}`)
      expect(error.message).toContain(`GET ${url}/graph/v1/paper/CorpusId:1`)
      expect(JSON.stringify(error)).not.toContain("\"k\"")
    }))

  it.live("a host that does not resolve, a reset and a body cut short are told apart", () =>
    Effect.gen(function*() {
      const emulator = yield* startEmulator({ seed: 3, size: 100 })
      yield* emulator.setFaults({
        script: [
          { route: "/paper/search/bulk", requests: 1, fault: Faults.reset },
          { route: "/paper/search/bulk", requests: 2, fault: Faults.truncate(0.5) }
        ]
      })
      const once = (apiUrl: string) =>
        Effect.flatMap(
          SemanticScholar,
          (s2) => Effect.flip(Stream.runDrain(s2.searchPaper("", { bulk: true, fields: ["title"] })))
        ).pipe(Effect.provide(NodeSemanticScholar.layer({ apiUrl, rateLimit: false, retry: false })))
      const reset = yield* once(emulator.url)
      const cut = yield* once(emulator.url)
      const nowhere = yield* once("http://no-such-host.invalid")
      const port = emulator.url.replace(/^http:\/\/[^:]+:/, "")
      expect([reset, cut, nowhere].map((e) => e._tag === "TransportError" ? e.reason : e._tag)).toEqual([
        "reset",
        "cutShort",
        "hostNotFound"
      ])
      expect(reset.message).toContain(`connection reset by 127.0.0.1:${port}`)
      expect(cut.message).toMatch(new RegExp(`body cut short by 127.0.0.1:${port}|was it cut short`))
      expect(nowhere.message).toContain("host not found: no-such-host.invalid")
    }))

  it.live("a body cut short or a reset connection is retried: the harvest is the fault-free one", () =>
    Effect.gen(function*() {
      const emulator = yield* startEmulator({ seed: 3, size: 1000, bulkSize: 5000 })
      const harvest = Effect.flatMap(
        SemanticScholar,
        (s2) => Stream.runCollect(s2.searchPaper("", { bulk: true, fields: ["title"] }))
      ).pipe(
        // No waits between attempts: this is about the body reader seeing the faults, not timing.
        Effect.provide(NodeSemanticScholar.layer({
          apiUrl: emulator.url,
          rateLimit: false,
          retry: RetryPolicy.make({ base: "0 millis" })
        }))
      )
      const clean = yield* harvest
      yield* emulator.setFaults({
        script: [
          { route: "/paper/search/bulk", requests: 2, fault: Faults.truncate(0.5) },
          { route: "/paper/search/bulk", requests: 4, fault: Faults.reset },
          { route: "/paper/search/bulk", requests: 6, fault: Faults.truncate(0.9) }
        ]
      })
      const faulty = yield* harvest
      expect(clean.length).toBe(5000)
      expect(faulty.map((p) => p.paperId)).toEqual(
        clean.map((p) => p.paperId)
      )
      // Five pages each time; the second harvest needed three more attempts, one per fault.
      const outcomes = (yield* emulator.requests).map((r) => r.outcome)
      expect(outcomes).toHaveLength(13)
      expect(outcomes.filter((o) => o === "reset")).toHaveLength(1)
    }))
})
