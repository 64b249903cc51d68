import { NodeFileSystem, NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { HttpStatus, SemanticScholar, Waits } from "@s2-effect/core"
import { serve } from "@s2-effect/test-support"
import type { EmulatorOptions } from "@s2-effect/testing"
import { Emulator, Faults, Fixtures, SemanticScholarStub, startEmulator } from "@s2-effect/testing"
import {
  Clock,
  Duration,
  Effect,
  FileSystem,
  Layer,
  Logger,
  Option,
  PlatformError,
  Redacted,
  Result,
  Schema,
  Stream
} from "effect"
import { Headers, HttpClient, HttpClientRequest } from "effect/http"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as NodePath from "node:path"
import { gunzipSync, gzipSync } from "node:zlib"
import { NodeDatasets } from "../src/index.js"

const KEY = "secret-api-key"
const { DownloadEvent } = NodeDatasets

/** The emulator in memory (its HttpClient answers every host), the client with a key, the disk. */
const inMemory = (options: EmulatorOptions = {}) => {
  const emulator = Emulator.layer({ seed: 3, size: 600, releases: { count: 3 }, ...options })
  const client = SemanticScholar.layer({ apiKey: Redacted.make(KEY), rateLimit: false }).pipe(
    Layer.provide(emulator),
    Layer.orDie
  )
  return Layer.mergeAll(emulator, client, NodeFileSystem.layer)
}

/** The bytes the host holds, fetched once without the client under test. */
const sourceBytes = (url: string) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.get(url)
    return new Uint8Array(yield* response.arrayBuffer)
  }).pipe(Effect.orDie)

const linesOf = (bytes: Uint8Array): Array<unknown> =>
  gunzipSync(bytes).toString("utf8").split("\n").filter((l) => l.length > 0).map((l): unknown => JSON.parse(l))

const nameOf = (url: string) => new URL(url).pathname.split("/").pop() ?? ""

const readBytes = (path: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFile(path)).pipe(
    // A Buffer on Node: compared as plain bytes.
    Effect.map((bytes) => new Uint8Array(bytes)),
    Effect.orDie
  )

/**
 * A partial file as an interrupted download leaves it: the bytes, and beside them the notes on the
 * host's file they are part of (its link without the query, size and ETag, as the host answers now).
 */
const writePartial = (path: string, url: string, bytes: Uint8Array) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const response = yield* (yield* HttpClient.HttpClient).get(url)
    const notes = {
      url: url.split("?")[0],
      total: Number(response.headers["content-length"]),
      etag: response.headers["etag"]
    }
    yield* fs.writeFile(`${path}.part`, bytes)
    yield* fs.writeFileString(`${path}.part.json`, JSON.stringify(notes))
  }).pipe(Effect.orDie)

/**
 * The TestClock, and the times its pending sleeps end: v4's TestClock does not list them, so the
 * program runs on a clock that delegates to the TestClock and records each sleep while it waits.
 */
const recordingClock = Effect.gen(function*() {
  const clock = yield* Clock.Clock
  const pending: Array<number> = []
  const recording: Clock.Clock = {
    ...clock,
    sleep: (duration) =>
      Effect.suspend(() => {
        const end = clock.currentTimeMillisUnsafe() + Duration.toMillis(duration)
        pending.push(end)
        return clock.sleep(duration).pipe(Effect.ensuring(Effect.sync(() => pending.splice(pending.indexOf(end), 1))))
      })
  }
  return { recording, sleeps: () => [...pending] }
})

/**
 * Runs `self` in a fiber and moves the TestClock to each pending wait due within `maxStep`: the
 * retry policy's waits. Longer sleeps (the idle time-out, set long in these tests) are never
 * reached by accident while the program waits on real disk I/O.
 */
const advancingRetries = <A, E, R>(
  self: Effect.Effect<A, E, R>,
  maxStep: number,
  each: Effect.Effect<void> = Effect.void
) =>
  Effect.gen(function*() {
    const { recording, sleeps } = yield* recordingClock
    const fiber = yield* Effect.forkChild(Effect.provideService(self, Clock.Clock, recording))
    for (;;) {
      const exit = fiber.pollUnsafe()
      if (exit !== undefined) return yield* exit
      yield* each
      // Lets the disk I/O of the fiber proceed (a turn of the event loop, not a wait for time).
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
      const now = yield* Clock.currentTimeMillis
      const due = sleeps().filter((t) => t - now <= maxStep)
      if (due.length > 0) yield* TestClock.setTime(Math.min(...due))
    }
  })

describe("datasets API against the emulator", () => {
  it.effect("lists releases, reads a release, gets links and diffs with the key", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const releases = yield* s2.getAvailableReleases()
      expect(releases).toEqual(["2022-05-10", "2022-05-17", "2022-05-24"])
      const release = yield* s2.getRelease("latest")
      expect(release.release_id).toBe("2022-05-24")
      expect(release.datasets.map((d) => d.name)).toContain("papers")
      const links = yield* s2.getDatasetDownloadLinks("latest", "papers")
      expect(links.files.map(nameOf)).toEqual(["part-0.jsonl.gz", "part-1.jsonl.gz", "part-2.jsonl.gz"])
      const diff = yield* s2.getDatasetDiffs("papers", "2022-05-10", "latest")
      expect(diff.diffs.map((d) => [d.from_release, d.to_release])).toEqual([
        ["2022-05-10", "2022-05-17"],
        ["2022-05-17", "2022-05-24"]
      ])
      const requests = yield* (yield* Emulator).requests
      expect(requests.map((r) => r.keyPresent)).toEqual([true, true, true, true])
    }).pipe(Effect.provide(inMemory())))

  it.effect("key policy: a wrong key is Forbidden for links and diffs; without a key nothing is sent", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const links = yield* Effect.flip(s2.getDatasetDownloadLinks("latest", "papers"))
      expect(links._tag).toBe("Forbidden")
      expect(links.status).toBe(403)
      const streamed = yield* Effect.flip(
        Stream.runDrain(NodeDatasets.downloadDataset("latest", "papers", { directory: "/nonexistent/never" }))
      )
      expect(streamed._tag).toBe("Forbidden")
      const keyless = yield* Effect.flip(
        Effect.flatMap(SemanticScholar, (c) => c.getDatasetDiffs("papers", "2022-05-10", "latest")).pipe(
          Effect.provide(SemanticScholar.layer({ rateLimit: false }).pipe(Layer.orDie))
        )
      )
      expect(keyless._tag).toBe("Forbidden")
      const requests = yield* (yield* Emulator).requests
      expect(requests.map((r) => [r.path, r.outcome])).toEqual([
        ["/datasets/v1/release/latest/dataset/papers", 403],
        ["/datasets/v1/release/latest/dataset/papers", 403]
      ])
    }).pipe(Effect.provide(inMemory({ faults: { keyPolicy: { keys: ["another-key"] } } }))))
})

