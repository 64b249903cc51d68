import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, Result } from "effect"
import * as fc from "fast-check"
import type { S2Error } from "../src/index.js"
import {
  BadQueryParameters,
  DecodeError,
  Fields,
  Forbidden,
  HttpStatus,
  InvalidOptions,
  isRetryable,
  isS2Error,
  ObjectNotFound,
  ProtocolError,
  RateLimited,
  RateLimiterUnavailable,
  retryAfterMillis,
  RetryPolicy,
  S2ErrorTypeId,
  ServerError,
  Timeout,
  TransportError,
  UnexpectedStatus,
  Validate
} from "../src/index.js"

describe("isS2Error", () => {
  it("recognises every error of the union by its TypeId, and nothing that only looks like one", () => {
    const message = "m"
    const errors = [
      new ObjectNotFound({ message }),
      new BadQueryParameters({ message }),
      new Timeout({ message, timeoutMillis: 1 }),
      new RateLimited({ message }),
      new Forbidden({ message }),
      new ServerError({ message }),
      new TransportError({ message }),
      new DecodeError({ message, excerpt: "" }),
      new RateLimiterUnavailable({ message, store: "redis://127.0.0.1" }),
      new ProtocolError({ message })
    ]
    for (const error of errors) expect(isS2Error(error)).toBe(true)
    // The same tags without the mark: a value from elsewhere (JSON, another library) is not one.
    for (const error of errors) expect(isS2Error({ _tag: error._tag, message: error.message })).toBe(false)
    expect(isS2Error(new Error("m"))).toBe(false)
    expect(isS2Error(undefined)).toBe(false)
  })
})

describe("the errors' getters", () => {
  const message = "m"
  /** One of each error, with the verdict the docs (errors.md) give it. */
  const everyError: ReadonlyArray<readonly [S2Error, boolean]> = [
    [new ObjectNotFound({ message }), false],
    [new BadQueryParameters({ message }), false],
    [new InvalidOptions({ message, option: "timeout" }), false],
    [new UnexpectedStatus({ message, status: 302 }), false],
    [new Timeout({ message, timeoutMillis: 1 }), true],
    [new Timeout({ message, timeoutMillis: 1, reason: "deadline" }), true],
    [new RateLimited({ message }), true],
    [new Forbidden({ message }), false],
    [new ServerError({ message, status: 503 }), true],
    [new TransportError({ message, reason: "refused" }), true],
    [new DecodeError({ message, excerpt: "" }), false],
    [new RateLimiterUnavailable({ message, store: "redis://127.0.0.1" }), false],
    [new ProtocolError({ message, reason: "cursor" }), false]
  ]

  it("isRetryable says which errors the default policy retries, as the function always did", () => {
    for (const [error, retried] of everyError) {
      expect([error._tag, error.isRetryable]).toEqual([error._tag, retried])
      expect(isRetryable(error)).toBe(retried)
      // The retry policy's causes cover exactly the retryable errors.
      expect(RetryPolicy.causeOf(error) !== undefined).toBe(retried)
    }
    expect(new Set(everyError.map(([error]) => error._tag)).size).toBe(12)
  })

  it("retryAfter is the server's Retry-After as a Duration, only where one was sent", () => {
    fc.assert(fc.property(fc.nat({ max: 10 * 365 * 86_400_000 }), (millis) => {
      for (
        const error of [
          new RateLimited({ message, retryAfterMillis: millis }),
          new ServerError({ message, retryAfterMillis: millis })
        ]
      ) {
        expect(Duration.isDuration(error.retryAfter)).toBe(true)
        expect(Duration.toMillis(error.retryAfter!)).toBe(millis)
        expect(retryAfterMillis(error)).toBe(millis)
      }
    }))
    for (const [error] of everyError) {
      expect(error.retryAfter).toBeUndefined()
      expect(retryAfterMillis(error)).toBeUndefined()
    }
  })

  it.effect("each error keeps its tag for catchTag, its mark, its reason and its cause", () =>
    Effect.gen(function*() {
      const underneath = new Error("socket hang up")
      const failing = (error: S2Error): Effect.Effect<string, S2Error> => Effect.fail(error)
      const caught = yield* failing(new TransportError({ message, reason: "reset", cause: underneath })).pipe(
        Effect.catchTag("RateLimited", (e) => Effect.succeed(`rate limited ${e.retryAfterMillis}`)),
        Effect.catchTag("TransportError", (e) => Effect.succeed(`${e.reason} ${e.isRetryable}`))
      )
      expect(caught).toBe("reset true")
      const error = new TransportError({ message, reason: "reset", cause: underneath })
      expect(error[S2ErrorTypeId]).toBe(S2ErrorTypeId)
      expect(error.cause).toBe(underneath)
      expect(error).toBeInstanceOf(Error)
      expect(error.name).toBe("TransportError")
      expect(Object.keys(error)[0]).toBe("_tag")
      // Yielded in a generator, as a Schema.TaggedError is.
      const yielded = yield* Effect.flip(Effect.gen(function*() {
        return yield* new ObjectNotFound({ message: "no such paper" })
      }))
      expect([yielded._tag, yielded.message, yielded.isRetryable]).toEqual(["ObjectNotFound", "no such paper", false])
    }))
})

describe("the parts of a message, as fields", () => {
  it("property: an id no request can carry is refused in parts, and the message is made of them", () => {
    const unusable = fc.oneof(
      fc.constant(""),
      fc.string().map((s) => `${s}\u0007`),
      fc.string().map((s) => `10.1/${s}/../x`),
      fc.constantFrom("FOO:1", "DOI:", "\ud800")
    )
    fc.assert(fc.property(unusable, (id) => {
      const refused = Result.getFailure(Validate.paperId(id, "id"))
      expect(Option.isSome(refused)).toBe(true)
      const error = Validate.asInput(Option.getOrThrow(refused))
      expect(error.problem).toBeDefined()
      expect(error.subject?.startsWith("id")).toBe(true)
      expect(error.message).toBe(
        `${error.subject} ${error.problem}${error.advice === undefined ? "" : `: ${error.advice}`}`
      )
    }))
  })

  it.effect("an unknown field's advice is a field of its own", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Fields.select(Fields.paperLookup, ["title", "nope"]))
      expect(error.advice).toBe(`use Fields.unchecked("nope") for a field newer than this client`)
      expect(error.message).toBe(`${error.problem}; ${error.advice}`)
    }))

  it("property: every error made from a status names its exchange in `request`, as its message does", () => {
    fc.assert(fc.property(fc.integer({ min: 100, max: 599 }).filter((s) => s < 200 || s > 299), (status) => {
      const error = HttpStatus.toError({ status, method: "GET", url: "https://api.example.org/graph/v1/paper/x" })
      expect(error.request).toBe(`HTTP ${status} from GET https://api.example.org/graph/v1/paper/x`)
      expect(error.message).toContain(error.request)
    }))
  })
})
