/**
 * Messages stay short whatever they quote: an id of 120,000 characters (refused), one of 8,000 a server echoes in
 * its error, a refused value. Each value is cut where a message quotes it (`excerpt`), so a line
 * costs a few KB, not a copy of every value in it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import * as fc from "fast-check"
import { excerpt, replaceUnsafe, SemanticScholar, Validate } from "../src/index.js"
import { json, testLayer } from "./support/Scripted.js"

/** Generous for any message: its own words, a URL of 1,000 characters and the server's 300. */
const short = 2000

describe("messages quoting huge values", () => {
  // The longest id a URL of the API carries (8,192 bytes); a longer one is refused before sending.
  const id = `CorpusId:${"9".repeat(8_000)}`

  it.effect("an id of 120,000 characters is refused before sending: a message of at most 2,000", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getPaper(`CorpusId:${"9".repeat(120_000)}`))
      expect(error._tag).toBe("BadQueryParameters")
      expect(error.message.length).toBeLessThan(short)
      expect(error.message).toContain("(120009 characters) is longer than a URL of the API can carry")
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json({}, 500)), { retry: false }))))

  it.effect("an id of 8,000 characters that the server echoes in a 404: a message of at most 2,000", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getPaper(id))
      expect(error._tag).toBe("ObjectNotFound")
      expect(error.message.length).toBeLessThan(short)
      // Only the body's first 8 KB is read, not JSON then: the message quotes its first 200 characters.
      expect(error.message).toMatch(
        /^\{"error":"Paper with id CorpusId:9+… \(HTTP 404 from GET https:\/\/api\.test\/graph\/v1\/paper\/CorpusId:9+…\)$/
      )
      expect(error.url?.length).toBe(1000)
    }).pipe(Effect.provide(testLayer(
      (request) =>
        Effect.succeed(
          // The id twice: a body over the 8 KB read of an error body.
          json(
            { error: `Paper with id ${decodeURIComponent(request.url.pathname.slice(16)).repeat(2)} not found` },
            404
          )
        ),
      { retry: false }
    ))))

  it.effect("a huge body that is not JSON, and JSON whose message is 7,000 characters: the server's words cut", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const first = yield* Effect.flip(s2.getPaper("CorpusId:1"))
      const second = yield* Effect.flip(s2.getPaper("CorpusId:2"))
      for (const error of [first, second]) {
        expect(error._tag).toBe("ServerError")
        expect(error.message.length).toBeLessThan(short)
      }
    }).pipe(Effect.provide(testLayer(
      (_, i) =>
        Effect.succeed(
          i === 0 ? { status: 500, text: "x".repeat(100_000) } : json({ message: "y".repeat(7_000) }, 500)
        ),
      { retry: false }
    ))))

  it.effect("an unknown field name of 120,000 characters: refused in a message of under 2,000", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getPaper("CorpusId:1", { fields: ["x".repeat(120_000) as never] }))
      expect(error._tag).toBe("BadQueryParameters")
      expect(error.message).toMatch(/^unknown paper field "x{199}…"; known fields: /)
      expect(error.message.length).toBeLessThan(short)
    }).pipe(Effect.provide(testLayer(() => Effect.succeed(json({}))))))

  it.effect("an API root whose host has 100,000 characters, refused: a message of under 2,000", () =>
    Effect.gen(function*() {
      const s2 = yield* SemanticScholar
      const error = yield* Effect.flip(s2.getPaper("CorpusId:1"))
      expect(error._tag).toBe("TransportError")
      expect(error.message).toMatch(/^connection refused by \S*hhhh…/)
      expect(error.message.length).toBeLessThan(short)
    }).pipe(Effect.provide(testLayer(() => Effect.succeed("refused" as const), {
      apiUrl: `https://${"h".repeat(100_000)}.test`,
      retry: false
    }))))

  it("property: a refused value of any length makes a message of under 1,000 characters", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 5000, unit: "grapheme" }), fc.nat(20), (value, n) => {
        const long = `${value}${"x".repeat(1000 * (n + 1))}`
        for (
          const check of [
            Validate.paperId(`${long}\n`),
            Validate.paperId(`Bogus:${long}`),
            Validate.datasetName(`${long}!`)
          ]
        ) {
          const refused = Result.isFailure(check) ? check.failure.message : ""
          expect(refused.length).toBeLessThan(1000)
        }
      }),
      { numRuns: 200 }
    )
  })

  it("excerpt: at most max characters, ending in … when cut, never half a surrogate pair", () => {
    expect(excerpt("a".repeat(120_000), 10)).toBe(`${"a".repeat(9)}…`)
    expect(excerpt("short", 10)).toBe("short")
    expect(excerpt(`${"a".repeat(8)}😀😀`, 10)).toBe(`${"a".repeat(8)}…`)
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 500 }), fc.integer({ min: 2, max: 400 }), (text, max) => {
        const cut = excerpt(text, max)
        expect(cut.length).toBeLessThanOrEqual(Math.max(max, text.length <= max ? text.length : 0))
        expect(cut.endsWith("…") || cut === text).toBe(true)
        expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(cut)).toBe(false)
      })
    )
  })
})

describe("replaceUnsafe: the one list of characters shown text must not carry as they are", () => {
  /** The characters, listed by code as the three copies it replaced listed them. */
  const listed = (code: number): boolean =>
    code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0x061c || code === 0x200e || code === 0x200f ||
    code === 0x2028 || code === 0x2029 || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) ||
    (code >= 0xd800 && code <= 0xdfff)

  it("replaces exactly the controls, separators, bidirectional controls and lone surrogates of the BMP", () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code)
      expect(replaceUnsafe(`a${char}b`, () => "#"), code.toString(16)).toBe(listed(code) ? "a#b" : `a${char}b`)
    }
  })

  it("keeps surrogate pairs, returns text without any as it is, and gives `by` each character", () => {
    expect(replaceUnsafe("😀 \ud83d \ude00x", (c) => `<${c.charCodeAt(0).toString(16)}>`)).toBe("😀 <d83d> <de00>x")
    expect(replaceUnsafe("Title\u001b]0;pwned\u0007 \u202egnp.exe", () => " ")).toBe("Title ]0;pwned   gnp.exe")
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
      expect(replaceUnsafe(text, () => "")).toBe(text.replace(/[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/gu, ""))
    }))
  })
})