describe("downloadDataset", () => {
  it.effect("fetches every file, byte for byte, with progress; the key never reaches the file host", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const events = yield* NodeDatasets.downloadDataset("latest", "papers", { directory, concurrency: 2 }).pipe(
        Stream.runCollect
      )
      const emulator = yield* Emulator
      const requests = yield* emulator.requests
      const api = requests.filter((r) => r.path.startsWith("/datasets/"))
      const files = requests.filter((r) => r.path.startsWith("/files/"))
      expect(api).toHaveLength(1)
      expect(api[0]?.keyPresent).toBe(true)
      expect(files).toHaveLength(3)
      for (const r of files) {
        expect(r.host).toBe("files.emulator.test")
        expect(r.keyPresent).toBe(false)
        expect(Object.keys(r.headers)).not.toContain("x-api-key")
        expect(r.headers["range"]).toBeUndefined()
      }
      const links = yield* Effect.flatMap(SemanticScholar, (s2) => s2.getDatasetDownloadLinks("latest", "papers"))
      for (const url of links.files) {
        const name = nameOf(url)
        const path = NodePath.join(directory, name)
        const source = yield* sourceBytes(url)
        expect(yield* readBytes(path)).toEqual(source)
        const mine = events.filter((e) => e.file === name)
        expect(mine.map((e) => e._tag)).toEqual(["Started", ...mine.slice(1, -1).map(() => "Progress"), "Completed"])
        expect(mine[0]).toEqual(DownloadEvent.Started({ file: name, path, bytesDone: 0, bytesTotal: source.length }))
        expect(mine.at(-1)).toEqual(
          DownloadEvent.Completed({ file: name, path, bytesDone: source.length, bytesTotal: source.length })
        )
        const done = mine.map((e) => e.bytesDone)
        expect([...done].sort((a, b) => a - b)).toEqual(done)
      }
      expect((yield* fs.readDirectory(directory)).sort()).toEqual(links.files.map(nameOf))

      // A second run skips every complete file without asking the file host.
      yield* emulator.clearRequests
      const again = yield* NodeDatasets.downloadDataset("latest", "papers", { directory }).pipe(
        Stream.runCollect
      )
      expect(again.map((e) => e._tag)).toEqual(["Skipped", "Skipped", "Skipped"])
      expect((yield* emulator.requests).filter((r) => r.path.startsWith("/files/"))).toHaveLength(0)
    }).pipe(Effect.provide(inMemory())))

  it.effect("resumes a partial file with a Range request and appends only the rest", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const [url = ""] = (yield* Effect.flatMap(SemanticScholar, (s2) =>
        s2.getDatasetDownloadLinks("latest", "abstracts")))
        .files
      const source = yield* sourceBytes(url)
      const half = Math.floor(source.length / 2)
      const path = NodePath.join(directory, nameOf(url))
      yield* writePartial(path, url, source.subarray(0, half))
      const emulator = yield* Emulator
      yield* emulator.clearRequests
      const events = yield* Stream.runCollect(NodeDatasets.downloadFile(url, { directory }))
      expect(events[0]).toEqual(
        DownloadEvent.Started({ file: nameOf(url), path, bytesDone: half, bytesTotal: source.length })
      )
      expect(yield* readBytes(path)).toEqual(source)
      // The partial file and its notes are gone once the file is complete.
      expect(yield* fs.readDirectory(directory)).toEqual([nameOf(url)])
      const requests = yield* emulator.requests
      expect(requests.map((r) => [r.headers["range"], r.outcome])).toEqual([[`bytes=${half}-`, 206]])
      // Asked under If-Range with the ETag noted: a host with another file now would send all of it.
      expect(requests[0]?.headers["if-range"]).toMatch(/^"[0-9a-f]+"$/)
    }).pipe(Effect.provide(inMemory())))

  it.effect("a host that ignores Range answers 200: the partial file is rewritten from the start", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const [url = ""] = (yield* Effect.flatMap(SemanticScholar, (s2) => s2.getDatasetDownloadLinks("latest", "tldrs")))
        .files
      const source = yield* sourceBytes(url)
      const path = NodePath.join(directory, nameOf(url))
      yield* writePartial(path, url, new Uint8Array(100).fill(7))
      const ignoringRange = Effect.map(
        HttpClient.HttpClient,
        HttpClient.mapRequest((request) =>
          HttpClientRequest.get(request.url, { headers: Headers.remove(request.headers, "range") })
        )
      )
      const events = yield* NodeDatasets.downloadFile(url, { directory }).pipe(
        Stream.runCollect,
        Effect.provideServiceEffect(HttpClient.HttpClient, ignoringRange)
      )
      expect(events[0]?.bytesDone).toBe(0)
      expect(yield* readBytes(path)).toEqual(source)
    }).pipe(Effect.provide(inMemory())))

  it.effect("a .part already whole (stopped before the rename) is completed from the 416 without a body", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const [url = "", other = ""] = (yield* Effect.flatMap(SemanticScholar, (s2) =>
        s2.getDatasetDownloadLinks("latest", "tldrs"))).files
      const source = yield* sourceBytes(url)
      const path = NodePath.join(directory, nameOf(url))
      yield* writePartial(path, url, source)
      // And a .part longer than its file: not a prefix of it, so it is fetched again whole.
      const otherSource = yield* sourceBytes(other)
      const otherPath = NodePath.join(directory, nameOf(other))
      yield* writePartial(otherPath, other, new Uint8Array(otherSource.length + 10))
      const emulator = yield* Emulator
      yield* emulator.clearRequests
      yield* Stream.runDrain(NodeDatasets.downloadFile(url, { directory }))
      yield* Stream.runDrain(NodeDatasets.downloadFile(other, { directory }))
      expect(yield* readBytes(path)).toEqual(source)
      expect(yield* readBytes(otherPath)).toEqual(otherSource)
      expect((yield* emulator.requests).map((r) => [r.headers["range"], r.outcome])).toEqual([
        [`bytes=${source.length}-`, 416],
        [`bytes=${otherSource.length + 10}-`, 416],
        [undefined, 200]
      ])
    }).pipe(Effect.provide(inMemory())))

  it.effect("never writes through a symbolic link put in place of the partial file", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const elsewhere = yield* fs.makeTempDirectoryScoped()
      const [url = ""] = (yield* Effect.flatMap(SemanticScholar, (s2) => s2.getDatasetDownloadLinks("latest", "tldrs")))
        .files
      const precious = NodePath.join(elsewhere, "precious")
      yield* fs.writeFileString(precious, "not to be appended to")
      const path = NodePath.join(directory, nameOf(url))
      yield* fs.symlink(precious, `${path}.part`)
      const emulator = yield* Emulator
      yield* emulator.clearRequests
      const error = yield* Effect.flip(Stream.runDrain(NodeDatasets.downloadFile(url, { directory })))
      expect(error).toMatchObject({ _tag: "DatasetFileError", reason: "Io", file: `${path}.part` })
      expect(error.message).toContain("symbolic link")
      expect(yield* fs.readFileString(precious)).toBe("not to be appended to")
      expect(yield* fs.exists(path)).toBe(false)
      // Refused before the file host is asked: not a transient failure, so not retried either.
      expect(yield* emulator.requests).toEqual([])
    }).pipe(Effect.provide(inMemory())))

  it.effect("retries 503s and a hang on the file host with the policy, on the TestClock", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const links = yield* Effect.flatMap(SemanticScholar, (s2) => s2.getDatasetDownloadLinks("latest", "tldrs"))
      const emulator = yield* Emulator
      yield* emulator.setFaults({
        script: [
          { route: "/files/*", requests: { from: 1, to: 2 }, fault: Faults.status(503) },
          { route: "/files/*", requests: 4, fault: Faults.hang }
        ]
      })
      const program = NodeDatasets.downloadDataset("latest", "tldrs", {
        directory,
        concurrency: 1,
        idleTimeout: "30 seconds"
      }).pipe(Stream.runCollect)
      // The policy's waits (5 s, 10 s) are advanced to; the 30 s idle time-out only once the hang is seen.
      let hangs = 0
      const onHang = Effect.gen(function*() {
        const seen = (yield* emulator.requests).filter((r) => r.outcome === "hang").length
        if (seen > hangs) {
          hangs = seen
          yield* TestClock.adjust("30 seconds")
        }
      })
      const events = yield* advancingRetries(program, 10_000, onHang)
      expect(events.filter((e) => e._tag === "Completed")).toHaveLength(3)
      // One Started per file, its first event, even when the first attempt got no answer at all.
      for (const url of links.files) {
        const mine = events.filter((e) => e.file === nameOf(url))
        expect(mine.map((e) => e._tag).filter((tag) => tag === "Started")).toEqual(["Started"])
        expect(mine[0]?._tag).toBe("Started")
      }
      for (const url of links.files) {
        expect(yield* readBytes(NodePath.join(directory, nameOf(url)))).toEqual(yield* sourceBytes(url))
      }
      const files = (yield* emulator.requests).filter((r) => r.path.startsWith("/files/"))
      expect(files.slice(0, 6).map((r) => r.outcome)).toEqual([503, 503, 200, "hang", 200, 200])
      // The waits were the policy's: 1 s, then 2 s for the server failures, then the 30 s idle
      // time-out and the 1 s a time-out waits.
      expect(files.slice(0, 6).map((r) => r.at - files[0]!.at)).toEqual([0, 1_000, 3_000, 3_000, 34_000, 34_000])
    }).pipe(Effect.provide(inMemory())))

  it.effect("each retry of a download is a Warning line and a Retry on the waits channel, as the client's are", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const [url = ""] = (yield* Effect.flatMap(SemanticScholar, (s2) => s2.getDatasetDownloadLinks("latest", "tldrs")))
        .files
      const emulator = yield* Emulator
      yield* emulator.setFaults({
        script: [{ route: "/files/*", requests: { from: 1, to: 2 }, fault: Faults.status(503) }]
      })
      const heard: Array<Waits.Wait> = []
      const program = NodeDatasets.downloadFile(url, { directory }).pipe(
        Stream.runCollect,
        Waits.listen((wait) => Effect.sync(() => void heard.push(wait)))
      )
      const { lines, value } = yield* warned(advancingRetries(program, 10_000))
      expect(value.map((e) => e._tag).at(-1)).toBe("Completed")
      const path = new URL(url).pathname
      expect(lines).toEqual([
        `S2 GET ${path}: 503 (server failed), attempt 1 of 6 failed; retrying in 1 s`,
        `S2 GET ${path}: 503 (server failed), attempt 2 of 6 failed; retrying in 2 s`
      ])
      // The signature in the link's query is a credential: neither logged nor reported.
      expect(heard.map((wait) => [wait._tag, wait.attempt, Duration.toMillis(wait.wait), wait.method, wait.url]))
        .toEqual([
          ["Retry", 1, 1_000, "GET", url.split("?")[0]],
          ["Retry", 2, 2_000, "GET", url.split("?")[0]]
        ])
      expect(heard.map((wait) => wait._tag === "Retry" && wait.error._tag)).toEqual(["ServerError", "ServerError"])
    }).pipe(Effect.provide(inMemory())))

  it.effect("an expired link (403) fails at once with Forbidden; retry: false makes one attempt", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const [url = ""] = (yield* Effect.flatMap(SemanticScholar, (s2) => s2.getDatasetDownloadLinks("latest", "tldrs")))
        .files
      const emulator = yield* Emulator
      yield* emulator.setFaults({ script: [{ route: "/files/*", fault: Faults.status(403) }] })
      const forbidden = yield* Effect.flip(Stream.runDrain(NodeDatasets.downloadFile(url, { directory })))
      expect(forbidden._tag).toBe("Forbidden")
      expect(forbidden.message).toContain("pre-signed link may have expired")
      // The signature in the query is a credential: not in the message.
      expect(forbidden.message).not.toContain("X-Amz-Signature")
      yield* emulator.setFaults({ script: [{ route: "/files/*", fault: Faults.status(500) }] })
      const failed = yield* Effect.flip(Stream.runDrain(NodeDatasets.downloadFile(url, { directory, retry: false })))
      expect(failed._tag).toBe("ServerError")
      expect((yield* emulator.requests).filter((r) => r.path.startsWith("/files/"))).toHaveLength(2)
      expect(yield* fs.readDirectory(directory)).toEqual([])
    }).pipe(Effect.provide(inMemory())))

  it.effect("refuses bad options and links whose names cannot be file names, before any request", () =>
    Effect.gen(function*() {
      const concurrency = yield* Effect.flip(
        Stream.runDrain(NodeDatasets.downloadDataset("latest", "papers", { directory: "x", concurrency: 0 }))
      )
      // The caller's settings, not the request: InvalidOptions naming the option.
      expect(concurrency).toMatchObject({ _tag: "InvalidOptions", option: "concurrency" })
      const idle = yield* Effect.flip(
        Stream.runDrain(NodeDatasets.downloadFile("https://h/a.gz", { directory: "x", idleTimeout: "0 seconds" }))
      )
      expect(idle).toMatchObject({ _tag: "InvalidOptions", option: "idleTimeout" })
      const reading = yield* Effect.flip(
        Stream.runDrain(NodeDatasets.readDatasetFile("https://h/a.gz", { idleTimeout: "0 seconds" }))
      )
      expect(reading).toMatchObject({ _tag: "InvalidOptions", option: "idleTimeout" })
      expect(yield* (yield* Emulator).requests).toHaveLength(0)
    }).pipe(Effect.provide(inMemory())))

  it("fileNameOf: the last path segment, decoded, without the query; traversal refused", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9._-]{1,30}$/).filter((s) => s !== "." && s !== ".."),
        fc.string(),
        (name, query) => {
          const url = `https://bucket.s3.amazonaws.com/a/b/${encodeURIComponent(name)}?${new URLSearchParams({
            sig: query
          })}`
          expect(NodeDatasets.fileNameOf(url)).toEqual(Result.succeed(name))
        }
      )
    )
    for (const bad of ["https://h/a/%2E%2E", "https://h/a/b%2Fc", "https://h/", "https://h/a/..%5C..", "not a url"]) {
      expect(Result.isFailure(NodeDatasets.fileNameOf(bad))).toBe(true)
    }
  })
})

