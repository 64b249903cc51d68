/**
 * The response cache against a scripted server: what is reused, for how long, what is never
 * stored, what a key is made of, and that a broken store never fails a request.
 */
import { describe, expect, it } from "@effect/vitest"
import { settle } from "@s2-effect/test-support"
import { Effect, Layer, Logger, Redacted, Ref, Stream } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import type { Options } from "../src/index.js"
import { ResponseCache, SemanticScholar, withBatching } from "../src/index.js"
import type { Seen } from "./support/Scripted.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const sha = (n: number) => n.toString(16).padStart(40, "0")

/** A Graph API in miniature: papers by path, batches, citation pages, recommendations, releases. */
const server = (request: Seen) => {
  const path = request.url.pathname
  if (path.endsWith("/batch")) {
    return Effect.succeed(
      json((request.body as { ids: Array<string> }).ids.map((id) => ({ paperId: sha(1), title: id })))
    )
  }
  if (path.endsWith("/citations")) {
    const offset = Number(request.url.searchParams.get("offset"))
    return Effect.succeed(json({
      offset,
      ...(offset < 2 ? { next: offset + 1 } : {}),
      data: [{ citingPaper: { paperId: sha(offset), title: `c${offset}` } }]
    }))
  }
  if (path.startsWith("/recommendations/")) {
    return Effect.succeed(json({ recommendedPapers: [{ paperId: sha(9), title: "like it" }] }))
  }
  if (path === "/datasets/v1/release/") return Effect.succeed(json(["2024-01-02"]))
  if (path.endsWith("/CorpusId:404")) {
    return Effect.succeed(json({ error: "Paper with id CorpusId:404 not found" }, 404))
  }
  if (path.endsWith("/CorpusId:500")) return Effect.succeed(json({ message: "Internal error" }, 500))
  return Effect.succeed(json({ paperId: sha(2), title: `at ${path}`, year: 2020 }))
}

const cached = (options: Options = {}) =>
  testLayer(server, { retry: false, cache: { store: ResponseCache.memory, timeToLive: "1 hour" }, ...options })

const count = Effect.map(requests, (all) => all.length)

