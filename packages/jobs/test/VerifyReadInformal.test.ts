/**
 * `Verify.read` on references written informally, one per line: what each layout reads, and lines
 * that hold a year or a name but are titles, which stay titles.
 */
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { Verify } from "../src/index.js"

const inputsOf = (text: string): ReadonlyArray<Verify.Input> => {
  const read = Verify.read(text)
  if (Result.isFailure(read)) throw new Error(read.failure.message)
  return read.success.inputs
}

const fieldsOf = (text: string): Readonly<Record<string, string>> | string => {
  const [input] = inputsOf(text)
  return typeof input === "object" && "fields" in input ? { ...input.fields } : JSON.stringify(input)
}

const read: ReadonlyArray<readonly [string, Record<string, string>]> = [
  ["Attention is all you need. Vaswani 2017", { title: "Attention is all you need", author: "Vaswani", year: "2017" }],
  [
    "Attention Is All You Need - Vaswani et al., 2017",
    { title: "Attention Is All You Need", author: "Vaswani and others", year: "2017" }
  ],
  [
    "Attention is all you need (Vaswani et al. 2017)",
    { title: "Attention is all you need", author: "Vaswani and others", year: "2017" }
  ],
  [
    "Vaswani et al. 2017. Attention is all you need",
    { title: "Attention is all you need", author: "Vaswani and others", year: "2017" }
  ],
  ["Vaswani (2017) Attention Is All You Need", { title: "Attention Is All You Need", author: "Vaswani", year: "2017" }],
  ["Attention is all you need. NeurIPS 2017", { title: "Attention is all you need", journal: "NeurIPS", year: "2017" }],
  ["Attention is all you need, NIPS, 2017", { title: "Attention is all you need", journal: "NIPS", year: "2017" }],
  ["Deep learning. Nature 2015", { title: "Deep learning", journal: "Nature", year: "2015" }],
  [
    "Deep learning. LeCun, Bengio and Hinton 2015",
    { title: "Deep learning", author: "LeCun and Bengio and Hinton", year: "2015" }
  ],
  [
    "Turing, Computing Machinery and Intelligence, Mind 1950",
    { title: "Computing Machinery and Intelligence", author: "Turing", journal: "Mind", year: "1950" }
  ],
  [
    "Construction of the literature graph in Semantic Scholar (Ammar et al., NAACL 2018)",
    {
      title: "Construction of the literature graph in Semantic Scholar",
      author: "Ammar and others",
      journal: "NAACL",
      year: "2018"
    }
  ],
  [
    "Attention is all you need https://arxiv.org/abs/1706.03762",
    { title: "Attention is all you need", eprint: "1706.03762", archiveprefix: "arXiv" }
  ],
  ["The age of the universe (2019)", { title: "The age of the universe", year: "2019" }],
  // Names at the end are tried before names at the start: "History" is the title's first word.
  [
    "History, Status, and Development of AI-Based Learning Science. Wang 2023",
    { title: "History, Status, and Development of AI-Based Learning Science", author: "Wang", year: "2023" }
  ],
  [
    "Transforming Big Data into AI-ready data. (Thomas et al., 2024)",
    { title: "Transforming Big Data into AI-ready data", author: "Thomas and others", year: "2024" }
  ],
  ["Authorship in Ophthalmology. Van Gelder 2023", {
    title: "Authorship in Ophthalmology",
    author: "Van Gelder",
    year: "2023"
  }],
  // The venue is the piece after the title's last comma: a title holds commas more often.
  [
    "A Survey of Deep Learning in Sports: Perception, Comprehension, and Decision, arXiv 2023",
    {
      title: "A Survey of Deep Learning in Sports: Perception, Comprehension, and Decision",
      journal: "arXiv",
      year: "2023"
    }
  ],
  [
    "Bertolini and Episcopo, Robots and AI as Legal Subjects?, Frontiers in Robotics and AI 2022",
    {
      title: "Robots and AI as Legal Subjects?",
      author: "Bertolini and Episcopo",
      journal: "Frontiers in Robotics and AI",
      year: "2022"
    }
  ]
]

/** Lines that hold a year, a name or a comma, and are titles. */
const titles: ReadonlyArray<string> = [
  "Europe 2020: A Strategy for Smart, Sustainable and Inclusive Growth",
  "Global Burden of Disease Study, 2019",
  "Agenda 2030 for sustainable development",
  "attention is all you need",
  "Attention, Please"
]

describe("Verify.read: informal lines", () => {
  it("reads each layout into its fields", () => {
    expect(read.map(([text]) => fieldsOf(text))).toEqual(read.map(([, fields]) => fields))
  })

  it("a formatted reference among informal lines is read as one", () => {
    const [, apa] = inputsOf("Attention is all you need. Vaswani 2017\nVaswani, A. (2017). Attention is all you need.")
    expect(typeof apa === "object" && "fields" in apa ? { ...apa.fields } : apa)
      .toEqual({ author: "Vaswani, A", title: "Attention is all you need", year: "2017" })
  })

  it("a line that is a title stays a title", () => {
    expect(titles.map(inputsOf)).toEqual(titles.map((text) => [{ key: "1", text }]))
  })

  it("any title, then a family name and a year, reads back as title, author and year", () => {
    const word = fc.stringMatching(/^[a-z]{3,9}$/)
    const family = fc.stringMatching(/^[A-Z][a-z]{2,9}$/).filter((f) =>
      !["Nature", "Science", "Cell", "Mind"].includes(f)
    )
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 2, maxLength: 8 }),
        family,
        fc.integer({ min: 1950, max: 2025 }),
        (ws, name, year) => {
          const title = ws.join(" ").replace(/^./, (c) => c.toUpperCase())
          for (
            const text of [
              `${title}. ${name} ${year}`,
              `${name} et al. (${year}) ${title}`,
              `${title} (${name} et al., ${year})`
            ]
          ) {
            const fields = fieldsOf(text)
            expect(fields).toMatchObject({ title, year: String(year) })
            expect(typeof fields === "object" ? fields["author"] : undefined).toMatch(new RegExp(`^${name}`))
          }
        }
      ),
      { numRuns: 50 }
    )
  })
})