describe("downloadDataset over real HTTP (startEmulator)", () => {
  /** The emulator on a port, a temporary directory, and a client with the key over undici. */
  const overHttp = (options: EmulatorOptions) =>
    Effect.gen(function*() {
      const emulator = yield* startEmulator({ seed: 5, ...options })
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const layer = SemanticScholar.layer({ apiUrl: emulator.url, apiKey: Redacted.make(KEY), rateLimit: false })
        .pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.orDie, Layer.merge(NodeHttpClient.layerUndici))
      return { emulator, fs, directory, layer }
    })

  it.live(
    "a body cut short is resumed from the bytes on disk; the file is announced once",
    () =>
      Effect.gen(function*() {
        const { directory, emulator, layer } = yield* overHttp({ size: 600, releases: { count: 1 } })
        const [url = ""] = (yield* Effect.flatMap(SemanticScholar, (s2) =>
          s2.getDatasetDownloadLinks("latest", "papers")).pipe(Effect.provide(layer))).files
        yield* emulator.setFaults({ script: [{ route: "/files/*", requests: 1, fault: Faults.truncate(0.5) }] })
        const events = yield* Stream.runCollect(NodeDatasets.downloadFile(url, { directory })).pipe(
          Effect.provide(layer)
        )
        const source = yield* sourceBytes(url).pipe(Effect.provide(NodeHttpClient.layerUndici))
        expect(yield* readBytes(NodePath.join(directory, nameOf(url)))).toEqual(source)
        // The cut answer announced the file; the resumed one reports bytes only.
        const started = events.filter((e) =>
          e._tag === "Started"
        )
        expect(started).toHaveLength(1)
        expect(events[0]).toMatchObject({ _tag: "Started", bytesDone: 0, bytesTotal: source.length })
        expect(events.at(-1)).toMatchObject({ _tag: "Completed", bytesDone: source.length })
        // The download's two requests (whole, then the rest), then the test's own fetch of the source.
        const ranges = (yield* emulator.requests).filter((r) => r.path.startsWith("/files/")).map((r) =>
          r.headers["range"]
        )
        expect(ranges).toHaveLength(3)
        expect(ranges[0]).toBeUndefined()
        expect(ranges[1]).toMatch(/^bytes=[1-9]\d*-$/)
      }).pipe(Effect.provide(NodeFileSystem.layer)),
    30_000
  )

  it.live(
    "interrupted half way, then resumed: identical bytes, no byte fetched twice, no key on the file host",
    () =>
      Effect.gen(function*() {
        const { directory, emulator, fs, layer } = yield* overHttp({ size: 6000, releases: { count: 2 } })
        const download = NodeDatasets.downloadDataset("latest", "papers", { directory, concurrency: 1 })
        // First run: stop as soon as the second file is half way.
        const first = yield* download.pipe(
          Stream.takeUntil((e) =>
            e._tag === "Progress" && e.file === "part-1.jsonl.gz" && e.bytesDone * 2 >= (e.bytesTotal ?? 0)
          ),
          Stream.runCollect,
          Effect.provide(layer)
        )
        const stoppedAt = first.at(-1)?.bytesDone ?? 0
        const total = first.at(-1)?.bytesTotal ?? 0
        expect(stoppedAt).toBeGreaterThan(0)
        expect(stoppedAt).toBeLessThan(total)
        expect((yield* fs.readDirectory(directory)).sort()).toEqual([
          "part-0.jsonl.gz",
          "part-1.jsonl.gz.part",
          "part-1.jsonl.gz.part.json"
        ])
        expect(Number((yield* fs.stat(NodePath.join(directory, "part-1.jsonl.gz.part"))).size)).toBe(stoppedAt)

        const second = yield* download.pipe(Stream.runCollect, Effect.provide(layer))
        expect(second.filter((e) => e._tag !== "Progress").map((e) => [e._tag, e.file, e.bytesDone])).toEqual([
          ["Skipped", "part-0.jsonl.gz", expect.any(Number)],
          ["Started", "part-1.jsonl.gz", stoppedAt],
          ["Completed", "part-1.jsonl.gz", total],
          ["Started", "part-2.jsonl.gz", 0],
          ["Completed", "part-2.jsonl.gz", expect.any(Number)]
        ])

        const requests = yield* emulator.requests
        const files = requests.filter((r) => r.path.startsWith("/files/"))
        const api = requests.filter((r) => r.path.startsWith("/datasets/"))
        expect(api.every((r) => r.keyPresent && r.host === `127.0.0.1:${emulator.port}`)).toBe(true)
        expect(files.every((r) => !r.keyPresent && r.host === `localhost:${emulator.port}`)).toBe(true)
        expect(files.map((r) => [r.path.split("/").pop(), r.headers["range"]])).toEqual([
          ["part-0.jsonl.gz", undefined],
          ["part-1.jsonl.gz", undefined],
          ["part-1.jsonl.gz", `bytes=${stoppedAt}-`],
          ["part-2.jsonl.gz", undefined]
        ])
        const links = yield* Effect.flatMap(SemanticScholar, (s2) => s2.getDatasetDownloadLinks("latest", "papers"))
          .pipe(
            Effect.provide(layer)
          )
        for (const url of links.files) {
          const source = yield* sourceBytes(url).pipe(Effect.provide(NodeHttpClient.layerUndici))
          expect(yield* readBytes(NodePath.join(directory, nameOf(url)))).toEqual(source)
        }
      }).pipe(Effect.provide(NodeFileSystem.layer)),
    60_000
  )
})

