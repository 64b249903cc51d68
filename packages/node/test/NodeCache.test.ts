/**
 * The file-system store of the response cache, against the emulator's request log: a second pass
 * sends nothing, a new client on the same directory reuses the answers, and the time to live holds.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Corpus, Emulator, Faults } from "@s2-effect/testing"
import { Effect, Layer, Logger } from "effect"
import { TestClock } from "effect/testing"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { NodeCache } from "../src/index.js"
import { redisServer } from "./support/redis.js"

const corpus = Corpus.make({ seed: 5, size: 1000 })
const ids = Array.from({ length: 500 }, (_, i) => `CorpusId:${corpus.paper(i).corpusId}`)
const root = fs.mkdtempSync(path.join(os.tmpdir(), "s2-cache-test-"))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

const client = (directory: string) =>
  SemanticScholar.layer({
    rateLimit: false,
    cache: { store: NodeCache.fileSystem(directory), timeToLive: "1 hour" }
  }).pipe(Layer.provideMerge(Emulator.layer({ corpus })))

const lookUpAll = (concurrency: number | "unbounded") =>
  Effect.flatMap(SemanticScholar, (s2) =>
    Effect.forEach(
      ids,
      (id) => Effect.map(s2.getPaper(id, { fields: ["title", "year", "authors.name", "externalIds"] }), (p) => p.raw),
      { concurrency }
    ))

/** Runs a pass of lookups and says what it returned and how many requests reached the emulator. */
const pass = (concurrency: number | "unbounded" = 8) =>
  Effect.gen(function*() {
    const emulator = yield* Emulator
    yield* emulator.clearRequests
    const records = yield* lookUpAll(concurrency)
    return { records, sent: (yield* emulator.requests).length }
  })

/** Waits until `directory` holds `count` entries (temporary files aside), for at most 30 s. */
const entries = (directory: string, count: number) =>
  Effect.promise(async () => {
    const deadline = Date.now() + 30_000
    const held = () => fs.readdirSync(directory).filter((name) => !name.endsWith(".tmp")).length
    while (held() < count && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve))
  })

describe("NodeCache.fileSystem", () => {
  it.effect(
    "the same 500 lookups twice: the second pass sends nothing; after the time to live it asks again",
    () =>
      Effect.gen(function*() {
        const first = yield* pass()
        expect(first.sent).toBe(500)
        const second = yield* pass()
        expect(second.sent).toBe(0)
        expect(second.records).toEqual(first.records)
        yield* TestClock.adjust("61 minutes")
        const third = yield* pass()
        expect(third.sent).toBe(500)
        expect(third.records).toEqual(first.records)
      }).pipe(Effect.provide(client(path.join(root, "ttl")))),
    60_000
  )

  it.effect("a new client on the same directory reuses the answers", () =>
    Effect.gen(function*() {
      const directory = path.join(root, "shared")
      const first = yield* Effect.provide(pass(), client(directory))
      const second = yield* Effect.provide(pass(), client(directory))
      expect([first.sent, second.sent]).toEqual([500, 0])
      expect(second.records).toEqual(first.records)
      // One small file per answer, named by a hash (no ids or paths in file names).
      const files = fs.readdirSync(directory)
      expect(files).toHaveLength(500)
      expect(files.every((name) => /^s2-effect[\w.%-]+$/.test(name) && !name.includes("CorpusId"))).toBe(true)
    }), 60_000)

  it.effect(
    "with batching, 500 lookups are one request the first time and none the second",
    () =>
      Effect.gen(function*() {
        const directory = path.join(root, "batched")
        const batched = SemanticScholar.layer({
          rateLimit: false,
          batching: true,
          cache: { store: NodeCache.fileSystem(directory), timeToLive: "1 hour" }
        }).pipe(Layer.provideMerge(Emulator.layer({ corpus })))
        // All 500 at once: the batch goes out when it is full, without waiting for the window.
        const run = pass("unbounded")
        const first = yield* Effect.provide(run, batched)
        // effect's persisted resolver stores a batch's answers after its callers have them: in the
        // background, so the second pass waits for the entries (the write of each is a new file and
        // a rename).
        yield* entries(directory, 500)
        const second = yield* Effect.provide(run, batched)
        expect([first.sent, second.sent]).toEqual([1, 0])
        expect(second.records).toEqual(first.records)
        // One entry per lookup, not one per batch.
        expect(fs.readdirSync(directory)).toHaveLength(500)
      }),
    60_000
  )

  it.effect("a directory that cannot be made fails the layer with InvalidOptions", () =>
    Effect.gen(function*() {
      const file = path.join(root, "a-file")
      fs.writeFileSync(file, "")
      const error = yield* Effect.flip(Effect.provide(SemanticScholar, client(path.join(file, "cache"))))
      expect(error._tag).toBe("InvalidOptions")
      expect(error.message).toContain("the cache store could not be opened")
    }))
})

