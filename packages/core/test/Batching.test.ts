/**
 * Automatic batching of lookups against a scripted server: which calls go out, and what each
 * caller gets back.
 */
import { describe, expect, it } from "@effect/vitest"
import { settle } from "@s2-effect/test-support"
import { Cause, Effect, Exit } from "effect"
import type { Options, S2Error } from "../src/index.js"
import { SemanticScholar, withBatching } from "../src/index.js"
import type { Seen } from "./support/Scripted.js"
import { json, requests, testLayer } from "./support/Scripted.js"
import { recordingTracer } from "./support/Tracing.js"

const sha = (n: number) => n.toString(16).padStart(40, "0")

/** Knows the ids `CorpusId:n` for even n; answers a batch position by position. */
const server = (request: Seen) => {
  if (request.url.pathname === "/graph/v1/paper/batch" || request.url.pathname === "/graph/v1/author/batch") {
    const ids = (request.body as { ids: Array<string> }).ids
    return Effect.succeed(json(ids.map((id) => {
      const n = Number(id.replace(/^CorpusId:/, ""))
      return n % 2 === 0 ? { paperId: sha(n), authorId: String(n), title: id } : null
    })))
  }
  const id = decodeURIComponent(request.url.pathname.replace(/^\/graph\/v1\/(paper|author)\//, ""))
  return Effect.succeed(json({ paperId: sha(Number(id.replace(/^CorpusId:/, ""))), title: id }))
}

/** The error a failed exit failed with, when its cause is one failure. */
const failure = <A, E>(exit: Exit.Exit<A, E> | undefined): E | undefined => {
  const reasons = exit !== undefined && Exit.isFailure(exit) ? exit.cause.reasons : []
  const [only] = reasons
  return reasons.length === 1 && only !== undefined && Cause.isFailReason(only) ? only.error : undefined
}

const batched = (options: Options = {}) => testLayer(server, { batching: true, ...options })

/** Runs lookups concurrently and lets the batching window pass. */
const concurrently = <A>(lookups: ReadonlyArray<Effect.Effect<A, S2Error, SemanticScholar>>) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.forkChild(
      Effect.all(lookups.map(Effect.exit), { concurrency: "unbounded" })
    )
    return yield* settle(fiber)
  })