// Property runs over gzip streams: seconds on a loaded machine.
describe("readDatasetFile", { timeout: 60_000 }, () => {
  const Abstract = Schema.Struct({ corpusid: Schema.Number, abstract: Schema.NullOr(Schema.String) })

  it.effect("reads a file from its link and from disk: the same records as the source", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const [url = ""] = (yield* Effect.flatMap(SemanticScholar, (s2) =>
        s2.getDatasetDownloadLinks("latest", "abstracts"))).files
      const source = yield* sourceBytes(url)
      const expected = linesOf(source)
      expect(expected.length).toBeGreaterThan(100)
      const fromUrl = yield* Stream.runCollect(NodeDatasets.readDatasetFile(url))
      expect(fromUrl).toEqual(expected)
      const path = NodePath.join(directory, "abstracts.jsonl.gz")
      yield* fs.writeFile(path, source)
      const decoded = yield* Stream.runCollect(NodeDatasets.readDatasetFile(path, { schema: Abstract }))
      // The schema keeps only its own fields.
      expect(decoded).toEqual(expected.map((r) => Schema.decodeUnknownSync(Abstract)(r)))
      const files = (yield* (yield* Emulator).requests).filter((r) => r.path.startsWith("/files/"))
      expect(files.every((r) => !r.keyPresent)).toBe(true)
    }).pipe(Effect.provide(inMemory())))

  const writeGz = (text: string) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const path = NodePath.join(directory, "f.jsonl.gz")
      yield* fs.writeFile(path, new Uint8Array(gzipSync(text)))
      return path
    })

  it.effect("a line that is not JSON fails with its line number, after the records before it", () =>
    Effect.gen(function*() {
      const path = yield* writeGz("{\"corpusid\":1}\n{\"corpusid\":2}\n{\"corpusid\":3\n{\"corpusid\":4}\n")
      const seen: Array<unknown> = []
      const error = yield* NodeDatasets.readDatasetFile(path).pipe(
        Stream.runForEach((r) => Effect.sync(() => seen.push(r))),
        Effect.flip
      )
      expect(seen).toEqual([{ corpusid: 1 }, { corpusid: 2 }])
      expect(error).toMatchObject({ _tag: "DatasetFileError", reason: "Json", file: path, line: 3 })
      expect(error.message).toContain(`${path}, line 3`)
    }).pipe(Effect.provide(NodeDatasets.layer)))

  it.effect("a record that does not match the schema fails with its line number", () =>
    Effect.gen(function*() {
      const path = yield* writeGz("{\"corpusid\":1,\"abstract\":null}\n\n{\"corpusid\":\"x\",\"abstract\":\"a\"}\n")
      const error = yield* Effect.flip(Stream.runDrain(NodeDatasets.readDatasetFile(path, { schema: Abstract })))
      expect(error).toMatchObject({ _tag: "DatasetFileError", reason: "Schema", line: 3 })
      expect(error.message).toContain("corpusid")
    }).pipe(Effect.provide(NodeDatasets.layer)))

  it.effect("a corrupt gzip and a truncated file fail with typed errors naming the file", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const text = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ corpusid: i, text: `record ${i}` })).join(
        "\n"
      )
      const gz = new Uint8Array(gzipSync(text))
      const notGzip = NodePath.join(directory, "plain.jsonl.gz")
      yield* fs.writeFile(notGzip, new TextEncoder().encode(text))
      const corrupt = NodePath.join(directory, "corrupt.jsonl.gz")
      const flipped = gz.slice()
      for (let i = 100; i < 200; i++) flipped[i] = flipped[i]! ^ 0xff
      yield* fs.writeFile(corrupt, flipped)
      const truncated = NodePath.join(directory, "truncated.jsonl.gz")
      yield* fs.writeFile(truncated, gz.subarray(0, Math.floor(gz.length / 2)))

      for (const path of [notGzip, corrupt]) {
        const error = yield* Effect.flip(Stream.runDrain(NodeDatasets.readDatasetFile(path)))
        expect(error).toMatchObject({ _tag: "DatasetFileError", reason: "Corrupt", file: path })
      }
      let count = 0
      const cut = yield* NodeDatasets.readDatasetFile(truncated).pipe(
        Stream.runForEach(() => Effect.sync(() => count++)),
        Effect.flip
      )
      expect(cut).toMatchObject({ _tag: "DatasetFileError", reason: "Truncated", file: truncated })
      expect(count).toBeGreaterThan(0)
      expect(count).toBeLessThan(2000)
      expect(cut._tag === "DatasetFileError" && cut.line).toBe(count + 1)
      const missing = yield* Effect.flip(Stream.runDrain(NodeDatasets.readDatasetFile(NodePath.join(directory, "no"))))
      expect(missing).toMatchObject({ _tag: "DatasetFileError", reason: "Io" })
    }).pipe(Effect.provide(NodeDatasets.layer)))

  it.effect("a body cut short by the file host is Truncated; a missing file is ObjectNotFound", () =>
    Effect.gen(function*() {
      const [url = ""] = (yield* Effect.flatMap(SemanticScholar, (s2) =>
        s2.getDatasetDownloadLinks("latest", "papers"))).files
      const emulator = yield* Emulator
      yield* emulator.setFaults({ script: [{ route: "/files/*", requests: 1, fault: Faults.truncate(0.5) }] })
      const cut = yield* Effect.flip(Stream.runDrain(NodeDatasets.readDatasetFile(url)))
      expect(cut).toMatchObject({ _tag: "DatasetFileError", reason: "Truncated", file: url.split("?")[0] })
      const missing = yield* Effect.flip(Stream.runDrain(NodeDatasets.readDatasetFile(url.replace("part-0", "part-9"))))
      expect(missing._tag).toBe("ObjectNotFound")
    }).pipe(Effect.provide(inMemory())))

  it.effect("property: any records (any Unicode), any chunking of the gzip bytes, LF or CRLF, read back in order", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          fc.array(fc.jsonValue({ stringUnit: "binary" }), { maxLength: 40 }),
          fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }),
          fc.boolean(),
          async (values, sizes, crlf) => {
            const text = values.map((v) => JSON.stringify(v)).join(crlf ? "\r\n" : "\n")
            const gz = new Uint8Array(gzipSync(text))
            const chunks: Array<Uint8Array> = []
            for (let at = 0, k = 0; at < gz.length; k++) {
              const size = sizes[k % sizes.length]!
              chunks.push(gz.subarray(at, at + size))
              at += size
            }
            const read = await Effect.runPromise(
              Stream.runCollect(NodeDatasets.gzipJsonLines(Stream.fromIterable(chunks), "prop"))
            )
            // JSON has no -0: it reads back as 0.
            expect(read).toEqual(values.map((v) => JSON.parse(JSON.stringify(v))))
          }
        ),
        { numRuns: 200 }
      )
    ))
})

