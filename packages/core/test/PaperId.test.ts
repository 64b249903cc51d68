import { describe, expect, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import * as fc from "fast-check"
import { PaperId } from "../src/index.js"

const prefixShape = /^[A-Za-z][A-Za-z0-9_]*:/

const control = /[\u0000-\u001f\u007f]/

const dotSegment = (id: string) => id.split("/").some((segment) => segment === "." || segment === "..")

describe("PaperId: only what can never be an id is refused", () => {
  it("any id with no prefix, no control character, no . or .. segment and not blank is sent as given (property)", () =>
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 60 }).filter((id) =>
          id.trim() !== "" && !control.test(id) && !prefixShape.test(id) && !dotSegment(id)
        ),
        (id) => {
          expect(Effect.runSync(PaperId.validatePaperId(id))).toBe(id)
          expect(Effect.runSync(PaperId.validateAuthorId(id))).toBe(id)
        }
      )
    ))

  it("an id with a . or .. path segment is refused, wherever the segment is (property)", () =>
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[A-Za-z0-9.]{1,8}$/), { maxLength: 3 }),
        fc.constantFrom(".", ".."),
        fc.array(fc.stringMatching(/^[A-Za-z0-9.]{1,8}$/), { maxLength: 3 }),
        (before, dots, after) => {
          const id = [...before, dots, ...after].join("/")
          expect(Result.isFailure(Effect.runSync(Effect.result(PaperId.validatePaperId(id))))).toBe(true)
          expect(Result.isFailure(Effect.runSync(Effect.result(PaperId.validateAuthorId(id))))).toBe(true)
        }
      )
    ))

  it("a known prefix in any case is sent; an unknown one or a control character is refused (property)", () =>
    fc.assert(
      fc.property(
        fc.constantFrom("CorpusId", "corpusid", "CORPUSID", "doi", "ArXiv", "MAG", "acl", "PMID", "pmcid", "Url"),
        fc.string({ minLength: 1, maxLength: 30 }).filter((rest) => rest.trim() !== "" && !control.test(rest)),
        fc.integer({ min: 0, max: 31 }),
        (prefix, rest, code) => {
          expect(Result.isSuccess(Effect.runSync(Effect.result(PaperId.validatePaperId(`${prefix}:${rest}`))))).toBe(
            true
          )
          expect(Result.isFailure(Effect.runSync(Effect.result(PaperId.validatePaperId(`X${prefix}:${rest}`))))).toBe(
            true
          )
          const broken = `${prefix}:${rest}${String.fromCharCode(code)}`
          expect(Result.isFailure(Effect.runSync(Effect.result(PaperId.validatePaperId(broken))))).toBe(true)
        }
      )
    ))

  it("half of a UTF-16 pair on its own is refused before sending (encodeURI threw: an internal error); a whole pair is sent", () => {
    for (const id of ["DOI:10.1/\uD800x", "abc\uDC00", "\uDBFF"]) {
      const refused = Effect.runSync(Effect.flip(PaperId.validatePaperId(id)))
      expect(refused.message).toContain("half of a UTF-16 pair")
      expect(Result.isFailure(Effect.runSync(Effect.result(PaperId.validateAuthorId(id))))).toBe(true)
    }
    expect(Effect.runSync(PaperId.validatePaperId("DOI:10.1/\u{1F600}"))).toBe("DOI:10.1/\u{1F600}")
  })
})
