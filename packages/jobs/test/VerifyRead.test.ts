/**
 * Verify.read and Verify.decode: every form a reference list comes in, told by its content, read
 * into entries with BibTeX's fields. Golden examples per citation style (the same two papers in
 * each), RIS and CSL-JSON written by our own `Citable` read back to the same fields, detection
 * properties, refusals, and the bytes of UTF-16 and byte-order-marked files.
 */
import { Cite } from "@citation-js/core"
import "@citation-js/plugin-ris"
import { describe, expect, it } from "@effect/vitest"
import { Paper } from "@s2-effect/core"
import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { Citable, Verify } from "../src/index.js"
import { recordedPapers } from "./support/RecordedPapers.js"

const read = (text: string): Verify.ReadResult => {
  const r = Verify.read(text)
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return r.success
}

const refused = (text: string): Verify.Unreadable => {
  const r = Verify.read(text)
  if (Result.isSuccess(r)) throw new Error(`read as ${r.success.format}`)
  return r.failure
}

const entries = (text: string): ReadonlyArray<Verify.Entry> =>
  read(text).inputs.map((input) => {
    if (typeof input === "string" || !("fields" in input)) throw new Error("not an entry")
    return input
  })

/** The fields a check compares, of each entry. */
const facts = (text: string) =>
  entries(text).map(({ fields: f }) => ({
    first: f["author"]?.split(" and ")[0],
    others: f["author"]?.endsWith(" and others") ?? false,
    title: f["title"],
    year: f["year"],
    venue: f["journal"] ?? f["booktitle"],
    doi: f["doi"],
    eprint: f["eprint"]
  }))

const ATTENTION = "Attention is all you need"
const DEEP = "Deep learning"