describe("diffRecords", () => {
  it.effect("release 0 plus the diff's updates and deletes, in order, equals the latest release", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const releases = yield* s2.getAvailableReleases()
      const snapshot = (release: string) =>
        Effect.gen(function*() {
          const links = yield* s2.getDatasetDownloadLinks(release, "papers")
          const table = new Map<number, unknown>()
          for (const url of links.files) {
            yield* NodeDatasets.readDatasetFile(url).pipe(
              Stream.runForEach((record) =>
                Effect.map(Schema.decodeUnknownEffect(Key)(record), ({ corpusid }) => table.set(corpusid, record))
              )
            )
          }
          return table
        })
      const table = yield* snapshot(releases[0]!)
      const diff = yield* s2.getDatasetDiffs("papers", releases[0]!, "latest")
      const ops: Array<"update" | "delete"> = []
      yield* NodeDatasets.diffRecords(diff).pipe(
        Stream.runForEach(({ op, record }) =>
          Effect.gen(function*() {
            ops.push(op)
            const { corpusid } = yield* Schema.decodeUnknownEffect(Key)(record)
            if (op === "update") table.set(corpusid, record)
            else table.delete(corpusid)
          })
        )
      )
      expect(ops).toContain("update")
      expect(ops).toContain("delete")
      const latest = yield* snapshot(releases.at(-1)!)
      expect(table.size).toBe(latest.size)
      expect(table).toEqual(latest)
      // Order: per step, updates then deletes, over the diff files in the order given.
      const expected: Array<"update" | "delete"> = []
      for (const step of diff.diffs) {
        for (const url of step.update_files) {
          expected.push(...linesOf(yield* sourceBytes(url)).map(() => "update" as const))
        }
        for (const url of step.delete_files) {
          expected.push(...linesOf(yield* sourceBytes(url)).map(() => "delete" as const))
        }
      }
      expect(ops).toEqual(expected)
    }).pipe(Effect.provide(inMemory({ releases: { count: 4 } }))))
})

