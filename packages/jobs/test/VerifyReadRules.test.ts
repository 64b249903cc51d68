/**
 * Verify.read's rules for formatted references, one `describe` per rule of the reader's grammar:
 * the author list (particles, honorifics, a name after "and", Vancouver's list and its point,
 * letters a name is written with), where a title ends (a question's own point, a part's number,
 * quotes inside quotes, a quoted phrase that opens a title), the Elsevier order with its venue,
 * and how a wrapped list is cut. Each example is a reference as people write it, written for this
 * file (papers of the kind the recordings hold, in styles the accuracy bench does not generate),
 * and each failed before its rule.
 */
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { Verify } from "../src/index.js"

const read = (text: string): Verify.ReadResult => {
  const r = Verify.read(text)
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return r.success
}

/** The fields of each entry read, for the references of a formatted list. */
const fields = (text: string): ReadonlyArray<Readonly<Record<string, string>>> => {
  const result = read(text)
  expect(result.format).toBe("formatted")
  return result.inputs.map((input) => {
    if (typeof input === "string" || !("fields" in input)) throw new Error("not an entry")
    return input.fields
  })
}

const one = (text: string): Readonly<Record<string, string>> => {
  const all = fields(text)
  expect(all).toHaveLength(1)
  return all[0]!
}

const venueOf = (f: Readonly<Record<string, string>>) => f["journal"] ?? f["booktitle"]

describe("author lists", () => {
  it("a name's letters include combining marks and the en dash a PDF puts for a hyphen", () => {
    const f = one(
      "Fernández–Ruiz, M., & Demi\u0307rci, A. (2021). Federated learning for hospital records. Journal of Biomedical Informatics, 118, 103–117."
    )
    // (APA's last initial loses its point to the year's parenthesis: "A" is still an initial.)
    expect(f["author"]).toBe("Fernández–Ruiz, M. and Demi\u0307rci, A")
    expect(f["title"]).toBe("Federated learning for hospital records")
  })

  it("given names may be several words with points, honorifics as records keep them", () => {
    const f = one(
      "Rahman, Prof. Dr. Md. Mizanur, and Anika Tasnim Chowdhury. 2023. “Machine Learning in Rural Clinics.” Bangladesh Medical Journal 12: 4–9."
    )
    expect(f["author"]).toBe("Rahman, Prof. Dr. Md. Mizanur and Chowdhury, Anika Tasnim")
  })

  it("a name after “and” is a person of its own, never the given names of the one before", () => {
    const f = one(
      "Okafor, Chinedu, Adebayo, and Grace Mensah. 2022. “Mobile Money and Household Savings.” African Journal of Economics 8: 1–20."
    )
    expect(f["author"]).toBe("Okafor, Chinedu and Adebayo and Mensah, Grace")
    const ieee = one(
      "C. Okafor, Adebayo, and G. Mensah, “Mobile money and household savings,” African Journal of Economics, vol. 8, pp. 1–20, 2022."
    )
    expect(ieee["author"]).toBe("Okafor, C. and Adebayo and Mensah, G.")
  })

  it("a family name may start with its particle, and such a line starts a formatted reference", () => {
    const f = one(
      "van der Berg, Anneke. “Counting Birds with Neural Networks.” Proceedings of the Dutch Conference on Machine Learning, 2021."
    )
    expect(f["author"]).toBe("van der Berg, Anneke")
    expect(f["title"]).toBe("Counting Birds with Neural Networks")
  })

  it("Vancouver's list of family names and bare initials ends at its point, whatever follows", () => {
    const f = one(
      "Bommasani R, Hudson DA. Opportunities and Risks of Foundation Models. arXiv. 2021. doi:10.48550/arXiv.2108.07258"
    )
    expect(f["author"]).toBe("Bommasani, R. and Hudson, D. A.")
    expect(f["title"]).toBe("Opportunities and Risks of Foundation Models")
    const single = one("Floridi L. AI, ethics and the infosphere. Philosophy & Technology. 2019;32:1-7.")
    expect(single["author"]).toBe("Floridi, L.")
    expect(single["title"]).toBe("AI, ethics and the infosphere")
    expect(single["year"]).toBe("2019")
  })

  it("authors before a year in parentheses read as names: a year inside a Vancouver title is the title's", () => {
    const f = one("Shannon C. A chess-playing machine (1950): Reprinted. 1988:2-6.")
    expect(f["author"]).toBe("Shannon, C.")
    expect(f["title"]).toBe("A chess-playing machine (1950): Reprinted")
    expect(f["year"]).toBe("1988")
  })
})