/** Each style: a list of the same two papers (Attention; Deep learning with its DOI), and the venue each spells. */
const styles: ReadonlyArray<{
  readonly style: string
  readonly text: string
  readonly first: readonly [string, string]
  readonly venue: string
  readonly others?: boolean
}> = [
  {
    style: "APA",
    text:
      "Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, Ł., & Polosukhin, I. (2017). Attention is all you need. In Advances in Neural Information Processing Systems (pp. 5998–6008).\n" +
      "LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444. https://doi.org/10.1038/nature14539",
    first: ["Vaswani, A.", "LeCun, Y."],
    venue: "Advances in Neural Information Processing Systems"
  },
  {
    style: "IEEE (numbered)",
    text:
      "[1] A. Vaswani, N. Shazeer, N. Parmar, J. Uszkoreit, L. Jones, A. N. Gomez, Ł. Kaiser, and I. Polosukhin, “Attention is all you need,” in Proc. Adv. Neural Inf. Process. Syst., 2017, pp. 5998–6008.\n" +
      "[2] Y. LeCun, Y. Bengio, and G. Hinton, “Deep learning,” Nature, vol. 521, no. 7553, pp. 436–444, May 2015, doi: 10.1038/nature14539.",
    first: ["Vaswani, A.", "LeCun, Y."],
    venue: "Proc. Adv. Neural Inf. Process. Syst"
  },
  {
    style: "Vancouver (numbered)",
    text:
      "1. Vaswani A, Shazeer N, Parmar N, Uszkoreit J, Jones L, Gomez AN, et al. Attention is all you need. Adv Neural Inf Process Syst. 2017;30:5998-6008.\n" +
      "2. LeCun Y, Bengio Y, Hinton G. Deep learning. Nature. 2015 May;521(7553):436-44. doi:10.1038/nature14539",
    first: ["Vaswani, A.", "LeCun, Y."],
    venue: "Adv Neural Inf Process Syst",
    others: true
  },
  {
    style: "Chicago",
    text:
      "Vaswani, Ashish, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Łukasz Kaiser, and Illia Polosukhin. 2017. “Attention Is All You Need.” In Advances in Neural Information Processing Systems 30, 5998–6008.\n" +
      "LeCun, Yann, Yoshua Bengio, and Geoffrey Hinton. “Deep Learning.” Nature 521, no. 7553 (2015): 436–44. https://doi.org/10.1038/nature14539.",
    first: ["Vaswani, Ashish", "LeCun, Yann"],
    venue: "Advances in Neural Information Processing Systems"
  },
  {
    style: "MLA",
    text:
      "Vaswani, Ashish, et al. “Attention Is All You Need.” Advances in Neural Information Processing Systems, vol. 30, 2017, pp. 5998–6008.\n" +
      "LeCun, Yann, et al. “Deep Learning.” Nature, vol. 521, no. 7553, 2015, pp. 436–44, https://doi.org/10.1038/nature14539.",
    first: ["Vaswani, Ashish", "LeCun, Yann"],
    venue: "Advances in Neural Information Processing Systems",
    others: true
  },
  {
    style: "Harvard",
    text:
      "Vaswani, A., Shazeer, N., Parmar, N. et al. (2017) ‘Attention is all you need’, in Advances in Neural Information Processing Systems, pp. 5998–6008.\n" +
      "LeCun, Y., Bengio, Y. and Hinton, G. (2015) ‘Deep learning’, Nature, 521(7553), pp. 436–444. doi:10.1038/nature14539.",
    first: ["Vaswani, A.", "LeCun, Y."],
    venue: "Advances in Neural Information Processing Systems",
    others: true
  },
  {
    style: "ACM",
    text:
      "Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Łukasz Kaiser, and Illia Polosukhin. 2017. Attention is all you need. In Advances in Neural Information Processing Systems. 5998–6008.\n" +
      "Yann LeCun, Yoshua Bengio, and Geoffrey Hinton. 2015. Deep learning. Nature 521, 7553 (2015), 436–444. https://doi.org/10.1038/nature14539",
    first: ["Vaswani, Ashish", "LeCun, Yann"],
    venue: "Advances in Neural Information Processing Systems"
  },
  {
    style: "Springer LNCS (numbered)",
    text:
      "1. Vaswani, A., Shazeer, N., Parmar, N.: Attention is all you need. In: Advances in Neural Information Processing Systems, pp. 5998–6008 (2017)\n" +
      "2. LeCun, Y., Bengio, Y., Hinton, G.: Deep learning. Nature 521(7553), 436–444 (2015). https://doi.org/10.1038/nature14539",
    first: ["Vaswani, A.", "LeCun, Y."],
    venue: "Advances in Neural Information Processing Systems"
  },
  {
    style: "Nature (numbered)",
    text: "1. Vaswani, A. et al. Attention is all you need. Adv. Neural Inf. Process. Syst. 30, 5998–6008 (2017).\n" +
      "2. LeCun, Y., Bengio, Y. & Hinton, G. Deep learning. Nature 521, 436–444 (2015). doi:10.1038/nature14539",
    first: ["Vaswani, A.", "LeCun, Y."],
    venue: "Adv. Neural Inf. Process. Syst",
    others: true
  },
  {
    style: "IEEE wrapped as a PDF's two columns copy (hyphens, indents, a DOI link broken)",
    text: "[1] A. Vaswani, N. Shazeer, N. Parmar, J. Uszkoreit, L. Jones, A. N. Gomez,\n" +
      "    Ł. Kaiser, and I. Polosukhin, “Attention is all you need,” in Proc.\n" +
      "    Adv. Neural Inf. Process. Syst., 2017, pp. 5998–6008.\n" +
      "[2] Y. LeCun, Y. Bengio, and G. Hinton, “Deep learn-\n" +
      "    ing,” Nature, vol. 521, no. 7553, pp. 436–444, 2015, https://doi.org/10.1038/\n" +
      "    nature14539.",
    first: ["Vaswani, A.", "LeCun, Y."],
    venue: "Proc. Adv. Neural Inf. Process. Syst"
  },
  {
    style: "APA wrapped, hanging indents",
    text: "Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser,\n" +
      "  Ł., & Polosukhin, I. (2017). Attention is all you need. In Advances in Neural\n" +
      "  Information Processing Systems (pp. 5998–6008).\n" +
      "LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553),\n" +
      "  436–444. https://doi.org/10.1038/nature14539",
    first: ["Vaswani, A.", "LeCun, Y."],
    venue: "Advances in Neural Information Processing Systems"
  },
  {
    style: "initials first, title without quotes, venue and year (Elsevier's order)",
    text:
      "A. Vaswani, N. Shazeer, N. Parmar et al., Attention is all you need, Advances in Neural Information Processing Systems, 2017.\n" +
      "Y. LeCun, Y. Bengio and G. Hinton, Deep learning, Nature, 2015. doi:10.1038/nature14539",
    first: ["Vaswani, A.", "LeCun, Y."],
    venue: "Advances in Neural Information Processing Systems",
    others: true
  },
  {
    style: "Vancouver separated by blank lines, wrapped",
    text:
      "Vaswani A, Shazeer N, Parmar N, et al. Attention is all you need.\nAdv Neural Inf Process Syst. 2017;30:5998-6008.\n\n" +
      "LeCun Y, Bengio Y, Hinton G. Deep learning. Nature.\n2015;521(7553):436-44. doi:10.1038/nature14539\n",
    first: ["Vaswani, A.", "LeCun, Y."],
    venue: "Adv Neural Inf Process Syst",
    others: true
  }
]

