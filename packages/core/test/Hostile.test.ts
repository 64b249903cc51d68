/**
 * Servers that answer badly on purpose: cursors that loop or go back, redirects, oversized and
 * deeply nested bodies, a key echoed back. Whatever they answer, streams end and errors are typed.
 */
import { describe, expect, it } from "@effect/vitest"
import { settle } from "@s2-effect/test-support"
import { Cause, Effect, Exit, Fiber, Redacted, Schema, Stream } from "effect"
import { TestClock } from "effect/testing"
import { inspect } from "node:util"
import { SemanticScholar } from "../src/index.js"
import type { Handler, Seen } from "./support/Scripted.js"
import { json, requests, testLayer } from "./support/Scripted.js"

const sha = (n: number) => n.toString(16).padStart(40, "0")
const citing = (n: number) => ({ citingPaper: { paperId: sha(n), title: `Paper ${n}` } })
const paper = (n: number) => ({ paperId: sha(n), title: `Paper ${n}` })
const offsetOf = (request: Seen) => Number(request.url.searchParams.get("offset") ?? 0)
const limitOf = (request: Seen) => Number(request.url.searchParams.get("limit") ?? 100)

/** Citations whose `next` is computed by `next` from the request's offset and limit. */
const citations = (next: (offset: number, limit: number) => number | undefined, size = 10): Handler => (request) => {
  const offset = offsetOf(request)
  const data = Array.from({ length: size }, (_, i) => citing(offset + i))
  const n = next(offset, limitOf(request))
  return Effect.succeed(json({ offset, ...(n === undefined ? {} : { next: n }), data }))
}

/** Bulk pages whose token is chosen by `token` from the request's token (null on the first page). */
const bulk = (token: (sent: string | null, page: number) => string | null, size = 3): Handler => (request, i) => {
  const sent = request.url.searchParams.get("token")
  return Effect.succeed(
    json({ total: 1e6, token: token(sent, i), data: Array.from({ length: size }, (_, k) => paper(i * size + k)) })
  )
}

/** Runs a stream to its end (a day of TestClock covers any retry) and returns what it gave. */
const drain = <A, E>(stream: Stream.Stream<A, E>) =>
  Effect.gen(function*() {
    const got: Array<A> = []
    const fiber = yield* Effect.forkChild(Stream.runForEach(stream, (a) => Effect.sync(() => got.push(a))))
    yield* TestClock.adjust("1 day")
    const exit = yield* Fiber.await(fiber)
    return { exit, got, error: Exit.isFailure(exit) ? exitFailures(exit)[0] : undefined }
  })

/** What v3 called the cause's kind: its one reason's tag, or "Composite" when it has several. */
const causeTag = (cause: Cause.Cause<unknown>) => cause.reasons.length === 1 ? cause.reasons[0]!._tag : "Composite"

const exitFailures = <E>(exit: Exit.Exit<unknown, E>): ReadonlyArray<E> => {
  if (Exit.isSuccess(exit)) return []
  const [reason] = exit.cause.reasons
  return causeTag(exit.cause) === "Fail" && reason?._tag === "Fail" ? [reason.error] : []
}