describe("author lists, from the held-out styles", () => {
  it("the name after “&” or “and” is the last: only its own initials go on (Nature)", () => {
    const f = one(
      "Marcus, G. & Davis, E. Insights and limits of deep learning. Communications of the ACM 63, 1–3 (2020)."
    )
    expect(f["author"]).toBe("Marcus, G. and Davis, E.")
    expect(f["title"]).toBe("Insights and limits of deep learning")
    const initials = one("Smith, J. & Jones, K. A. Signals and systems in practice. Signal Processing 12, 5–9 (2019).")
    expect(initials["author"]).toBe("Smith, J. and Jones, K. A.")
    expect(initials["title"]).toBe("Signals and systems in practice")
  })

  it("an honorific's point is no end of the list (ACM)", () => {
    const f = one(
      "Anil Kumar and Dr. S. Rao. 2021. Risk management for cloud projects. International Journal of Computing 9, 1–12."
    )
    expect(f["title"]).toBe("Risk management for cloud projects")
    expect(f["year"]).toBe("2021")
  })

  it("a quoted phrase after words that are no names is inside a title without quotes", () => {
    const acm = one("John Searle. 1980. Minds, brains, and ‘strong AI’. Behavioral and Brain Sciences 3, 417–424.")
    expect(acm["title"]).toBe("Minds, brains, and ‘strong AI’")
    const nature = one("Searle, J. Minds, brains and ‘strong AI’. Behavioral and Brain Sciences 3, 417–424 (1980).")
    expect(nature["title"]).toBe("Minds, brains and ‘strong AI’")
    const chicago = one("Lamb, Alex, and Linjun Zhang et al.. 2024. “Can machines be creative?” arXiv.")
    expect(chicago["title"]).toBe("Can machines be creative?")
  })
})

describe("where a title ends", () => {
  it("a title's second sentence is the title's when it reads as prose and a venue follows it", () => {
    const two = one(
      "Weber M. Politik als Beruf. Zur Soziologie der modernen Verwaltung. Zeitschrift für Soziologie. 2019;48:1-20."
    )
    expect(two["title"]).toBe("Politik als Beruf. Zur Soziologie der modernen Verwaltung")
    expect(venueOf(two)).toBe("Zeitschrift für Soziologie")
    const apa = one(
      "Hansen, L. (2023). Sound maps. Listening to the city in an age of noise. Urban Studies. https://doi.org/10.1000/xyz123"
    )
    expect(apa["title"]).toBe("Sound maps. Listening to the city in an age of noise")
    // A venue then its year, and a venue of two short sentences, stay venues.
    expect(one("Jones K. Deep learning for cities. Trends in Cognitive Sciences. 2020;24:1-2.")["title"]).toBe(
      "Deep learning for cities"
    )
    expect(one("Boyles R. Moral machines. Filosofija. Sociologija. 2024;35:1-9.")["title"]).toBe("Moral machines")
    // A title's word "Review" is no venue's: "…Literature. A ten-year bibliometric review."
    expect(
      one(
        "Rossi F. Artificial intelligence in hospitals. A ten-year bibliometric review. Sustainable Futures. 2024;7:1-9."
      )[
        "title"
      ]
    ).toBe("Artificial intelligence in hospitals. A ten-year bibliometric review")
  })

  it("a point after a question mark is the style's own end of the title", () => {
    const vancouver = one(
      "Topol E. Can machines read electrocardiograms?. Circulation: Arrhythmia and Electrophysiology. 2021;14:e009001."
    )
    expect(vancouver["title"]).toBe("Can machines read electrocardiograms?")
    expect(venueOf(vancouver)).toBe("Circulation: Arrhythmia and Electrophysiology")
    const apa = one("Searle, J. R. (1990). Is the brain a digital computer?. Proceedings. Addresses.")
    expect(apa["title"]).toBe("Is the brain a digital computer?")
  })

  it("“arXiv.” after a title is its venue, so a question's subtitle stays in the title", () => {
    const f = one(
      "Bender, E. M. (2021). Can language models be too big? On the dangers of stochastic parrots. arXiv. https://doi.org/10.48550/arXiv.2101.00001"
    )
    expect(f["title"]).toBe("Can language models be too big? On the dangers of stochastic parrots")
    expect(venueOf(f)).toBe("arXiv")
    expect(f["eprint"]).toBe("2101.00001")
  })

  it("a sentence that is only a part's number belongs to the title", () => {
    const f = one("Good, I. J. (1953). Studies in the history of probability. IV. Biometrika, 40, 237–264.")
    expect(f["title"]).toBe("Studies in the history of probability. IV")
    expect(venueOf(f)).toBe("Biometrika")
  })

  it("a quoted title closes at the quote that balances its first, quotes inside counted", () => {
    const ieee = one(
      "M. Mitchell, ““Why AI is harder than we think”: A reply,” Communications of the ACM, vol. 64, pp. 1–3, 2021."
    )
    expect(ieee["title"]).toBe("“Why AI is harder than we think”: A reply")
    expect(venueOf(ieee)).toBe("Communications of the ACM")
    const mla = one("Weizenbaum, Joseph. “A “Doctor” in the Machine.” Computers and Society, vol. 6, 1976.")
    expect(mla["title"]).toBe("A “Doctor” in the Machine")
    expect(venueOf(mla)).toBe("Computers and Society")
  })

  it("a quoted phrase before a colon opens the title rather than being it", () => {
    const f = one("M. Mitchell, “Why AI is harder than we think”: A reply, Communications of the ACM, 2021.")
    expect(f["title"]).toBe("“Why AI is harder than we think”: A reply")
    expect(venueOf(f)).toBe("Communications of the ACM")
  })
})