describe("Verify.read: formatted references, each style", () => {
  for (const { first, others, style, text, venue } of styles) {
    it(`${style}: two entries, authors, title, year, venue and the DOI split out`, () => {
      expect(read(text).format).toBe("formatted")
      const [attention, deep] = facts(text)
      expect(attention).toEqual({
        first: first[0],
        others: others ?? false,
        title: expect.stringMatching(new RegExp(`^${ATTENTION}$`, "i")),
        year: "2017",
        venue,
        doi: undefined,
        eprint: undefined
      })
      expect(deep).toMatchObject({
        first: first[1],
        title: expect.stringMatching(new RegExp(`^${DEEP}$`, "i")),
        year: "2015",
        venue: "Nature",
        doi: "10.1038/nature14539"
      })
    })
  }

  it("Vancouver: a title with a colon is not an LNCS author list, a venue that starts with a year is not an author-date year", () => {
    const [lomas, moore, zou] = entries(
      "Lomas T. Stranger than we can imagine: the possibility of non-human consciousness. The Journal of Positive Psychology. 2022;18:807-826. doi:10.1080/17439760.2022.2131608\n" +
        "Moore D, Oakes L, McCrink K. Leveraging Developmental Psychology to Evaluate Artificial Intelligence. 2022 IEEE International Conference on Development and Learning (ICDL). 2022:36-41.\n" +
        "K. Zou et al., Enhanced Patient-Centricity: How Industry Is Optimizing Care, Healthcare, 2022."
    )
    expect(lomas!.fields).toMatchObject({
      author: "Lomas, T.",
      title: "Stranger than we can imagine: the possibility of non-human consciousness",
      year: "2022"
    })
    expect(moore!.fields).toMatchObject({
      author: "Moore, D. and Oakes, L. and McCrink, K.",
      title: "Leveraging Developmental Psychology to Evaluate Artificial Intelligence",
      year: "2022"
    })
    const [mcstay, turing] = entries(
      "A. McStay, Replika in the Metaverse: the moral problem with empathy in ‘It from Bit’, Ai and Ethics, 2022.\n" +
        "A. Turing et al., Studies in the History of Probability and Statistics. XXXVII, 1979."
    )
    expect(mcstay!.fields).toMatchObject({
      author: "McStay, A.",
      title: "Replika in the Metaverse: the moral problem with empathy in ‘It from Bit’",
      journal: "Ai and Ethics"
    })
    expect(turing!.fields).toMatchObject({
      author: "Turing, A. and others",
      title: "Studies in the History of Probability and Statistics. XXXVII",
      year: "1979"
    })
    expect(zou!.fields).toMatchObject({
      author: "Zou, K. and others",
      title: "Enhanced Patient-Centricity: How Industry Is Optimizing Care",
      journal: "Healthcare",
      year: "2022"
    })
  })

  it("apostrophes and quoted phrases in titles, abbreviations with points, Unicode hyphens in names, a venue's own year", () => {
    const [turing, mcstay, ai, guide, ross, ieee] = entries(
      "[1] J. A. Matthews and C. Volpe, “Academics' perceptions: A practical application of Turing’s Imitation Game,” Australasian Journal of Educational Technology, 2023.\n" +
        "[2] A. McStay, (2022). Replika in the Metaverse: the moral problem with empathy in ‘It from Bit’. Ai and Ethics, 1–13.\n" +
        "[3] Alizadeh, F., & Stevens, G. (2022). Does Anyone Dream of Invisible A.I.? A Critique of the Making Invisible of A.I. Policing. Nordic Human-Computer Interaction Conference.\n" +
        "[4] Masters, K. (2023). Ethical use of Artificial Intelligence in Health Professions Education: AMEE Guide No. 158. Medical Teacher, 45, 574–584.\n" +
        "[5] Ross, A., Fernandez‐Granda, C., & Zanna, L. (2022). Benchmarking of Machine Learning Ocean Subgrid Parameterizations. Journal of Advances in Modeling Earth Systems, 15.\n" +
        "[6] R. V. Mikkilineni, “The Science of Information Processing Structures,” IS4SI 2021, 2022."
    )
    expect(turing!.fields["title"]).toBe("Academics' perceptions: A practical application of Turing’s Imitation Game")
    expect(mcstay!.fields["title"]).toBe("Replika in the Metaverse: the moral problem with empathy in ‘It from Bit’")
    expect(ai!.fields["title"]).toBe(
      "Does Anyone Dream of Invisible A.I.? A Critique of the Making Invisible of A.I. Policing"
    )
    expect(guide!.fields["title"]).toBe(
      "Ethical use of Artificial Intelligence in Health Professions Education: AMEE Guide No. 158"
    )
    expect(ross!.fields["author"]).toMatch(/^Ross, A\. and Fernandez‐Granda, C\. and Zanna, L\.?$/)
    expect(ieee!.fields["year"]).toBe("2022")
  })

  it("a list that starts with an author: a wrapped title or venue line that starts with neither a name nor a year goes on the reference before", () => {
    const text = "Copeland, B. (2023). Early AI in Britain: Turing et al..\n" +
      "IEEE Annals of the History of Computing, 45, 19–31.\n" +
      "https://doi.org/10.1109/mahc.2023.3300660\n" +
      "Li, K. (2022). Application of Artificial Intelligence System\n" +
      "Based on Wireless Sensor Network in Enterprise Management.\n" +
      "Computational Intelligence and Neuroscience, 2022.\n" +
      "World Health Organization. (2021). Ethics and governance of artificial intelligence for health. WHO."
    expect(read(text).format).toBe("formatted")
    expect(entries(text).map((e) => e.fields["title"])).toEqual([
      "Early AI in Britain: Turing et al",
      "Application of Artificial Intelligence System Based on Wireless Sensor Network in Enterprise Management",
      "Ethics and governance of artificial intelligence for health"
    ])
  })

  it("an arXiv id in a reference is its eprint, a numbered list's number its key, pages as BibTeX writes them", () => {
    const [bert] = entries(
      "[7] J. Devlin, M.-W. Chang, K. Lee, and K. Toutanova, “BERT: Pre-training of deep bidirectional transformers for language understanding,” arXiv preprint arXiv:1810.04805v2, 2018.\n" +
        "[8] A. Author, “Another paper title here,” J. Things, vol. 3, pp. 1–9, 2020."
    )
    expect(bert!.key).toBe("7")
    expect(bert!.fields).toMatchObject({
      author: "Devlin, J. and Chang, M.-W. and Lee, K. and Toutanova, K.",
      title: "BERT: Pre-training of deep bidirectional transformers for language understanding",
      year: "2018",
      eprint: "1810.04805",
      archiveprefix: "arXiv"
    })
    expect(entries("[1] A. Author, “Another paper title here,” J. Things, vol. 3, pp. 1–9, 2020.")[0]!.fields)
      .toMatchObject({ journal: "J. Things", volume: "3", pages: "1--9" })
  })

  it("a title that asks a question keeps its subtitle; the venue after it is the venue", () => {
    const [subtitled, asked] = entries(
      "Smith, J. (2020). Is attention all you need? A study of transformers. Journal of Things, 3(2), 1–10.\n" +
        "Doe, J. (2021). Is attention all you need? Journal of Things, 4, 1–10."
    )
    expect(subtitled!.fields).toMatchObject({
      title: "Is attention all you need? A study of transformers",
      journal: "Journal of Things"
    })
    expect(asked!.fields).toMatchObject({
      title: "Is attention all you need?",
      journal: "Journal of Things",
      volume: "4"
    })
  })

  it("a numbered list's wrapped line that starts with a year is not the next reference", () => {
    const list = "1. Vaswani A, Shazeer N. Attention is all you need. Adv Neural Inf Process Syst.\n" +
      "2017;30:5998-6008.\n2. LeCun Y, Bengio Y, Hinton G. Deep learning. Nature. 2015;521:436-44."
    expect(entries(list).map((e) => [e.key, e.fields["year"]])).toEqual([["1", "2017"], ["2", "2015"]])
  })
})