describe("response cache", () => {
  it.effect("reuses a lookup within the time to live and asks again after it", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const first = yield* s2.getPaper("CorpusId:1", { fields: ["title", "year"] })
      const again = yield* s2.getPaper("CorpusId:1", { fields: ["title", "year"] })
      expect(again.raw).toEqual(first.raw)
      expect(yield* count).toBe(1)
      yield* TestClock.adjust("59 minutes")
      yield* s2.getPaper("CorpusId:1", { fields: ["title", "year"] })
      expect(yield* count).toBe(1)
      yield* TestClock.adjust("2 minutes")
      yield* s2.getPaper("CorpusId:1", { fields: ["title", "year"] })
      expect(yield* count).toBe(2)
    }).pipe(Effect.provide(cached())))

  it.effect("concurrent identical requests are sent once, with or without batching", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const lookups = (id: string) =>
        Effect.gen(function*() {
          const fiber = yield* Effect.forkChild(
            Effect.all([1, 2, 3].map(() => s2.getPaper(id, { fields: ["title"] })), { concurrency: "unbounded" })
          )
          return (yield* settle(fiber)).map((p) => p.title)
        })
      expect(yield* lookups("CorpusId:1")).toEqual(Array(3).fill("at /graph/v1/paper/CorpusId:1"))
      expect(yield* count).toBe(1)
      expect(yield* withBatching(true)(lookups("CorpusId:2"))).toEqual(Array(3).fill("CorpusId:2"))
      expect((yield* requests).map((r) => [r.method, r.body])).toEqual([
        ["GET", undefined],
        ["POST", { ids: ["CorpusId:2"] }]
      ])
    }).pipe(Effect.provide(cached())))

  it.effect("keys differ by id, fields and filters", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* s2.getPaper("CorpusId:1", { fields: ["title"] })
      yield* s2.getPaper("CorpusId:2", { fields: ["title"] })
      yield* s2.getPaper("CorpusId:1", { fields: ["year"] })
      const citations = (publicationDateOrYear?: string) =>
        Stream.runCollect(s2.getPaperCitations("CorpusId:1", { fields: ["title"], publicationDateOrYear }))
      yield* citations()
      yield* citations("2020")
      expect(yield* count).toBe(3 + 3 + 3)
    }).pipe(Effect.provide(cached())))

  it.effect("caches batches, recommendations and list pages; never the Datasets API", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const twice = <A, E>(effect: Effect.Effect<A, E>) => Effect.zip(effect, effect)
      const [pagesA, pagesB] = yield* twice(
        Stream.runCollect(s2.getPaperCitations("CorpusId:1", { fields: ["title"] }))
      )
      expect(pagesB.map((c) => c.citingPaper?.title)).toEqual(["c0", "c1", "c2"])
      expect(pagesA).toEqual(pagesB)
      yield* twice(s2.getPapers(["CorpusId:1", "CorpusId:2"], { fields: ["title"] }))
      yield* twice(s2.getRecommendedPapers("CorpusId:1"))
      yield* twice(s2.getRecommendedPapersFromLists(["CorpusId:1"]))
      yield* twice(s2.getAvailableReleases())
      const seen = yield* requests
      expect(seen.map((r) => r.url.pathname)).toEqual([
        "/graph/v1/paper/CorpusId:1/citations",
        "/graph/v1/paper/CorpusId:1/citations",
        "/graph/v1/paper/CorpusId:1/citations",
        "/graph/v1/paper/batch",
        "/recommendations/v1/papers/forpaper/CorpusId:1",
        "/recommendations/v1/papers/",
        "/datasets/v1/release/",
        "/datasets/v1/release/"
      ])
    }).pipe(Effect.provide(cached())))

  it.effect("a cached page is decoded into new records on each hit: emptying one page leaves the cache whole", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const pages = s2.getPaperCitationsPages("CorpusId:1", { fields: ["title"] }).pipe(Stream.take(1))
      const [first] = yield* Stream.runCollect(pages)
      const [again] = yield* Stream.runCollect(pages)
      expect(yield* count).toBe(1)
      expect(again?.data[0]).not.toBe(first?.data[0]) // What `s2 harvest` does with a page once it is written.
      ;(first?.data as Array<unknown>).length = 0
      const [third] = yield* Stream.runCollect(pages)
      expect(third?.data.map((c) => c.citingPaper?.title)).toEqual(["c0"])
    }).pipe(Effect.provide(cached())))

  it.effect("caches ObjectNotFound; asks again after any other error", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const tags = yield* Effect.forEach(
        ["CorpusId:404", "CorpusId:404", "CorpusId:500", "CorpusId:500"],
        (id) => Effect.flip(s2.getPaper(id, { fields: ["title"] })).pipe(Effect.map((e) => e._tag))
      )
      expect(tags).toEqual(["ObjectNotFound", "ObjectNotFound", "ServerError", "ServerError"])
      expect((yield* requests).map((r) => r.url.pathname)).toEqual([
        "/graph/v1/paper/CorpusId:404",
        "/graph/v1/paper/CorpusId:500",
        "/graph/v1/paper/CorpusId:500"
      ])
    }).pipe(Effect.provide(cached())))

  it.effect("with batching, each lookup is its own entry: a re-run hits however lookups are grouped", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const round = (ids: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          const fiber = yield* Effect.forkChild(
            Effect.forEach(ids, (id) => s2.getPaper(id, { fields: ["title"] }), { concurrency: "unbounded" })
          )
          return (yield* settle(fiber)).map((p) => p.title)
        })
      // Which lookups share a batch call depends on when each leaves the (asynchronous) store: the
      // ids asked, once each, do not.
      const asked = Effect.map(requests, (seen) => seen.flatMap((r) => (r.body as { ids: Array<string> }).ids))
      expect(yield* round(["CorpusId:2", "CorpusId:4"])).toEqual(["CorpusId:2", "CorpusId:4"])
      expect([...yield* asked].sort()).toEqual(["CorpusId:2", "CorpusId:4"])
      expect(yield* round(["CorpusId:4", "CorpusId:6", "CorpusId:2"])).toEqual([
        "CorpusId:4",
        "CorpusId:6",
        "CorpusId:2"
      ])
      expect([...yield* asked].sort()).toEqual(["CorpusId:2", "CorpusId:4", "CorpusId:6"])
    }).pipe(Effect.provide(cached({ batching: true }))))

  it.effect("never puts the API key in a key or an entry, and clients with other keys share entries", () =>
    Effect.gen(function*() {
      const entries = new Map<string, string>()
      const kv = KeyValueStore.makeStringOnly({
        get: (key) => Effect.sync(() => entries.get(key)),
        set: (key, value) => Effect.sync(() => void entries.set(key, value)),
        remove: (key) => Effect.sync(() => void entries.delete(key)),
        clear: Effect.sync(() => entries.clear()),
        size: Effect.sync(() => entries.size),
        keys: Effect.sync(() => [...entries.keys()])
      })
      const store = ResponseCache.keyValueStore.pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore)(kv)))
      const secret = "sekrit-api-key-0123456789"
      const run = (apiKey: string) =>
        Effect.flatMap(SemanticScholar, (s2) =>
          Effect.all([
            s2.getPaper("CorpusId:1", { fields: ["title"] }),
            s2.getPapers(["CorpusId:1"]),
            Effect.flip(s2.getPaper("CorpusId:404"))
          ])).pipe(
            Effect.andThen(count),
            Effect.provide(testLayer(server, { apiKey: Redacted.make(apiKey), rateLimit: false, cache: { store } }))
          )
      expect(yield* run(secret)).toBe(3)
      expect(entries.size).toBe(3)
      for (const [key, value] of entries) {
        expect(key).not.toContain(secret)
        expect(value).not.toContain(secret)
      }
      expect(yield* run("another-key")).toBe(0)
    }))

  it.effect("a store that fails is logged, left alone for 30 s, and the server asked; requests succeed", () =>
    Effect.gen(function*() {
      const logs = yield* Ref.make<ReadonlyArray<string>>([])
      const logger = Logger.make(({ message }) => Effect.runSync(Ref.update(logs, (all) => [...all, String(message)])))
      const diskGone = new KeyValueStore.KeyValueStoreError({ method: "get", message: "disk gone" })
      const broken = KeyValueStore.makeStringOnly({
        get: () => Effect.fail(diskGone),
        set: () => Effect.fail(diskGone),
        remove: () => Effect.void,
        clear: Effect.void,
        size: Effect.succeed(0),
        keys: Effect.succeed([])
      })
      const store = ResponseCache.keyValueStore.pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore)(broken)))
      const warnings = Effect.map(Ref.get(logs), (all) => all.filter((line) => line.includes("S2 cache")))
      yield* Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const paper = yield* s2.getPaper("CorpusId:1", { fields: ["title"] })
        yield* s2.getPaper("CorpusId:2", { fields: ["title"] })
        expect(paper.title).toBe("at /graph/v1/paper/CorpusId:1")
        expect(yield* count).toBe(2)
        expect(yield* warnings).toHaveLength(1)
        expect((yield* warnings)[0]).toContain("disk gone")
        expect((yield* warnings)[0]).toContain("leaving the cache alone for 30s")
        yield* TestClock.adjust("31 seconds")
        yield* s2.getPaper("CorpusId:3", { fields: ["title"] })
        expect(yield* warnings).toHaveLength(2)
      }).pipe(
        Effect.provide(cached({ cache: { store } })),
        Effect.provide(Logger.layer([logger]))
      )
    }))

  it.effect("refuses a time to live that is not positive", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.provide(SemanticScholar, cached({ cache: { store: ResponseCache.memory, timeToLive: 0 } }))
      )
      expect(error._tag).toBe("InvalidOptions")
      expect(error.message).toContain("cache.timeToLive")
    }))
})

