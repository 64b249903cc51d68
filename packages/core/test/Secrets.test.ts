/**
 * Secrets shown nowhere. A server that echoes the API key back, written any way a reader would
 * still recognise it (JSON or JavaScript escapes, percent-encoding, HTML references, another letter
 * case, invisible characters in between, escapes of escapes): the key is hidden from what an error
 * shows, not only from the bytes the server sent. And an API root with a user name or password,
 * which every message naming a URL would show, is refused.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Layer, Redacted } from "effect"
import { Base64, Base64Url } from "effect/encoding"
import * as fc from "fast-check"
import { inspect } from "node:util"
import { redactKey, SemanticScholar } from "../src/index.js"
import { json, testLayer } from "./support/Scripted.js"

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, "0")

/** Ways to write one character of the key in a body; each keeps it readable once decoded. */
const writings: ReadonlyArray<(c: string) => string> = [
  (c) => c,
  (c) => `\\u00${hex(c)}`,
  (c) => `\\u00${hex(c).toUpperCase()}`,
  (c) => `\\u{${hex(c)}}`,
  (c) => `\\x${hex(c)}`,
  (c) => `%${hex(c).toUpperCase()}`,
  (c) => `&#${c.charCodeAt(0)};`,
  (c) => `&#x${hex(c)};`,
  (c) => `${c}\u200b`,
  (c) => `${c}\u00ad`,
  (c) => c.toUpperCase(),
  (c) => `%5Cu00${hex(c)}`
]

/** Bodies of error answers that quote what they are given. */
const bodies: ReadonlyArray<readonly [number, (key: string) => string]> = [
  [400, (key) => `{"error":"invalid key ${key}"}`],
  [403, (key) => `{"message":"Forbidden for key ${key}"}`],
  [500, (key) => `<html><body><p>no such key: ${key}</p></body></html>`],
  [404, (key) => `invalid key ${key}, again ${key}`]
]

/** Every way an error is shown: its message, string, stack, JSON, inspection, and as a failure. */
const forms = (error: unknown): Array<string> => [
  String(error),
  (error as Error).stack ?? "",
  JSON.stringify(error),
  inspect(error, { depth: null }),
  Cause.pretty(Cause.fail(error))
]

const failure = (key: string, status: number, body: string) =>
  Effect.flatMap(SemanticScholar, (s2) => Effect.flip(s2.getPaper("CorpusId:1"))).pipe(
    Effect.provide(
      testLayer(() => Effect.succeed({ status, text: body }), { apiKey: Redacted.make(key), retry: false })
    )
  )

const expectHidden = (error: { readonly message: string }, key: string, written: string) => {
  expect(error.message).toContain("<redacted>")
  for (const form of forms(error)) {
    expect(form.toLowerCase()).not.toContain(key.toLowerCase())
    expect(form).not.toContain(written)
  }
}

describe("the key echoed in an error body, written so that it reads as the key", () => {
  const key = "Hostile-key-0123456789abcdef"

  it.effect("JSON escapes: {\"error\":\"invalid key \\u0048ostile…\"} shows <redacted>", () =>
    Effect.gen(function*() {
      const written = `\\u0048${key.slice(1)}`
      const error = yield* failure(key, 400, `{"error":"invalid key ${written}"}`)
      expect(error._tag).toBe("BadQueryParameters")
      expect(error.message).toMatch(/^invalid key <redacted> \(HTTP 400 from GET /)
      expectHidden(error, key, written)
    }))

  it.effect("percent-encoded, and in another letter case", () =>
    Effect.gen(function*() {
      const written = `${key.slice(0, 7)}%2D${key.slice(8).toUpperCase()}`
      const error = yield* failure(key, 403, `{"message":"key ${written} is not valid"}`)
      expect(error._tag).toBe("Forbidden")
      expect(error.message).toMatch(/^key <redacted> is not valid \(HTTP 403/)
      expectHidden(error, key, written)
    }))

  it.effect("a redirect whose location holds the key names no part of it", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flatMap(SemanticScholar, (s2) => Effect.flip(s2.getPaper("CorpusId:1"))).pipe(
        Effect.provide(testLayer(
          () => Effect.succeed(json({}, 302, { location: `https://${key.toLowerCase()}.evil.example/` })),
          { apiKey: Redacted.make(key), retry: false }
        ))
      )
      expect(error._tag).toBe("UnexpectedStatus")
      for (const form of forms(error)) expect(form.toLowerCase()).not.toContain(key.toLowerCase())
    }))

  it.effect("a 2xx body of the wrong shape quoting the key percent-encoded: the DecodeError hides it", () =>
    Effect.gen(function*() {
      const written = key.replace(/-/g, "%2d")
      const error = yield* failure(key, 200, JSON.stringify({ paperId: 5, note: `key=${written}` }))
      if (error._tag !== "DecodeError") return expect.unreachable()
      expect(error.excerpt).toContain(`"note":"key=<redacted>"`)
      for (const form of forms(error)) {
        expect(form.toLowerCase()).not.toContain(key.toLowerCase())
        expect(form).not.toContain(written)
      }
    }))

  it("property: each character of the key written its own way, in any body, is never shown", async () => {
    const keyArb = fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/)
    const writingArb = (key: string) =>
      fc.array(fc.nat(writings.length - 1), { minLength: key.length, maxLength: key.length }).map((choice) =>
        [...key].map((c, i) => writings[choice[i]!]!(c)).join("")
      )
    await fc.assert(
      fc.asyncProperty(
        keyArb.chain((key) => fc.tuple(fc.constant(key), writingArb(key), fc.nat(bodies.length - 1))),
        async ([key, written, b]) => {
          const [status, body] = bodies[b]!
          const error = await Effect.runPromise(failure(key, status, body(written)))
          expectHidden(error, key, written)
        }
      ),
      { numRuns: 300 }
    )
  }, 60_000)

  it.effect("a message that only looks encoded is shown as the server wrote it", () =>
    Effect.gen(function*() {
      const error = yield* failure(key, 400, `{"error":"query a%20b &amp; \\u00e9 is not allowed"}`)
      expect(error.message).toMatch(/^query a%20b &amp; é is not allowed \(HTTP 400/)
    }))
})