describe("batching of lookups", () => {
  it.effect("coalesces concurrent getPaper calls into one POST, each caller getting its own record", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const ids = Array.from({ length: 6 }, (_, i) => `CorpusId:${i * 2}`)
      const exits = yield* concurrently(ids.map((id) => s2.getPaper(id, { fields: ["title"] })))
      expect(exits.map((exit) => Exit.isSuccess(exit) ? exit.value.title : undefined)).toEqual(ids)
      const seen = yield* requests
      expect(seen).toHaveLength(1)
      expect(seen[0]?.method).toBe("POST")
      expect(seen[0]?.url.pathname).toBe("/graph/v1/paper/batch")
      expect(seen[0]?.url.searchParams.get("fields")).toBe("title")
      expect(seen[0]?.body).toEqual({ ids })
    }).pipe(Effect.provide(batched())))

  it.effect("each batch call is a span of the batch endpoint, linked to the lookups it answers", () =>
    Effect.gen(function*() {
      const { spans, tracer } = recordingTracer()
      const s2 = yield* SemanticScholar
      yield* concurrently(["CorpusId:2", "CorpusId:4", "CorpusId:6"].map((id) => s2.getPaper(id))).pipe(
        Effect.withTracer(tracer)
      )
      const calls = spans.filter((span) => span.name === "SemanticScholar.getPapers")
      expect(calls).toHaveLength(1)
      expect(calls[0]?.attributes.get("s2.endpoint")).toBe("POST /graph/v1/paper/batch")
      expect(calls[0]?.attributes.get("batchSize")).toBe(3)
      expect(calls[0]?.links).toBe(3)
      expect(spans.filter((span) => span.name === "SemanticScholar.getPaper")).toHaveLength(3)
    }).pipe(Effect.provide(batched())))

  it.effect("an id answered null fails its own caller with ObjectNotFound, and no other", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const [found, missing] = yield* concurrently([s2.getPaper("CorpusId:2"), s2.getPaper("CorpusId:3")])
      expect(found !== undefined && Exit.isSuccess(found) ? found.value.paperId : "").toBe(sha(2))
      const error = failure(missing)
      expect(error?._tag).toBe("ObjectNotFound")
      expect(error?.message).toContain("CorpusId:3")
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(batched())))

  it.effect("different fields go to different batches; duplicates are asked once", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const exits = yield* concurrently([
        s2.getPaper("CorpusId:2", { fields: ["title"] }),
        s2.getPaper("CorpusId:2", { fields: ["title"] }),
        s2.getPaper("CorpusId:4", { fields: ["title"] }),
        s2.getPaper("CorpusId:2", { fields: ["year"] })
      ])
      expect(exits.every(Exit.isSuccess)).toBe(true)
      const seen = yield* requests
      const byFields = Object.fromEntries(seen.map((r) => [r.url.searchParams.get("fields"), r.body]))
      expect(seen).toHaveLength(2)
      expect(byFields).toEqual({ title: { ids: ["CorpusId:2", "CorpusId:4"] }, year: { ids: ["CorpusId:2"] } })
    }).pipe(Effect.provide(batched())))

  it.effect("getAuthor batches through POST /author/batch", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const exits = yield* concurrently(["2", "4", "7"].map((id) => s2.getAuthor(id, { fields: ["name"] })))
      expect(exits.map(Exit.isSuccess)).toEqual([true, true, false])
      const seen = yield* requests
      expect(seen.map((r) => [r.url.pathname, r.body])).toEqual([["/graph/v1/author/batch", { ids: ["2", "4", "7"] }]])
    }).pipe(Effect.provide(batched())))

  it.effect("maxSize sends a batch as soon as that many lookups wait", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* concurrently(Array.from({ length: 10 }, (_, i) => s2.getPaper(`CorpusId:${i * 2}`)))
      const seen = yield* requests
      expect(seen.map((r) => (r.body as { ids: Array<string> }).ids.length)).toEqual([4, 4, 2])
    }).pipe(Effect.provide(batched({ batching: { maxSize: 4 } }))))

  it.effect("is off by default, and withBatching switches it per scope", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const lookups = [s2.getPaper("CorpusId:2"), s2.getPaper("CorpusId:4")]
      yield* concurrently(lookups)
      expect((yield* requests).map((r) => r.method)).toEqual(["GET", "GET"])
      yield* concurrently(lookups.map(withBatching(true)))
      expect((yield* requests).map((r) => r.method)).toEqual(["GET", "GET", "POST"])
    }).pipe(Effect.provide(testLayer(server))))

  it.effect("withBatching(false) sends single lookups under a batching layer", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      yield* concurrently([s2.getPaper("CorpusId:2"), s2.getPaper("CorpusId:4")].map(withBatching(false)))
      expect((yield* requests).map((r) => r.method)).toEqual(["GET", "GET"])
    }).pipe(Effect.provide(batched())))

  it.effect("a failed batch call fails every lookup in it with the call's error", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const exits = yield* concurrently([s2.getPaper("CorpusId:2"), s2.getPaper("CorpusId:4")])
      expect(exits.map((exit) => failure(exit)?._tag ?? ""))
        .toEqual(["ServerError", "ServerError"])
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json({ message: "boom" }, 500)), {
      batching: true,
      retry: false
    }))))

  it.effect("refuses a window or maxSize that cannot work, before sending", () =>
    Effect.gen(function*() {
      const bad = [{ window: "0 millis" }, { maxSize: 0 }, { maxSize: 1.5 }] as const
      for (const batching of bad) {
        const error = yield* Effect.flip(Effect.provide(SemanticScholar, testLayer(server, { batching })))
        expect(error._tag).toBe("InvalidOptions")
        expect(error._tag === "InvalidOptions" && error.option).toMatch(/^batching\.(window|maxSize)$/)
        expect(error.message).toMatch(/batching\.(window|maxSize)/)
      }
    }))
})