describe("Verify.read: lines, BibTeX, detection", () => {
  it("ids and titles one per line are lines; an id is passed in the API's spelling", () => {
    const r = read("10.1038/nature14539\n# a comment\narXiv:1706.03762\n\nAttention Is All You Need\n")
    expect(r.format).toBe("lines")
    expect(r.inputs).toEqual([
      { key: "1", text: "DOI:10.1038/nature14539" },
      { key: "3", text: "ARXIV:1706.03762" },
      { key: "5", text: "Attention Is All You Need" }
    ])
  })

  it("a line longer than any reference is a title as written, not read for names and a year (a 10 MB title)", () => {
    const long = `Vaswani, A. (2017). ${"Attention is all you need. ".repeat(200)}`.trim()
    const r = read(`Deep learning\n${long}\n`)
    expect(r.format).toBe("lines")
    expect(r.inputs).toEqual([{ key: "1", text: "Deep learning" }, { key: "2", text: long }])
  })

  it("titles with a year in them stay titles", () => {
    expect(read("Findings of the 2019 Conference on Machine Translation (WMT19)\nDeep learning\n").format).toBe("lines")
  })

  it("a long list of titles without points, years and pages in them, stays lines (never joined into one reference)", () => {
    const titles = Array.from(
      { length: 200 },
      (_, i) => `Findings of the ${1990 + (i % 30)} shared task: pp. ${i}-${i + 9}, et al. (WMT${i})`
    )
    const r = read(titles.join("\n"))
    expect(r.format).toBe("lines")
    expect(r.inputs).toHaveLength(200)
  })

  it("a formatted piece longer than any reference is an entry with its problem, not read", () => {
    const long = `1. Vaswani A. ${"A very long title that goes on ".repeat(200)}. Nature. 2017;1:1-2.\n` +
      "2. LeCun Y, Bengio Y, Hinton G. Deep learning. Nature. 2015;521:436-44."
    const [first, second] = entries(long)
    expect(first!.problem).toBe("6232 characters on 1 line(s): longer than any reference, not read")
    expect(second!.fields["title"]).toBe("Deep learning")
  })

  it("a Mendeley .bib, prose before its first entry, is BibTeX (issue 44 point 9)", () => {
    const mendeley = "Automatically generated by Mendeley Desktop 1.19.8\n" +
      "Any changes to this file will be lost if it is regenerated by Mendeley.\n\n" +
      "BibTeX export options can be customized via Options -> BibTeX in Mendeley Desktop\n\n" +
      "@article{LeCun2015,\nauthor = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},\n" +
      "doi = {10.1038/nature14539},\ntitle = {{Deep learning}},\njournal = {Nature},\nyear = {2015}\n}\n"
    const r = read(mendeley)
    expect(r.format).toBe("bibtex")
    expect(r.inputs).toEqual([expect.objectContaining({ key: "LeCun2015", line: 6 })])
  })

  it("any .bib our BibTeX writer emits is BibTeX, with one entry per paper", () => {
    fc.assert(
      fc.property(fc.array(arbitraryPaper, { minLength: 1, maxLength: 4 }), (papers) => {
        const r = read(Citable.bibtex(papers))
        expect(r.format).toBe("bibtex")
        expect(r.inputs).toHaveLength(papers.length)
      })
    )
  })

  it("lines of ids are lines, each its id", () => {
    const doi = fc.tuple(fc.integer({ min: 1000, max: 99999 }), fc.stringMatching(/^[a-z0-9]{1,12}$/))
      .map(([r, s]) => `10.${r}/${s}`)
    const arxiv = fc.tuple(fc.integer({ min: 1501, max: 2512 }), fc.integer({ min: 10000, max: 99999 }))
      .map(([a, b]) => `arXiv:${a}.${b}`)
    fc.assert(
      fc.property(fc.array(fc.oneof(doi, arxiv), { minLength: 1, maxLength: 20 }), (ids) => {
        const r = read(ids.join("\n"))
        expect(r.format).toBe("lines")
        expect(r.inputs.map((i) => (i as Verify.Line).text.split(":")[0])).toEqual(
          ids.map((id) => id.startsWith("arXiv") ? "ARXIV" : "DOI")
        )
      })
    )
  })

  it("what it cannot read is refused with one line saying what it looks like", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["   \n\n", "Empty"],
      ["<!DOCTYPE html><html><body>references</body></html>", "an HTML page"],
      ["<?xml version=\"1.0\"?><xml><records/></xml>", "XML"],
      ["{\"hits\": 3, \"papers\": []}", "not CSL-JSON"],
      ["[{\"title\": \"x\",", "does not parse"],
      ["@string{nips = {NeurIPS}}\n@comment{nothing}\n", "holds no entry"],
      ["abc\u0001\u0002def", "binary"]
    ]
    for (const [text, says] of cases) {
      const e = refused(text)
      expect(e._tag).toBe("Unreadable")
      expect(e.message).toContain(says === "Empty" ? "empty" : says)
      expect(e.message).not.toContain("\n")
    }
  })

  it("JSON's own names are data: an item with __proto__ or constructor reads no more than its fields", () => {
    const [item] = entries(
      "[{\"__proto__\": {\"title\": \"polluted\"}, \"constructor\": 1, \"type\": \"article\", \"id\": \"k\"}]"
    )
    expect(item!.fields["title"]).toBeUndefined()
    expect(item!.problem).toContain("no title")
    expect(({} as Record<string, unknown>)["title"]).toBeUndefined()
  })
})