describe("NodeCache.fileSystem in a directory that cannot be made", () => {
  it.effect.runIf(process.platform === "linux")(
    "under /proc (where Node's recursive mkdir never returns): the layer fails at once, saying why",
    () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(Effect.provide(SemanticScholar, client("/proc/s2-effect-test/cache")))
        expect(error._tag).toBe("InvalidOptions")
        // The directory that could not be made, and why.
        expect(error.message).toBe(
          "the cache store could not be opened: NotFound: FileSystem.makeDirectory (/proc/s2-effect-test): " +
            "no such file or directory (ENOENT)"
        )
      }),
    30_000
  )
})

describe("NodeCache.fileSystem against what a directory may hold", () => {
  const two = ids.slice(0, 2)
  const lookUp = Effect.flatMap(
    SemanticScholar,
    (s2) => Effect.forEach(two, (id) => Effect.map(s2.getPaper(id, { fields: ["title", "year"] }), (p) => p.raw))
  )
  const sent = Effect.flatMap(Emulator, (emulator) => Effect.map(emulator.requests, (all) => all.length))
  /** The entry files of a directory, by name. */
  const files = (directory: string) => fs.readdirSync(directory).map((name) => path.join(directory, name))

  it.effect("a 200 that is not a paper is not kept: the next lookup asks again and gets the paper", () =>
    Effect.gen(function*() {
      const directory = path.join(root, "busy")
      const busy = SemanticScholar.layer({
        rateLimit: false,
        retry: false,
        cache: { store: NodeCache.fileSystem(directory), timeToLive: "1 day" }
      }).pipe(Layer.provideMerge(Emulator.layer({
        corpus,
        faults: {
          script: [{
            requests: 1,
            fault: Faults.status(200, { body: `{"message":"Service temporarily unavailable"}` })
          }]
        }
      })))
      yield* Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const lookup = s2.getPaper(ids[0]!, { fields: ["title"] })
        expect((yield* Effect.flip(lookup))._tag).toBe("DecodeError")
        expect(fs.readdirSync(directory)).toHaveLength(0)
        expect((yield* lookup).title).toBe(corpus.paper(0).title)
        expect(yield* sent).toBe(2)
        yield* lookup
        expect(yield* sent).toBe(2)
      }).pipe(Effect.provide(busy))
    }))

  it.effect("swapped entry files: each lookup gets its own paper (asked again), never the other", () =>
    Effect.gen(function*() {
      const directory = path.join(root, "swapped")
      const first = yield* lookUp
      const [a, b] = files(directory)
      expect(files(directory)).toHaveLength(2)
      const [textA, textB] = [fs.readFileSync(a!, "utf8"), fs.readFileSync(b!, "utf8")]
      fs.writeFileSync(a!, textB)
      fs.writeFileSync(b!, textA)
      expect(yield* lookUp).toEqual(first)
      expect(yield* sent).toBe(4)
      // Each file again holds the answer to its own request.
      expect(yield* lookUp).toEqual(first)
      expect(yield* sent).toBe(4)
    }).pipe(Effect.provide(client(path.join(root, "swapped")))))

  it.effect("entry files of garbage, cut short, or emptied are misses: the lookups succeed", () =>
    Effect.gen(function*() {
      const directory = path.join(root, "garbage")
      const first = yield* lookUp
      const [a, b] = files(directory)
      fs.writeFileSync(a!, Buffer.from([0, 255, 254, 10, 123]))
      fs.writeFileSync(b!, fs.readFileSync(b!, "utf8").slice(0, 40))
      expect(yield* lookUp).toEqual(first)
      expect(yield* sent).toBe(4)
      fs.writeFileSync(a!, "")
      expect(yield* lookUp).toEqual(first)
      expect(yield* sent).toBe(5)
    }).pipe(Effect.provide(client(path.join(root, "garbage")))))
})

