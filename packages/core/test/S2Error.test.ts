import { describe, expect, it } from "@effect/vitest"
import {
  BadQueryParameters,
  DecodeError,
  Forbidden,
  isS2Error,
  ObjectNotFound,
  ProtocolError,
  RateLimited,
  RateLimiterUnavailable,
  ServerError,
  Timeout,
  TransportError
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
