/**
 * A tiny scripted HttpClient for unit tests of the client and what is built on it: each request is
 * recorded and answered by a handler, in Effect, so `TestClock` controls any waiting the handler
 * does. A package's tests put their client over it (`clientLayer`) in their own `test/support`:
 * this package depends on none of the workspace's, or it would be in a cycle with the client's.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"

export interface Seen {
  readonly method: string
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  readonly at: number
}

export interface Reply {
  readonly status: number
  readonly body?: unknown
  readonly text?: string
  readonly headers?: Readonly<Record<string, string>>
}

export type Handler = (request: Seen, index: number) => Effect.Effect<Reply | "reset" | "refused">

/** The platform errors of a broken connection, with the codes Node gives them. */
const broken = {
  reset: { description: "connection reset", code: "ECONNRESET" },
  refused: { description: "connect ECONNREFUSED", code: "ECONNREFUSED" }
} as const

export class Requests extends Context.Service<Requests, Ref.Ref<ReadonlyArray<Seen>>>()("test/Requests") {}

const decoder = new TextDecoder()

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers
})

export const clientLayer = (handler: Handler) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(Effect.service(Requests), (seen) =>
      HttpClient.make((request, url) =>
        Effect.gen(function*() {
          const body = request.body._tag === "Uint8Array" ? JSON.parse(decoder.decode(request.body.body)) : undefined
          const entry: Seen = {
            method: request.method,
            url,
            headers: { ...request.headers },
            body,
            at: yield* Clock.currentTimeMillis
          }
          const index = (yield* Ref.getAndUpdate(seen, (all) => [...all, entry])).length
          const reply = yield* handler(entry, index)
          if (reply === "reset" || reply === "refused") {
            const { code, description } = broken[reply]
            return yield* Effect.fail(
              new HttpClientError.HttpClientError({
                reason: new HttpClientError.TransportError({
                  request,
                  description,
                  cause: Object.assign(new Error(description), { code })
                })
              })
            )
          }
          const text = reply.text ?? JSON.stringify(reply.body)
          return HttpClientResponse.fromWeb(
            request,
            new Response(text, {
              status: reply.status,
              headers: { "content-type": "application/json", ...reply.headers }
            })
          )
        })
      ))
  ).pipe(Layer.provideMerge(Layer.effect(Requests, Ref.make<ReadonlyArray<Seen>>([]))))

export const requests = Effect.flatMap(Effect.service(Requests), Ref.get)
