import { describe, expect, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import * as fc from "fast-check"
import { PaperId, SemanticScholar } from "../src/index.js"
import { json, requests, testLayer } from "./support/Scripted.js"

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
    // `%2F` in a link is the DOI's "/" (it was kept encoded, and the paper was not found).
    expect(PaperId.recognise("https://doi.org/10.1000/a%2Fb")).toEqual({ _tag: "Id", id: "DOI:10.1000/a/b" })
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
          } else if (recognised._tag === "Malformed" && /^https?:\/\//i.test(input.trim())) {
            // A link whose id is refused is that id, refused before sending.
            expect(Result.isFailure(Effect.runSync(Effect.result(PaperId.validatePaperId(PaperId.spelled(input))))))
              .toBe(true)
          } else {
            expect(PaperId.spelled(input)).toBe(input)
          }
        }
      )
    ))
})

describe("PaperId.spelled: a link whose id is refused is refused for what is wrong with the id", () => {
  for (
    const link of ["https://doi.org/10.1000/%2E%2E/x", "https://doi.org/10.1000/%2e%2e/x", "doi.org/10.1000/%2E%2E/x"]
  ) {
    it.effect(`${link}: a ".." path segment, never sent`, () =>
      Effect.gen(function*() {
        const s2 = yield* SemanticScholar
        const error = yield* Effect.flip(s2.getPaper(PaperId.spelled(link)))
        if (error._tag !== "BadQueryParameters") return expect.unreachable(error._tag)
        expect(error.parameter).toBe("paperId")
        expect(error.subject).toBe(`paperId "DOI:10.1000/../x"`)
        expect(error.problem).toBe(`has a ".." path segment, which would reach another endpoint`)
        expect(yield* requests).toHaveLength(0)
      }).pipe(Effect.provide(testLayer(() => Effect.succeed(json({ paperId: TURING }))))))
  }
})

