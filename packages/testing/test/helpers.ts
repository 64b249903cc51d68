import { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"

export const API = "https://api.semanticscholar.org"

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  readonly json: unknown
}

/** One request through the in-memory HttpClient. */
export const call = (
  method: "GET" | "POST" | "HEAD" | "OPTIONS",
  pathAndQuery: string,
  options: { readonly body?: unknown; readonly headers?: Record<string, string> } = {}
) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const url = pathAndQuery.startsWith("http") ? pathAndQuery : `${API}${pathAndQuery}`
    let request = HttpClientRequest.make(method)(url)
    if (options.headers !== undefined) request = HttpClientRequest.setHeaders(request, options.headers)
    if (options.body !== undefined) {
      request = yield* HttpClientRequest.bodyJson(request, options.body).pipe(Effect.orDie)
    }
    const response = yield* client.execute(request)
    const text = yield* response.text.pipe(Effect.orDie)
    let json: unknown = undefined
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, text, json } satisfies Reply
  })

/** Narrowing helper for JSON in assertions. */
export const obj = (value: unknown): Record<string, unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`not an object: ${JSON.stringify(value)}`)
  }
  return { ...value }
}
export const arr = (value: unknown): ReadonlyArray<unknown> => {
  if (!Array.isArray(value)) throw new Error(`not an array: ${JSON.stringify(value)}`)
  return value
}