/** A key-value store in a Map, so that a test can read, swap and spoil its entries. */
const mapStore = () => {
  const entries = new Map<string, string>()
  const kv = KeyValueStore.makeStringOnly({
    get: (key) => Effect.sync(() => entries.get(key)),
    set: (key, value) => Effect.sync(() => void entries.set(key, value)),
    remove: (key) => Effect.sync(() => void entries.delete(key)),
    clear: Effect.sync(() => entries.clear()),
    size: Effect.sync(() => entries.size),
    keys: Effect.sync(() => [...entries.keys()])
  })
  return {
    entries,
    store: ResponseCache.keyValueStore.pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore)(kv)))
  }
}

/** The log lines of the test, for the cache's warnings. */
const logged = Effect.gen(function*() {
  const lines = yield* Ref.make<ReadonlyArray<string>>([])
  const logger = Logger.make(({ logLevel, message }) =>
    Effect.runSync(Ref.update(lines, (all) => [...all, `${logLevel}: ${String(message)}`]))
  )
  return { lines: Ref.get(lines), layer: Logger.layer([logger]) }
})

/** Runs a call to its end under TestClock (a batching window waits on the clock). */
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.flatMap(Effect.forkChild(effect), settle)

/** What a busy server has been seen to answer with a 200: not a record, a page or a batch. */
const unavailable = { message: "Service temporarily unavailable" }

