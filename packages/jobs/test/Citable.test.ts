/**
 * Citable: BibTeX, CSL-JSON and RIS written from a paper's fields. Unit cases for the choices
 * (entry types, names, escapes, capitals, keys), property tests that nothing in a record can open
 * an entry or close a field, and the recorded papers checked as CSL-JSON against the CSL data
 * model, rendered by citeproc-js, and read back from RIS by an independent RIS parser.
 */
import { Cite } from "@citation-js/core"
import "@citation-js/plugin-csl"
import "@citation-js/plugin-ris"
import { describe, expect, it } from "@effect/vitest"
import { Paper } from "@s2-effect/core"
import { Schema } from "effect"
import * as fc from "fast-check"
import { Transform } from "unicode2latex"
import { characters, charmap, spell } from "../scripts/citable-table.mjs"
import { Citable } from "../src/index.js"
import { parse } from "../src/internal/bibtex.js"
import * as bib from "../src/internal/citable/bibtex.js"
import { oneLine } from "../src/internal/citable/facts.js"
import { keys } from "../src/internal/citable/keys.js"
import { balanced } from "../src/internal/citable/latex.js"
import { texTable } from "../src/internal/citable/texTable.js"
import { markedText } from "./support/MarkedText.js"
import { present, recordedPapers } from "./support/RecordedPapers.js"

const paper = (fields: Record<string, unknown>): Paper =>
  Schema.decodeUnknownSync(Paper)({ paperId: "0123456789abcdef", ...fields })

const one = (fields: Record<string, unknown>, key?: string) =>
  parse(Citable.bibtex([{ paper: paper(fields), key }]))[0]!

/**
 * The entries as BibTeX itself reads a file: outside an entry an `@` starts one; inside, every `{`
 * and `}` counts (a backslash escapes neither). The number of entries and each one's type and key.
 */
