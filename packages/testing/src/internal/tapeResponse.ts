/**
 * The response a cassette hands the client: replayed from the file, or passing a live body through
 * while it is recorded. Kept apart from `cassette.ts`, which decides what is recorded and replayed.
 */
import * as Effect from "effect/Effect"
import * as Cookies from "effect/http/Cookies"
import type * as Headers from "effect/http/Headers"
import * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as UrlParams from "effect/http/UrlParams"
import * as Inspectable from "effect/Inspectable"
import * as Option from "effect/Option"
import { pipeArguments } from "effect/Pipeable"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"

const decoder = new TextDecoder()

export const concat = (chunks: ReadonlyArray<Uint8Array>): Uint8Array => {
  const bytes = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0))
  chunks.reduce((at, chunk) => (bytes.set(chunk, at), at + chunk.length), 0)
  return bytes
}

/**
 * A response of the cassette: a replayed one, or a recorded one whose body passes through to the
 * client as it reads it. Not a web `Response`, which refuses statuses past 599 and header names
 * HTTP cannot carry: a cassette gives the client the same answer a live server did.
 */
export class TapeResponse extends Inspectable.Class implements HttpClientResponse.HttpClientResponse {
  readonly [HttpIncomingMessage.TypeId] = HttpIncomingMessage.TypeId
  readonly [HttpClientResponse.TypeId] = HttpClientResponse.TypeId
  readonly cookies = Cookies.empty
  readonly remoteAddress = Option.none<string>()
  private body?: Effect.Effect<ArrayBuffer, HttpClientError.HttpClientError>

  constructor(
    readonly request: HttpClientRequest.HttpClientRequest,
    readonly status: number,
    readonly headers: Headers.Headers,
    readonly stream: Stream.Stream<Uint8Array, HttpClientError.HttpClientError>,
    readonly url: string
  ) {
    super()
  }

  private decodeError(cause: unknown) {
    return new HttpClientError.HttpClientError({
      reason: new HttpClientError.DecodeError({ request: this.request, response: this, cause })
    })
  }

  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpClientError.HttpClientError> {
    // The body streams once; reading it again (text after arrayBuffer) gets the same bytes.
    return this.body ??= Stream.runCollect(this.stream).pipe(
      Effect.map((chunks) => concat(chunks).buffer as ArrayBuffer),
      Effect.cached,
      Effect.runSync
    )
  }

  get text(): Effect.Effect<string, HttpClientError.HttpClientError> {
    return Effect.map(this.arrayBuffer, (bytes) => decoder.decode(bytes))
  }

  get json(): Effect.Effect<Schema.Json, HttpClientError.HttpClientError> {
    return Effect.flatMap(this.text, (text) =>
      Effect.try({
        try: () => (text === "" ? null : JSON.parse(text)) as Schema.Json,
        catch: (cause) => this.decodeError(cause)
      }))
  }

  get urlParamsBody(): Effect.Effect<UrlParams.UrlParams, HttpClientError.HttpClientError> {
    return Effect.map(this.text, (text) => UrlParams.fromInput(new URLSearchParams(text)))
  }

  get formData(): Effect.Effect<FormData, HttpClientError.HttpClientError> {
    return Effect.fail(this.decodeError(new Error("a cassette does not hold form data")))
  }

  get upgrade(): HttpClientResponse.HttpClientResponse["upgrade"] {
    return Effect.fail(
      new HttpClientError.HttpClientError({
        reason: new HttpClientError.StatusCodeError({
          request: this.request,
          response: this,
          description: "a cassette cannot hand over a connection"
        })
      })
    )
  }

  toJSON(): unknown {
    return HttpIncomingMessage.inspect(this, { _id: "HttpClientResponse", status: this.status })
  }

  pipe() {
    // eslint-disable-next-line prefer-rest-params
    return pipeArguments(this, arguments)
  }
}

const blank = new Uint8Array(64 * 1024).fill(0x20)

/** `size` bytes of spaces, made as they are read: the rest of a body only its start was kept of. */
export const filler = (size: number): Stream.Stream<Uint8Array> =>
  Stream.unfold(size, (left) =>
    Effect.succeed(
      left <= 0 ? undefined : [blank.subarray(0, Math.min(left, blank.length)), left - blank.length] as const
    ))