describe("PaperId.recognise: links name their id, arXiv ids as people write them", () => {
  const id = (s: string) => {
    const r = PaperId.recognise(s)
    return r._tag === "Id" ? r.id : r._tag
  }

  it("a link's query and fragment are dropped, and its percent-encoding decoded", () => {
    expect(id("https://arxiv.org/abs/2305.02115?context=cs.CL")).toBe("ARXIV:2305.02115")
    expect(id("https://arxiv.org/abs/2305.02115v2#S3")).toBe("ARXIV:2305.02115")
    expect(id("https://arxiv.org/pdf/2305.02115v2.pdf?download=1")).toBe("ARXIV:2305.02115")
    expect(id("https://arxiv.org/abs/hep-th%2F9901001")).toBe("ARXIV:hep-th/9901001")
    expect(id("arxiv.org/abs/hep-th/9901001v3")).toBe("ARXIV:hep-th/9901001")
    expect(id("https://doi.org/10.1093/mind/lix.236.433?utm_source=x#top")).toBe("DOI:10.1093/mind/lix.236.433")
    expect(id("https://doi.org/10.1093%2Fmind%2Flix.236.433")).toBe("DOI:10.1093/mind/lix.236.433")
    expect(id("https://dx.doi.org/10.1000/a%23b%3Fc")).toBe("DOI:10.1000/a#b?c")
    expect(id("doi.org/10.1000/xyz")).toBe("DOI:10.1000/xyz")
    expect(id(`https://www.semanticscholar.org/paper/Computing/${TURING}?utm_source=api#cited`)).toBe(TURING)
  })

  it("the CorpusID link Semantic Scholar's own BibTeX gives as `url` names that corpus id", () => {
    expect(id("https://api.semanticscholar.org/CorpusID:13756489")).toBe("CorpusId:13756489")
    expect(id("http://api.semanticscholar.org/corpusid:13756489?utm_source=x#y")).toBe("CorpusId:13756489")
    expect(id("api.semanticscholar.org/CorpusID:13756489/")).toBe("CorpusId:13756489")
    // Not a corpus id after the prefix: the link as the API's URL: id, for the server to judge.
    expect(id("https://api.semanticscholar.org/CorpusID:12x")).toBe("URL:https://api.semanticscholar.org/CorpusID:12x")
  })

  it("bare arXiv ids, new and old style, versions, categories and arXiv DOIs", () => {
    expect(id("2305.02115")).toBe("ARXIV:2305.02115")
    expect(id("2305.02115v2")).toBe("ARXIV:2305.02115")
    expect(id("1706.03762")).toBe("ARXIV:1706.03762")
    expect(id("0704.0001")).toBe("ARXIV:0704.0001")
    expect(id("hep-th/9901001")).toBe("ARXIV:hep-th/9901001")
    expect(id("math.GT/0309136")).toBe("ARXIV:math/0309136")
    expect(id("cond-mat/0102536v1")).toBe("ARXIV:cond-mat/0102536")
    expect(id("arXiv:2405.05667v1 [cs.CL]")).toBe("ARXIV:2405.05667")
    expect(id("2405.05667 [cs.CL]")).toBe("ARXIV:2405.05667")
    expect(id("arXiv preprint arXiv:1706.03762")).toBe("ARXIV:1706.03762")
    expect(id("ARXIV:2305.02115v2")).toBe("ARXIV:2305.02115")
    expect(id("arxiv:math.GT/0309136v2")).toBe("ARXIV:math/0309136")
    expect(id("10.48550/arXiv.2602.12271v1")).toBe("ARXIV:2602.12271")
    expect(id("https://doi.org/10.48550/arXiv.2602.12271")).toBe("ARXIV:2602.12271")
    expect(id("DOI:10.48550/ARXIV.2602.12271")).toBe("ARXIV:2602.12271")
    // What merely looks alike stays what it was.
    expect(id("ARXIV:not-an-id")).toBe("ARXIV:not-an-id")
    expect(id("2305.1")).toBe("Title")
    expect(id("1999.12345")).toBe("Title")
  })

  const newStyle = fc.tuple(
    fc.integer({ min: 7, max: 99 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 99999 })
  ).map(([y, m, n]) =>
    `${String(y).padStart(2, "0")}${String(m).padStart(2, "0")}.${
      String(n).padStart(y > 14 ? 5 : 4, "0").slice(-(y > 14 ? 5 : 4))
    }`
  )
  const oldStyle = fc.tuple(
    fc.constantFrom("hep-th", "hep-ph", "cond-mat", "math", "astro-ph", "quant-ph", "cs", "gr-qc"),
    fc.integer({ min: 0, max: 9999999 })
  ).map(([archive, n]) => `${archive}/${String(n).padStart(7, "0")}`)
  const arxivIds = fc.oneof(newStyle, oldStyle)
  const version = fc.option(fc.integer({ min: 1, max: 30 }).map((v) => `v${v}`), { nil: "" })
  const after = fc.tuple(
    fc.option(fc.stringMatching(/^[a-z0-9=&_.]{0,12}$/).map((q) => `?${q}`), { nil: "" }),
    fc.option(fc.stringMatching(/^[A-Za-z0-9_?#.-]{0,12}$/).map((f) => `#${f}`), { nil: "" })
  ).map(([query, fragment]) => query + fragment)

  it("any arXiv id, in any form written, is the unversioned ARXIV: id (property)", () =>
    fc.assert(
      fc.property(
        arxivIds,
        version,
        after,
        fc.constantFrom("abs", "pdf"),
        fc.constantFrom("https://arxiv.org/", "http://export.arxiv.org/", "arxiv.org/", "https://www.arxiv.org/"),
        fc.boolean(),
        (arxiv, v, tail, kind, host, encode) => {
          const expected = `ARXIV:${arxiv}`
          const encoded = encode ? arxiv.split("/").join("%2F") : arxiv
          expect(id(`${host}${kind}/${encoded}${v}${kind === "pdf" ? ".pdf" : ""}${tail}`)).toBe(expected)
          expect(id(`${arxiv}${v}`)).toBe(expected)
          expect(id(`arXiv:${arxiv}${v} [cs.LG]`)).toBe(expected)
          expect(id(`10.48550/arXiv.${arxiv}${v}`)).toBe(expected)
        }
      )
    ))

  /** A DOI suffix: any characters but white space and controls, no "." or ".." segment. */
  const suffix = fc.string({ unit: "grapheme", minLength: 1, maxLength: 16 }).filter((s) =>
    !/[\s\p{Cc}]/u.test(s) && !s.split("/").some((segment) => segment === "." || segment === "..")
  )
  const percent = (c: string) =>
    Array.from(new TextEncoder().encode(c), (b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("")

  it("a DOI link names its DOI: decoded, query and fragment dropped, # and ? only when encoded (property)", () =>
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 999999999 }),
        suffix,
        fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
        after,
        (registrant, rest, encode, tail) => {
          const doi = `10.${registrant}/${rest}`
          const written = [...rest].map((c, i) => /[?#%]/.test(c) || encode[i % 16] ? percent(c) : c).join("")
          expect(id(`https://doi.org/10.${registrant}/${written}${tail}`)).toBe(`DOI:${doi}`)
        }
      )
    ))
})

describe("PaperId.recognise: a line longer than any id or sendable title", () => {
  it("is a title as given, read in one pass (its white space not rewritten)", () => {
    const long = `DOI:10.1000/x ${"a  b ".repeat(2000)}`
    expect(PaperId.recognise(long)).toEqual({ _tag: "Title", title: long.trim() })
    // Up to the bound, white space is still collapsed.
    expect(PaperId.recognise("a  b ".repeat(1000))).toEqual({ _tag: "Title", title: "a b ".repeat(1000).trim() })
  })
})