const Key = Schema.Struct({ corpusid: Schema.Number })

describe("a file host that redirects", () => {
  interface Hop {
    readonly path: string
    readonly key: string | undefined
    readonly range: string | undefined
  }
  /** `/hop/N` redirects to `/hop/N-1` (`/hop/0` serves the bytes); `/loop` redirects to itself. */
  const redirecting = (bytes: Uint8Array) =>
    Effect.acquireRelease(
      Effect.callback<{ readonly url: string; readonly hops: Array<Hop>; readonly server: Http.Server }>((resume) => {
        const hops: Array<Hop> = []
        const server = Http.createServer((req, res) => {
          const path = req.url ?? "/"
          const key = req.headers["x-api-key"]
          hops.push({ path, key: typeof key === "string" ? key : undefined, range: req.headers.range })
          const hop = /^\/hop\/(\d+)\//.exec(path)
          if (path.startsWith("/loop/")) {
            res.writeHead(302, { location: path })
            return res.end("moved")
          }
          if (hop !== null && hop[1] !== "0") {
            res.writeHead(307, { location: path.replace(/^\/hop\/\d+/, `/hop/${Number(hop[1]) - 1}`) })
            return res.end()
          }
          res.writeHead(200, { "content-length": bytes.length })
          res.end(bytes)
        })
        server.listen(0, "127.0.0.1", () =>
          resume(Effect.succeed({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            hops,
            server
          })))
      }),
      ({ server }) =>
        Effect.callback<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
  const bytes = gzipSync("{\"corpusid\":1}\n")
  const run = (url: string) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const events = yield* NodeDatasets.downloadFile(url, { directory }).pipe(
        Stream.runCollect,
        Effect.result
      )
      const file = NodePath.join(directory, "part-0.jsonl.gz")
      const saved = (yield* fs.exists(file)) ? Option.some(yield* readBytes(file)) : Option.none()
      return { events, saved }
    }).pipe(Effect.provide(NodeDatasets.layer))

  it.live("follows five redirects to the file, sending no key to any hop", () =>
    Effect.gen(function*() {
      const host = yield* redirecting(bytes)
      const { events, saved } = yield* run(`${host.url}/hop/5/part-0.jsonl.gz?X-Amz-Signature=s`)
      expect(Result.isSuccess(events)).toBe(true)
      expect(saved).toEqual(Option.some(new Uint8Array(bytes)))
      expect(host.hops.map((h) => h.path.split("/")[2])).toEqual(["5", "4", "3", "2", "1", "0"])
      expect(host.hops.every((h) => h.key === undefined)).toBe(true)
    }))

  it.live("a redirect loop fails after 5 redirects, at once and without retries", () =>
    Effect.gen(function*() {
      const host = yield* redirecting(bytes)
      const { events } = yield* run(`${host.url}/loop/part-0.jsonl.gz?X-Amz-Signature=secret-signature`)
      // A redirect not followed is the host's final answer: UnexpectedStatus, not retried.
      expect(Result.isFailure(events) && events.failure).toMatchObject({
        _tag: "UnexpectedStatus",
        status: 302,
        message: expect.stringContaining("more than 5 redirects")
      })
      expect(Result.isFailure(events) && events.failure.message).not.toContain("secret-signature")
      // The first request and five redirects; the default policy would retry a transient error after 5 s.
      expect(host.hops).toHaveLength(6)
    }), 10_000)
})

describe("the file host's statuses go through the core's one mapping", () => {
  /** `/status/N/…` answers N with a JSON body and a Retry-After. */
  const answering = Effect.acquireRelease(
    Effect.callback<{ readonly url: string; readonly server: Http.Server }>((resume) => {
      const server = Http.createServer((req, res) => {
        const status = Number(/^\/status\/(\d+)\//.exec(req.url ?? "")?.[1] ?? 500)
        res.writeHead(status, { "content-type": "application/json", "retry-after": "7" })
        res.end(JSON.stringify({ message: `answer ${status}` }))
      })
      server.listen(
        0,
        "127.0.0.1",
        () => resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }))
      )
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

  it.live(
    "reads and downloads fail with exactly HttpStatus.toError of the answer, from the file host",
    () =>
      Effect.gen(function*() {
        const host = yield* answering
        const fs = yield* FileSystem.FileSystem
        const directory = yield* fs.makeTempDirectoryScoped()
        for (const status of [400, 401, 403, 404, 405, 409, 410, 418, 429, 451, 500, 503]) {
          const url = `${host.url}/status/${status}/part-0.jsonl.gz`
          const expected = HttpStatus.toError({
            status,
            method: "GET",
            url,
            body: JSON.stringify({ message: `answer ${status}` }),
            retryAfterMillis: 7000,
            responder: "fileHost"
          })
          const read = yield* Effect.flip(Stream.runDrain(NodeDatasets.readDatasetFile(`${url}?X-Amz-Signature=s`)))
          expect(read).toEqual(expected)
          const downloaded = yield* Effect.flip(
            Stream.runDrain(NodeDatasets.downloadFile(`${url}?X-Amz-Signature=s`, { directory, retry: false }))
          )
          expect(downloaded).toEqual(expected)
        }
        // The vocabulary: a file host's 4xx other than 401, 403, 404 and 429 (its 400 included: the
        // client sent a link it was given, no input of the caller's) is UnexpectedStatus.
        for (const status of [400, 405, 418]) {
          const odd = HttpStatus.toError({ status, method: "GET", url: host.url, responder: "fileHost" })
          expect(odd._tag).toBe("UnexpectedStatus")
        }
      }).pipe(Effect.provide(NodeDatasets.layer)),
    30_000
  )
})

/** The Warning lines logged while `effect` runs, and its result. */
const warned = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (logLevel === "Warn") lines.push(Array.isArray(message) ? message.join(" ") : String(message))
    })
    return Effect.map(Effect.provide(effect, Logger.layer([logger])), (value) => ({ value, lines }))
  })

/** A file host that must not be asked: the test is about what is refused before any request. */
const noRequests = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make((request) => Effect.die(`no request was expected, and ${request.url} was sent`))
)

