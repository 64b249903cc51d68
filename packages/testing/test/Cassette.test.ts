/**
 * Record and replay: exchanges recorded against the emulator over HTTP replay with the emulator
 * gone, giving the same records and the same errors; the key is never written; a request that
 * was not recorded fails with the nearest recorded one, field by field.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it } from "@effect/vitest"
import type { Options } from "@s2-effect/core"
import { RetryPolicy, SemanticScholar } from "@s2-effect/core"
import * as Loop from "@s2-effect/test-support"
import { Cause, Duration, Effect, Exit, FileSystem, Layer, Option, PlatformError, Redacted, Stream } from "effect"
import { Base64, Base64Url } from "effect/encoding"
import { HttpClient, HttpClientResponse } from "effect/http"
import * as fc from "fast-check"
import * as Nfs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"
import { Cassette, Corpus, startEmulator } from "../src/index.js"
import { serialize } from "../src/internal/cassette.js"

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

  it.effect("a key the server echoes in another case, percent-encoded or as HTML references is never written", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      // Punctuation JSON escapes, so the JSON-escaped form of the key is a form of its own too.
      const key = `Cassette"Secret\\Key-42`
      const code = (c: string) => c.codePointAt(0)!
      const hex = (c: string) => code(c).toString(16).toUpperCase().padStart(2, "0")
      const forms = [
        key,
        JSON.stringify(key).slice(1, -1),
        key.toUpperCase(),
        key.toLowerCase(),
        [...key.toUpperCase()].map((c) => `%${hex(c)}`).join(""),
        [...key].map((c) => `%${hex(c).toLowerCase()}`).join(""),
        [...key].map((c) => `&#${code(c)};`).join(""),
        [...key.toLowerCase()].map((c) => `&#x${hex(c)};`).join("")
      ]
      const echoed = forms.map((form, i) => `form ${i}: ${form}`).join("; ")
      const echo = HttpClient.make((request, url) =>
        Effect.succeed(HttpClientResponse.fromWeb(
          request,
          new Response(
            decodeURIComponent(url.pathname).endsWith("CorpusId:1") ? echoed : JSON.stringify({ message: echoed }),
            {
              status: 403,
              // The second answer's location decodes to a line break next to the key.
              headers: {
                location: decodeURIComponent(url.pathname).endsWith("CorpusId:1")
                  ? `https://example.org/retry?key=${forms[4]}&again=${forms[6]}`
                  : `https://example.org/retry?key=${forms[5]}%0Anext`
              }
            }
          )
        ))
      )
      for (const id of ["CorpusId:1", "CorpusId:2"]) {
        const error = yield* Effect.flip(
          Effect.flatMap(SemanticScholar, (s2) => s2.getPaper(id)).pipe(
            Effect.provide(SemanticScholar.layer({ apiKey: Redacted.make(key), retry: false })),
            Effect.provide(Cassette.layer({ path, mode: "record" })),
            Effect.provideService(HttpClient.HttpClient, echo)
          )
        )
        expect(error._tag).toBe("Forbidden")
      }
      const text = yield* (yield* FileSystem.FileSystem).readFileString(path)
      for (const form of forms) expect(text).not.toContain(form)
      expect(text.toLowerCase()).not.toContain(key.toLowerCase())
      const file = JSON.parse(text) as Cassette.File
      expect(file.entries).toHaveLength(2)
      expect(file.entries.map((e) => e.response.headers["location"])).toEqual([
        "https://example.org/retry?key=<redacted>&again=<redacted>",
        "<redacted>"
      ])
      for (const { response } of file.entries) {
        const body = response.bodyText ?? (response.body as { message: string }).message
        expect(body).toContain("form 0: <redacted>; form 1: <redacted>")
        expect(body).toContain("form 7: <redacted>")
      }
      // The file reads back: both answers replay as recorded.
      for (const id of ["CorpusId:1", "CorpusId:2"]) {
        const replayed = yield* Effect.flip(
          Effect.flatMap(SemanticScholar, (s2) => s2.getPaper(id)).pipe(
            Effect.provide(SemanticScholar.layer({ apiKey: Redacted.make(key), retry: false })),
            Effect.provide(Cassette.layer({ path, mode: "replay" }))
          )
        )
        expect(replayed._tag).toBe("Forbidden")
      }
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("a key the server echoes base64- or base64url-encoded, in a body or a header, is never written", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      // Bytes that base64 writes with `+` and `/` (base64url with `-` and `_`), and a key not a multiple of 3 long.
      const key = "Cassette~Key?>>-4"
      const basic = Base64.encode(`user:${key}`)
      const forms = [Base64.encode(key), Base64Url.encode(key), Base64.encode(key).replace(/=+$/, ""), basic]
      const echo = HttpClient.make((request) =>
        Effect.succeed(HttpClientResponse.fromWeb(
          request,
          new Response(JSON.stringify({ message: `bad key ${forms.join(" ")}` }), {
            status: 403,
            headers: { location: `https://example.org/retry?auth=${basic}&key=${forms[1]}` }
          })
        ))
      )
      const error = yield* Effect.flip(
        Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1")).pipe(
          Effect.provide(SemanticScholar.layer({ apiKey: Redacted.make(key), retry: false })),
          Effect.provide(Cassette.layer({ path, mode: "record" })),
          Effect.provideService(HttpClient.HttpClient, echo)
        )
      )
      expect(error._tag).toBe("Forbidden")
      const text = yield* (yield* FileSystem.FileSystem).readFileString(path)
      expect(new Set(forms).size).toBe(4)
      for (const form of forms) expect(text).not.toContain(form)
      // Of `user:key`, what stays is what encodes `user:` and the key's edges (bits shared with neighbours).
      const file = JSON.parse(text) as Cassette.File
      expect(file.entries[0]!.response.headers["location"]).toMatch(
        /^https:\/\/example\.org\/retry\?auth=dXNlcjp.?<redacted>.?=*&key=<redacted>$/
      )
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it("a key written in any mix of case, percent-encoding and HTML references, in any string of an entry, is never in the file", () =>
    fc.assert(
      fc.property(
        // API keys are letters and digits (dashes, underscores here too); a key that reads as an escape (`%41`) is not one.
        fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/),
        fc.array(fc.oneof(fc.stringMatching(/^[a-z ,.:=/?]{0,12}$/), fc.constant(null)), {
          minLength: 1,
          maxLength: 6
        }),
        fc.infiniteStream(fc.integer({ min: 0, max: 5 })),
        (key, parts, choices) => {
          const spell = (c: string): string => {
            const code = c.charCodeAt(0)
            const hex = code.toString(16).padStart(2, "0")
            return [c, c.toUpperCase(), c.toLowerCase(), `%${hex.toUpperCase()}`, `&#${code};`, `&#x${hex};`][
              choices.next().value
            ]!
          }
          // Each null is the key, each of its characters written one of six ways.
          const text = parts.map((part) => part ?? [...key].map(spell).join("")).join("")
          const entry: Cassette.Entry = {
            request: { method: "GET", path: `/graph/v1/paper/${text}`, query: { q: text } },
            response: { status: 403, headers: { location: `https://example.org/?${text}` }, body: { [text]: [text] } }
          }
          const { body: _, ...textResponse } = entry.response
          const written = serialize([entry, { ...entry, response: { ...textResponse, bodyText: text } }], [key])
          const file = JSON.parse(written) as Cassette.File
          expect(file.entries).toHaveLength(2)
          const shown = decodeURIComponent(
            written.replace(/&#x([0-9a-f]+);/gi, (_, h: string) => `%${h.padStart(2, "0")}`)
              .replace(/&#(\d+);/g, (_, d: string) => `%${Number(d).toString(16).padStart(2, "0")}`)
              .replace(/%(?![0-9a-f]{2})/gi, "%25")
          )
          expect(shown.toLowerCase()).not.toContain(key.toLowerCase())
        }
      )
    ))

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

/** A loopback API answering with `handler`, for the duration of the scope. */
const loopback = (handler: Loop.Handler) =>
  Effect.acquireRelease(Effect.promise(() => Loop.serve(handler)), (server) => Effect.promise(() => server.close()))