describe("venues", () => {
  it("a decimal number is the venue's name, not its volume", () => {
    const f = one(
      "Eze, O. and Bello, S. (2022) ‘Machine learning in banking’, 2022 IEEE International Conference on Industry 4.0, Artificial Intelligence, and Communications Technology (IAICT), pp. 268–273."
    )
    expect(venueOf(f)).toBe(
      "2022 IEEE International Conference on Industry 4.0, Artificial Intelligence, and Communications Technology"
    )
  })
})

describe("Elsevier's order: initials, family name, title, venue, year", () => {
  it("a single author without “et al.” is a formatted reference", () => {
    const f = one("J. Schmidhuber, Deep learning in neural networks: An overview, Neural Networks, 2015.")
    expect(f["author"]).toBe("Schmidhuber, J.")
    expect(f["title"]).toBe("Deep learning in neural networks: An overview")
    expect(venueOf(f)).toBe("Neural Networks")
  })

  it("the venue starts at the first piece that names one, so venues and titles may hold commas", () => {
    const f = one(
      "K. Tanaka et al., Trust, reliance and automation in clinical decision support, IEEE Transactions on Systems, Man, and Cybernetics, 2020."
    )
    expect(f["title"]).toBe("Trust, reliance and automation in clinical decision support")
    expect(venueOf(f)).toBe("IEEE Transactions on Systems, Man, and Cybernetics")
    const place = one("C. Babbage, On the economy of machinery and manufactures, London, England, Knight, 1832.")
    expect(place["title"]).toBe("On the economy of machinery and manufactures, London, England")
  })
})

describe("cutting a wrapped list", () => {
  it("an author list wrapped over lines stays one reference until its year", () => {
    const list = [
      "Amodei, D., Olah, C., Steinhardt, J., Christiano, P., Schulman,",
      "J., Mané, D., Brown, T. B., Clark, J., McCandlish, S., Radford, A.",
      "R., & Sutskever, I. (2016). Concrete problems in AI safety.",
      "arXiv. https://doi.org/10.48550/arXiv.1606.06565",
      "Bostrom, N. (2014). Superintelligence: Paths, dangers, strategies.",
      "Oxford University Press."
    ].join("\n")
    const all = fields(list)
    expect(all.map((f) => f["title"])).toEqual([
      "Concrete problems in AI safety",
      "Superintelligence: Paths, dangers, strategies"
    ])
  })

  it("a venue wrapped onto its own line with a comma is not an inverted name", () => {
    const list = [
      "Hayles, N. K. (2017). Unthought: The Power of the Cognitive",
      "Nonconscious and Its Relation to Machines.",
      "Theory, Culture & Society, 34, 25–40.",
      "Zuboff, S. (2015). Big other: Surveillance capitalism and the",
      "prospects of an information civilization. Journal of",
      "Information Technology, 30, 75–89."
    ].join("\n")
    const all = fields(list)
    expect(all).toHaveLength(2)
    expect(venueOf(all[0]!)).toBe("Theory, Culture & Society")
    expect(all[1]!["author"]).toBe("Zuboff, S")
  })
})