describe("response cache: only decoded answers are kept", () => {
  /** The first request gets a 200 that is not the answer (a page whose records are not records), later ones the answer. */
  const busyFirst = (request: Seen, index: number) => {
    const path = request.url.pathname
    const body = path.endsWith("/batch")
      ? [unavailable]
      : path.endsWith("/citations")
      ? { data: [unavailable.message] }
      : unavailable
    return index > 0 ? server(request) : Effect.succeed(json(body))
  }

  for (const batching of [false, true]) {
    it.effect(`a lookup${batching ? " (batched)" : ""} that could not be decoded is asked again, then kept`, () =>
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const lookup = run(s2.getPaper("CorpusId:1", { fields: ["title"] }))
        expect((yield* Effect.flip(lookup))._tag).toBe("DecodeError")
        const paper = yield* lookup
        expect(paper.title).toBe(batching ? "CorpusId:1" : "at /graph/v1/paper/CorpusId:1")
        expect(yield* count).toBe(2)
        yield* lookup
        expect(yield* count).toBe(2)
      }).pipe(Effect.provide(testLayer(busyFirst, { retry: false, batching, cache: { store: ResponseCache.memory } }))))
  }

  it.effect("a page that could not be decoded is asked again", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const page = Stream.runCollect(
        s2.getPaperCitationsPages("CorpusId:1", { fields: ["title"] }).pipe(Stream.take(1))
      )
      expect((yield* Effect.flip(page))._tag).toBe("DecodeError")
      const [first] = yield* page
      expect(first?.data.map((c) => c.citingPaper?.title)).toEqual(["c0"])
      expect(yield* count).toBe(2)
    }).pipe(Effect.provide(testLayer(busyFirst, { retry: false, cache: { store: ResponseCache.memory } }))))
})