const asBibtexReads = (text: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  let i = 0
  while ((i = text.indexOf("@", i)) !== -1) {
    const head = /^@(\w+)\{([^,]*),/.exec(text.slice(i))
    if (head === null) return [...found, `unreadable at ${i}`]
    let depth = 0
    let j = i + head[0].length - head[2]!.length - 2
    for (; j < text.length; j++) {
      if (text[j] === "{") depth++
      else if (text[j] === "}" && --depth === 0) break
    }
    found.push(`${head[1]}:${head[2]}`)
    i = j + 1
  }
  return found
}

describe("BibTeX entry types, from publication types and venue", () => {
  it("a journal article: @article with journal, volume and issue split, pages as a range", () => {
    const entry = one({
      title: "Trust",
      publicationTypes: ["JournalArticle"],
      venue: "Experimental & Empirical Studies eJournal",
      journal: { name: "Experimental & Empirical Studies eJournal", volume: "12 5", pages: "\n  390-7\n  " },
      externalIds: { DOI: "10.2139/ssrn.4.5_6" }
    })
    expect(entry.type).toBe("article")
    expect(entry.fields).toMatchObject({
      journal: "Experimental \\& Empirical Studies eJournal",
      volume: "12",
      number: "5",
      pages: "390--7",
      doi: "10.2139/ssrn.4.5_6"
    })
    expect(entry.fields.url).toBeUndefined()
  })

  it("a conference paper: @inproceedings with the proceedings' name as booktitle", () => {
    const entry = one({
      title: "X",
      publicationTypes: ["Conference"],
      venue: "SPIN",
      publicationVenue: { name: "SPIN", type: "conference" },
      journal: { name: "2024 11th International Conference on Signal Processing (SPIN)", pages: "168-173" }
    })
    expect(entry.type).toBe("inproceedings")
    expect(entry.fields.booktitle).toBe("2024 11th International Conference on Signal Processing (SPIN)")
    expect(entry.fields.journal).toBeUndefined()
  })

  it("an arXiv preprint: @misc with eprint and archivePrefix, no arXiv 'volume'", () => {
    const entry = one({
      title: "Towards Evaluating AI Systems",
      publicationTypes: ["JournalArticle"],
      venue: "arXiv.org",
      journal: { name: "ArXiv", volume: "abs/2311.08576" },
      externalIds: { ArXiv: "2311.08576", DOI: "10.48550/arXiv.2311.08576" }
    })
    expect(entry.type).toBe("misc")
    expect(entry.fields).toMatchObject({
      eprint: "2311.08576",
      archiveprefix: "arXiv",
      doi: "10.48550/arXiv.2311.08576"
    })
    expect(entry.fields.volume).toBeUndefined()
    expect(entry.fields.journal).toBeUndefined()
  })

  it("a journal the server files under a conference venue is still a journal; a bare record is @misc with its url", () => {
    const sensors = one({
      title: "X",
      publicationTypes: ["Review", "JournalArticle"],
      venue: "Italian National Conference on Sensors",
      publicationVenue: { name: "Italian National Conference on Sensors", type: "conference" },
      journal: { name: "Sensors (Basel, Switzerland)", volume: "24" }
    })
    expect([sensors.type, sensors.fields.journal]).toEqual(["article", "Sensors (Basel, Switzerland)"])
    const bare = one({ title: "X", url: "https://www.semanticscholar.org/paper/0123" })
    expect([bare.type, bare.fields.url]).toEqual(["misc", "https://www.semanticscholar.org/paper/0123"])
  })

  it("never passes on the server's citationStyles text", () => {
    const text = Citable.bibtex([paper({
      title: "X",
      authors: [{ authorId: "1", name: "Ada Lovelace" }],
      citationStyles: { bibtex: "@Article{SERVERKEY,\n title = {SERVERTEXT}\n}" }
    })])
    expect(text).not.toMatch(/SERVER/)
    expect(parse(text).map((e) => e.key)).toEqual(["lovelace"])
  })
})

describe("issue 48: a conference paper is @inproceedings, CSL paper-conference, RIS CPAPER", () => {
  const types = (input: Citable.Item) => [
    parse(Citable.bibtex([input]))[0]!.type,
    Citable.cslJson([input])[0]!.type,
    /^TY {2}- (\w+)\r$/m.exec(Citable.ris([input]))![1]
  ]

  it("ICML's paper, its journal the conference's name, is @inproceedings with that booktitle", () => {
    const icml = paper({
      title: "X",
      publicationTypes: ["JournalArticle"],
      venue: "International Conference on Machine Learning",
      publicationVenue: {
        name: "International Conference on Machine Learning",
        type: "conference",
        alternate_names: ["ICML", "Int Conf Mach Learn"]
      },
      journal: { name: "International Conference on Machine Learning", pages: "1791-1799" }
    })
    expect(types({ paper: icml })).toEqual(["inproceedings", "paper-conference", "CPAPER"])
    const entry = parse(Citable.bibtex([icml]))[0]!
    expect(entry.fields.booktitle).toBe("International Conference on Machine Learning")
    expect(entry.fields.journal).toBeUndefined()
    expect(Citable.cslJson([icml])[0]!["container-title"]).toBe("International Conference on Machine Learning")
  })

  it("a record that does not say, written as the user's entry type; a journal venue stays a journal", () => {
    const untyped = paper({ title: "X", journal: { name: "ICML" } })
    expect(types({ paper: untyped, type: "inproceedings" })).toEqual(["inproceedings", "paper-conference", "CPAPER"])
    expect(types({ paper: untyped })).toEqual(["article", "article-journal", "JOUR"])
    const venueOnly = paper({ title: "X", venue: "Nature" })
    expect(types({ paper: venueOnly, type: "article" })).toEqual(["article", "article-journal", "JOUR"])
    const journal = paper({
      title: "X",
      journal: { name: "Mind" },
      publicationVenue: { name: "Mind", type: "journal" }
    })
    expect(types({ paper: journal, type: "inproceedings" })).toEqual(["article", "article-journal", "JOUR"])
  })
})

describe("BibTeX text", () => {
  it("authors as 'von Last, Jr, First'; a lone 'and' braced; the initials written against a name split off", () => {
    const names = ["Tamara von Glehn", "Martin Luther King Jr.", "T.Chuprina", "Research and Development", "Aristotle"]
    const entry = one({ title: "X", authors: names.map((name, i) => ({ authorId: String(i), name })) })
    expect(entry.fields.author).toBe(
      "von Glehn, Tamara and King, Jr., Martin Luther and Chuprina, T. and {and} Development, Research and Aristotle"
    )
  })

  it("LaTeX specials escaped, braces and backslashes as commands: the value balances", () => {
    const title = "50% of C# & F_1 cost $5 {a} ~ ^ \\ | <b>"
    const value = one({ title }).fields.title!
    expect(value).toBe(
      "50\\% of {C\\#} \\& {F\\_1} cost \\$5 {\\textbraceleft}a{\\textbraceright} {\\textasciitilde} " +
        "{\\textasciicircum} {\\textbackslash} {\\textbar} {$<$}b{$>$}"
    )
    expect(balanced(value)).toBe(true)
  })

  it("non-ASCII: accents and Greek as LaTeX, scripts without a pdfLaTeX command as UTF-8", () => {
    const entry = one({
      title: "α-synuclein in Erdős–Rényi graphs, 全球 Việt",
      authors: [{ authorId: "1", name: "A. Seza Doğruöz" }, { authorId: "2", name: "Łukasz Wójcik" }]
    })
    // Two marks on one letter (Vietnamese ệ) have no command pdfLaTeX with T1 can set: UTF-8 too.
    expect(entry.fields.title).toBe("{$\\alpha$}-synuclein in {Erd{\\H o}s--R{\\'e}nyi} graphs, 全球 {Vi\u1ec7t}")
    expect(entry.fields.author).toBe("Do{\\u g}ru{\\\"o}z, A. Seza and W{\\'o}jcik, {\\L}ukasz")
  })

  it("capitals protected: a lowercasing style keeps ChatGPT, BERT, COVID-19 and proper nouns", () => {
    expect(one({ title: "ChatGPT and BERT against COVID-19 in Chinese hospitals: a Turing test" }).fields.title).toBe(
      "{ChatGPT} and {BERT} against {COVID-19} in {Chinese} hospitals: a {Turing} test"
    )
    // BibTeX keeps the first letter of a title: a first word capitalised only there is left as it is.
    expect(one({ title: "Attention is all you need" }).fields.title).toBe("Attention is all you need")
    expect(one({ title: "ÉMILE and Émile" }).fields.title).toBe("{{\\'E}MILE} and {{\\'E}mile}")
  })

  it("the user's extra fields are kept when ours do not have them; unbalanced TeX is written as text", () => {
    const entry = parse(Citable.bibtex([{
      paper: paper({ title: "X", year: 2020 }),
      key: "mine",
      extra: { note: "see {\\em there}", Year: "1999", keywords: "a}b{", "bad name": "x", NOTE: "twice" }
    }]))[0]!
    expect(entry.key).toBe("mine")
    expect(entry.fields).toEqual({
      title: "X",
      year: "2020",
      note: "see {\\em there}",
      keywords: "a{\\textbraceright}b{\\textbraceleft}"
    })
  })
})

/** Turing's paper as the record has it, complete. */
const turing = () =>
  paper({
    title: "Computing Machinery and Intelligence",
    year: 1950,
    authors: [{ authorId: "1", name: "A. M. Turing" }],
    journal: { name: "Mind", volume: "LIX", pages: "433-460" },
    externalIds: { DOI: "10.1093/mind/LIX.236.433" }
  })

describe("issue 44 point 7: the user's fields are kept where the record has none", () => {
  const user = {
    author: "Turing, Alan M.",
    title: "Computing machinery and intelligence",
    year: "1950",
    journal: "Mind",
    publisher: "Oxford University Press",
    note: "The imitation game"
  }

  it("a record without authors or year keeps the user's author, year and publisher", () => {
    const written = Citable.bibtex([{
      paper: paper({ title: "Computing Machinery and Intelligence" }),
      key: "t",
      extra: user
    }])
    const [entry] = parse(written)
    expect(entry!.fields).toEqual({
      title: "Computing {Machinery} and {Intelligence}",
      author: "Turing, Alan M.",
      year: "1950",
      journal: "Mind",
      publisher: "Oxford University Press",
      note: "The imitation game"
    })
    // The title is the record's, and the user's says the same: nothing to note.
    expect(written.split("\n")[0]).toBe("@misc{t,")
  })

  it("a complete record keeps the user's publisher; their journal under another name is replaced, and said so", () => {
    const record = turing()
    const written = Citable.bibtex([{
      paper: record,
      key: "t",
      extra: { ...user, booktitle: "Proceedings of Mind", month: "oct" }
    }])
    const [entry] = parse(written)
    expect(entry!.fields).toMatchObject({ journal: "Mind", publisher: "Oxford University Press", month: "oct" })
    expect(entry!.fields.booktitle).toBeUndefined()
    expect(written.split("\n")[0]).toBe(
      "% s2: Semantic Scholar's values written in place of yours, which differ: author, booktitle"
    )
  })

  it("CSL-JSON and RIS fill what the record lacks from the user's fields too", () => {
    const input = { paper: paper({ title: "Computing Machinery and Intelligence" }), key: "t", extra: user }
    const [item] = Citable.cslJson([input])
    expect(item).toMatchObject({
      author: [{ family: "Turing", given: "Alan M." }],
      issued: { "date-parts": [[1950]] },
      "container-title": "Mind",
      publisher: "Oxford University Press"
    })
    const ris = Citable.ris([input])
    for (const line of ["AU  - Turing, Alan M.", "PY  - 1950", "PB  - Oxford University Press", "T2  - Mind"]) {
      expect(ris).toContain(`${line}\r\n`)
    }
  })
})

describe("issue 44 point 7: CSL-JSON and RIS lose nothing of the user's without saying so", () => {
  const record = turing()
  const extra = {
    author: "Turing, Alan",
    title: "Computing machinery and intelligence",
    isbn: "978-0-19-000000-0",
    note: "Read in the 1950 {issue}",
    keywords: "ai, imitation game",
    address: "Oxford",
    url: "https://example.org/turing.pdf",
    file: "turing.pdf",
    "mendeley-groups": "Thesis"
  }
  const input = { paper: record, key: "turing50", extra }

  it("carry the user's ISBN, note, keywords, place and link, as the BibTeX writer keeps them", () => {
    const [item] = Citable.cslJson([input])
    expect(item).toMatchObject({
      ISBN: "978-0-19-000000-0",
      note: "Read in the 1950 issue",
      keyword: "ai, imitation game",
      "publisher-place": "Oxford",
      URL: "https://example.org/turing.pdf",
      DOI: "10.1093/mind/LIX.236.433"
    })
    const ris = Citable.ris([input])
    for (
      const line of ["SN  - 978-0-19-000000-0", "N1  - Read in the 1950 issue", "KW  - ai", "KW  - imitation game"]
    ) {
      expect(ris).toContain(`${line}\r\n`)
    }
    expect(ris).toContain("CY  - Oxford\r\n")
    expect(ris).toContain("UR  - https://example.org/turing.pdf\r\n")
  })

  it("name what they replaced and what the format has no place for", () => {
    expect(Citable.notes(input, "csl-json")).toEqual([
      "Semantic Scholar's values written in place of yours, which differ: author",
      "left out, CSL-JSON has no place for: file, mendeley-groups"
    ])
    expect(Citable.notes(input, "ris")[1]).toBe("left out, RIS has no place for: file, mendeley-groups")
    // Nothing of the user's lost: nothing to say.
    expect(Citable.notes({ paper: record, extra: { isbn: "1", year: "1950", month: "oct" } }, "ris")).toEqual([])
  })

  it("a record without a finer date takes the user's month with their year", () => {
    const [item] = Citable.cslJson([{
      paper: paper({ title: "T", year: 1950 }),
      extra: { year: "1950", month: "oct" }
    }])
    expect(item!.issued).toEqual({ "date-parts": [[1950, 10]] })
    const [other] = Citable.cslJson([{
      paper: paper({ title: "T", year: 1951 }),
      extra: { year: "1950", month: "oct" }
    }])
    expect(other!.issued).toEqual({ "date-parts": [[1951]] })
  })
})

describe("the LaTeX table", () => {
  it("is unicode2latex's spelling of its characters (regenerate with node packages/jobs/scripts/citable-table.mjs)", () => {
    const transform = new Transform("bibtex-creator", { charmap: { ...charmap } })
    expect(Object.keys(texTable)).toEqual(characters())
    for (const [c, latex] of Object.entries(texTable)) expect(spell(transform, c), c).toBe(latex)
  })

  it("spells in printable ASCII with balanced braces, each command closed off from the next letter", () => {
    for (const latex of Object.values(texTable)) {
      expect(latex).toMatch(/^[\x20-\x7e]+$/)
      expect(balanced(latex), latex).toBe(true)
      expect(latex).not.toMatch(/\\[A-Za-z]+$/)
    }
  })
})

describe("keys", () => {
  const authored = (name: string, title: string, year = 2017) =>
    paper({ title, year, authors: [{ authorId: "1", name }] })

  it("family name, year and first word, ASCII; unique across one run, compared without case", () => {
    const papers = [
      authored("Ashish Vaswani", "Attention Is All You Need"),
      authored("A. Vaswani", "Attention is all you need (again)"),
      authored("A. Seza Doğruöz", "How “open” are the conversations?", 2022),
      paper({ title: "From farm to fork", year: 2023 }),
      paper({ title: "" })
    ]
    expect(parse(Citable.bibtex(papers)).map((e) => e.key)).toEqual([
      "vaswani2017attention",
      "vaswani2017attentiona",
      "dogruoz2022open",
      "anon2023farm",
      "s20123456789ab"
    ])
  })

  it("the user's key is kept, with what cannot be in a key dropped; CSL ids and RIS IDs are the same keys", () => {
    const inputs = [
      { paper: authored("Ada Lovelace", "Notes"), key: "Müller 2020,{x}" },
      { paper: authored("Ada Lovelace", "Notes"), key: "müller2020x" },
      { paper: authored("Ada Lovelace", "Notes") }
    ]
    const bibKeys = parse(Citable.bibtex(inputs)).map((e) => e.key)
    // The cleaned key yields to the one the user wrote exactly (issue 44 point 6): it was `müller2020xa`.
    expect(bibKeys).toEqual(["Müller2020xa", "müller2020x", "lovelace2017notes"])
    expect(Citable.cslJson(inputs).map((item) => item.id)).toEqual(bibKeys)
    expect([...Citable.ris(inputs).matchAll(/^ID {2}- (.*)\r$/gm)].map((m) => m[1])).toEqual(bibKeys)
  })
})

describe("issue 44 point 6: a key the user wrote is never changed or taken", () => {
  const notes = paper({ title: "Notes", year: 1843, authors: [{ authorId: "1", name: "Ada Lovelace" }] })
  const other = paper({ title: "Other", year: 1843 })

  it("a key written twice is renamed past the user's own keys, with a note; a made key skips them too", () => {
    const inputs = [
      { paper: notes, key: "K" },
      { paper: other, key: "K" },
      { paper: other, key: "Ka" },
      { paper: notes },
      { paper: other, key: "lovelace1843notes" }
    ]
    const written = Citable.bibtex(inputs)
    const bibKeys = parse(written).map((e) => e.key)
    expect(bibKeys).toEqual(["K", "Kb", "Ka", "lovelace1843notesa", "lovelace1843notes"])
    expect(parse(written).find((e) => e.key === "Ka")!.fields.title).toBe("Other")
    expect(written).toContain(
      "% s2: the key K is written twice; this entry is written as Kb, BibTeX would drop it as a repeat\n@misc{Kb,"
    )
    expect(asBibtexReads(written)).toHaveLength(5)
    expect(Citable.cslJson(inputs).map((item) => item.id)).toEqual(bibKeys)
    expect([...Citable.ris(inputs).matchAll(/^ID {2}- (.*)\r$/gm)].map((m) => m[1])).toEqual(bibKeys)
  })

  it("a key BibTeX reads is written as the user wrote it (', (, :, \", #, %, ~, =, \\, any script): their \\cite stays defined", () => {
    const theirs = ["O'Brien:2011(a)", "a\"b#c~d=e", "p%q\\r", "日本2020", "k🙂"]
    const inputs = theirs.map((key) => ({ paper: other, key }))
    const written = Citable.bibtex(inputs)
    expect(parse(written).map((e) => e.key)).toEqual(theirs)
    expect(asBibtexReads(written)).toEqual(theirs.map((key) => `misc:${key}`))
    expect(written).not.toContain("% s2")
    expect(Citable.cslJson(inputs).map((item) => item.id)).toEqual(theirs)
    expect([...Citable.ris(inputs).matchAll(/^ID {2}- (.*)\r$/gm)].map((m) => m[1])).toEqual(theirs)
  })

  it("a key that cannot be in a .bib (a space, comma, brace, @, line break) is cleaned, with a note that starts no entry", () => {
    const written = Citable.bibtex([
      { paper: notes, key: "Müller 2020,{x}" },
      { paper: other, key: "a@b\n@misc{evil, title={x}}" }
    ])
    expect(asBibtexReads(written)).toEqual(["misc:Müller2020x", "misc:abmisceviltitle=x"])
    expect(written).toContain(
      `% s2: the key "Müller 2020,{x}" holds what a .bib key cannot (a space, comma, brace, at sign or control); written as Müller2020x\n@misc{Müller2020x,`
    )
    expect(written).toContain(`% s2: the key "a(at)b\\n(at)misc{evil, title={x}}" holds what`)
  })

  it("a key cleaned of what a .bib key cannot hold never takes a key the user wrote exactly", () => {
    const written = Citable.bibtex([{ paper: notes, key: "Smith 2020" }, { paper: other, key: "Smith2020" }])
    expect(asBibtexReads(written)).toEqual(["misc:Smith2020a", "misc:Smith2020"])
    expect(written).toContain(
      `% s2: the key "Smith 2020" holds what a .bib key cannot (a space, comma, brace, at sign or control); written as Smith2020a\n`
    )
    expect(written).not.toContain("written twice")
  })

  it("a writer of a stream told the user's keys keeps them for the entries still to come", () => {
    const w = Citable.bibtexWriter({ keys: ["K", "K", "Ka"] })
    const written = [{ paper: notes, key: "K" }, { paper: other, key: "K" }, { paper: other, key: "Ka" }].map(w.write)
    expect(written.map((e) => parse(e)[0]!.key)).toEqual(["K", "Kb", "Ka"])
  })
})

describe("issue 36 point 3: a server's text cannot open an entry or close a field", () => {
  const sneaky = "a\\}}, note={ @misc{turing50, title={not yours}} }"

  it("an escaped brace in a title stays inside it: one entry, under the user's key, as BibTeX reads it", () => {
    const text = Citable.bibtex([
      { paper: paper({ title: sneaky, venue: sneaky }), key: "turing50" },
      { paper: paper({ title: "Y", journal: { name: sneaky, volume: sneaky, pages: sneaky } }), key: "other" },
      { paper: paper({ title: "Z", authors: [{ authorId: "1", name: sneaky }] }), key: "third" }
    ])
    expect(asBibtexReads(text)).toEqual(["misc:turing50", "article:other", "misc:third"])
    expect(parse(text).map((e) => [e.key, Object.keys(e.fields)])).toEqual([
      ["turing50", ["title", "howpublished"]],
      ["other", ["title", "journal", "volume", "pages"]],
      ["third", ["author", "title"]]
    ])
    // An `@` inside a braced value is text to BibTeX; no value starts a line.
    expect(text.split("\n").filter((line) => line.startsWith("@"))).toEqual(
      ["@misc{turing50,", "@article{other,", "@misc{third,"]
    )
  })
})

describe("issue 44 point 2: a brace with a combining mark cannot close a field", () => {
  it("a journal's `}` + U+0301 is spelled, not bare: the user's entry is the only one under their key", () => {
    const sneaky = "J}\u0301}\u0301, title={fake}}\n@article{turing50, title={not yours}, journal={x"
    const text = Citable.bibtex([
      { paper: paper({ title: "Computing machinery", year: 1950, journal: { name: sneaky } }), key: "turing50" }
    ])
    expect(asBibtexReads(text)).toEqual(["article:turing50"])
    const [entry] = parse(text)
    expect(entry!.fields.title).toBe("Computing machinery")
    expect(entry!.fields.journal).toMatch(/^J\{\\textbraceright\}\u0301\{\\textbraceright\}\u0301, title=/)
    for (const value of Object.values(entry!.fields)) expect(balanced(value), value).toBe(true)
  })

  it("a `{`, `\\` or `$` with marks, and marks alone, in every field we write: each value balanced (property)", () => {
    fc.assert(
      fc.property(
        fc.record({
          title: markedText,
          venue: markedText,
          journal: fc.record({ name: markedText, volume: markedText, pages: markedText }),
          authors: fc.array(fc.record({ authorId: fc.constant("1"), name: markedText }), { maxLength: 3 })
        }),
        fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), markedText, { maxKeys: 3 }),
        (fields, extra) => {
          const input = { paper: paper(fields), key: "mine", extra }
          const written = Citable.bibtex([input])
          expect(asBibtexReads(written)).toEqual([`${bib.parts(input, keys()).type}:mine`])
          for (const [, value] of bib.parts(input, keys()).fields) expect(balanced(value), value).toBe(true)
        }
      ),
      { numRuns: 200 }
    )
  }, 60_000)
})

