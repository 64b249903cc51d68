import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { gunzipSync } from "node:zlib"
import { Emulator } from "../src/index.js"
import { arr, call, obj } from "./helpers.js"

const key = { headers: { "x-api-key": "k" } }

const download = (url: string, range?: string) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.get(url)
    if (range !== undefined) request = HttpClientRequest.setHeader(request, "range", range)
    const response = yield* client.execute(request)
    const bytes = new Uint8Array(yield* response.arrayBuffer)
    return { status: response.status, headers: response.headers, bytes }
  })

const lines = (bytes: Uint8Array) =>
  gunzipSync(bytes).toString("utf8").split("\n").filter((l) => l.length > 0).map((l) => obj(JSON.parse(l)))

describe("datasets", () => {
  it.effect("releases, release, dataset links (key required) and gzipped JSON-lines files on another host", () =>
    Effect.gen(function*() {
      const releases = arr((yield* call("GET", "/datasets/v1/release/")).json)
      expect(releases.length).toBe(5)
      expect([...releases].sort()).toEqual(releases)
      const latest = obj((yield* call("GET", "/datasets/v1/release/latest")).json)
      expect(latest.release_id).toBe(releases.at(-1))
      expect(arr(latest.datasets).map((d) => obj(d).name)).toContain("papers")
      const denied = yield* call("GET", "/datasets/v1/release/latest/dataset/papers")
      expect(denied.status).toBe(403)
      expect(denied.text).toBe("{\"message\":\"Forbidden\"}\n")
      const links = obj((yield* call("GET", "/datasets/v1/release/latest/dataset/papers", key)).json)
      const files = arr(links.files).map(String)
      expect(files.every((f) => new URL(f).host === "files.emulator.test")).toBe(true)
      const all = []
      for (const f of files) {
        const r = yield* download(f)
        expect(r.status).toBe(200)
        all.push(...lines(r.bytes))
      }
      const { corpus } = yield* Emulator
      expect(all.length).toBeGreaterThan(corpus.size * 0.95)
      expect(Object.keys(all[0]!)).toContain("corpusid")
      const requests = yield* (yield* Emulator).requests
      for (const r of requests.filter((x) => x.host === "files.emulator.test")) expect(r.keyPresent).toBe(false)
      expect((yield* call("GET", "/datasets/v1/release/1999-01-01")).status).toBe(404)
    }).pipe(Effect.provide(Emulator.layer({ size: 800, releases: { count: 5 } }))))

  it.effect("Range requests answer 206 with the right bytes, 416 when unsatisfiable", () =>
    Effect.gen(function*() {
      const links = obj((yield* call("GET", "/datasets/v1/release/latest/dataset/abstracts", key)).json)
      const url = String(arr(links.files)[0])
      const whole = (yield* download(url)).bytes
      const part = yield* download(url, "bytes=10-99")
      expect(part.status).toBe(206)
      expect(part.headers["content-range"]).toBe(`bytes 10-99/${whole.length}`)
      expect(part.bytes).toEqual(whole.subarray(10, 100))
      const tail = yield* download(url, "bytes=-50")
      expect(tail.bytes).toEqual(whole.subarray(whole.length - 50))
      const open = yield* download(url, "bytes=100-")
      expect(open.bytes).toEqual(whole.subarray(100))
      expect((yield* download(url, `bytes=${whole.length + 5}-`)).status).toBe(416)
    }).pipe(Effect.provide(Emulator.layer({ size: 500, releases: { count: 3 } }))))

  it.effect("diffs: key required; applying start + diffs gives end, keyed by corpusid", () =>
    Effect.gen(function*() {
      const releases = arr((yield* call("GET", "/datasets/v1/release/")).json).map(String)
      expect((yield* call("GET", `/datasets/v1/diffs/${releases[0]}/to/latest/papers`)).status).toBe(403)
      const diff = obj((yield* call("GET", `/datasets/v1/diffs/${releases[0]}/to/latest/papers`, key)).json)
      expect(diff.start_release).toBe(releases[0])
      expect(diff.end_release).toBe(releases.at(-1))
      expect(arr(diff.diffs).length).toBe(releases.length - 1)
      const state = new Map<number, string>()
      const release = (id: string) =>
        Effect.gen(function*() {
          const out = new Map<number, string>()
          for (const f of arr(obj((yield* call("GET", `/datasets/v1/release/${id}/dataset/papers`, key)).json).files)) {
            for (const rec of lines((yield* download(String(f))).bytes)) {
              out.set(Number(rec.corpusid), JSON.stringify(rec))
            }
          }
          return out
        })
      for (const [k, v] of yield* release(releases[0]!)) state.set(k, v)
      let updates = 0
      let deletes = 0
      for (const d of arr(diff.diffs).map(obj)) {
        for (const f of arr(d.update_files)) {
          for (const rec of lines((yield* download(String(f))).bytes)) {
            state.set(Number(rec.corpusid), JSON.stringify(rec))
            updates++
          }
        }
        for (const f of arr(d.delete_files)) {
          for (const rec of lines((yield* download(String(f))).bytes)) {
            state.delete(Number(rec.corpusid))
            deletes++
          }
        }
      }
      expect(updates).toBeGreaterThan(0)
      expect(deletes).toBeGreaterThan(0)
      const end = yield* release("latest")
      expect([...state.entries()].sort()).toEqual([...end.entries()].sort())
    }).pipe(Effect.provide(Emulator.layer({ size: 2000, releases: { count: 6 } }))))
})