/** The client over a cassette over undici, retries as given (default none). */
const recorder = (path: string, mode: Cassette.Mode, options: Options) =>
  SemanticScholar.layer({ rateLimit: false, retry: false, ...options }).pipe(
    Layer.provide(Cassette.layer({ path, mode })),
    Layer.provide(NodeHttpClient.layerUndici)
  )

const getPaper = (id = "CorpusId:1") => Effect.flatMap(SemanticScholar, (s2) => s2.getPaper(id, { fields: ["title"] }))

/** The error of a failed call, or a defect made to fail the test. */
const errorOf = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.exit(self), (exit) =>
    Exit.isSuccess(exit)
      ? Effect.die(new Error("expected a failure"))
      : Option.match(Cause.findErrorOption(exit.cause), {
        onNone: () => Effect.die(new Error(`expected a typed error, got ${Cause.pretty(exit.cause)}`)),
        onSome: Effect.succeed
      }))

/** The chain of `cause`s of an error, outermost first. */
const causes = (error: unknown): Array<unknown> => {
  const out: Array<unknown> = []
  for (let e = error; typeof e === "object" && e !== null && out.length < 10; e = (e as { cause?: unknown }).cause) {
    out.push(e)
  }
  return out
}

describe("Cassette against hostile servers and files", () => {
  it.live("records through the client's bound: a body over maxResponseBytes is a ProtocolError, not read on", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      let sent = 0
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      // 96 MB, chunked (no content-length), written only as fast as the client reads.
      const server = yield* loopback((_seen, _index, res) => {
        res.writeHead(200, { "content-type": "application/json" })
        const pump = () => {
          while (sent < 96 * 1024 * 1024 && !res.destroyed) {
            sent += chunk.length
            if (!res.write(chunk)) return void res.once("drain", pump)
          }
          res.end()
        }
        res.on("error", () => {})
        pump()
        return undefined
      })
      const options = { apiUrl: server.url, maxResponseBytes: 1024 * 1024 }
      const recorded = yield* errorOf(Effect.provide(getPaper(), recorder(path, "record", options)))
      expect(recorded).toMatchObject({ _tag: "ProtocolError", reason: "tooLarge" })
      // The client stopped reading at the bound: the server got to send little more than socket buffers hold.
      expect(sent).toBeLessThan(24 * 1024 * 1024)
      const fs = yield* FileSystem.FileSystem
      const file = JSON.parse(yield* fs.readFileString(path)) as Cassette.File
      expect(file.entries).toHaveLength(1)
      expect(file.entries[0]!.response.truncated).toBeGreaterThan(1024 * 1024)
      expect((yield* fs.stat(path)).size).toBeLessThan(256 * 1024)
      // The replay fails the same way, from a cassette that holds only the start of the body.
      const replayed = yield* errorOf(Effect.provide(getPaper(), recorder(path, "replay", options)))
      expect(replayed).toMatchObject({ _tag: "ProtocolError", reason: "tooLarge" })
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.live("a body read only in part keeps no part of a key the server echoed, even where it is cut", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      // Over the bound; the key straddles the 64 KB a cassette keeps of a body read in part.
      const server = yield* loopback((seen) => ({
        text: `${"x".repeat(64 * 1024 - 10)}${String(seen.headers["x-api-key"])}${"y".repeat(2 * 1024 * 1024)}`
      }))
      const options = { apiUrl: server.url, apiKey: Redacted.make(secret), maxResponseBytes: 1024 * 1024 }
      const recorded = yield* errorOf(Effect.provide(getPaper(), recorder(path, "record", options)))
      expect(recorded).toMatchObject({ _tag: "ProtocolError", reason: "tooLarge" })
      const text = yield* (yield* FileSystem.FileSystem).readFileString(path)
      expect(text).toContain("xxxxxxxx")
      expect(text).not.toContain(secret.slice(0, 6))
      const replayed = yield* errorOf(Effect.provide(getPaper(), recorder(path, "replay", options)))
      expect(replayed).toMatchObject({ _tag: "ProtocolError", reason: "tooLarge" })
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.live("a body the time-out interrupts is not recorded as an answer", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      // Headers and the start of a body, then nothing.
      const server = yield* loopback((_seen, _index, res) => {
        res.writeHead(200, { "content-type": "application/json" })
        res.write(`{"paperId":"p1","title":"`)
        return undefined
      })
      const options = { apiUrl: server.url, timeout: Duration.millis(300) }
      const recorded = yield* errorOf(Effect.provide(getPaper(), recorder(path, "record", options)))
      expect(recorded._tag).toBe("Timeout")
      const fs = yield* FileSystem.FileSystem
      expect(yield* fs.exists(path)).toBe(false)
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.live("a recorded 429 then 200 replays in order, retried as recorded", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      const server = yield* loopback((_seen, index) =>
        index === 0
          ? { status: 429, headers: { "retry-after": "0" }, json: { message: "Too Many Requests" } }
          : { json: { paperId: "p1", title: "After the retry" } }
      )
      const retry = RetryPolicy.make({ base: "1 millis", cap: "1 millis" })
      const options = { apiUrl: server.url, retry }
      const live = yield* Effect.provide(getPaper(), recorder(path, "record", options))
      expect(live.title).toBe("After the retry")
      expect(server.requests).toHaveLength(2)
      const file = JSON.parse(yield* (yield* FileSystem.FileSystem).readFileString(path)) as Cassette.File
      expect(file.entries.map((e) => e.response.status)).toEqual([429, 200])
      const replayed = yield* Effect.provide(getPaper(), recorder(path, "replay", options))
      expect(replayed.title).toBe("After the retry")
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.live("auto records a 429 and its retry's 200 as sent, then replays them in order", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      const server = yield* loopback((_seen, index) =>
        index === 0
          ? { status: 429, headers: { "retry-after": "0" }, json: { message: "Too Many Requests" } }
          : { json: { paperId: "p1", title: "After the retry" } }
      )
      const options = { apiUrl: server.url, retry: RetryPolicy.make({ base: "1 millis", cap: "1 millis" }) }
      // The retry goes to the server, not to the 429 this run just recorded.
      expect((yield* Effect.provide(getPaper(), recorder(path, "auto", options))).title).toBe("After the retry")
      expect(server.requests).toHaveLength(2)
      expect((yield* Effect.provide(getPaper(), recorder(path, "auto", options))).title).toBe("After the retry")
      expect(server.requests).toHaveLength(2)
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.live("a status of 600 or 999 is UnexpectedStatus when recorded and when replayed, as without a cassette", () =>
    Effect.gen(function*() {
      for (const status of [600, 999]) {
        const path = yield* tempCassette
        const server = yield* loopback(() => ({ status, text: "odd" }))
        const options = { apiUrl: server.url }
        const plain = yield* errorOf(
          Effect.provide(
            getPaper(),
            SemanticScholar.layer({ rateLimit: false, retry: false, ...options }).pipe(
              Layer.provide(NodeHttpClient.layerUndici)
            )
          )
        )
        expect(plain).toMatchObject({ _tag: "UnexpectedStatus", status })
        const recorded = yield* errorOf(Effect.provide(getPaper(), recorder(path, "record", options)))
        expect(recorded).toMatchObject({ _tag: "UnexpectedStatus", status })
        const replayed = yield* errorOf(Effect.provide(getPaper(), recorder(path, "replay", options)))
        expect(replayed).toMatchObject({ _tag: "UnexpectedStatus", status })
      }
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("a cassette edited to a status no server sends, or a header name HTTP cannot carry, is a CassetteFileError naming the entry", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const path = yield* tempCassette
      yield* fs.makeDirectory(nodePath.dirname(path), { recursive: true })
      const request = { method: "GET", path: "/graph/v1/paper/CorpusId:1", query: { fields: "title" } }
      const good = { request, response: { status: 200, headers: {}, body: { paperId: "p1" } } }
      const cases: ReadonlyArray<readonly [Cassette.RecordedResponse, string]> = [
        [{ status: 0, headers: {} }, "status 0"],
        [{ status: 101, headers: {} }, "status 101"],
        [{ status: 1000, headers: {} }, "status 1000"],
        [{ status: 200, headers: { "bad name": "x" } }, `header name "bad name"`],
        [{ status: 200, headers: { "x-ok": "a\r\nb" } }, `header x-ok`]
      ]
      for (const [response, named] of cases) {
        yield* fs.writeFileString(path, JSON.stringify({ version: 1, entries: [good, { request, response }] }))
        const error = yield* Effect.flip(
          Effect.provide(HttpClient.HttpClient, Cassette.layer({ path, mode: "replay" }))
        )
        expect(error._tag).toBe("CassetteFileError")
        expect(error.path).toBe(path)
        expect(error.message).toContain(`cassette ${path} entries[1]`)
        expect(error.message).toContain(named)
      }
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("a write that fails (a full disk) is a typed error carrying a CassetteFileError, not a defect", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      const full = PlatformError.systemError({
        _tag: "Unknown",
        module: "FileSystem",
        method: "writeFile",
        description: "ENOSPC: no space left on device"
      })
      const fullDisk = Layer.effect(
        FileSystem.FileSystem,
        Effect.map(FileSystem.FileSystem, (fs) =>
          FileSystem.FileSystem.of({
            ...fs,
            writeFile: () => Effect.fail(full),
            writeFileString: () => Effect.fail(full)
          }))
      ).pipe(Layer.provide(NodeFileSystem.layer))
      const answer = HttpClient.make((request) =>
        Effect.succeed(HttpClientResponse.fromWeb(request, Response.json({ paperId: "p1", title: "T" })))
      )
      const error = yield* errorOf(
        getPaper().pipe(
          Effect.provide(SemanticScholar.layer({ retry: false, rateLimit: false })),
          Effect.provide(Cassette.layer({ path, mode: "record" })),
          Effect.provideService(HttpClient.HttpClient, answer),
          Effect.provide(fullDisk)
        )
      )
      expect(error._tag).toBe("TransportError")
      const cause = causes(error).find((e) => (e as { _tag?: string })._tag === "CassetteFileError")
      expect(cause).toBeInstanceOf(Cassette.CassetteFileError)
      expect((cause as Cassette.CassetteFileError).message).toContain(`cassette ${path} cannot be written`)
      expect((cause as Cassette.CassetteFileError).message).toContain("no space left on device")
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("a symlink planted at a temporary name is not followed; the cassette is written as a file", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      const dir = nodePath.dirname(path)
      const fs = yield* FileSystem.FileSystem
      yield* fs.makeDirectory(dir, { recursive: true })
      const victim = nodePath.join(dir, "victim.txt")
      yield* fs.writeFileString(victim, "precious\n")
      yield* fs.symlink(victim, `${path}.tmp`)
      const answer = HttpClient.make((request) =>
        Effect.succeed(HttpClientResponse.fromWeb(request, Response.json({ paperId: "p1", title: "T" })))
      )
      const paper = yield* getPaper().pipe(
        Effect.provide(SemanticScholar.layer({ retry: false, rateLimit: false })),
        Effect.provide(Cassette.layer({ path, mode: "record" })),
        Effect.provideService(HttpClient.HttpClient, answer)
      )
      expect(paper.title).toBe("T")
      expect(yield* fs.readFileString(victim)).toBe("precious\n")
      expect(Nfs.lstatSync(path).isFile()).toBe(true)
      expect((JSON.parse(yield* fs.readFileString(path)) as Cassette.File).entries).toHaveLength(1)
      // Nothing left behind but what the test planted.
      expect((yield* fs.readDirectory(dir)).sort()).toEqual(
        [nodePath.basename(path), `${nodePath.basename(path)}.tmp`, "victim.txt"].sort()
      )
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect("two recorders writing one cassette at once keep each other's entries", () =>
    Effect.gen(function*() {
      const path = yield* tempCassette
      const answer = HttpClient.make((request) =>
        Effect.succeed(HttpClientResponse.fromWeb(request, Response.json({ paperId: request.url, title: "T" })))
      )
      // Two layers, two tapes, as two processes would have: each reads the file before the other writes.
      const client = (n: number) =>
        SemanticScholar.layer({ retry: false, rateLimit: false }).pipe(
          Layer.provide(Cassette.layer({ path, mode: "record" })),
          Layer.provide(Layer.succeed(HttpClient.HttpClient, answer)),
          Layer.build,
          Effect.map((context) => (id: number) => Effect.provide(getPaper(`CorpusId:${n * 100 + id}`), context))
        )
      const [a, b] = yield* Effect.all([client(1), client(2)])
      for (const id of [1, 2, 3]) {
        yield* a(id)
        yield* b(id)
      }
      const file = JSON.parse(yield* (yield* FileSystem.FileSystem).readFileString(path)) as Cassette.File
      expect(file.entries.map((e) => e.request.path).sort()).toEqual(
        [101, 102, 103, 201, 202, 203].map((id) => `/graph/v1/paper/CorpusId:${id}`)
      )
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))
})