describe("author lists, any names", () => {
  const letter = fc.constantFrom(..."abcdefghiklmnoprstuvyzäéöüñ")
  const word = fc.tuple(
    fc.constantFrom(..."ABCDEFGHIKLMNOPRSTVWYZÁÖŁ"),
    fc.array(letter, { minLength: 2, maxLength: 8 })
  )
    .map(([first, rest]) => first + rest.join(""))
  /** A family name: a word, maybe joined to a second by a hyphen or the en dash a PDF puts for one. */
  const family = fc.tuple(word, fc.option(fc.tuple(fc.constantFrom("-", "–"), word), { nil: undefined }))
    .map(([a, b]) => (b === undefined ? a : `${a}${b[0]}${b[1]}`))
  const person = fc.record({ family, given: fc.array(word, { minLength: 1, maxLength: 2 }) })
  const people = fc.array(person, { minLength: 1, maxLength: 5 })
  const initials = (given: ReadonlyArray<string>) => given.map((g) => `${g[0]}.`).join(" ")
  const listed = (names: ReadonlyArray<string>, and: string) =>
    names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")}, ${and} ${names.at(-1)}`
  const styles: ReadonlyArray<(p: ReadonlyArray<{ family: string; given: ReadonlyArray<string> }>) => string> = [
    (p) =>
      `${
        listed(p.map((x) => `${x.family}, ${initials(x.given)}`), "&")
      } (2020). Learning and reasoning in practice. Journal of Studies, 3, 1–9.`,
    (p) =>
      `${
        listed(p.map((x) => `${initials(x.given)} ${x.family}`), "and")
      }, “Learning and reasoning in practice,” Journal of Studies, vol. 3, pp. 1–9, 2020.`,
    (p) =>
      `${
        p.map((x) => `${x.family} ${x.given.map((g) => g[0]).join("")}`).join(", ")
      }. Learning and reasoning in practice. Journal of Studies. 2020;3:1-9.`,
    (p) =>
      `${
        listed([
          `${p[0]!.family}, ${p[0]!.given.join(" ")}`,
          ...p.slice(1).map((x) => `${x.given.join(" ")} ${x.family}`)
        ], "and")
      }. 2020. “Learning and reasoning in practice.” Journal of Studies 3: 1–9.`
  ]

  it("a family name's particles are kept, in APA, IEEE and Chicago", () =>
    fc.assert(
      fc.property(
        people,
        fc.constantFrom("van der", "de", "da", "von"),
        fc.nat(2),
        fc.constantFrom(0, 1, 3),
        (p, particle, at, s) => {
          const withParticle = p.map((x, i) => (i === at % p.length ? { ...x, family: `${particle} ${x.family}` } : x))
          const f = one(styles[s]!(withParticle))
          const families = (f["author"] ?? "").split(" and ").map((n) => n.split(",")[0]!.trim())
          expect(families).toEqual(withParticle.map((x) => x.family))
        }
      ),
      { numRuns: 60 }
    ))

  it("each family name is read, in order, in APA, IEEE, Vancouver and Chicago", () =>
    fc.assert(
      fc.property(people, fc.nat(styles.length - 1), (p, s) => {
        const f = one(styles[s]!(p))
        const families = (f["author"] ?? "").split(" and ").map((n) => n.split(",")[0]!.trim())
        expect(families).toEqual(p.map((x) => x.family))
        expect(f["title"]).toBe("Learning and reasoning in practice")
      }),
      { numRuns: 60 }
    ))
})
