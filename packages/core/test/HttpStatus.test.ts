/**
 * The one status → error mapping: every status lands in exactly one error, chosen by a reference
 * table written here independently of the code, and the API transport fails with exactly what the
 * mapping gives for the answer it got.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as fc from "fast-check"
import type { S2Error } from "../src/index.js"
import { HttpStatus, isRetryable, isS2Error, RetryPolicy, SemanticScholar } from "../src/index.js"
import { json, requests, testLayer } from "./support/Scripted.js"

/** The vocabulary of docs/errors.md, as a reference for the mapping. */
const expectedTag = (status: number, responder: "api" | "fileHost" = "api"): S2Error["_tag"] => {
  if (status === 0) return "TransportError"
  // A file host's 400 is about a link the client was given, not the caller's input.
  if (status === 400) return responder === "api" ? "BadQueryParameters" : "UnexpectedStatus"
  if (status === 401 || status === 403) return "Forbidden"
  if (status === 404) return "ObjectNotFound"
  if (status === 429) return "RateLimited"
  if (status >= 500 && status <= 599) return "ServerError"
  return "UnexpectedStatus"
}

const responders = ["api", "fileHost"] as const
const url = "https://api.test/graph/v1/paper/CorpusId:1"

describe("HttpStatus.toError", () => {
  it("every status from 100 to 599, from either responder, is exactly one error of the reference table", () => {
    for (const responder of responders) {
      for (let status = 100; status <= 599; status++) {
        const error = HttpStatus.toError({ status, method: "GET", url, body: "{\"error\":\"why\"}", responder })
        expect(isS2Error(error)).toBe(true)
        expect([status, error._tag]).toEqual([status, expectedTag(status, responder)])
        expect(error.status).toBe(status)
        expect(error.url).toBe(url)
        expect(error.message).toContain(`HTTP ${status}`)
        // Said of the file host, not the API, wherever it is rendered (s2's advice about --api-url).
        expect(error.responder).toBe(responder === "fileHost" ? "fileHost" : undefined)
        // Only what asking again can change is retried: 429, 5xx.
        expect([status, isRetryable(error)]).toEqual([status, status === 429 || status >= 500])
        expect(RetryPolicy.causeOf(error) !== undefined).toBe(isRetryable(error))
      }
    }
  })

  it("400 from the API is BadQueryParameters refused by the server, with the server's message", () => {
    const error = HttpStatus.toError({
      status: 400,
      method: "GET",
      url,
      body: "{\"error\":\"Unrecognized or unsupported fields: [colour]\"}"
    })
    expect(error).toMatchObject({ _tag: "BadQueryParameters", refusedBy: "server", status: 400 })
    expect(error.message).toBe(`Unrecognized or unsupported fields: [colour] (HTTP 400 from GET ${url})`)
  })

  it("the responder changes the advice, not the error: an expired link versus a missing key", () => {
    const api = HttpStatus.toError({ status: 403, method: "GET", url, body: "" })
    const files = HttpStatus.toError({ status: 403, method: "GET", url, body: "<Error/>", responder: "fileHost" })
    expect([api._tag, files._tag]).toEqual(["Forbidden", "Forbidden"])
    expect(api.message).toContain("set S2_API_KEY")
    expect(files.message).toContain("pre-signed link may have expired")
    expect(files.message).toContain("the file host")
  })

  it("a redirect names where it pointed and why it was not followed", () => {
    const error = HttpStatus.toError({ status: 307, method: "GET", url, location: "https://elsewhere.example/x" })
    expect(error._tag).toBe("UnexpectedStatus")
    expect(error.message).toContain("elsewhere.example")
    expect(error.message).toContain("does not follow redirects from the API")
    const loop = HttpStatus.toError({
      status: 302,
      method: "GET",
      url,
      responder: "fileHost",
      notFollowed: "more than 5 redirects"
    })
    expect(loop.message).toContain("more than 5 redirects")
  })

  it("Retry-After reaches RateLimited and ServerError", () => {
    for (const status of [429, 503]) {
      const error = HttpStatus.toError({ status, method: "GET", url, retryAfterMillis: 30_000 })
      expect("retryAfterMillis" in error && error.retryAfterMillis).toBe(30_000)
    }
    expect(HttpStatus.parseRetryAfter("30", 0)).toBe(30_000)
    expect(HttpStatus.parseRetryAfter(new Date(90_000).toUTCString(), 0)).toBe(90_000)
    expect(HttpStatus.parseRetryAfter("soon", 0)).toBeUndefined()
  })

  it("property: any integer status and any body give a typed error with a message, never a throw", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 10_000 }),
        fc.string(),
        fc.constantFrom(...responders),
        fc.option(fc.string(), { nil: undefined }),
        (status, body, responder, location) => {
          const error = HttpStatus.toError({ status, method: "GET", url, body, responder, location })
          expect(isS2Error(error)).toBe(true)
          expect(error._tag).toBe(expectedTag(status, responder))
          expect(error.message.length).toBeGreaterThan(0)
          expect(error.message).toContain(url)
        }
      )
    )
  })
})

describe("the API transport uses the mapping", () => {
  // The statuses a web Response can carry with a body, other than the successes.
  const statuses = Array.from({ length: 300 }, (_, i) => 300 + i).filter((s) => s !== 304)

  it.effect("property: a non-2xx answer fails with exactly HttpStatus.toError of it, the key redacted", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(fc.constantFrom(...statuses), fc.string({ maxLength: 40 }), async (status, why) => {
          const body = { error: `${why} secret-key` }
          const program = Effect.gen(function*() {
            const s2 = yield* SemanticScholar
            const error = yield* Effect.flip(s2.getPaper("CorpusId:1", { fields: ["title"] }))
            const [seen] = yield* requests
            return { error, url: seen!.url.href }
          }).pipe(
            Effect.provide(testLayer(() => Effect.succeed(json(body, status, { location: "https://else.example/" })), {
              apiKey: Redacted.make("secret-key"),
              retry: false
            }))
          )
          const { error, url } = await Effect.runPromise(program)
          const expected = HttpStatus.toError({
            status,
            method: "GET",
            url,
            body: JSON.stringify({ error: `${why} <redacted>` }),
            location: "https://else.example/"
          })
          expect(error).toEqual(expected)
          expect(error.message).not.toContain("secret-key")
        }),
        { numRuns: 100 }
      )
    ))
})