describe("redactKey, the client's redaction for what others keep of an answer", () => {
  it("hides the key in each form the errors hide it in, given as Redacted or as text; no key changes nothing", () => {
    const key = "Hostile-Key-42"
    const text = `a ${key.toUpperCase()}, b ${[...key].map((c) => `%${hex(c)}`).join("")}, c ${
      [...key].map((c) => `&#${c.charCodeAt(0)};`).join("")
    }`
    const hidden = "a <redacted>, b <redacted>, c <redacted>"
    expect(redactKey(Redacted.make(key))(text)).toBe(hidden)
    expect(redactKey(key)(text)).toBe(hidden)
    expect(redactKey(undefined)(text)).toBe(text)
    expect(redactKey("")(text)).toBe(text)
    expect(redactKey(key)(`{"k":"${key}"} %41`)).toBe(`{"k":"<redacted>"} %41`)
  })

  it("property: base64 and base64url of the key, alone or inside a longer encoded text, keep no character that is the key's alone", () => {
    const bytes = (text: string) => new TextEncoder().encode(text)
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/),
        fc.uint8Array({ maxLength: 5 }),
        fc.uint8Array({ maxLength: 5 }),
        fc.boolean(),
        (key, before, after, url) => {
          const all = new Uint8Array([...before, ...bytes(key), ...after])
          const encoded = url ? Base64Url.encode(all) : Base64.encode(all)
          const hidden = redactKey(key)(`token ${encoded}.`)
          // The characters whose six bits all come from the key span [first, last).
          const first = Math.ceil(before.length * 8 / 6)
          const last = Math.floor((before.length + key.length) * 8 / 6)
          const at = hidden.indexOf("<redacted>")
          expect(at).toBeGreaterThanOrEqual(0)
          expect(at - "token ".length).toBeLessThanOrEqual(first)
          expect(hidden.length - at - "<redacted>".length - ".".length).toBeLessThanOrEqual(encoded.length - last)
        }
      ),
      { numRuns: 100 }
    )
  })
})

describe("an API root with a user name or password", () => {
  for (
    const apiUrl of [
      "https://someone:hunter2secret@api.test",
      "https://hunter2secret@api.test/",
      "http:someone:hunter2secret@api.test"
    ]
  ) {
    it.effect(`${apiUrl.replace(/hunter2secret/, "…")}: InvalidOptions before any request, the password not shown`, () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(Layer.build(testLayer(() => Effect.succeed(json({}, 500)), { apiUrl })))
        if (error._tag !== "InvalidOptions") return expect.unreachable(String(error))
        expect(error.option).toBe("apiUrl")
        expect(error.message).toMatch(/^apiUrl "https?:(\/\/)?\*\*\*@api\.test\/?" has a user name or password/)
        for (const form of forms(error)) expect(form).not.toMatch(/someone|hunter2/)
      }).pipe(Effect.scoped))
  }

  it.effect("an unparsable URL is quoted without what stands before its @ either", () =>
    Effect.gen(function*() {
      const apiUrl = "https://someone:hunter2secret@api.test:99999999"
      const error = yield* Effect.flip(Layer.build(testLayer(() => Effect.succeed(json({}, 500)), { apiUrl })))
      expect(error.message).toMatch(/^apiUrl "https:\/\/\*\*\*@api\.test:99999999" is not a URL/)
    }).pipe(Effect.scoped))
})
