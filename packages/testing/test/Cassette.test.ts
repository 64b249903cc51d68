/**
 * Record and replay: exchanges recorded against the emulator over HTTP replay with the emulator
 * gone, giving the same records and the same errors; the key is never written; a request that
 * was not recorded fails with the nearest recorded one, field by field.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it } from "@effect/vitest"
import type { Options } from "@s2-effect/core"
import { SemanticScholar } from "@s2-effect/core"
import { Cause, Effect, Exit, FileSystem, Layer, Option, Redacted, Stream } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import * as os from "node:os"
import * as nodePath from "node:path"
import { Cassette, Corpus, startEmulator } from "../src/index.js"

const corpus = Corpus.make({ seed: 3, size: 2000 })
const cited = Array.from({ length: corpus.size }, (_, i) => i).find((i) =>
  corpus.citationCount(i) > 5 && corpus.citationCount(i) < 40
)!
const secret = "cassette-secret-key-42"
const clientOptions = (apiUrl: string): Options => ({
  apiKey: Redacted.make(secret),
  apiUrl,
  rateLimit: false,
  retry: false
})

/** What a program does: a citations stream in pages of 3, a batch with an unknown id, a 404. */
const program = (fields: ReadonlyArray<"title" | "year"> = ["title"]) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const citations = yield* Stream.runCollect(
      s2.getPaperCitations(corpus.paper(cited).paperId, { fields: [...fields], limit: 3 })
    )
    const batch = yield* s2.getPapers([corpus.paper(1).paperId, "CorpusId:999999999"], {
      fields: ["title"],
      returnNotFound: true
    })
    const missing = yield* s2.getPaper("CorpusId:888888888", { fields: ["title"] }).pipe(
      Effect.match({ onFailure: (e) => e, onSuccess: () => expect.fail("CorpusId:888888888 should not exist") })
    )
    return {
      citations: citations.map((c) => c.raw),
      found: batch.found.map((p) => p.raw),
      notFound: batch.notFound,
      missing: { tag: missing._tag, status: "status" in missing ? missing.status : undefined, message: missing.message }
    }
  })

const tempCassette = Effect.map(
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.makeTempDirectoryScoped({ prefix: "s2-cassette-" })),
  (dir) => nodePath.join(dir, "nested", "exchanges.json")
)