describe("links that would mix files on disk are refused before anything is fetched", () => {
  const links = (files: ReadonlyArray<string>) =>
    Layer.mergeAll(
      SemanticScholarStub.layer({ getDatasetDownloadLinks: Fixtures.dataset({ name: "papers", files: [...files] }) }),
      noRequests,
      NodeFileSystem.layer
    )
  const refused = (files: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const error = yield* Effect.flip(Stream.runDrain(NodeDatasets.downloadDataset("latest", "papers", { directory })))
      expect(yield* fs.readDirectory(directory)).toEqual([])
      return error
    }).pipe(Effect.scoped, Effect.provide(links(files)))

  it.effect("a name ending as the download's working files do (x.gz.part is x.gz's partial file)", () =>
    Effect.gen(function*() {
      for (const other of ["a.gz.part", "a.gz.PART", "a.gz.part.json"]) {
        const error = yield* refused([`https://h/x/a.gz?sig=1`, `https://h/x/${other}?sig=2`])
        expect(error).toMatchObject({ _tag: "DatasetFileError", reason: "Name", file: `https://h/x/${other}` })
        expect(error.message).toContain("as the download's own working files do")
        expect(error.message).not.toContain("sig=")
      }
    }))

  it.effect("two names for one file on a file system that ignores case or Unicode form", () =>
    Effect.gen(function*() {
      const error = yield* refused(["https://h/x/Part-0.gz", "https://h/x/part-0.GZ"])
      expect(error.message).toBe("https://h/x/part-0.GZ and https://h/x/Part-0.gz would both be saved as part-0.GZ")
      const composed = yield* refused(["https://h/x/caf%C3%A9.gz", "https://h/x/cafe%CC%81.gz"])
      expect(composed).toMatchObject({ reason: "Name" })
    }))

  it("names with control or bidirectional characters are refused and spelled out; non-http(s) links are refused", () => {
    for (
      const [segment, spelled] of [["evil%E2%80%AEzg.exe", "\\u202e"], ["a%0Ab.gz", "\\u000a"], [
        "a%C2%9B.gz",
        "\\u009b"
      ]]
    ) {
      const result = NodeDatasets.fileNameOf(`https://h/x/${segment}?sig=s`)
      expect(Result.isFailure(result) && result.failure).toMatchObject({ _tag: "DatasetFileError", reason: "Name" })
      const message = Result.isFailure(result) ? result.failure.message : ""
      expect(message).toContain(spelled)
      expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/)
    }
    const file = NodeDatasets.fileNameOf("file:///etc/passwd")
    expect(Result.isFailure(file) && file.failure).toMatchObject({ reason: "Link", file: "file:///etc/passwd" })
    expect(Result.isFailure(file) && file.failure.message).toBe(
      "file:///etc/passwd: a file: link is not fetched: dataset files come from http(s) links only"
    )
  })
})

/**
 * A file host serving one link whose file can be replaced, with an ETag per version; it answers
 * `Range` (under `If-Range` when `honourIfRange`) unless `ignoreRange`, and breaks off every answer
 * after `cutAt` bytes when given.
 */