describe("NodeCache.fileSystem never goes through a symbolic link under an entry's name", () => {
  const id = ids[0]!
  const lookUp = Effect.flatMap(SemanticScholar, (s2) => s2.getPaper(id, { fields: ["title"] }))
  const sent = Effect.flatMap(Emulator, (emulator) => Effect.map(emulator.requests, (all) => all.length))
  /** The Warning lines logged while `effect` runs, and its result. */
  const warned = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.suspend(() => {
      const lines: Array<string> = []
      const logger = Logger.make(({ logLevel, message }) => {
        if (logLevel === "Warn") lines.push(Array.isArray(message) ? message.join(" ") : String(message))
      })
      return Effect.map(Effect.provide(effect, Logger.layer([logger])), (value) => ({ value, lines }))
    })
  /** The name of the lookup's entry (names are predictable: that is the point), from a run elsewhere. */
  const entryName = Effect.gen(function*() {
    const directory = path.join(root, "names")
    yield* Effect.provide(lookUp, client(directory))
    const [name] = fs.readdirSync(directory)
    return name!
  })

  it.effect("a link planted under the name: its target is untouched, and the entry is a file of its own", () =>
    Effect.gen(function*() {
      const name = yield* entryName
      const directory = path.join(root, "planted")
      fs.mkdirSync(directory)
      const victim = path.join(root, "victim")
      fs.writeFileSync(victim, "precious")
      fs.symlinkSync(victim, path.join(directory, name))
      const { lines, value } = yield* warned(Effect.provide(lookUp, client(directory)))
      expect(value.title).toBe(corpus.paper(0).title)
      expect(fs.readFileSync(victim, "utf8")).toBe("precious")
      expect(fs.lstatSync(path.join(directory, name)).isFile()).toBe(true)
      expect(lines).toEqual([expect.stringContaining(`${path.join(directory, name)} is a symbolic link`)])
      // The entry now answers the next lookup.
      const again = yield* Effect.provide(Effect.andThen(lookUp, sent), client(directory))
      expect(again).toBe(0)
    }))

  it.effect("a link to a valid entry elsewhere is not read: the server is asked, the entry left as it was", () =>
    Effect.gen(function*() {
      const name = yield* entryName
      const elsewhere = path.join(root, "names", name)
      const before = fs.readFileSync(elsewhere, "utf8")
      const directory = path.join(root, "linked")
      fs.mkdirSync(directory)
      fs.symlinkSync(elsewhere, path.join(directory, name))
      const { lines, value } = yield* warned(Effect.provide(Effect.andThen(lookUp, sent), client(directory)))
      // Read through the link, the entry would have answered without a request.
      expect(value).toBe(1)
      expect(lines).toEqual([
        expect.stringContaining("is a symbolic link; the cache reads files of its own only")
      ])
      expect(fs.readFileSync(elsewhere, "utf8")).toBe(before)
      expect(fs.lstatSync(path.join(directory, name)).isFile()).toBe(true)
    }))
})

describe("NodeCache.redis", () => {
  const redisClient = (url: string) =>
    SemanticScholar.layer({
      rateLimit: false,
      cache: { store: NodeCache.redis({ url }), timeToLive: "1 hour" }
    }).pipe(Layer.provideMerge(Emulator.layer({ corpus })))

  it.live("a second client on the same server reuses the answers", () =>
    Effect.gen(function*() {
      const redis = yield* redisServer
      const first = yield* Effect.provide(pass(), redisClient(redis.url))
      const second = yield* Effect.provide(pass(), redisClient(redis.url))
      expect([first.sent, second.sent]).toEqual([500, 0])
      expect(second.records).toEqual(first.records)
    }), 60_000)

  it.live(
    "a Redis that is down as the client starts costs warnings, never a failed lookup",
    () =>
      Effect.gen(function*() {
        const redis = yield* redisServer
        yield* redis.kill
        // Down from the start: the client starts, and every lookup is answered by the API.
        const down = yield* Effect.provide(pass(), redisClient(redis.url))
        expect(down.sent).toBe(500)
        expect(down.records).toHaveLength(500)
      }),
    60_000
  )
})