const paper = (fields: Record<string, unknown>): Paper =>
  Schema.decodeUnknownSync(Paper)({ paperId: "0123456789abcdef0123456789abcdef01234567", ...fields })

const arbitraryPaper = fc.record({
  title: fc.string({ minLength: 1, maxLength: 40 }),
  year: fc.integer({ min: 1900, max: 2030 }),
  authors: fc.array(fc.record({ authorId: fc.constant("1"), name: fc.string({ maxLength: 20 }) }), { maxLength: 3 }),
  externalIds: fc.record({ DOI: fc.stringMatching(/^10\.\d{4}\/[a-z0-9.]{1,10}$/) })
}).map(paper)

/** Papers of every kind our writers tell apart: a journal article, a conference paper, a preprint, names with particles and suffixes. */
const handMade: ReadonlyArray<Paper> = [
  paper({
    title: "Deep learning",
    year: 2015,
    publicationDate: "2015-05-27",
    publicationTypes: ["JournalArticle"],
    venue: "Nature",
    journal: { name: "Nature", volume: "521", pages: "436-444" },
    authors: [{ authorId: "1", name: "Yann LeCun" }, { authorId: "2", name: "Yoshua Bengio" }],
    externalIds: { DOI: "10.1038/nature14539" }
  }),
  paper({
    title: "Attention is All you Need",
    year: 2017,
    publicationTypes: ["Conference"],
    venue: "Neural Information Processing Systems",
    authors: [{ authorId: "1", name: "Ashish Vaswani" }, { authorId: "2", name: "Ludwig van Beethoven Jr." }],
    externalIds: { ArXiv: "1706.03762" }
  }),
  paper({
    title: "A preprint: with a colon, & an ampersand",
    year: 2023,
    venue: "arXiv.org",
    authors: [{ authorId: "1", name: "Jane Doe" }],
    externalIds: { ArXiv: "2301.00001" }
  })
]

