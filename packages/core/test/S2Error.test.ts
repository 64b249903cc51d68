import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, Result, Schema } from "effect"
import * as fc from "fast-check"
import type { MessageParts, S2Error } from "../src/index.js"
import {
  BadQueryParameters,
  composeMessage,
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

/** Each tag's maker, given the parts and whatever else its class requires. */
const makers: { readonly [Tag in S2Error["_tag"]]: (parts: object) => S2Error } = {
  ObjectNotFound: (parts) => new ObjectNotFound(parts),
  BadQueryParameters: (parts) => new BadQueryParameters(parts),
  InvalidOptions: (parts) => new InvalidOptions({ ...parts, option: "timeout" }),
  UnexpectedStatus: (parts) => new UnexpectedStatus({ ...parts, status: 418 }),
  Timeout: (parts) => new Timeout({ ...parts, timeoutMillis: 1000 }),
  RateLimited: (parts) => new RateLimited(parts),
  Forbidden: (parts) => new Forbidden(parts),
  ServerError: (parts) => new ServerError(parts),
  TransportError: (parts) => new TransportError(parts),
  DecodeError: (parts) => new DecodeError({ ...parts, excerpt: "{}" }),
  RateLimiterUnavailable: (parts) => new RateLimiterUnavailable({ ...parts, store: "redis://r" }),
  ProtocolError: (parts) => new ProtocolError(parts)
}

const makerSchemas: { readonly [Tag in S2Error["_tag"]]: unknown } = {
  ObjectNotFound,
  BadQueryParameters,
  InvalidOptions,
  UnexpectedStatus,
  Timeout,
  RateLimited,
  Forbidden,
  ServerError,
  TransportError,
  DecodeError,
  RateLimiterUnavailable,
  ProtocolError
}

/** The composition written out once more, as the documentation of `composeMessage` states it. */
const composed = (p: MessageParts): string => {
  const has = (s: string | undefined): s is string => s !== undefined && s !== ""
  const lead = has(p.subject) && p.subject === p.request
  let text = lead
    ? (has(p.problem) ? `${p.subject}, ${p.problem}` : p.subject!)
    : [p.subject, p.problem].filter(has).join(" ")
  if (!lead && has(p.request)) text = text === "" ? p.request : `${text} (${p.request})`
  if (!has(p.advice)) return text
  if (text === "") return p.advice
  return `${text}${has(p.subject) || has(p.request) ? ": " : "; "}${p.advice}`
}

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

describe("message, a getter over the parts", () => {
  const part = fc.option(fc.string({ maxLength: 12 }), { nil: undefined })
  const parts = fc.record({ subject: part, problem: part, request: part, advice: part }, { requiredKeys: [] })

  it("property: for every tag, the message is the composition of the parts, and stays so through the schema", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.values(makers)), parts, fc.boolean(), (make, given, same) => {
        // A subject that is the request itself is one of the composition's shapes: drawn often enough.
        const input = same && given.subject !== undefined ? { ...given, request: given.subject } : given
        const error = make(input)
        expect(error.message).toBe(composed(input))
        expect(error.message).toBe(composeMessage(error))
        // What the response cache stores and reads back (the message included, derived again).
        const schema = makerSchemas[error._tag] as unknown as Schema.Codec<S2Error, unknown>
        const again = Schema.decodeUnknownSync(schema)(Schema.encodeSync(schema)(error))
        expect([again.message, again._tag]).toEqual([error.message, error._tag])
      }),
      { numRuns: 60 }
    )
  })

  it("an error made from a sentence alone (1.x, an old cache entry) keeps it, as its problem", () => {
    for (const make of Object.values(makers)) {
      const error = make({ message: "no such paper" })
      expect([error.message, error.problem]).toEqual(["no such paper", "no such paper"])
      // With parts given, the parts say it.
      expect(make({ message: "ignored", problem: "is empty", subject: "ids" }).message).toBe("ids is empty")
    }
  })

  it("JSON, the stack and the keys show the derived message", () => {
    const error = new RateLimited({ problem: "rate limited", request: "HTTP 429 from GET https://x", advice: "wait" })
    expect(JSON.parse(JSON.stringify(error)).message).toBe("rate limited (HTTP 429 from GET https://x): wait")
    expect(error.stack?.split("\n")[0]).toBe("RateLimited: rate limited (HTTP 429 from GET https://x): wait")
    expect(Object.keys(error)[0]).toBe("_tag")
    expect(Object.getOwnPropertyNames(error)).not.toContain("message")
  })
})
