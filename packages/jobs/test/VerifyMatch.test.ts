/**
 * The whole reference matched (issue 45): titles across spellings, articles and subtitles; authors
 * as a list; years against the first version and today; a preprint's venue; the choice among
 * same-titled papers; a failure of ours `unchecked`. Each over a small scripted server whose
 * papers are written out here.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { TestClock } from "effect/testing"
import { TitleMatch, Verify } from "../src/index.js"
import { inputOf } from "../src/internal/bibtex.js"
import { authorList, compareAuthors, displayName } from "../src/internal/verifyAuthors.js"
import { corpusServer } from "./support/CorpusServer.js"
import { json, testLayer } from "./support/Scripted.js"

interface Record {
  readonly paperId: string
  readonly title: string
  readonly year?: number
  readonly publicationDate?: string
  readonly authors: ReadonlyArray<string>
  readonly citationCount?: number
  readonly venue?: string
  readonly externalIds?: { readonly ArXiv?: string; readonly DOI?: string }
}

const asPaper = (r: Record) => ({
  paperId: r.paperId,
  title: r.title,
  year: r.year ?? null,
  publicationDate: r.publicationDate ?? null,
  venue: r.venue ?? "",
  citationCount: r.citationCount ?? 0,
  externalIds: r.externalIds ?? {},
  authors: r.authors.map((name, i) => ({ authorId: `${r.paperId}-${i}`, name }))
})

const server = (papers: ReadonlyArray<Record>, options: { readonly fail?: boolean } = {}) =>
  corpusServer(papers, asPaper, options)

const verifyBib = (bib: string) =>
  Effect.flatMap(
    TestClock.setTime(Date.UTC(2026, 10, 1)),
    () => Stream.runCollect(Verify.references(Verify.fromBibtex(bib)))
  )

const brief = (v: Verify.Verification) => ({
  key: v.key,
  status: v.status,
  differs: v.differs,
  paper: v.paper?.paperId
})

const bibtexInput = (e: Verify.Entry) => inputOf({ type: "", key: e.key, fields: e.fields, line: 0 })

const A = "a".repeat(40)
const B = "b".repeat(40)

const DIALOGUE: Record = {
  paperId: A,
  title: "Analyzing Organizational Dialogue in Teams",
  year: 2019,
  authors: ["Maria Lopez", "John Smith"]
}

describe("titles", () => {
  it.effect("British and American spellings are one title", () =>
    Effect.gen(function*() {
      const [v] = yield* verifyBib(
        "@article{k, title = {Analysing Organisational Dialog in Teams}, author = {Lopez, Maria and Smith, John}, year = {2019}}"
      )
      expect(brief(v!)).toEqual({ key: "k", status: "verified", differs: [], paper: A })
    }).pipe(Effect.provide(server([DIALOGUE]))))

  it("spellings: -ise/-ize, -isation, -our/-or, -yse/-yze, -re/-er, doubled l, dialogue, a leading article", () => {
    const same = [
      ["Optimising colour modelling", "Optimizing color modeling"],
      ["Centre of behavioural analysis", "Center of behavioral analysis"],
      ["Labelled dialogue catalogue", "Labeled dialog catalog"],
      ["The organisation of haemoglobin", "Organization of hemoglobin"],
      ["A programme for analysing fibre", "Program for analyzing fiber"]
    ]
    for (const [a, b] of same) expect(TitleMatch.relation(a!, b!)).toBe("same")
    expect(TitleMatch.relation("Learning with noisy labels", "Learning from noisy labels")).toBe("other")
    expect(TitleMatch.relation("Learning of noisy labels", "Learning noisy labels")).toBe("other")
    expect(TitleMatch.relation("Deep learning", "Deep learning: a survey")).toBe("subtitle")
    expect(TitleMatch.relation("Deep learning: a survey", "Deep learning")).toBe("subtitle")
    expect(TitleMatch.relation("Deep learning: a survey", "Deep learning: a review")).toBe("other")
  })

  it("a subtitle after a title's own separator: the title cut at any of its subtitle starts", () => {
    const part = "A Philosophical Introduction to Language Models - Part I"
    expect(TitleMatch.relation(part, `${part}: Continuity With Classic Debates`)).toBe("subtitle")
    const zombies = "Do Zombies Understand? A Choose-Your-Own-Adventure Exploration of Machine Cognition"
    expect(TitleMatch.relation(`${zombies}: A Survey`, zombies)).toBe("subtitle")
    // Cut only where a subtitle starts, and only the longer title: a word changed before it is another title.
    expect(TitleMatch.relation("Do Zombies Think? A Choose-Your-Own-Adventure Exploration", zombies)).toBe("other")
    expect(TitleMatch.relation("A Philosophical Introduction to Language", part)).toBe("other")
    // A full stop ends a first sentence the way a colon does, as records from PubMed write titles.
    const studies = "Studies in the History of Probability and Statistics"
    expect(TitleMatch.relation(studies, `${studies}. XXXVII`)).toBe("subtitle")
    expect(TitleMatch.relation("Studies in the History of Probability", `${studies}. XXXVII`)).toBe("other")
  })

  it.effect("one function word swapped is a title mismatch, though title match takes it", () =>
    Effect.gen(function*() {
      const [v] = yield* verifyBib(
        "@article{k, title = {Analyzing Organizational Dialogue from Teams}, author = {Lopez, Maria and Smith, John}, year = {2019}}"
      )
      expect(brief(v!)).toEqual({ key: "k", status: "mismatch", differs: ["title"], paper: A })
      expect(v!.differences?.[0]).toMatchObject({ field: "title", record: DIALOGUE.title })
    }).pipe(Effect.provide(server([DIALOGUE]))))

  it.effect("a subtitle dropped or added is the paper when authors and year agree, with a note", () =>
    Effect.gen(function*() {
      const papers: ReadonlyArray<Record> = [
        {
          paperId: A,
          title: "Graph Kernels: A Survey of Methods",
          year: 2020,
          authors: ["Nils Kriege", "Fredrik Johansson"]
        },
        { paperId: B, title: "Sparse Coding", year: 2011, authors: ["Honglak Lee"] }
      ]
      const results = yield* verifyBib(String.raw`
@article{dropped, title = {Graph Kernels}, author = {Kriege, Nils and Johansson, Fredrik}, year = {2020}}
@article{added, title = {Sparse Coding: Efficient Algorithms}, author = {Lee, Honglak}, year = {2011}}
@article{wrongYear, title = {Graph Kernels}, author = {Kriege, Nils and Johansson, Fredrik}, year = {2015}}`).pipe(
        Effect.provide(server(papers))
      )
      expect(results.map(brief)).toEqual([
        { key: "dropped", status: "verified", differs: [], paper: A },
        { key: "added", status: "verified", differs: [], paper: B },
        { key: "wrongYear", status: "mismatch", differs: ["title", "year"], paper: A }
      ])
      expect(results[0]!.notes).toContain(
        "the paper's title is \"Graph Kernels: A Survey of Methods\": a subtitle added or dropped; authors and year agree"
      )
    }))

  it.effect("an id that names the paper with a subtitle added or dropped names that paper: verified when authors and year agree", () =>
    Effect.gen(function*() {
      const papers: ReadonlyArray<Record> = [{
        paperId: A,
        title: "Graph Kernels: A Survey of Methods",
        year: 2020,
        authors: ["Nils Kriege", "Fredrik Johansson"],
        externalIds: { DOI: "10.1000/kernels" }
      }]
      const results = yield* verifyBib(String.raw`
@article{dropped, title = {Graph Kernels}, author = {Kriege, Nils and Johansson, Fredrik}, year = {2020}, doi = {10.1000/kernels}}
@article{wrongYear, title = {Graph Kernels}, author = {Kriege, Nils and Johansson, Fredrik}, year = {2015}, doi = {10.1000/kernels}}`)
        .pipe(Effect.provide(server(papers)))
      expect(results.map(brief)).toEqual([
        { key: "dropped", status: "verified", differs: [], paper: A },
        { key: "wrongYear", status: "mismatch", differs: ["title", "year"], paper: A }
      ])
    }))
})

describe("ids", () => {
  it.effect("a url that is a DOI link is the entry's DOI when it has no doi field: checked like one", () =>
    Effect.gen(function*() {
      const papers: ReadonlyArray<Record> = [
        {
          paperId: A,
          title: "Graph Kernels",
          year: 2020,
          authors: ["Nils Kriege"],
          externalIds: { DOI: "10.1000/kernels" }
        },
        {
          paperId: B,
          title: "Sparse Coding",
          year: 2011,
          authors: ["Honglak Lee"],
          externalIds: { DOI: "10.1000/sparse" }
        }
      ]
      const results = yield* verifyBib(String.raw`
@article{right, title = {Graph Kernels}, author = {Kriege, Nils}, year = {2020}, url = {https://doi.org/10.1000/kernels}}
@article{other, title = {Graph Kernels}, author = {Kriege, Nils}, year = {2020}, url = {https://doi.org/10.1000/sparse}}
@article{page, title = {Graph Kernels}, author = {Kriege, Nils}, year = {2020}, url = {https://example.org/kernels}}`)
        .pipe(Effect.provide(server(papers)))
      expect(results.map((v) => [v.input, v.status, v.differs])).toEqual([
        ["DOI:10.1000/kernels", "verified", []],
        ["DOI:10.1000/sparse", "mismatch", ["doi"]],
        ["Graph Kernels", "verified", []]
      ])
    }))

  it("arXiv eprints are read as core's PaperId.recognise reads them: old style, versions, categories", () => {
    const inputs = Verify.fromBibtex(String.raw`
@misc{a, eprint = {hep-th/9901001v2}, title = {T}}
@misc{b, eprint = {arXiv:2405.05667v1 [cs.CL]}, title = {T}}
@misc{c, eprint = {12345678}, eprinttype = {pubmed}, title = {T}}`)
    expect(inputs.map((e) => bibtexInput(e))).toEqual(["ARXIV:hep-th/9901001", "ARXIV:2405.05667", "T"])
  })
})

describe("a subtitle dropped, where title match finds nothing", () => {
  // Title match wants the same words: a title without its long subtitle is "not found" there. The
  // bulk search that came first had the paper on its page.
  const paper = {
    ...asPaper({
      paperId: A,
      title: "Anthropomorphising Machines and Computerising Minds: The Crosswiring of Languages between AI and Brain",
      year: 2021,
      authors: ["Ana Ruiz"]
    })
  }
  const strict = testLayer((request) => {
    const path = request.url.pathname
    if (path.endsWith("/paper/search/bulk")) {
      return Effect.succeed(json({ total: 1, token: null, data: [{ paperId: A, title: paper.title }] }))
    }
    if (path.endsWith("/paper/batch")) {
      const ids = (request.body as { ids: ReadonlyArray<string> }).ids
      return Effect.succeed(json(ids.map((id) => id === A ? paper : null)))
    }
    return Effect.succeed(json({ error: "Title match not found" }, 404))
  })

  it.effect("the bulk search's paper of that title but for a subtitle is compared: verified when authors and year agree", () =>
    Effect.gen(function*() {
      const bib = (author: string) =>
        `@article{k, title = {Anthropomorphising Machines and Computerising Minds}, author = {${author}}, year = {2021}}`
      const [v] = yield* verifyBib(bib("Ruiz, Ana"))
      expect(brief(v!)).toEqual({ key: "k", status: "verified", differs: [], paper: A })
      expect(v!.notes.some((n) => n.includes("a subtitle added or dropped; authors and year agree"))).toBe(true)
      const [other] = yield* verifyBib(bib("Doe, John"))
      expect(brief(other!)).toEqual({ key: "k", status: "mismatch", differs: ["title", "authors"], paper: A })
      // An unknown DOI, then the title: the one paper found so is not "2 papers of this title".
      const [byDoi] = yield* verifyBib(
        "@article{k, title = {Anthropomorphising Machines and Computerising Minds}, author = {Ruiz, Ana}, year = {2021}, doi = {10.1000/unknown}}"
      )
      expect(brief(byDoi!)).toEqual({ key: "k", status: "mismatch", differs: ["doi"], paper: A })
      expect(byDoi!.notes.filter((n) => n.includes("papers have this title"))).toEqual([])
    }).pipe(Effect.provide(strict)))
})

describe("a title is asked as a title", () => {
  it.effect("an entry without an id whose title opens with an id's prefix (\"ACL:\") is looked up by its title, not as an id", () =>
    Effect.gen(function*() {
      const acl: Record = { paperId: A, title: "ACL: A Library for Argument Mining", year: 2020, authors: ["Ana Ruiz"] }
      const [v] = yield* verifyBib(
        "@article{k, title = {ACL: A Library for Argument Mining}, author = {Ruiz, Ana}, year = {2020}}"
      )
        .pipe(Effect.provide(server([acl])))
      expect(brief(v!)).toEqual({ key: "k", status: "verified", differs: [], paper: A })
    }))
})

describe("the choice among papers of one title", () => {
  it.effect("made by the entry's authors and year, not by citations", () =>
    Effect.gen(function*() {
      const papers: ReadonlyArray<Record> = [
        { paperId: A, title: "Deep Learning for Ecology", year: 2015, authors: ["Rosa Kim"], citationCount: 900 },
        {
          paperId: B,
          title: "Deep learning for ecology",
          year: 2021,
          authors: ["Tom Berg", "Ida Holm"],
          citationCount: 3
        }
      ]
      const results = yield* verifyBib(String.raw`
@article{berg, title = {Deep Learning for Ecology}, author = {Berg, Tom and Holm, Ida}, year = {2021}}
@article{kim, title = {Deep Learning for Ecology}, author = {Kim, Rosa}, year = {2015}}`).pipe(
        Effect.provide(server(papers))
      )
      expect(results.map(brief)).toEqual([
        { key: "berg", status: "verified", differs: [], paper: B },
        { key: "kim", status: "verified", differs: [], paper: A }
      ])
      expect(results[0]!.notes).toContain(
        "2 papers have this title: the one whose authors and year agree most was taken"
      )
    }))
})

describe("authors as a list", () => {
  it("reads et al., others, initials and particles", () => {
    const hussain = authorList("A. Hussain et al.")
    expect(hussain.others).toBe(true)
    expect(hussain.names.map((n) => n.familyShown)).toEqual(["Hussain"])
    expect(authorList("M. N. A. Al-Hamadani et al.").names.map((n) => n.familyShown)).toEqual(["Al-Hamadani"])
    expect(authorList("van der Maaten, Laurens and Hinton, G. E. and others")).toMatchObject({
      others: true,
      names: [{ family: ["van", "der", "maaten"], given: ["laurens"] }, { family: ["hinton"], given: ["g", "e"] }]
    })
    expect(authorList("Kaiming He and Vaswani A").names.map((n) => n.familyShown)).toEqual(["He", "Vaswani"])
  })

  const record = (names: ReadonlyArray<string>) => names.map((n) => displayName(n)!)
  const paper = record(["Jennifer J. Sun", "Ann Kennedy", "Eric Zhan", "Yisong Yue", "Pietro Perona"])

  it("the same list, written differently, agrees", () => {
    expect(compareAuthors(authorList("Sun, J. J. and Kennedy, A. and Zhan, E. and Yue, Y. and Perona, P."), paper))
      .toEqual([])
    expect(compareAuthors(authorList("Jennifer Sun and Ann Kennedy and others"), paper)).toEqual([])
    expect(compareAuthors(authorList("Sun Weiwei"), record(["Weiwei Sun"]))).toEqual([])
    expect(compareAuthors(authorList("LeCun, Yann"), record(["Y. Le Cun"]))).toEqual([])
  })

  it("a partial list, a foreign author, a swapped order, a placeholder: each named", () => {
    expect(compareAuthors(authorList("Sun, Jennifer J. and Kennedy, Ann"), paper)).toEqual([
      "the entry names 2 authors, the paper has 5"
    ])
    expect(compareAuthors(authorList("Sun, Weiwei and others"), paper)).toEqual([
      "first author \"Sun, Weiwei\" is \"Jennifer J. Sun\" in the record"
    ])
    expect(compareAuthors(authorList("Kennedy, Ann and Sun, Jennifer and others"), paper)).toEqual([
      "first author \"Kennedy, Ann\" is author 2 in the record",
      "author 2 \"Sun, Jennifer\" is author 1 in the record"
    ])
    expect(compareAuthors(authorList("Doe, John and others"), paper)).toEqual([
      "first author \"Doe, John\" is not an author of the paper"
    ])
  })

  it.effect("an author list from another paper sharing one family name is a mismatch on the authors", () =>
    Effect.gen(function*() {
      const papers: ReadonlyArray<Record> = [{
        paperId: A,
        title: "Task Programming for Behavior Analysis",
        year: 2021,
        authors: ["Jennifer J. Sun", "Ann Kennedy", "Eric Zhan"]
      }]
      const [v] = yield* verifyBib(
        "@article{k, title = {Task Programming for Behavior Analysis}, author = {Weiwei Sun and Li Dong and Eric Zhan}, year = {2021}}"
      ).pipe(Effect.provide(server(papers)))
      expect(brief(v!)).toEqual({ key: "k", status: "mismatch", differs: ["authors"], paper: A })
      expect(v!.differences?.[0]?.why).toBe(
        "first author \"Weiwei Sun\" is \"Jennifer J. Sun\" in the record; author 2 \"Li Dong\" is not an author of the paper"
      )
      expect(v!.differences?.[0]?.record).toBe("Jennifer J. Sun, Ann Kennedy, Eric Zhan")
    }))
})

describe("years", () => {
  const ARXIV: Record = {
    paperId: A,
    title: "Scaling Sparse Attention Models",
    year: 2021,
    publicationDate: "2021-05-03",
    authors: ["Ana Ruiz"],
    externalIds: { ArXiv: "2011.01234" }
  }
  it.effect("the first version's year and the publication's pass; before the first, or after today, do not", () =>
    Effect.gen(function*() {
      const bib = [2019, 2020, 2021, 2022, 2023].map((y) =>
        `@article{y${y}, title = {Scaling Sparse Attention Models}, author = {Ruiz, Ana}, year = {${y}}}`
      ).join("\n")
      const results = yield* verifyBib(bib).pipe(Effect.provide(server([ARXIV])))
      expect(results.map((v) => [v.key, v.status])).toEqual([
        ["y2019", "mismatch"],
        ["y2020", "verified"],
        ["y2021", "verified"],
        ["y2022", "verified"],
        ["y2023", "mismatch"]
      ])
      expect(results[0]!.differences?.[0]?.why).toBe(
        "2019 is before the paper first appeared, in 2020 (arXiv 2011.01234)"
      )
    }))

  it.effect("a year after today is a mismatch, today from the Clock", () =>
    Effect.gen(function*() {
      const recent: Record = { ...ARXIV, year: 2026, publicationDate: "2026-10-01", externalIds: {} }
      const bib = "@article{k, title = {Scaling Sparse Attention Models}, author = {Ruiz, Ana}, year = {2027}}"
      const [v] = yield* verifyBib(bib).pipe(Effect.provide(server([recent])))
      expect(v!.differences?.[0]?.why).toBe("2027 is after this year, 2026")
      yield* TestClock.setTime(Date.UTC(2027, 1, 1))
      const [later] = yield* Stream.runCollect(Verify.references(Verify.fromBibtex(bib))).pipe(
        Effect.provide(server([recent]))
      )
      expect(later!.status).toBe("verified")
    }))
})

describe("venues", () => {
  it.effect("a venue for a paper known only as a preprint is noted, not flagged", () =>
    Effect.gen(function*() {
      const papers: ReadonlyArray<Record> = [{
        paperId: A,
        title: "Scaling Sparse Attention Models",
        year: 2021,
        authors: ["Ana Ruiz"],
        venue: "arXiv.org"
      }]
      const [v] = yield* verifyBib(
        "@inproceedings{k, title = {Scaling Sparse Attention Models}, author = {Ruiz, Ana}, year = {2021}, booktitle = {ICML}}"
      ).pipe(Effect.provide(server(papers)))
      expect(v!.status).toBe("verified")
      expect(v!.notes).toEqual(["venue \"ICML\" not confirmed: the paper is known only as a preprint"])
    }))

  it.effect("a journal for a paper known only as a preprint is a difference: a journal article would be on record", () =>
    Effect.gen(function*() {
      const papers: ReadonlyArray<Record> = [{
        paperId: A,
        title: "Scaling Sparse Attention Models",
        year: 2021,
        authors: ["Ana Ruiz"],
        venue: "arXiv.org"
      }]
      const [v] = yield* verifyBib(
        "@article{k, title = {Scaling Sparse Attention Models}, author = {Ruiz, Ana}, year = {2021}, journal = {Nature}, volume = {12}, pages = {1--9}}"
      ).pipe(Effect.provide(server(papers)))
      expect(brief(v!)).toEqual({ key: "k", status: "mismatch", differs: ["venue"], paper: A })
      expect(v!.differences?.[0]?.why).toBe("venue \"Nature\" not confirmed: the paper is known only as a preprint")
    }))
})

describe("venues of a paper known only as a preprint (issue 45, point 5)", () => {
  const preprint: Record = {
    paperId: A,
    title: "Scaling Sparse Attention Models",
    year: 2021,
    authors: ["Ana Ruiz"],
    venue: "arXiv.org"
  }
  const cite = (venue: string, type = "inproceedings", field = "booktitle") =>
    `@${type}{k, title = {Scaling Sparse Attention Models}, author = {Ruiz, Ana}, year = {2021}, ${field} = {${venue}}}`

  it.effect("a journal is a difference however the entry files it: a formatted reference cannot say booktitle or journal", () =>
    Effect.gen(function*() {
      // A pasted reference read "Proceedings of the National Academy of Sciences" as a booktitle: a journal still.
      const [pnas] = yield* verifyBib(cite("Proceedings of the National Academy of Sciences"))
      expect(brief(pnas!)).toEqual({ key: "k", status: "mismatch", differs: ["venue"], paper: A })
      expect(pnas!.differences?.[0]).toMatchObject({
        record: "arXiv.org",
        why:
          "venue \"Proceedings of the National Academy of Sciences\" not confirmed: the paper is known only as a preprint"
      })
      const [ieee] = yield* verifyBib(cite("Proceedings of the IEEE"))
      expect(ieee!.differs).toEqual(["venue"])
    }).pipe(Effect.provide(server([preprint]))))

  it.effect("a venue that is the rest of the paper's title (a title read up to its full stop) is no venue to confirm", () =>
    Effect.gen(function*() {
      const long: Record = {
        ...preprint,
        title: "Synthesizing Proteins on the Graphics Card. Protein Folding and the Limits of Critical AI Studies"
      }
      const entry = (venue: string) =>
        `@article{k, title = {Synthesizing Proteins on the Graphics Card}, author = {Ruiz, Ana}, year = {2021}, journal = {${venue}}}`
      const [v] = yield* verifyBib(entry("Protein Folding and the Limits of Critical AI Studies")).pipe(
        Effect.provide(server([long]))
      )
      expect(brief(v!)).toEqual({ key: "k", status: "verified", differs: [], paper: A })
      // Another journal is still a difference.
      const [nature] = yield* verifyBib(entry("Nature")).pipe(Effect.provide(server([long])))
      expect(nature!.differs).toEqual(["venue"])
    }))

  it.effect("a meeting's proceedings stay a note, by any of their names", () =>
    Effect.gen(function*() {
      for (
        const venue of [
          "Proceedings of the 38th International Conference on Machine Learning",
          "NeurIPS 2021",
          "Advances in Neural Information Processing Systems",
          "Findings of the Association for Computational Linguistics: EMNLP 2021",
          "ICLR Workshop on Sparsity"
        ]
      ) {
        const [v] = yield* verifyBib(cite(venue, "article", "journal"))
        expect(v!.status).toBe("verified")
        expect(v!.notes).toEqual([
          `venue ${JSON.stringify(venue)} not confirmed: the paper is known only as a preprint`
        ])
      }
    }).pipe(Effect.provide(server([preprint]))))

  it.effect("an arXiv id and no venue at all is a paper known only as a preprint too", () =>
    Effect.gen(function*() {
      const bare: Record = { ...preprint, venue: "", externalIds: { ArXiv: "2104.01234" } }
      const [v] = yield* verifyBib(cite("Nature Machine Intelligence", "article", "journal"))
      expect(brief(v!)).toEqual({ key: "k", status: "mismatch", differs: ["venue"], paper: A })
      // Without the arXiv id nothing says where it appeared: not a difference, and nothing to note.
      const [unknown] = yield* verifyBib(cite("Nature Machine Intelligence", "article", "journal")).pipe(
        Effect.provide(server([{ ...bare, externalIds: {} }]))
      )
      expect(unknown!.status).toBe("verified")
      expect(unknown!.notes).toEqual([])
    }).pipe(Effect.provide(server([{ ...preprint, venue: "", externalIds: { ArXiv: "2104.01234" } }]))))

  it.effect("a preprint server cited with the publication's DOI, for a paper with no preprint on record, is another venue", () =>
    Effect.gen(function*() {
      const published: Record = { ...preprint, venue: "Tourism Themes", externalIds: { DOI: "10.1108/whatt-03" } }
      const bib = (venue: string, doi: string) =>
        `@article{k, title = {Scaling Sparse Attention Models}, author = {Ruiz, Ana}, year = {2021}, journal = {${venue}}, doi = {${doi}}}`
      const [ssrn] = yield* verifyBib(bib("SSRN Electronic Journal", "10.1108/whatt-03")).pipe(
        Effect.provide(server([published]))
      )
      expect(brief(ssrn!)).toEqual({ key: "k", status: "mismatch", differs: ["venue"], paper: A })
      expect(ssrn!.differences?.[0]?.record).toBe("Tourism Themes")
      // The server's own BibTeX writes `journal = {ArXiv}` beside the publisher's DOI of a paper with a preprint.
      const [arxiv] = yield* verifyBib(bib("ArXiv", "10.1108/whatt-03")).pipe(
        Effect.provide(server([{ ...published, externalIds: { DOI: "10.1108/whatt-03", ArXiv: "2104.01234" } }]))
      )
      expect(arxiv!.status).toBe("verified")
      expect(arxiv!.notes).toEqual(["cited as a preprint; published in \"Tourism Themes\""])
    }))
})

describe("a failure of ours", () => {
  it.effect("the server failing leaves each reference unchecked, never notFound", () =>
    Effect.gen(function*() {
      const results = yield* verifyBib(
        "@article{a, title = {Scaling Sparse Attention Models}}\n@article{b, doi = {10.1/x}}"
      ).pipe(Effect.provide(server([], { fail: true })))
      expect(results.map((v) => [v.key, v.status])).toEqual([["a", "unchecked"], ["b", "unchecked"]])
      expect(results[0]!.notes[0]).toMatch(/^not checked: the server failed \(ServerError/)
    }))
})

describe("Verify.differ", () => {
  it("takes the fields or the verification itself", () => {
    const v = new Verify.Verification({
      key: "k",
      input: "",
      status: "mismatch",
      differs: ["title", "year"],
      notes: []
    })
    expect(Verify.differ(v)).toBe("title, year differ")
    expect(Verify.differ(v.differs)).toBe("title, year differ")
  })
})