describe("Cassette", () => {
  it.effect("records over HTTP, then replays with the emulator stopped: same records, same errors", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      // Record against the live emulator; its scope (and server) ends with this block.
      const { recorded, url } = yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* startEmulator({ corpus })
        const layer = SemanticScholar.layer(clientOptions(server.url)).pipe(
          Layer.provide(Cassette.layer({ path, mode: "record" })),
          Layer.provide(NodeHttpClient.layerUndici)
        )
        return { recorded: yield* Effect.provide(program(), layer), url: server.url }
      }))
      expect(recorded.citations.length).toBe(corpus.citationCount(cited))
      expect(recorded.notFound).toEqual(["CorpusId:999999999"])
      expect(recorded.missing).toMatchObject({ tag: "ObjectNotFound", status: 404 })

      // The emulator is gone: a request that reaches the network now fails.
      const direct = yield* Effect.exit(
        Effect.provide(
          program(),
          SemanticScholar.layer(clientOptions(url)).pipe(Layer.provide(NodeHttpClient.layerUndici))
        )
      )
      expect(Exit.isFailure(direct)).toBe(true)

      const replayed = yield* Effect.provide(
        program(),
        SemanticScholar.layer(clientOptions(url)).pipe(Layer.provide(Cassette.layer({ path, mode: "replay" })))
      )
      expect(replayed).toEqual(recorded)

      // Readable JSON, one entry per exchange, no key anywhere.
      const fs = yield* FileSystem.FileSystem
      const text = yield* fs.readFileString(path)
      expect(text).not.toContain(secret)
      expect(text.toLowerCase()).not.toContain("x-api-key")
      const file = JSON.parse(text) as Cassette.File
      const pages = Math.ceil(corpus.citationCount(cited) / 3)
      expect(file.entries.length).toBe(pages + 2)
      const notFound = file.entries.find((e) => e.response.status === 404)!
      expect(notFound.request).toMatchObject({ method: "GET", query: { fields: "title" } })
      const batch = file.entries.find((e) => e.request.method === "POST")!
      expect(batch.request.body).toEqual({ ids: [corpus.paper(1).paperId, "CorpusId:999999999"] })
      expect(batch.response.headers["content-type"]).toContain("application/json")
      // Stable order: pages of the stream in natural offset order.
      const offsets = file.entries.flatMap((e) => e.request.query["offset"] ?? []).map(Number)
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b))
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect("a changed query fails with the request and the nearest recorded one, field by field", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      const url = yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* startEmulator({ corpus })
        yield* Effect.provide(
          program(),
          SemanticScholar.layer(clientOptions(server.url)).pipe(
            Layer.provide(Cassette.layer({ path, mode: "record" })),
            Layer.provide(NodeHttpClient.layerUndici)
          )
        )
        return server.url
      }))
      const replay = (options: Omit<Cassette.Options<"replay">, "path" | "mode"> = {}) =>
        SemanticScholar.layer(clientOptions(url)).pipe(
          Layer.provide(Cassette.layer({ path, mode: "replay", ...options }))
        )

      const error = yield* Effect.flip(Effect.provide(program(["title", "year"]), replay()))
      expect(error._tag).toBe("TransportError")
      expect(error.message).toContain("no recorded exchange")
      expect(error.message).toContain(`nearest recorded: GET /graph/v1/paper/${corpus.paper(cited).paperId}/citations`)
      expect(error.message).toContain(`query.fields: requested "title,year", recorded "title"`)
      expect(error.message).toContain("method: same")
      expect(error.message).toContain("query.offset: same")

      // The typed error at the HttpClient level carries both requests.
      const exit = yield* Effect.exit(
        Effect.flatMap(
          HttpClient.HttpClient,
          (client) =>
            client.get(`${url}/graph/v1/paper/${corpus.paper(cited).paperId}/citations?fields=title&offset=0&limit=4`)
        ).pipe(
          Effect.provide(Cassette.layer({ path, mode: "replay" }))
        )
      )
      const failure = Exit.isFailure(exit) ? Option.getOrThrow(Cause.findErrorOption(exit.cause)) : undefined
      expect(failure?._tag).toBe("HttpClientError")
      expect(failure !== undefined && "reason" in failure ? failure.reason._tag : undefined).toBe("TransportError")
      const miss = (failure as { cause: Cassette.CassetteMiss }).cause
      expect(miss._tag).toBe("CassetteMiss")
      expect(miss.request.query).toEqual({ fields: "title", offset: "0", limit: "4" })
      expect(miss.nearest?.query).toEqual({ fields: "title", offset: "0", limit: "3" })
      expect(miss.differences).toContain(`  query.limit: requested "4", recorded "3"`)

      // Ignoring `fields` makes the changed program replay.
      const ignoring = yield* Effect.provide(program(["title", "year"]), replay({ ignoreQuery: ["fields"] }))
      expect(ignoring.notFound).toEqual(["CorpusId:999999999"])
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect("auto replays what it has and records what it lacks; replay of a missing file fails", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      const missing = yield* Effect.flip(
        Effect.provide(HttpClient.HttpClient, Cassette.layer({ path, mode: "replay" }))
      )
      expect(missing._tag).toBe("CassetteFileError")
      expect(missing.message).toContain("does not exist")

      const runAuto = (paperIndex: number) =>
        Effect.scoped(Effect.gen(function*() {
          const server = yield* startEmulator({ corpus })
          const s2 = SemanticScholar.layer(clientOptions(server.url)).pipe(
            Layer.provide(Cassette.layer({ path, mode: "auto" })),
            Layer.provide(NodeHttpClient.layerUndici)
          )
          const paper = yield* Effect.provide(
            Effect.flatMap(SemanticScholar, (s) => s.getPaper(corpus.paper(paperIndex).paperId, { fields: ["title"] })),
            s2
          )
          return { title: paper.title, served: (yield* server.requests).length }
        }))
      expect(yield* runAuto(5)).toEqual({ title: corpus.paper(5).title, served: 1 })
      // Again: answered from the cassette, the server sees nothing.
      expect(yield* runAuto(5)).toEqual({ title: corpus.paper(5).title, served: 0 })
      expect(yield* runAuto(6)).toEqual({ title: corpus.paper(6).title, served: 1 })
      const file = JSON.parse(yield* (yield* FileSystem.FileSystem).readFileString(path)) as Cassette.File
      expect(file.entries.map((e) => e.request.path)).toEqual([
        `/graph/v1/paper/${corpus.paper(5).paperId}`,
        `/graph/v1/paper/${corpus.paper(6).paperId}`
      ].sort())
    }).pipe(Effect.provide(NodeFileSystem.layer)))

  it.effect("a key the server echoes back is written as <redacted>, and request headers never", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      const echo = HttpClient.make((request) =>
        Effect.succeed(HttpClientResponse.fromWeb(
          request,
          new Response(JSON.stringify({ message: `bad key ${request.headers["x-api-key"]}` }), { status: 403 })
        ))
      )
      const error = yield* Effect.flip(
        Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1")).pipe(
          Effect.provide(SemanticScholar.layer({ apiKey: Redacted.make(secret), retry: false })),
          Effect.provide(Cassette.layer({ path, mode: "record" })),
          Effect.provideService(HttpClient.HttpClient, echo)
        )
      )
      expect(error._tag).toBe("Forbidden")
      const text = yield* (yield* FileSystem.FileSystem).readFileString(path)
      expect(text).not.toContain(secret)
      expect(text).toContain("bad key <redacted>")
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("successive identical requests replay successive answers (a 429 then its retry)", () =>
    Effect.gen(function*() {
      const path = nodePath.join(os.tmpdir(), `s2-cassette-seq-${process.pid}.json`)
      const fs = yield* FileSystem.FileSystem
      const request = { method: "GET", path: "/graph/v1/paper/abc", query: { fields: "title" } }
      const file: Cassette.File = {
        version: 1,
        entries: [
          {
            request,
            response: { status: 429, headers: { "retry-after": "1" }, body: { message: "Too Many Requests" } }
          },
          { request, response: { status: 200, headers: {}, body: { paperId: "abc", title: "T" } } }
        ]
      }
      yield* fs.writeFileString(path, JSON.stringify(file))
      const statuses = yield* Effect.flatMap(
        HttpClient.HttpClient,
        (client) =>
          Effect.forEach(
            [1, 2, 3],
            () =>
              Effect.map(client.get("https://api.semanticscholar.org/graph/v1/paper/abc?fields=title"), (r) => r.status)
          )
      ).pipe(
        Effect.provide(Cassette.layer({ path, mode: "replay" }))
      )
      yield* fs.remove(path)
      expect(statuses).toEqual([429, 200, 200])
    }).pipe(Effect.provide(NodeFileSystem.layer)))
})