const compared = [
  "title",
  "author",
  "year",
  "date",
  "journal",
  "booktitle",
  "volume",
  "number",
  "pages",
  "doi",
  "eprint"
]

const only = (entry: Verify.Entry) =>
  Object.fromEntries(compared.flatMap((n) => entry.fields[n] === undefined ? [] : [[n, entry.fields[n]]]))

describe("Verify.read: RIS and CSL-JSON from our own writers read back to the same fields", () => {
  const papers = [...handMade, ...recordedPapers().slice(0, 300)]

  // The arXiv id of a paper that is not a preprint is written in RIS (AN) but not in CSL-JSON, which
  // has no variable for it there: compared apart, below.
  it("RIS and CSL-JSON of the same papers give the same entries, under the same keys", () => {
    const ris = read(Citable.ris(papers))
    const csl = read(JSON.stringify(Citable.cslJson(papers), null, 2))
    expect(ris.format).toBe("ris")
    expect(csl.format).toBe("csl-json")
    const risEntries = ris.inputs as ReadonlyArray<Verify.Entry>
    const cslEntries = csl.inputs as ReadonlyArray<Verify.Entry>
    expect(risEntries.map((e) => e.key)).toEqual(cslEntries.map((e) => e.key))
    const noEprint = (e: Verify.Entry) => ({ ...only(e), eprint: undefined })
    expect(risEntries.map(noEprint)).toEqual(cslEntries.map(noEprint))
    expect(cslEntries.map((e) => e.fields["eprint"])).toEqual(
      papers.map((p, i) => cslEntries[i]!.fields["eprint"] === undefined ? undefined : p.externalIds?.ArXiv)
    )
    expect(cslEntries.at(2)!.fields["eprint"]).toBe("2301.00001")
  })

  it("each entry holds the paper's title, year, DOI and arXiv id, and its authors in order", () => {
    const read1 = read(Citable.ris(handMade)).inputs as ReadonlyArray<Verify.Entry>
    expect(read1.map(only)).toEqual([
      {
        title: "Deep learning",
        author: "LeCun, Yann and Bengio, Yoshua",
        year: "2015",
        date: "2015-05-27",
        journal: "Nature",
        volume: "521",
        pages: "436--444",
        doi: "10.1038/nature14539"
      },
      {
        title: "Attention is All you Need",
        author: "Vaswani, Ashish and van Beethoven, Jr., Ludwig",
        year: "2017",
        booktitle: "Neural Information Processing Systems",
        eprint: "1706.03762"
      },
      expect.objectContaining({ title: "A preprint: with a colon, & an ampersand", eprint: "2301.00001", year: "2023" })
    ])
  })

  it("our RIS reads as citation-js's RIS parser reads it: titles, DOIs and years agree", () => {
    const text = Citable.ris(papers)
    const theirs = new Cite(text).data as ReadonlyArray<
      { title?: string; DOI?: string; issued?: { "date-parts"?: Array<Array<number>> } }
    >
    const ours = read(text).inputs as ReadonlyArray<Verify.Entry>
    expect(ours.map((e) => [e.fields["title"], e.fields["doi"]?.toLowerCase(), e.fields["year"]])).toEqual(
      theirs.map((
        t
      ) => [t.title?.replace(/\s+/g, " ").trim(), t.DOI?.toLowerCase(), t.issued?.["date-parts"]?.[0]?.[0]?.toString()])
    )
  })
})