const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.stringMatching(/^[{}\\@,=#%&$_~^"a-zA-Z \n\r]{0,40}$/),
  markedText
)

const arbitraryPaper = fc.record({
  title: text,
  venue: text,
  journal: fc.record({ name: text, volume: text, pages: text }),
  authors: fc.array(fc.record({ authorId: fc.constant("1"), name: text }), { maxLength: 3 }),
  externalIds: fc.record({ DOI: text, ArXiv: text })
}).map((fields) => paper(fields))

/** The names an object answers to without having them: a lookup keyed by them must find nothing. */
const prototypeNames = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "CONSTRUCTOR"]

describe("a venue, title or name that is a prototype's property name", () => {
  it("venue 'constructor' is a venue like any other, '__proto__' no preprint server", () => {
    for (const name of prototypeNames) {
      const entry = one({ title: "X", venue: name, journal: { name } })
      expect([entry.type, entry.fields.journal?.replace(/\\_/g, "_"), entry.fields.howpublished])
        .toEqual(["article", name, undefined])
      const [csl] = Citable.cslJson([paper({ title: "X", venue: name })])
      expect(csl).toMatchObject({ type: "article", "container-title": name })
      expect(csl?.publisher).toBeUndefined()
    }
  })
})

describe("whatever a record holds (property)", () => {
  it("venue, title, authors and ids of any text, prototype names included: no writer throws", () => {
    const words = fc.oneof(text, fc.constantFrom(...prototypeNames))
    const record = fc.record({
      title: words,
      venue: words,
      journal: fc.record({ name: words, volume: words, pages: words }),
      publicationVenue: fc.record({ name: words, type: words }),
      authors: fc.array(fc.record({ authorId: fc.constant("1"), name: words }), { maxLength: 3 }),
      externalIds: fc.record({ DOI: words, ArXiv: words })
    }).map((fields) => paper(fields))
    fc.assert(
      fc.property(fc.array(fc.tuple(record, fc.option(words, { nil: undefined })), { maxLength: 3 }), (items) => {
        const inputs = items.map(([p, key]) => ({ paper: p, key }))
        expect(asBibtexReads(Citable.bibtex(inputs)).length).toBe(inputs.length)
        expect(Citable.cslJson(inputs).length).toBe(inputs.length)
        expect(Citable.ris(inputs).split("\r\n").filter((l) => l === "ER  - ").length).toBe(inputs.length)
      }),
      { numRuns: 300 }
    )
  })

  it("BibTeX: one entry per paper with the key and fields we wrote, every value balanced as BibTeX counts", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(arbitraryPaper, fc.option(text, { nil: undefined })), { maxLength: 4 }),
        (items) => {
          const inputs = items.map(([p, key]) => ({ paper: p, key }))
          // As Citable.bibtex makes its run: every key the user wrote reserved.
          const run = keys(inputs.flatMap((input) => input.key === undefined ? [] : [input.key]))
          const parts = inputs.map((input) => bib.parts(input, run))
          const written = Citable.bibtex(inputs)
          expect(asBibtexReads(written)).toEqual(parts.map((p) => `${p.type}:${p.key}`))
          expect(parse(written).map(({ fields, key, type }) => ({ type, key, fields }))).toEqual(parts.map((p) => ({
            type: p.type,
            key: p.key,
            fields: Object.fromEntries(p.fields.map(([name, value]) => [name, value]))
          })))
          for (const p of parts) for (const [, value] of p.fields) expect(balanced(value), value).toBe(true)
        }
      ),
      { numRuns: 300 }
    )
  })

  it("RIS: one TY … ER record per paper, every line a tag; CSL-JSON: the title on one line", () => {
    fc.assert(
      fc.property(fc.array(arbitraryPaper, { maxLength: 4 }), (papers) => {
        const lines = Citable.ris(papers).split("\r\n")
        expect(lines.filter((l) => l.startsWith("TY  - ")).length).toBe(papers.length)
        expect(lines.filter((l) => l === "ER  - ").length).toBe(papers.length)
        for (const line of lines) expect(line).toMatch(/^(?:[A-Z][A-Z0-9] {2}- .*)?$/)
        const items = JSON.parse(JSON.stringify(Citable.cslJson(papers)))
        expect(items.map((i: { title?: string }) => i.title ?? "")).toEqual(papers.map((p) => oneLine(p.title)))
      }),
      { numRuns: 300 }
    )
  })
})

