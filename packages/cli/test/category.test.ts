/**
 * The `s2` command's exit code and the assistant tools' failure kind of a client error are both
 * derived from its one `category`: whatever the error, the two say the same thing about it.
 */
import { describe, expect, it } from "@effect/vitest"
import { AssistantTools } from "@s2-effect/ai"
import type { Category, S2Error } from "@s2-effect/core"
import {
  BadQueryParameters,
  DecodeError,
  Forbidden,
  InvalidOptions,
  ObjectNotFound,
  ProtocolError,
  RateLimited,
  RateLimiterUnavailable,
  ServerError,
  Timeout,
  TransportError,
  UnexpectedStatus
} from "@s2-effect/core"
import * as fc from "fast-check"
import { exitCodes, fromS2Error } from "../src/ExitCode.js"

/** The failure kind each category reads as to the model: the table of `@s2-effect/ai`, said again. */
const kinds: { readonly [C in Category]: AssistantTools.FailureKind } = {
  notFound: "notFound",
  badInput: "badParameter",
  forbidden: "forbidden",
  rateLimited: "rateLimited",
  timeout: "timeout",
  server: "serverError",
  transport: "unreachable",
  badAnswer: "badAnswer",
  rateLimiter: "unreachable"
}

const message = fc.string({ maxLength: 40 })
const millis = fc.option(fc.integer({ min: 0, max: 2 * 60 * 60 * 1000 }), { nil: undefined })
const status = fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined })
const responder = fc.option(fc.constantFrom("api" as const, "fileHost" as const), { nil: undefined })
const common = fc.record({ message, status, responder, url: fc.constant("https://api.example.org/graph/v1/paper/x") })
const strip = <A extends object>(a: A) => Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as A

/** Every tag, with its variants: reasons, waits, the file host, and time-outs with every cause. */
const leaf: fc.Arbitrary<S2Error> = fc.oneof(
  common.map((c) => new ObjectNotFound(strip(c))),
  fc.tuple(common, fc.constantFrom("client" as const, "server" as const), fc.constantFrom("fields", undefined))
    .map(([c, refusedBy, parameter]) => new BadQueryParameters(strip({ ...c, refusedBy, parameter }))),
  fc.tuple(common, fc.constantFrom("apiKey", "timeout", "apiUrl"))
    .map(([c, option]) => new InvalidOptions(strip({ ...c, option }))),
  fc.tuple(common, fc.integer({ min: 0, max: 999 })).map(([c, s]) => new UnexpectedStatus(strip({ ...c, status: s }))),
  fc.tuple(common, millis).map(([c, retryAfterMillis]) => new RateLimited(strip({ ...c, retryAfterMillis }))),
  common.map((c) => new Forbidden(strip(c))),
  fc.tuple(common, millis).map(([c, retryAfterMillis]) => new ServerError(strip({ ...c, retryAfterMillis }))),
  fc.tuple(common, fc.constantFrom("refused", "hostNotFound", "reset", "cutShort", "malformed", undefined))
    .map(([c, reason]) => new TransportError(strip({ ...c, reason }))),
  fc.tuple(common, fc.constantFrom("shape", "length", "notJson", "depth", undefined))
    .map(([c, reason]) => new DecodeError(strip({ ...c, excerpt: "{", reason }))),
  fc.tuple(common, fc.constantFrom("failed", "timeout", "badAnswer", "waitTooLong", undefined))
    .map(([c, reason]) => new RateLimiterUnavailable(strip({ ...c, store: "redis://localhost", reason }))),
  fc.tuple(common, fc.constantFrom("cursor", "stalled", "tooLarge", undefined))
    .map(([c, reason]) => new ProtocolError(strip({ ...c, reason })))
)
const errors: fc.Arbitrary<S2Error> = fc.oneof(
  leaf,
  fc.tuple(
    common,
    fc.integer({ min: 1, max: 600_000 }),
    fc.constantFrom("attempt" as const, "deadline" as const, undefined),
    fc.option(leaf, { nil: undefined })
  ).map(([c, timeoutMillis, reason, cause]) => new Timeout(strip({ ...c, timeoutMillis, reason, cause })))
)

const context = (retries: number, hasKey: boolean) => ({ what: "paper CorpusId:1", retries, hasKey })

describe("one category per error", () => {
  it("property: the exit code and the failure kind of every error are its category's", () => {
    const byCode = new Map(Object.entries(exitCodes).map(([category, code]) => [code, category]))
    fc.assert(
      fc.property(errors, fc.constantFrom(0, 3), fc.boolean(), (error, retries, hasKey) => {
        const code = fromS2Error(error, context(retries, hasKey)).code
        const kind = AssistantTools.toolFailure(error).kind
        expect(code).toBe(exitCodes[error.category])
        // Read back from the exit code alone, the category gives the kind the model was told.
        expect(kinds[byCode.get(code) as Category]).toBe(kind)
      }),
      { numRuns: 500 }
    )
  })

  it("a deadline hit while waiting out a 429 is rate limited to both, not a time-out", () => {
    const error = new Timeout({
      message: "deadline of 10 s passed",
      timeoutMillis: 10_000,
      reason: "deadline",
      cause: new RateLimited({ message: "rate limited (HTTP 429 from GET …)", status: 429, retryAfterMillis: 30_000 })
    })
    expect(error.category).toBe("rateLimited")
    expect(fromS2Error(error, context(3, false)).code).toBe(exitCodes.rateLimited)
    expect(AssistantTools.toolFailure(error).kind).toBe("rateLimited")
    // A deadline over a server failure stays a time-out.
    const slow = new Timeout({
      message: "deadline of 10 s passed",
      timeoutMillis: 10_000,
      reason: "deadline",
      cause: new ServerError({ message: "server error (HTTP 503)", status: 503 })
    })
    expect(fromS2Error(slow, context(3, false)).code).toBe(exitCodes.timeout)
    expect(AssistantTools.toolFailure(slow).kind).toBe("timeout")
  })

  it("isRetryable is exactly whether the retry policy has a cause (and so a budget) for the error", () => {
    fc.assert(
      fc.property(errors, (error) => {
        expect(error.isRetryable).toBe(["RateLimited", "ServerError", "Timeout", "TransportError"].includes(error._tag))
      })
    )
  })
})