describe("response cache: an entry answers its own request only", () => {
  const titles = ["CorpusId:1", "CorpusId:2"]

  for (const batching of [false, true]) {
    it.effect(`swapped entries${batching ? " of batched lookups" : ""} are a logged miss, never the other paper`, () =>
      Effect.gen(function*() {
        const { entries, store } = mapStore()
        const logs = yield* logged
        const expected = (id: string) => batching ? id : `at /graph/v1/paper/${id}`
        yield* Effect.gen(function*() {
          const s2 = yield* SemanticScholar
          const lookUp = Effect.forEach(titles, (id) => run(s2.getPaper(id, { fields: ["title"] })))
          expect((yield* lookUp).map((p) => p.title)).toEqual(titles.map(expected))
          expect(entries.size).toBe(2)
          const [a, b] = [...entries]
          entries.set(a![0], b![1])
          entries.set(b![0], a![1])
          expect((yield* lookUp).map((p) => p.title)).toEqual(titles.map(expected))
          expect(yield* count).toBe(4)
          const warnings = (yield* logs.lines).filter((line) => line.startsWith("Warn") && line.includes("S2 cache"))
          expect(warnings).toHaveLength(2)
          // What it expected and what it found, both named.
          expect(warnings.join("\n")).toMatch(/CorpusId:1[^]*CorpusId:2/)
          expect(warnings.join("\n")).toMatch(/CorpusId:2[^]*CorpusId:1/)
          // Each entry was rewritten for its own request: a third pass is answered by the store.
          yield* lookUp
          expect(yield* count).toBe(4)
        }).pipe(
          Effect.provide(testLayer(server, { retry: false, batching, cache: { store, timeToLive: "1 hour" } })),
          Effect.provide(logs.layer)
        )
      }))
  }

  it.effect("a batched getPaper shares the entry of getPaper, never that of getPapers of one id", () =>
    Effect.gen(function*() {
      const logs = yield* logged
      yield* Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const fields = { fields: ["title"] as const }
        const one = (id: string) => Effect.map(run(s2.getPaper(id, fields)), (p) => p.title)
        const list = (id: string) => Effect.map(s2.getPapers([id], fields), (ps) => ps.map((p) => p.title))
        // A record and a list of one: asked once each, then both answered by the store, each its own shape.
        for (let round = 0; round < 2; round++) {
          expect(yield* list("CorpusId:1")).toEqual(["CorpusId:1"])
          expect(yield* one("CorpusId:1")).toBe("CorpusId:1")
        }
        expect(yield* count).toBe(2)
        // Batched or not, a lookup is the same request: the other way round reads the same entry.
        expect(yield* withBatching(false)(one("CorpusId:1"))).toBe("CorpusId:1")
        expect(yield* withBatching(false)(one("CorpusId:2"))).toBe("at /graph/v1/paper/CorpusId:2")
        expect(yield* one("CorpusId:2")).toBe("at /graph/v1/paper/CorpusId:2")
        expect(yield* count).toBe(3)
        expect((yield* logs.lines).filter((line) => line.startsWith("Warn"))).toEqual([])
      }).pipe(Effect.provide(cached({ batching: true })), Effect.provide(logs.layer))
    }))

  /**
   * Ways an entry's text can be spoiled on disk or in a store, each read as a miss, logged (except
   * a text that is not a stored pair at all, which effect's key-value backing reads as no entry).
   */
  const spoiled: ReadonlyArray<readonly [string, (text: string) => string]> = [
    ["garbage", () => "\u0000\u00ffnot json at all"],
    ["truncated", (text) => text.slice(0, Math.floor(text.length / 2))],
    ["empty", () => ""],
    ["not an entry", () => JSON.stringify([{ hello: "world" }, null])],
    [
      "another version's format",
      () => JSON.stringify([{ _tag: "Success", value: { paperId: sha(3), title: "from another version" } }, null])
    ],
    ["a number", () => "42"]
  ]

  for (const [what, spoil] of spoiled) {
    it.effect(`an entry that cannot be read (${what}) is a miss: the server is asked, the request succeeds`, () =>
      Effect.gen(function*() {
        const { entries, store } = mapStore()
        const logs = yield* logged
        yield* Effect.gen(function*() {
          const s2 = yield* SemanticScholar
          const lookUp = s2.getPaper("CorpusId:1", { fields: ["title"] })
          yield* lookUp
          const [key, text] = [...entries][0]!
          entries.set(key, spoil(text))
          expect((yield* lookUp).title).toBe("at /graph/v1/paper/CorpusId:1")
          expect(yield* count).toBe(2)
          yield* lookUp
          expect(yield* count).toBe(2)
          const warnings = (yield* logs.lines).filter((line) => line.startsWith("Warn"))
          expect(warnings).toHaveLength(what === "a number" ? 0 : 1)
          for (const warning of warnings) {
            expect(warning).toContain(
              "S2 cache: the entry for GET /graph/v1/paper/CorpusId:1?fields=title cannot be read"
            )
            expect(warning).not.toContain("leaving the cache alone")
          }
        }).pipe(
          Effect.provide(testLayer(server, { retry: false, cache: { store, timeToLive: "1 hour" } })),
          Effect.provide(logs.layer)
        )
      }))
  }

  for (const batching of [false, true]) {
    it.effect(`a stored answer that does not decode${batching ? " (batched)" : ""} is a logged miss, dropped`, () =>
      Effect.gen(function*() {
        const { entries, store } = mapStore()
        const logs = yield* logged
        yield* Effect.gen(function*() {
          const s2 = yield* SemanticScholar
          const lookUp = run(s2.getPaper("CorpusId:1", { fields: ["title"] }))
          const paper = yield* lookUp
          // An entry of this format for this request, whose answer another version (or an edit) wrote.
          const [key, text] = [...entries][0]!
          const [exit, expiry] = JSON.parse(text) as [{ value: { answer: unknown } }, unknown]
          exit.value.answer = { json: unavailable }
          entries.set(key, JSON.stringify([exit, expiry]))
          expect((yield* lookUp).title).toBe(paper.title)
          expect(yield* count).toBe(2)
          yield* lookUp
          expect(yield* count).toBe(2)
          const warnings = (yield* logs.lines).filter((line) => line.startsWith("Warn"))
          expect(warnings).toHaveLength(1)
          expect(warnings[0]).toContain("CorpusId:1")
          expect(warnings[0]).toContain("does not decode")
        }).pipe(
          Effect.provide(testLayer(server, { retry: false, batching, cache: { store, timeToLive: "1 hour" } })),
          Effect.provide(logs.layer)
        )
      }))
  }

  it.effect("an entry whose expiry is garbage is not kept past the time to live", () =>
    Effect.gen(function*() {
      const { entries, store } = mapStore()
      yield* Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const lookUp = s2.getPaper("CorpusId:1", { fields: ["title"] })
        yield* lookUp
        for (const expiry of ["never", { at: 1 }, -1e308 * 10, "9".repeat(400)]) {
          const [key, text] = [...entries][0]!
          const [value] = JSON.parse(text) as [unknown, unknown]
          entries.set(key, JSON.stringify([value, expiry]))
          yield* TestClock.adjust("61 minutes")
          const before = yield* count
          expect((yield* lookUp).title).toBe("at /graph/v1/paper/CorpusId:1")
          expect(yield* count).toBe(before + 1)
        }
      }).pipe(Effect.provide(testLayer(server, { retry: false, cache: { store, timeToLive: "1 hour" } })))
    }))
})