/**
 * The CSL-JSON data model (CSL 1.0.2's item types; names, dates, and the string variables this
 * writer fills), written from the specification: unknown variables are refused.
 */
const cslTypes = [
  "article",
  "article-journal",
  "article-magazine",
  "article-newspaper",
  "bill",
  "book",
  "broadcast",
  "chapter",
  "classic",
  "collection",
  "dataset",
  "document",
  "entry",
  "entry-dictionary",
  "entry-encyclopedia",
  "event",
  "figure",
  "graphic",
  "hearing",
  "interview",
  "legal_case",
  "legislation",
  "manuscript",
  "map",
  "motion_picture",
  "musical_score",
  "pamphlet",
  "paper-conference",
  "patent",
  "performance",
  "periodical",
  "personal_communication",
  "post",
  "post-weblog",
  "regulation",
  "report",
  "review",
  "review-book",
  "software",
  "song",
  "speech",
  "standard",
  "thesis",
  "treaty",
  "webpage"
] as const
const cslString = Schema.optionalKey(Schema.String.check(Schema.isNonEmpty()))
const CslName = Schema.Struct({
  family: cslString,
  given: cslString,
  "non-dropping-particle": cslString,
  "dropping-particle": cslString,
  suffix: cslString,
  literal: cslString
})
const CslItem = Schema.Struct({
  id: Schema.String.check(Schema.isNonEmpty()),
  type: Schema.Literals(cslTypes),
  title: cslString,
  author: Schema.optionalKey(Schema.Array(CslName)),
  issued: Schema.optionalKey(Schema.Struct({
    "date-parts": Schema.Array(Schema.Array(Schema.Int).check(Schema.isMinLength(1), Schema.isMaxLength(3)))
      .check(Schema.isMinLength(1), Schema.isMaxLength(2))
  })),
  "container-title": cslString,
  volume: cslString,
  issue: cslString,
  page: cslString,
  DOI: cslString,
  URL: cslString,
  publisher: cslString,
  number: cslString
})
const decodeCsl = Schema.decodeUnknownSync(Schema.Array(CslItem), { onExcessProperty: "error" })