describe("pagination guards: every stream ends", () => {
  const offsetCases: ReadonlyArray<readonly [string, (offset: number, limit: number) => number | undefined, string]> = [
    ["next equal to the offset (a loop)", (offset) => offset, "does not advance past offset"],
    ["next behind the offset", (offset) => Math.max(0, offset - 5), "does not advance past offset"],
    ["next beyond the window", () => 50_000, "beyond the API's window of 9999"]
  ]
  for (const [name, next, why] of offsetCases) {
    it.effect(`citations: ${name} fails with ProtocolError within one page`, () =>
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        // The first page is sound, the second breaks the rule.
        const { error, got } = yield* drain(s2.getPaperCitations("CorpusId:1", { limit: 10 }))
        expect(error?._tag).toBe("ProtocolError")
        expect(error?.message).toContain(why)
        expect(error?.message).toContain("GET /graph/v1/paper/CorpusId:1/citations")
        expect(error?._tag === "ProtocolError" && error.endpoint).toBe("GET /graph/v1/paper/CorpusId:1/citations")
        expect(error?._tag === "ProtocolError" && error.cursor).toMatch(/^next=/)
        expect(got).toHaveLength(20)
        expect(yield* requests).toHaveLength(2)
      }).pipe(Effect.provide(testLayer((request, i) =>
        citations((offset, limit) =>
          i === 0 ? offset + limit : next(offset, limit)
        )(request, i)
      ))))
  }

  it.effect("relevance search that loops ends after its first page", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { error, got } = yield* drain(s2.searchPaper("x", { limit: 10 }))
      expect(error?._tag).toBe("ProtocolError")
      expect(error?.message).toContain("GET /graph/v1/paper/search")
      expect(got).toHaveLength(10)
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(() =>
      Effect.succeed(json({
        total: 100,
        offset: 0,
        next: 0,
        data: Array.from({ length: 10 }, (_, i) => paper(i))
      }))
    ))))

  it.effect("an empty page with a cursor ends the stream", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { exit, got } = yield* drain(s2.getPaperCitations("CorpusId:1", { limit: 10 }))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(got).toHaveLength(10)
      expect(yield* requests).toHaveLength(2)
    }).pipe(Effect.provide(testLayer((request, i) =>
      i === 0
        ? citations((o, l) => o + l)(request, i)
        : citations((o, l) => o + l, 0)(request, i)
    ))))

  it.effect("bulk search: a token that repeats the one sent fails at that page", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { error, got } = yield* drain(s2.searchPaper("x", { bulk: true }))
      expect(error?._tag).toBe("ProtocolError")
      expect(error?.message).toContain("GET /graph/v1/paper/search/bulk")
      expect(error?.message).toContain("repeats one already followed")
      expect(error?._tag === "ProtocolError" && error.cursor).toBe("token=T1")
      expect(got).toHaveLength(6)
      expect(yield* requests).toHaveLength(2)
    }).pipe(Effect.provide(testLayer(bulk((sent) => sent ?? "T1")))))

  it.effect("bulk search: a token cycling back to an earlier one fails when it comes back", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { error } = yield* drain(s2.searchPaper("x", { bulk: true }))
      expect(error?._tag).toBe("ProtocolError")
      expect(yield* requests).toHaveLength(4)
    }).pipe(Effect.provide(testLayer(bulk((_, i) => ["A", "B", "C", "A"][i % 4]!)))))

  it.effect("bulk search: the starting token given by the caller counts as followed", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { error } = yield* drain(s2.searchPaper("x", { bulk: true, token: "S" }))
      expect(error?._tag).toBe("ProtocolError")
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(bulk(() => "S")))))

  it.effect("an empty page ends the stream even when its cursor loops", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { exit } = yield* drain(s2.searchPaper("x"))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json({ total: 0, offset: 0, next: 0 }))))))

  it.effect("bulk search: an empty page with a token ends the stream", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { exit, got } = yield* drain(s2.searchPaper("x", { bulk: true }))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(got).toHaveLength(0)
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(bulk((_, i) => `T${i}`, 0)))))

  it.effect("a long, always fresh bulk token chain is followed (no false alarm)", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { exit, got } = yield* drain(s2.searchPaper("x", { bulk: true }))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(got).toHaveLength(60)
    }).pipe(Effect.provide(testLayer(bulk((_, i) => i < 19 ? `T${i}` : null)))))
})