describe("response cache: an answer is stored before its caller has it", () => {
  /**
   * A store whose writes take a second: a program that ends as soon as its lookups have answered
   * (a CLI that exits) must still find every answer stored. effect's persisted resolver completed
   * a batch's lookups first and wrote them afterwards, in a fiber nobody waited for.
   */
  const slowStore = () => {
    const entries = new Map<string, string>()
    const kv = KeyValueStore.makeStringOnly({
      get: (key) => Effect.sync(() => entries.get(key)),
      set: (key, value) => Effect.andThen(Effect.sleep("1 second"), Effect.sync(() => void entries.set(key, value))),
      remove: (key) => Effect.sync(() => void entries.delete(key)),
      clear: Effect.sync(() => entries.clear()),
      size: Effect.sync(() => entries.size),
      keys: Effect.sync(() => [...entries.keys()])
    })
    return {
      entries,
      store: ResponseCache.keyValueStore.pipe(Layer.provide(Layer.succeed(KeyValueStore.KeyValueStore)(kv)))
    }
  }

  for (const batching of [false, true]) {
    it.effect(`lookups${batching ? " (batched)" : ""}, a not-found among them, are all stored when they return`, () =>
      Effect.gen(function*() {
        const { entries, store } = slowStore()
        yield* Effect.gen(function*() {
          const s2 = yield* SemanticScholar
          const papers = yield* run(
            Effect.all(
              ["CorpusId:1", "CorpusId:2", "CorpusId:404"].map((id) =>
                Effect.option(s2.getPaper(id, { fields: ["title"] }))
              ),
              { concurrency: "unbounded" }
            )
          )
          // This server's batch endpoint knows every id; its GET answers 404 for CorpusId:404.
          expect(papers.filter((p) => p._tag === "Some")).toHaveLength(batching ? 3 : 2)
          expect(entries.size).toBe(3)
          // Each asked once (how batched lookups group depends on when each leaves the store).
          const asked = (yield* requests).flatMap((r) =>
            batching ? (r.body as { ids: Array<string> }).ids : [r.url.pathname.replace(/^.*\//, "")]
          )
          expect(asked.sort()).toEqual(["CorpusId:1", "CorpusId:2", "CorpusId:404"])
        }).pipe(
          Effect.provide(testLayer(server, { retry: false, batching, cache: { store, timeToLive: "1 hour" } }))
        )
      }))
  }
})

describe("response cache: an answer that echoes the key is never kept", () => {
  const secret = "sekrit-api-key-0123456789"
  const percent = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("")
  const unicode = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")
  /** The spellings of the key a reader recognises, each echoed in a title by a server. */
  const spellings = [
    secret,
    secret.toUpperCase(),
    percent(secret),
    unicode(secret),
    `&#${secret.charCodeAt(0)};${secret.slice(1)}`,
    // base64 and base64url, alone and inside Basic credentials (`user:key`), as redactKey hides them.
    Buffer.from(secret).toString("base64"),
    Buffer.from(secret).toString("base64url"),
    `Basic ${Buffer.from(`me:${secret}`).toString("base64")}`
  ]
  const echoing = (request: Seen) => {
    const spelling = spellings[Number(/(\d+)$/.exec(request.url.pathname)?.[1] ?? 0)] ?? secret
    if (request.url.pathname.endsWith("/batch")) {
      const ids = (request.body as { ids: Array<string> }).ids
      return Effect.succeed(
        json(ids.map((id) => ({ paperId: sha(1), title: `${id} ${spellings[Number(id.slice(-1))]}` })))
      )
    }
    if (request.url.pathname.endsWith("/citations")) {
      return Effect.succeed(json({ offset: 0, data: [{ citingPaper: { paperId: sha(3), title: `key ${secret}` } }] }))
    }
    return Effect.succeed(json({ paperId: sha(2), title: `your key is ${spelling}` }))
  }
  const ids = spellings.map((_, i) => `CorpusId:${i}`)

  for (const batching of [false, true]) {
    it.effect(`lookups${batching ? " (batched)" : ""} and pages answered with the key in any spelling are not stored`, () =>
      Effect.gen(function*() {
        const { entries, store } = mapStore()
        const calls = Effect.flatMap(SemanticScholar, (s2) =>
          Effect.all([
            run(Effect.forEach(ids, (id) => s2.getPaper(id, { fields: ["title"] }), { concurrency: "unbounded" })),
            Stream.runCollect(s2.getPaperCitations("CorpusId:7"))
          ]))
        const asked = (apiKey: string) =>
          Effect.gen(function*() {
            yield* calls
            return (yield* requests).length
          }).pipe(
            Effect.provide(
              testLayer(echoing, { apiKey: Redacted.make(apiKey), rateLimit: false, batching, cache: { store } })
            )
          )
        expect(yield* asked(secret)).toBeGreaterThan(0)
        expect(entries.size).toBe(0)
        // Another client, with another key, is answered by the server, not with the first one's key.
        expect(yield* asked("another-key")).toBeGreaterThan(0)
      }))
  }

  it.effect("an answer without the key is still stored", () =>
    Effect.gen(function*() {
      const { entries, store } = mapStore()
      yield* Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1", { fields: ["title"] })).pipe(
        Effect.provide(testLayer(server, { apiKey: Redacted.make(secret), rateLimit: false, cache: { store } }))
      )
      expect(entries.size).toBe(1)
    }))
})