interface Parsed {
  readonly id?: string
  readonly type?: string
  readonly title?: string
  readonly author?: ReadonlyArray<{ readonly family?: string; readonly given?: string }>
  readonly issued?: { readonly "date-parts"?: ReadonlyArray<ReadonlyArray<number>> }
  readonly DOI?: string
  readonly "container-title"?: string
}

if (present) {
  describe("the recorded papers", () => {
    const papers = recordedPapers()
    const items = Citable.cslJson(papers)

    it("are a thousand or so", () => {
      expect(papers.length).toBeGreaterThan(1000)
    })

    it("CSL-JSON: every item fits the CSL data model, ids unique", () => {
      expect(decodeCsl(JSON.parse(JSON.stringify(items)))).toHaveLength(papers.length)
      expect(new Set(items.map((i) => i.id)).size).toBe(items.length)
    })

    it("CSL-JSON: citeproc-js (Zotero's processor) renders every item with its first author and year", () => {
      const rendered = new Cite(items.map((i) => ({ ...i }))).format("bibliography", {
        template: "apa",
        format: "text",
        asEntryArray: true
      }) as unknown as ReadonlyArray<readonly [string, string]>
      expect(rendered).toHaveLength(items.length)
      const byId = new Map(rendered)
      for (const item of items) {
        // citeproc-js sets apostrophes as typographic ones.
        const line = (byId.get(item.id) ?? "").replace(/[‘’]/g, "'")
        const year = item.issued?.["date-parts"][0]?.[0]
        if (item.author?.[0]?.family !== undefined) expect(line, item.id).toContain(item.author[0].family)
        if (year !== undefined) expect(line, item.id).toContain(String(year))
      }
    }, 120_000)

    it(
      "RIS: read back by citation-js's RIS parser, each record gives the CSL-JSON item's id, type, title, authors, year, DOI",
      async () => {
        const parsed = (await Cite.async(Citable.ris(papers))).data as ReadonlyArray<Parsed>
        const cslType: Record<string, string> = {
          "article-journal": "article-journal",
          "paper-conference": "paper-conference",
          book: "book"
        }
        expect(parsed.map((p) => ({
          id: p.id,
          title: p.title,
          author: (p.author ?? []).map((a) => [a.family, a.given ?? ""]),
          year: p.issued?.["date-parts"]?.[0]?.[0],
          DOI: p.DOI,
          type: cslType[p.type ?? ""] ?? "other"
        }))).toEqual(items.map((i) => ({
          id: i.id,
          title: i.title,
          author: (i.author ?? []).map((
            a
          ) => [[a["non-dropping-particle"], a.family].filter(Boolean).join(" "), a.given ?? ""]),
          year: i.issued?.["date-parts"][0]?.[0],
          DOI: i.DOI,
          type: cslType[i.type] ?? "other"
        })))
      },
      120_000
    )
  })
}