describe("hostile answers end in typed errors", () => {
  it.effect("a 3xx from the API is final: one request, the status and the location host, not followed", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const { error } = yield* drain(Stream.fromEffect(s2.getPaper("CorpusId:1")))
      // The server's final answer, not a broken exchange: UnexpectedStatus, which is not retried.
      expect(error?._tag).toBe("UnexpectedStatus")
      expect(error?.status).toBe(301)
      expect(error?.message).toContain("HTTP 301")
      expect(error?.message).toContain("evil.example")
      expect(error?.message).not.toContain("secret-key")
      const seen = yield* requests
      expect(seen).toHaveLength(1)
      expect(seen.every((r) => r.url.host === "api.test")).toBe(true)
    }).pipe(Effect.provide(testLayer(
      () => Effect.succeed(json({}, 301, { location: "https://evil.example/steal" })),
      { apiKey: Redacted.make("secret-key") }
    ))))

  it.effect("a server echoing the key in an error body: the key is redacted from the message", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getPaper("CorpusId:1"))
      expect(error._tag === "BadQueryParameters" && error.refusedBy).toBe("server")
      expect(error.message).toContain("bad key <redacted>")
      expect(JSON.stringify(error)).not.toContain("secret-key")
    }).pipe(Effect.provide(testLayer(
      () => Effect.succeed(json({ error: "bad key secret-key, again secret-key" }, 400)),
      { apiKey: Redacted.make("secret-key"), retry: false }
    ))))

  it.effect("a key echoed in a 2xx body of the wrong shape is redacted from the DecodeError", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getPaper("CorpusId:1"))
      expect(error._tag).toBe("DecodeError")
      expect(JSON.stringify(error)).not.toContain("secre")
    }).pipe(Effect.provide(testLayer(
      // Placed where the excerpt (500 characters) is cut: not even a part of the key may show.
      () => Effect.succeed(json({ paperId: 5, echo: `${"x".repeat(474)}secret-key` })),
      { apiKey: Redacted.make("secret-key"), retry: false }
    ))))

  // A key with characters JSON escapes, too: hiding it in the JSON text would miss its escaped form.
  for (const key of ["secret-key", "sec\"ret\\key"]) {
    /** A body of the wrong shape that echoes the key as a refused value, a name and a long string. */
    const echoing = { paperId: [key], title: key, [key]: { key }, echo: `${"x".repeat(474)}${key}` }
    const echo = (request: Seen) =>
      Effect.succeed(json(
        request.url.pathname.endsWith("/batch")
          ? (request.body as { ids: Array<string> }).ids.map(() => echoing)
          : echoing
      ))

    /** Every way an error is shown: its message, string, stack, JSON, inspection, and as a failure. */
    const forms = (error: unknown): Array<string> => [
      String(error),
      (error as Error).stack ?? "",
      JSON.stringify(error),
      inspect(error, { depth: null }),
      Cause.pretty(Cause.fail(error))
    ]

    it.effect(`an error body echoing the key ${JSON.stringify(key)}: the key is in none of the error's forms`, () =>
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const error = yield* Effect.flip(s2.getPaper("CorpusId:1"))
        expect(error._tag).toBe("BadQueryParameters")
        expect(error.message).toContain("bad key <redacted>")
        for (const form of forms(error)) {
          expect(form).not.toContain(key)
          expect(form).not.toContain(JSON.stringify(key).slice(1, -1))
        }
      }).pipe(Effect.provide(testLayer(
        () => Effect.succeed(json({ error: `bad key ${key}` }, 400)),
        { apiKey: Redacted.make(key), retry: false }
      ))))

    for (const batching of [false, true]) {
      it.effect(
        `a DecodeError keeps Schema's error as its cause, the echoed key ${JSON.stringify(key)} in none of its forms${
          batching ? " (batched lookup)" : ""
        }`,
        () =>
          Effect.gen(function*() {
            const s2 = yield* SemanticScholar
            // Two lookups at once: with batching, one batch call answers both (the window runs on TestClock).
            const both = Effect.all([s2.getPaper("CorpusId:1"), s2.getPaper("CorpusId:2")], { concurrency: 2 })
            const error = yield* Effect.flip(settle(yield* Effect.forkChild(both)))
            if (error._tag !== "DecodeError") return expect.unreachable()
            expect(error.reason).toBe("shape")
            expect(error.message).toContain("<redacted>")
            expect(Schema.isSchemaError(error.cause)).toBe(true)
            expect(String(error.cause)).toContain("paperId")
            for (const form of [...forms(error), ...forms(error.cause)]) {
              expect(form).not.toContain(key)
              expect(form).not.toContain(JSON.stringify(key).slice(1, -1))
              expect(form).not.toContain("secre")
            }
          }).pipe(Effect.provide(testLayer(echo, { apiKey: Redacted.make(key), retry: false, batching })))
      )
    }
  }

  it.effect("a body over maxResponseBytes fails with ProtocolError saying the size, and is not retried", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getPaper("CorpusId:1"))
      expect(error._tag).toBe("ProtocolError")
      expect(error.message).toContain("larger than maxResponseBytes (1000 bytes)")
      expect(error.message).toMatch(/content-length 9\.\d KB|stopped after/)
      expect(yield* requests).toHaveLength(1)
    }).pipe(Effect.provide(testLayer(
      () => Effect.succeed(json({ paperId: "x", title: "y".repeat(10_000) })),
      { maxResponseBytes: 1000 }
    ))))

  it.effect("a compressed body is counted as it streams in, whatever its content-length says", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getPaper("CorpusId:1"))
      expect(error._tag).toBe("ProtocolError")
      expect(error.message).toContain("larger than maxResponseBytes (1000 bytes)")
    }).pipe(Effect.provide(testLayer(
      // A compressed body may inflate past its declared length: only the bytes read can be trusted.
      () =>
        Effect.succeed(
          json({ paperId: "x", title: "y".repeat(10_000) }, 200, { "content-encoding": "br", "content-length": "900" })
        ),
      { maxResponseBytes: 1000, retry: false }
    ))))

  it.effect("a body of a declared length within the bound is read whole", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const paper = yield* s2.getPaper("CorpusId:1")
      expect(paper.title).toBe("y".repeat(900))
    }).pipe(Effect.provide(testLayer(
      () => {
        const body = { paperId: "x", title: "y".repeat(900) }
        return Effect.succeed(json(body, 200, { "content-length": String(JSON.stringify(body).length) }))
      },
      { maxResponseBytes: 1000, retry: false }
    ))))

  it.effect("maxResponseBytes is validated", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.provide(SemanticScholar, testLayer(() => Effect.succeed(json({})), { maxResponseBytes: 0 }))
      )
      expect(error.message).toContain("maxResponseBytes 0 is invalid")
    }))

  it.effect(
    "a deeply nested body is a DecodeError with a bounded message, never a defect",
    () =>
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const exit = yield* Effect.exit(s2.getPaper("CorpusId:1"))
        expect(Exit.isFailure(exit) && causeTag(exit.cause)).toBe("Fail")
        const error = Exit.isFailure(exit) ? exitFailures(exit)[0] : undefined
        if (error === undefined) return expect.unreachable()
        expect(error._tag).toBe("DecodeError")
        expect(error.message).toContain("nested too deeply to show")
        expect(error.message.length).toBeLessThan(2000)
        expect(error._tag === "DecodeError" && error.excerpt.length).toBeLessThan(600)
      }).pipe(Effect.provide(testLayer(
        // Deep enough to overflow any recursive printer (the 4 MB body only takes longer to parse).
        () => Effect.succeed({ status: 200, text: `{"paperId": ${"[".repeat(300_000)}${"]".repeat(300_000)}}` }),
        { retry: false }
      ))),
    30_000
  )
})
