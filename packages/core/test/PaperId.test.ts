import { describe, expect, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import * as fc from "fast-check"
import { PaperId } from "../src/index.js"

const TURING = "2d5673caa9e6af3a7b82a43f19ee920992db07ad"

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

describe("PaperId.recognise: the forms people write an id in", () => {
  it("recognises every id form, and titles", () => {
    const id = (s: string) => {
      const r = PaperId.recognise(s)
      return r._tag === "Id" ? r.id : r._tag
    }
    expect(id("10.1093/mind/lix.236.433")).toBe("DOI:10.1093/mind/lix.236.433")
    expect(id("https://doi.org/10.1093/mind/lix.236.433")).toBe("DOI:10.1093/mind/lix.236.433")
    expect(id("doi:10.1093/mind/lix.236.433")).toBe("DOI:10.1093/mind/lix.236.433")
    expect(id("https://arxiv.org/abs/1706.03762v5")).toBe("ARXIV:1706.03762")
    expect(id("arXiv:1706.03762")).toBe("ARXIV:1706.03762")
    expect(id("PMID:19872477")).toBe("PMID:19872477")
    expect(id("PMCID:2323736")).toBe("PMCID:2323736")
    expect(id("ACL:W12-3903")).toBe("ACL:W12-3903")
    expect(id("MAG:112218234")).toBe("MAG:112218234")
    expect(id("corpusid:14636783")).toBe("CorpusId:14636783")
    expect(id(TURING.toUpperCase())).toBe(TURING)
    expect(id(`https://www.semanticscholar.org/paper/Computing-Machinery/${TURING}`)).toBe(TURING)
    expect(id("https://aclanthology.org/N18-3011")).toBe("URL:https://aclanthology.org/N18-3011")
    expect(id("BERT: Pre-training of Deep Bidirectional Transformers")).toBe("Title")
    expect(id("Attention Is All You Need")).toBe("Title")
    expect(id("   ")).toBe("Malformed")
    expect(id("DOI:  ")).toBe("Malformed")
    expect(id("a\u0000b")).toBe("Malformed")
  })

  it("a DOI URL with a broken percent escape is still an id, not a thrown URIError", () => {
    expect(PaperId.recognise("https://doi.org/10.1000/a%2Fb")).toEqual({ _tag: "Id", id: "DOI:10.1000/a%2Fb" })
    expect(PaperId.recognise("https://doi.org/10.1000/%7Bx%7D")).toEqual({ _tag: "Id", id: "DOI:10.1000/{x}" })
    expect(PaperId.recognise("https://doi.org/10.1000/50%zz")).toEqual({ _tag: "Id", id: "DOI:10.1000/50%zz" })
  })

  it("an id it recognises passes validatePaperId, and spelling it again changes nothing (property)", () =>
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.tuple(
            fc.constantFrom("", "doi:", "https://doi.org/", "DOI:", "arxiv:", "corpusid:", "https://"),
            fc.string()
          )
            .map(([prefix, rest]) => prefix + rest),
          fc.stringMatching(/^10\.\d{4,9}\/\S{1,12}$/)
        ),
        (input) => {
          const recognised = PaperId.recognise(input)
          if (recognised._tag === "Id") {
            expect(Result.isSuccess(Effect.runSync(Effect.result(PaperId.validatePaperId(recognised.id))))).toBe(true)
            expect(PaperId.spelled(recognised.id)).toBe(recognised.id)
            expect(PaperId.spelled(input)).toBe(recognised.id)
          } else {
            expect(PaperId.spelled(input)).toBe(input)
          }
        }
      )
    ))
})
