/**
 * The in-memory emulator: a `Layer` providing `HttpClient.HttpClient` that answers from the
 * emulator (no sockets), together with the {@link Emulator} service for inspecting requests,
 * changing faults and reading the corpus.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import type { Corpus } from "./Corpus.js"
import type { Config } from "./Faults.js"
import { EmulatorCore, type EmulatorOptions, type RecordedRequest, truncateBody } from "./internal/core.js"
import type { EmulatorRequest, EmulatorResponse } from "./internal/wire.js"

export type { EmulatorOptions, EmulatorRequest, EmulatorResponse, RecordedRequest }

/**
 * What tests can do with a running emulator.
 *
 * @category services
 * @since 0.1.0
 */
export interface EmulatorService {
  readonly corpus: Corpus
  /** Base URL dataset file links point at (a different host from the API root). */
  readonly fileUrl: string
  /** Every request seen so far, oldest first (the API key redacted). */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  readonly clearRequests: Effect.Effect<void>
  /** Replaces the fault configuration (and resets its counters). */
  readonly setFaults: (config: Config) => Effect.Effect<void>
  /**
   * The transport-independent core; the in-memory client and the HTTP server both call it.
   * @internal
   */
  readonly core: EmulatorCore
}

/** In-memory default for file links: any host other than the API root works. */
export const IN_MEMORY_FILE_URL = "https://files.emulator.test"

const requestBody = (request: HttpClientRequest.HttpClientRequest): Effect.Effect<string | undefined> => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return Effect.succeed(undefined)
    case "Uint8Array":
      return Effect.succeed(new TextDecoder().decode(body.body))
    case "Raw":
      return Effect.succeed(
        typeof body.body === "string"
          ? body.body
          : body.body instanceof Uint8Array
          ? new TextDecoder().decode(body.body)
          : String(body.body)
      )
    case "Stream":
      return Stream.runCollect(body.stream).pipe(
        Effect.map((chunks) => Buffer.concat(Chunk.toReadonlyArray(chunks)).toString("utf8")),
        Effect.orElseSucceed(() => undefined)
      )
    case "FormData":
      return Effect.succeed(undefined)
  }
}

const toWeb = (response: EmulatorResponse, truncate: number | undefined): Response => {
  const body = truncate === undefined ? response.body : truncateBody(response.body, truncate)
  const empty = response.status === 204 || response.status === 304 || body.length === 0
  const headers = new Headers(response.headers)
  if (truncate !== undefined) headers.delete("content-length")
  return new Response(empty ? null : typeof body === "string" ? body : new Uint8Array(body), {
    status: response.status,
    headers
  })
}

const makeService = (core: EmulatorCore): EmulatorService => ({
  corpus: core.corpus,
  fileUrl: core.context.fileBase,
  requests: Effect.sync(() => core.requests),
  clearRequests: Effect.sync(() => core.clearRequests()),
  setFaults: (config) => Effect.sync(() => core.setFaults(config)),
  core
})

/**
 * An `HttpClient` answering from the emulator. Latency and hangs use Effect's Clock
 * (`Effect.sleep`, `Effect.never`), so `TestClock` controls them and a hang is interruptible;
 * a reset fails with a `RequestError` of reason `"Transport"`.
 */
const httpClient = (core: EmulatorCore): HttpClient.HttpClient =>
  HttpClient.make((request, url) =>
    Effect.gen(function*() {
      const body = yield* requestBody(request)
      const now = yield* Clock.currentTimeMillis
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value
      const emulated: EmulatorRequest = { method: request.method, url, headers, body }
      const outcome = core.handle(emulated, now)
      if (outcome.delayMillis > 0) yield* Effect.sleep(Duration.millis(outcome.delayMillis))
      switch (outcome._tag) {
        case "Hang":
          return yield* Effect.never
        case "Reset":
          return yield* Effect.fail(
            new HttpClientError.RequestError({
              request,
              reason: "Transport",
              description: "connection reset by peer (emulated)",
              // The code Node gives a reset, so clients tell it from a refused connection as they would live.
              cause: Object.assign(new Error("read ECONNRESET (emulated)"), { code: "ECONNRESET" })
            })
          )
        case "Respond":
          return HttpClientResponse.fromWeb(request, toWeb(outcome.response, outcome.truncate))
      }
    })
  )

/**
 * The emulator service tag. Provided by {@link Emulator.layer} together with `HttpClient`.
 *
 * @example
 * ```ts
 * import { HttpClient } from "@effect/platform"
 * import { it, expect } from "@effect/vitest"
 * import { Effect } from "effect"
 * import { Emulator } from "@s2-effect/testing"
 *
 * it.effect("fetches a paper", () =>
 *   Effect.gen(function*() {
 *     const client = yield* HttpClient.HttpClient
 *     const res = yield* client.get("https://api.semanticscholar.org/graph/v1/paper/CorpusId:1015")
 *     expect(res.status).toBe(200)
 *     const emulator = yield* Emulator
 *     expect((yield* emulator.requests).length).toBe(1)
 *   }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 1000 }))))
 * ```
 * @category services
 * @since 0.1.0
 */
export class Emulator extends Context.Tag("@s2-effect/testing/Emulator")<Emulator, EmulatorService>() {
  /**
   * Builds an emulator (corpus included) without providing anything.
   *
   * @example
   * ```ts
   * import { Emulator } from "@s2-effect/testing"
   * import { Effect } from "effect"
   *
   * const program = Effect.gen(function*() {
   *   const { client, service } = yield* Emulator.make({ seed: 1, size: 1000 })
   *   return { client, service }
   * })
   * ```
   * @since 0.1.0
   */
  static make(
    options: EmulatorOptions = {}
  ): Effect.Effect<{ readonly service: EmulatorService; readonly client: HttpClient.HttpClient }> {
    return Effect.sync(() => {
      const core = new EmulatorCore(options, IN_MEMORY_FILE_URL)
      return { service: makeService(core), client: httpClient(core) }
    })
  }

  /**
   * The mocked layer: `HttpClient.HttpClient` answering from the emulator, plus the
   * {@link Emulator} service. Any host is answered; use the real API root as the base URL.
   *
   * @example
   * ```ts
   * import { SemanticScholar } from "@s2-effect/core"
   * import { Emulator, Faults } from "@s2-effect/testing"
   * import { Effect, Layer } from "effect"
   *
   * const program = Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1"))
   * // The first request answers 503; the client's retry policy tries again.
   * const faulty = Emulator.layer({ seed: 1, size: 1000, faults: { script: [{ requests: 1, fault: Faults.status(503) }] } })
   * const result = program.pipe(Effect.provide(SemanticScholar.layer().pipe(Layer.provide(faulty))))
   * ```
   * @since 0.1.0
   */
  static layer(options: EmulatorOptions = {}): Layer.Layer<Emulator | HttpClient.HttpClient> {
    return Layer.effectContext(
      Effect.map(
        Emulator.make(options),
        ({ client, service }) => Context.make(Emulator, service).pipe(Context.add(HttpClient.HttpClient, client))
      )
    )
  }
}

export { makeService }