const replaceableHost = (options: { readonly honourIfRange: boolean; readonly ignoreRange?: boolean }) =>
  Effect.acquireRelease(
    Effect.callback<{
      readonly url: string
      readonly server: Http.Server
      readonly requests: Array<Record<string, string | undefined>>
      serve: (bytes: Uint8Array, etag: string, cutAt?: number) => void
    }>((resume) => {
      let current: { bytes: Uint8Array; etag: string; cutAt: number | undefined } = {
        bytes: new Uint8Array(0),
        etag: "",
        cutAt: undefined
      }
      const requests: Array<Record<string, string | undefined>> = []
      const server = Http.createServer((req, res) => {
        const range = req.headers.range
        const ifRange = req.headers["if-range"] as string | undefined
        requests.push({ range, ifRange })
        const { bytes, cutAt, etag } = current
        const from = range === undefined ? undefined : Number(/^bytes=(\d+)-$/.exec(range)?.[1])
        const partial = from !== undefined && options.ignoreRange !== true &&
          (!options.honourIfRange || ifRange === undefined || ifRange === etag)
        const body = partial ? bytes.subarray(from) : bytes
        res.writeHead(partial ? 206 : 200, {
          etag,
          "content-length": body.length,
          ...(partial ? { "content-range": `bytes ${from}-${bytes.length - 1}/${bytes.length}` } : {})
        })
        if (cutAt === undefined) return res.end(body)
        // Breaks off after `cutAt` bytes, as a dropped connection does.
        res.write(body.subarray(0, cutAt), () => res.destroy())
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/staging/latest/papers/part-0.jsonl.gz`,
          server,
          requests,
          serve: (bytes, etag, cutAt) => (current = { bytes, etag, cutAt })
        })))
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

describe("a partial file is resumed only when the host still has that file", () => {
  /** 200 KB that do not compress (a dataset file is gzip already), different for each seed. */
  const release = (seed: number) => {
    const bytes = new Uint8Array(200_000)
    for (let i = 0, x = seed; i < bytes.length; i++) bytes[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24
    return bytes
  }
  const [older, newer] = [release(1), release(7)]

  for (const honourIfRange of [true, false]) {
    it.live(
      `the release moved on since the interruption: the file is downloaded again, never joined (a host ${
        honourIfRange ? "honouring" : "ignoring"
      } If-Range)`,
      () =>
        Effect.gen(function*() {
          const host = yield* replaceableHost({ honourIfRange })
          const fs = yield* FileSystem.FileSystem
          const directory = yield* fs.makeTempDirectoryScoped()
          const path = NodePath.join(directory, "part-0.jsonl.gz")
          host.serve(older, `"older"`, 20_000)
          const cut = yield* Effect.flip(
            Stream.runDrain(NodeDatasets.downloadFile(`${host.url}?sig=1`, { directory, retry: false }))
          )
          expect(cut._tag).toBe("TransportError")
          expect(Number((yield* fs.stat(`${path}.part`)).size)).toBeGreaterThan(0)

          host.serve(newer, `"newer"`)
          const { lines } = yield* warned(
            Stream.runDrain(NodeDatasets.downloadFile(`${host.url}?sig=2`, { directory }))
          )
          expect(yield* readBytes(path)).toEqual(newer)
          expect(yield* fs.readDirectory(directory)).toEqual(["part-0.jsonl.gz"])
          expect(lines).toEqual([expect.stringContaining("again from the start")])
          // The rest was asked for only if it is the same file: If-Range with the ETag noted.
          expect(host.requests[1]).toEqual({ range: expect.stringMatching(/^bytes=\d+-$/), ifRange: `"older"` })
          expect(host.requests.length).toBe(honourIfRange ? 2 : 3)
        }).pipe(Effect.provide(NodeDatasets.layer)),
      30_000
    )
  }

  it.live(
    "the same file: resumed where it stopped; a partial file without notes is downloaded again",
    () =>
      Effect.gen(function*() {
        const host = yield* replaceableHost({ honourIfRange: true })
        const fs = yield* FileSystem.FileSystem
        const directory = yield* fs.makeTempDirectoryScoped()
        const path = NodePath.join(directory, "part-0.jsonl.gz")
        host.serve(older, `"older"`, 20_000)
        yield* Effect.flip(Stream.runDrain(NodeDatasets.downloadFile(host.url, { directory, retry: false })))
        const stopped = Number((yield* fs.stat(`${path}.part`)).size)
        host.serve(older, `"older"`)
        const resumed = yield* warned(Stream.runDrain(NodeDatasets.downloadFile(host.url, { directory })))
        expect(resumed.lines).toEqual([])
        expect(yield* readBytes(path)).toEqual(older)
        expect(host.requests.slice(1)).toEqual([{ range: `bytes=${stopped}-`, ifRange: `"older"` }])

        // Left by an earlier version of the client, or by another tool: nothing says which file it is part of.
        yield* fs.remove(path)
        yield* fs.writeFile(`${path}.part`, newer.subarray(0, 1000))
        const unknown = yield* warned(Stream.runDrain(NodeDatasets.downloadFile(host.url, { directory })))
        expect(unknown.lines).toEqual([expect.stringContaining("has no notes")])
        expect(yield* readBytes(path)).toEqual(older)
        expect(host.requests.at(-1)).toEqual({ range: undefined, ifRange: undefined })
      }).pipe(Effect.provide(NodeDatasets.layer)),
    30_000
  )
})

describe("an answer whose body is not wanted is not read", () => {
  /** What the endless host has sent, and the most it sends before giving up on a reader that keeps reading. */
  const cap = 64 * 1024 * 1024
  const endlessHost = Effect.acquireRelease(
    Effect.promise(() => {
      const state = { sent: 0 }
      const chunk = Buffer.alloc(64 * 1024, 120)
      return serve((_seen, _index, res) => {
        // 416 for the range asked for, then a body that never ends: written as fast as it is read.
        res.writeHead(416, { "content-range": "bytes */5", etag: `"v1"` })
        const pump = () => {
          while (state.sent < cap) {
            state.sent += chunk.length
            if (!res.write(chunk)) return void res.once("drain", pump)
          }
          res.destroy()
        }
        pump()
        return undefined
      }).then((host) => ({ host, state }))
    }),
    ({ host }) => Effect.promise(() => host.close())
  )

  it.effect(
    "a 416 with an endless body: the partial file is completed from its headers, the body dropped",
    () =>
      Effect.gen(function*() {
        const { host, state } = yield* endlessHost
        const fs = yield* FileSystem.FileSystem
        const directory = yield* fs.makeTempDirectoryScoped()
        const url = `${host.url}/a/part-0.jsonl.gz`
        const path = NodePath.join(directory, "part-0.jsonl.gz")
        yield* fs.writeFileString(`${path}.part`, "hello")
        yield* fs.writeFileString(`${path}.part.json`, JSON.stringify({ url, total: 5, etag: `"v1"` }))
        // On the TestClock: no time-out can end the read; only not reading it does.
        const events = yield* NodeDatasets.downloadFile(url, { directory, retry: false }).pipe(Stream.runCollect)
        expect(events.map((e) => e._tag)).toEqual(["Started", "Completed"])
        expect(yield* fs.readFileString(path)).toBe("hello")
        expect(host.requests.map((r) => r.headers.range)).toEqual(["bytes=5-"])
        // Before the fix the whole body was read into memory: all 64 MB the host would send, and
        // forever from a host without that cap. Now what the sockets' buffers hold (4 MB here) at most.
        expect(state.sent).toBeLessThan(cap / 2)
      }).pipe(Effect.scoped, Effect.provide(NodeDatasets.layer)),
    60_000
  )
})

describe("retries that get no further use up the budget", () => {
  it.effect(
    "a host that ignores Range and breaks off at the same byte every time: the policy gives up",
    () =>
      Effect.gen(function*() {
        const host = yield* replaceableHost({ honourIfRange: false, ignoreRange: true })
        host.serve(new Uint8Array(100_000).fill(1), `"same"`, 30_000)
        const fs = yield* FileSystem.FileSystem
        const directory = yield* fs.makeTempDirectoryScoped()
        // Before the fix this retried forever: a bound the test can fail on instead of hanging.
        const bounded = Effect.suspend(() =>
          host.requests.length > 50 ? Effect.die(`${host.requests.length} requests: retried forever`) : Effect.void
        )
        const program = NodeDatasets.downloadFile(host.url, { directory, idleTimeout: "1 hour" }).pipe(
          Stream.runDrain,
          Effect.flip
        )
        const { lines, value } = yield* warned(advancingRetries(program, 60_000, bounded))
        expect(value).toMatchObject({ _tag: "TransportError", reason: "cutShort" })
        // The first attempt got bytes no attempt had; each retry got as far, and no further: the 5
        // retries of a body cut short (RetryPolicy.defaultBudgets.serverFailed), each said.
        expect(host.requests).toHaveLength(6)
        expect(lines.filter((line) => line.includes("answered with the whole file"))).toHaveLength(5)
      }).pipe(Effect.scoped, Effect.provide(NodeDatasets.layer)),
    60_000
  )
})

describe("the directories a download makes, and a full disk", () => {
  it.effect.runIf(process.platform === "linux")(
    "a directory that cannot be made (under /proc) fails at once, naming it",
    () =>
      Effect.gen(function*() {
        const directory = "/proc/s2-effect-test/papers"
        const error = yield* Effect.flip(Stream.runDrain(NodeDatasets.downloadFile("https://h/x/a.gz", { directory })))
        expect(error).toMatchObject({
          _tag: "DatasetFileError",
          reason: "Io",
          message: "cannot create the directory /proc/s2-effect-test/papers: no such file or directory (ENOENT)"
        })
      }).pipe(Effect.provide(Layer.merge(noRequests, NodeFileSystem.layer))),
    30_000
  )

  it.effect("a full disk: the error says so in words, not the platform's method and descriptor", () => {
    const enospc = PlatformError.systemError({
      _tag: "Unknown",
      module: "FileSystem",
      method: "writeAll",
      pathOrDescriptor: 21,
      cause: Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" })
    })
    // Node's file system, except that every write to an open file finds the disk full.
    const full = Layer.effect(
      FileSystem.FileSystem,
      Effect.map(FileSystem.FileSystem, (fs) =>
        FileSystem.FileSystem.of({
          ...fs,
          open: (path, options) =>
            Effect.map(fs.open(path, options), (file) =>
              Object.assign(Object.create(file) as FileSystem.File, { writeAll: () => Effect.fail(enospc) }))
        }))
    ).pipe(Layer.provide(NodeFileSystem.layer))
    return Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const directory = yield* fs.makeTempDirectoryScoped()
      const [url = ""] = (yield* Effect.flatMap(SemanticScholar, (s2) => s2.getDatasetDownloadLinks("latest", "tldrs")))
        .files
      const path = NodePath.join(directory, nameOf(url))
      const error = yield* Effect.flip(Stream.runDrain(NodeDatasets.downloadFile(url, { directory })))
      expect(error).toMatchObject({
        _tag: "DatasetFileError",
        reason: "Io",
        message: `cannot write ${path}.part: no space left on device (ENOSPC)`
      })
    }).pipe(Effect.provide(Layer.merge(inMemory(), full)))
  })
})
