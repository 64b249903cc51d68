/** The in-memory emulator: an `HttpClient` that hands each request to the {@link EmulatorCore}. */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Stream from "effect/Stream"
import type * as Emulator from "../Emulator.js"
import { EmulatorCore, truncateBody } from "./core.js"

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
        Effect.map((chunks) => Buffer.concat(chunks).toString("utf8")),
        Effect.orElseSucceed(() => undefined)
      )
    case "FormData":
      return Effect.succeed(undefined)
  }
}

const toWeb = (response: Emulator.EmulatorResponse, truncate: number | undefined): Response => {
  const body = truncate === undefined ? response.body : truncateBody(response.body, truncate)
  const empty = response.status === 204 || response.status === 304 || body.length === 0
  const headers = new Headers(response.headers)
  if (truncate !== undefined) headers.delete("content-length")
  return new Response(empty ? null : typeof body === "string" ? body : new Uint8Array(body), {
    status: response.status,
    headers
  })
}

/** Requests by path, in the order each path was first seen. Paths start with "/", so none is a prototype key. */
export const countByPath = (requests: ReadonlyArray<Emulator.RecordedRequest>): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const { path } of requests) counts[path] = (counts[path] ?? 0) + 1
  return counts
}

/** The service over a core; the in-memory layer and the HTTP server both hand it out. */
export const makeService = (core: EmulatorCore): Emulator.EmulatorService => ({
  corpus: core.corpus,
  fileUrl: core.context.fileBase,
  requests: Effect.sync(() => core.requests),
  requestCount: Effect.sync(() => core.requests.length),
  requestCounts: Effect.sync(() => countByPath(core.requests)),
  clearRequests: Effect.sync(() => core.clearRequests()),
  arrival: (index) => core.context.timeline?.arrival[index] ?? 0,
  setFaults: (config) => Effect.sync(() => core.setFaults(config)),
  core
})

/**
 * An `HttpClient` answering from the emulator. Latency and hangs use Effect's Clock
 * (`Effect.sleep`, `Effect.never`), so `TestClock` controls them and a hang is interruptible;
 * a reset fails with an `HttpClientError` whose reason is a `TransportError`.
 */
const httpClient = (core: EmulatorCore): HttpClient.HttpClient =>
  HttpClient.make((request, url) =>
    Effect.gen(function*() {
      const body = yield* requestBody(request)
      const now = yield* Clock.currentTimeMillis
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value
      const emulated: Emulator.EmulatorRequest = { method: request.method, url, headers, body }
      const outcome = core.handle(emulated, now)
      if (outcome.delayMillis > 0) yield* Effect.sleep(Duration.millis(outcome.delayMillis))
      switch (outcome._tag) {
        case "Hang":
          return yield* Effect.never
        case "Reset":
          return yield* Effect.fail(
            new HttpClientError.HttpClientError({
              reason: new HttpClientError.TransportError({
                request,
                description: "connection reset by peer (emulated)",
                // The code Node gives a reset, so clients tell it from a refused connection as they would live.
                cause: Object.assign(new Error("read ECONNRESET (emulated)"), { code: "ECONNRESET" })
              })
            })
          )
        case "Respond":
          return HttpClientResponse.fromWeb(request, toWeb(outcome.response, outcome.truncate))
      }
    })
  )

export const make = (
  options: Emulator.EmulatorOptions
): Effect.Effect<{ readonly service: Emulator.EmulatorService; readonly client: HttpClient.HttpClient }> =>
  Effect.sync(() => {
    const core = new EmulatorCore(options, IN_MEMORY_FILE_URL)
    return { service: makeService(core), client: httpClient(core) }
  })