describe("Verify.decode", () => {
  const bib = "@article{k, title = {Gödel's Théorème}, doi = {10.1/x}}\n"
  const utf16 = (text: string, le: boolean, bom: boolean): Uint8Array => {
    const out: Array<number> = bom ? (le ? [0xff, 0xfe] : [0xfe, 0xff]) : []
    for (const unit of text.split("").map((c) => c.charCodeAt(0))) {
      out.push(...(le ? [unit & 0xff, unit >> 8] : [unit >> 8, unit & 0xff]))
    }
    return new Uint8Array(out)
  }
  const decoded = (bytes: Uint8Array) => {
    const r = Verify.decode(bytes)
    if (Result.isFailure(r)) throw new Error(r.failure.message)
    return r.success
  }

  it("UTF-16 with a byte-order mark, either order, and without one, is read (issue 44 point 12)", () => {
    for (const le of [true, false]) {
      expect(decoded(utf16(bib, le, true))).toBe(bib)
      expect(decoded(utf16(bib, le, false))).toBe(bib)
      expect(read(decoded(utf16(bib, le, true))).format).toBe("bibtex")
    }
  })

  it("UTF-8 with a byte-order mark reads without it; plain UTF-8 as it is", () => {
    const bytes = new TextEncoder().encode(bib)
    expect(decoded(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]))).toBe(bib)
    expect(decoded(bytes)).toBe(bib)
  })

  it("UTF-32 with its byte-order mark is refused naming UTF-32, not read as UTF-16 with no entries", () => {
    for (const mark of [[0xff, 0xfe, 0, 0], [0, 0, 0xfe, 0xff]]) {
      const units = [...bib].flatMap((c) => {
        const p = c.codePointAt(0)!
        const be = [p >>> 24, (p >>> 16) & 0xff, (p >>> 8) & 0xff, p & 0xff]
        return mark[0] === 0 ? be : be.reverse()
      })
      const r = Verify.decode(new Uint8Array([...mark, ...units]))
      expect(Result.isFailure(r) && r.failure.message).toBe(
        "the text is UTF-32 (as its byte-order mark says), which is not read; save it as UTF-8 (or UTF-16 with a byte-order mark)"
      )
    }
  })

  it("Latin-1 and binary data are refused, naming the encoding and where it failed", () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode("@article{k, title = {G"), 0xf6, 0x64, 0x65, 0x6c])
    const r = Verify.decode(latin1)
    expect(Result.isFailure(r) && r.failure.message).toBe(
      "the text is not UTF-8 (byte 0xF6 at offset 22; Latin-1 or Windows-1252, perhaps); save it as UTF-8 (or UTF-16 with a byte-order mark)"
    )
    const binary = Verify.decode(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x12, 0x00, 0x00, 0x41]))
    expect(Result.isFailure(binary) && binary.failure.reason).toBe("Encoding")
  })
})
