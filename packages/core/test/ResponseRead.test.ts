/**
 * Bodies of a declared length are read into one buffer of that length (issue 47, point 2): the text
 * is the same whatever the chunks, and the bound holds even when the body runs past its declared
 * length (a client that does not frame by it).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as fc from "fast-check"
import { SemanticScholar } from "../src/index.js"

const encoder = new TextEncoder()

/** A 200 whose body comes in the given pieces, with the headers given. */
const chunked = (pieces: ReadonlyArray<Uint8Array>, headers: Record<string, string>) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) =>
      Effect.succeed(HttpClientResponse.fromWeb(
        request,
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (const piece of pieces) controller.enqueue(piece)
              controller.close()
            }
          }),
          { status: 200, headers: { "content-type": "application/json", ...headers } }
        )
      ))
    )
  )

/** `bytes` cut at the given offsets (sorted, deduplicated, within the length). */
const cut = (bytes: Uint8Array, at: ReadonlyArray<number>): Array<Uint8Array> => {
  const points = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b)
  const pieces: Array<Uint8Array> = []
  let start = 0
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.slice(start, point))
    start = point
  }
  return pieces
}

const layer = (pieces: ReadonlyArray<Uint8Array>, headers: Record<string, string>, maxResponseBytes?: number) =>
  SemanticScholar.layer({
    apiUrl: "https://api.test",
    rateLimit: false,
    retry: false,
    ...(maxResponseBytes === undefined ? {} : { maxResponseBytes })
  }).pipe(Layer.provide(chunked(pieces, headers)))

describe("a body of declared length", () => {
  it("decodes to the same record whatever its chunks, characters cut between them included", () =>
    fc.assert(
      fc.asyncProperty(
        fc.string({ unit: "grapheme", maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (title, at) => {
          const bytes = encoder.encode(JSON.stringify({ paperId: "x", title }))
          const paper = await Effect.runPromise(
            SemanticScholar.use((s2) => s2.getPaper("CorpusId:1")).pipe(
              Effect.provide(layer(cut(bytes, at), { "content-length": String(bytes.length) }))
            )
          )
          expect(paper.title).toBe(title)
          expect(JSON.stringify(paper)).toBe(JSON.stringify({ paperId: "x", title }))
        }
      ),
      { numRuns: 100 }
    ))

  it.effect("running past its declared length, is still bounded by maxResponseBytes", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(SemanticScholar.use((s2) => s2.getPaper("CorpusId:1")))
      expect(error._tag).toBe("ProtocolError")
      expect(error.message).toContain("larger than maxResponseBytes (1000 bytes)")
    }).pipe(Effect.provide(layer(
      cut(encoder.encode(JSON.stringify({ paperId: "x", title: "y".repeat(10_000) })), [300, 600, 2000]),
      { "content-length": "900" },
      1000
    ))))

  it.effect("cut short of its declared length, is not taken as the record", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(SemanticScholar.use((s2) => s2.getPaper("CorpusId:1")))
      expect(["DecodeError", "TransportError"]).toContain(error._tag)
    }).pipe(Effect.provide(layer(
      [encoder.encode(JSON.stringify({ paperId: "x", title: "abc" }).slice(0, 10))],
      { "content-length": "100" }
    ))))
})
