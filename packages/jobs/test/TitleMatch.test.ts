/**
 * TitleMatch: normalising and comparing titles. The properties run over the titles of the real
 * recorded exchanges in ../shared/s2-recordings (read where they lie, when present) and over
 * generated titles.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { TitleMatch } from "../src/index.js"
import { ascii } from "../src/internal/citable/keys.js"
import { greekNames, stopWords } from "../src/internal/text.js"

const folder = Path.resolve(import.meta.dirname, "../../../../shared/s2-recordings")

/** Every `title` string in the recordings; a few real titles when they are not there. */
const recordedTitles = (): ReadonlyArray<string> => {
  if (!Fs.existsSync(folder)) {
    return [
      "Attention Is All You Need",
      "Computing Machinery and Intelligence",
      "Construction of the Literature Graph in Semantic Scholar",
      "Mining association rules between sets of items in large databases",
      "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
    ]
  }
  const titles = new Set<string>()
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk)
    else if (x !== null && typeof x === "object") {
      for (const [k, v] of Object.entries(x)) {
        if (k === "title" && typeof v === "string") titles.add(v)
        else walk(v)
      }
    }
  }
  for (const file of Fs.readdirSync(folder)) {
    if (file.endsWith(".json")) walk(JSON.parse(Fs.readFileSync(Path.join(folder, file), "utf8")))
  }
  return [...titles].filter((t) => TitleMatch.normalise(t).length > 0).sort()
}

const titles = recordedTitles()
const isContent = (word: string) => word.length > 0 && !stopWords.has(word)
/** Normalised words of other titles: what a changed word is replaced by. */
const vocabulary = [...new Set(titles.flatMap((t) => TitleMatch.normalise(t).split(" ")))].filter(isContent)

/** The title with its `k`-th content word (counted modulo their number) replaced by `word`; undefined if it has none. */
const changeWord = (title: string, k: number, word: string): string | undefined => {
  const words = TitleMatch.normalise(title).split(" ")
  const content = words.flatMap((w, i) => isContent(w) ? [i] : [])
  if (content.length === 0) return undefined
  const at = content[k % content.length]!
  if (words[at] === word) return undefined
  words[at] = word
  return words.join(" ")
}

describe("TitleMatch.normalise", () => {
  it("reads TeX, folds case, accents and punctuation, and spells Greek letters", () => {
    expect(TitleMatch.normalise(String.raw`Schr\"{o}dinger's {$\alpha$}-Decay: A {\'E}tude \emph{in} Gda{\'n}sk.`))
      .toBe("schrodingers alpha decay a etude in gdansk")
    expect(TitleMatch.normalise("α-Synuclein & the ÆSIR of Łódź — Straße")).toBe(
      "alpha synuclein and the aesir of lodz strasse"
    )
    expect(TitleMatch.normalise("Don’t  Stop\tPretraining!")).toBe("dont stop pretraining")
    expect(TitleMatch.normalise("A NOTE ON THE 𝑃3-ISOLATION NUMBER")).toBe("a note on the p3 isolation number")
    expect(TitleMatch.normalise("{}.,;")).toBe("")
  })

  it("spells out each letter NFKD keeps whole as the citation keys do, from one table (ŋ was a letter of its own)", () => {
    for (const letter of "ßæœøłđðþıŋ") expect(TitleMatch.normalise(`x${letter}`)).toBe(ascii(`x${letter}`))
    expect(
      TitleMatch.compare(
        "Ŋgugi wa Thiong'o and the languages of Africa",
        "Ngugi wa Thiongo and the languages of Africa"
      ).same
    )
      .toBe(true)
  })

  it("every Greek letter the .bib reader reads by its TeX name is that name to the title match", () => {
    for (const name of greekNames) {
      expect(TitleMatch.normalise(`$\\${name}$-x`)).toBe(`${name} x`)
      expect(TitleMatch.normalise(`$\\${name[0]!.toUpperCase()}${name.slice(1)}$-x`)).toBe(`${name} x`)
    }
  })
})

describe("TitleMatch.compare", () => {
  it("the same title through case, accents, TeX, punctuation, a trailing period, a hyphen", () => {
    const same = (given: string, found: string) => expect(TitleMatch.compare(given, found).same).toBe(true)
    same("attention is all you need.", "Attention Is All You Need")
    same(String.raw`An{\'a}lisis de citaci\'{o}n`, "Análisis de citación")
    same("Analisis de citacion", "Análisis de citación")
    same(
      "BERT - Pre-training of Deep Bidirectional Transformers",
      "BERT: Pretraining of deep bidirectional transformers"
    )
    same(String.raw`$\alpha$-Synuclein aggregation`, "α-Synuclein Aggregation")
    expect(TitleMatch.compare("Attention Is All You Need", "Attention Is All You Need")).toEqual({
      similarity: 1,
      same: true
    })
  })

  it("a changed, added or dropped content word, another title, or nothing is never the same", () => {
    const differ = (given: string, found: string) => expect(TitleMatch.compare(given, found).same).toBe(false)
    differ("Deep residual learning for image recognition", "Deep residual learning for speech recognition")
    differ(
      "Deep residual learning for image recognition",
      "Deep variational inference for speech recognition and image classification"
    )
    differ("the texbook", "On the cancer of elderly cancer")
    differ("Attention Is All You Need", "Attention Is Not All You Need")
    differ("GPT-4 Technical Report", "GPT-3 Technical Report")
    differ("BERT", "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding")
    differ("mining association rules between", "Mining association rules between sets of items in large databases")
    expect(TitleMatch.compare("", "")).toEqual({ similarity: 0, same: false })
    expect(TitleMatch.compare("...", "Attention")).toEqual({ similarity: 0, same: false })
  })

  it("property: a recorded title with one content word changed is never the same, either way round", () => {
    fc.assert(
      fc.property(fc.constantFrom(...titles), fc.nat(), fc.constantFrom(...vocabulary), (title, k, word) => {
        const changed = changeWord(title, k, word)
        fc.pre(changed !== undefined)
        expect(TitleMatch.compare(changed!, title).same).toBe(false)
        expect(TitleMatch.compare(title, changed!).same).toBe(false)
      }),
      { numRuns: 2000 }
    )
  })

  it("property: a generated title with one word changed (or added) is never the same", () => {
    const word = fc.stringMatching(/^[a-z0-9]{1,10}$/)
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 25 }), fc.nat(), word, (words, k, other) => {
        const title = words.join(" ")
        const changed = changeWord(title, k, other)
        if (changed !== undefined && isContent(other)) expect(TitleMatch.compare(changed, title).same).toBe(false)
        expect(TitleMatch.compare(`${title} ${isContent(other) ? other : "x"}`, title).same).toBe(false)
      }),
      { numRuns: 2000 }
    )
  })

  it("a symbol that means something is a word: C++ is not C, x < y is not x > y", () => {
    const differ = (given: string, found: string) => expect(TitleMatch.compare(given, found).same).toBe(false)
    differ("The C++ Programming Language", "The C Programming Language")
    differ("C# in Depth", "C in Depth")
    differ("A* search revisited for planning", "A search revisited for planning")
    differ("x > y implies z", "x < y implies z")
    differ("x ≠ y implies z", "x = y implies z")
    differ("x ≤ y implies z", "x ≥ y implies z")
    differ("Is 1+1=2?", "Is 1-1=2?")
    differ("Neural networks for 5% of cases", "Neural networks for 5 of cases")
    const same = (given: string, found: string) => expect(TitleMatch.compare(given, found).same).toBe(true)
    same("The C++ programming language.", "The C++ Programming Language")
    same(String.raw`C\# in Depth`, "C# in Depth")
    same(String.raw`C$\sharp$ in Depth`, "C# in Depth")
    same(String.raw`x $\neq$ y implies z`, "x ≠ y implies z")
    same(String.raw`50\% of cases`, "50% of cases")
    // Footnote marks the server's titles carry, and hashtags.
    same("Intelligent Machinery, A Heretical Theory", "Intelligent Machinery, A Heretical Theory*")
    same("Vote or Fight?", "Vote or Fight? ∗")
    same("Binding Specificity of the Adaptor Protein ShcC", "Binding Specificity of the Adaptor Protein ShcC (*)")
    same("MeTourism: How selfies affect re-visit intention", "#MeTourism: How selfies affect re-visit intention")
  })

  it("property: a symbol added after a word that is not the last is never the same, nor one symbol for another", () => {
    const symbols = ["+", "#", "*", "<", ">", "=", "%", "≤", "≥", "≠"]
    const word = fc.stringMatching(/^[a-z0-9]{1,10}$/)
    const title = fc.oneof(
      fc.constantFrom(...titles).map((t) => TitleMatch.normalise(t).split(" ")),
      fc.array(word, { minLength: 2, maxLength: 25 })
    ).filter((words) => words.length >= 2)
    fc.assert(
      fc.property(title, fc.nat(), fc.constantFrom(...symbols), fc.constantFrom(...symbols), (words, k, s, t) => {
        const at = k % (words.length - 1)
        const withSymbol = (c: string) => words.map((w, i) => i === at ? `${w}${c}` : w).join(" ")
        expect(TitleMatch.compare(withSymbol(s), words.join(" ")).same).toBe(false)
        expect(TitleMatch.compare(words.join(" "), withSymbol(s)).same).toBe(false)
        if (s !== t) expect(TitleMatch.compare(withSymbol(s), withSymbol(t)).same).toBe(false)
      }),
      { numRuns: 2000 }
    )
  })

  it("accents are dropped, but a mark that makes another letter in another script is kept", () => {
    const same = (given: string, found: string) => expect(TitleMatch.compare(given, found).same).toBe(true)
    same("Schrodinger's cat", "Schrödinger's cat")
    same("Godel, Escher, Bach", "Gödel, Escher, Bach")
    same("Ελληνικη γλωσσα", "Ελληνική γλώσσα")
    same("الكتاب الجديد", "الكِتاب الجديد")
    same("한국어 연구".normalize("NFD"), "한국어 연구")
    same("ガスの研究".normalize("NFD"), "ガスの研究")
    const differ = (given: string, found: string) => expect(TitleMatch.compare(given, found).same).toBe(false)
    differ("भारत में कम", "भारत में काम")
    differ("カスの研究", "ガスの研究")
    differ("мои дом", "мой дом")
  })

  it("property: a word in another script with its mark taken off is never the same", () => {
    // A Devanagari consonant and vowel sign, a kana and its voicing mark, a Cyrillic letter and breve.
    const marked = fc.oneof(
      fc.tuple(fc.integer({ min: 0x915, max: 0x939 }), fc.integer({ min: 0x93e, max: 0x94c })),
      fc.tuple(fc.constantFrom(..."かきくけこさしすせそたちつてとカキクケコサシスセソタチツテト"), fc.constant(0x3099)),
      fc.tuple(fc.constantFrom(..."иу"), fc.constant(0x306))
    ).map(([base, mark]) => [typeof base === "number" ? String.fromCodePoint(base) : base, String.fromCodePoint(mark)])
    const word = fc.stringMatching(/^[a-z0-9]{1,10}$/)
    fc.assert(
      fc.property(fc.array(word, { maxLength: 25 }), fc.nat(), marked, (words, k, [base, mark]) => {
        const at = k % (words.length + 1)
        const title = (w: string) => [...words.slice(0, at), w, ...words.slice(at)].join(" ")
        const withMark = `${base}${mark}`.normalize("NFC")
        expect(TitleMatch.compare(title(withMark), title(base!)).same).toBe(false)
        expect(TitleMatch.compare(title(withMark), title(`${base}${mark}`)).same).toBe(true)
      }),
      { numRuns: 1000 }
    )
  })

  it("property: a recorded title through case, a trailing period, braces and colons is the same", () => {
    const noise = fc.constantFrom<(t: string) => string>(
      (t) => t.toLowerCase(),
      (t) => `${t}.`,
      (t) => t.replace(/\b([A-Z]\w*)/g, "{$1}"),
      (t) => t.replace(/:/g, " -").replace(/, /g, " "),
      // Accents dropped: off Latin and Greek letters (elsewhere a mark makes another letter).
      (t) => t.normalize("NFKD").replace(/([\p{sc=Latin}\p{sc=Greek}])\p{M}+/gu, "$1")
    )
    fc.assert(
      fc.property(fc.constantFrom(...titles.filter((t) => !t.includes("\\"))), noise, (title, f) => {
        expect(TitleMatch.compare(f(title), title)).toEqual({ similarity: 1, same: true })
      }),
      { numRuns: 1000 }
    )
  })

  it("property: long titles whose lengths differ past the bound are not the same, their similarity the length ratio", () => {
    const title = fc.oneof(fc.constantFrom(...titles), fc.stringMatching(/^[a-z]{1,12}( [a-z]{1,12}){0,30}$/))
    // Past a million letter pairs (1,000 characters each) the distance is not computed.
    const long = (t: string) => `${t} `.repeat(Math.ceil(1001 / (t.length + 1)))
    fc.assert(
      fc.property(title, title, fc.integer({ min: 1, max: 5 }), (a, b, times) => {
        const [given, found] = [long(a), long(b).repeat(times)]
        const [x, y] = [TitleMatch.normalise(given), TitleMatch.normalise(found)]
        const ratio = Math.min(x.length, y.length) / Math.max(x.length, y.length)
        fc.pre(x.length * y.length > 1_000_000 && ratio < TitleMatch.bound)
        expect(TitleMatch.compare(given, found)).toEqual({ similarity: ratio, same: false })
      }),
      { numRuns: 200 }
    )
    // A 2 MB title from a server is not compared letter by letter with a 3,900-character one (nor
    // normalised whole: past 10,000 characters its similarity is the ratio of the lengths as given).
    const given = "deep learning ".repeat(280)
    const huge = TitleMatch.compare(given, "x".repeat(2_000_000))
    expect(huge.same).toBe(false)
    expect(huge.similarity).toBeCloseTo(3919 / 2_000_000, 5)
    // A real title's similarity is measured, whatever the lengths.
    expect(
      TitleMatch.compare(
        "Deep residual learning for image recognition",
        "Deep variational inference for speech recognition and image classification"
      ).similarity
    ).toBeCloseTo(0.378, 3)
  })

  it("property: symmetric, and the similarity is within [0, 1]", () => {
    const title = fc.oneof(fc.constantFrom(...titles), fc.string({ maxLength: 60 }))
    fc.assert(fc.property(title, title, (a, b) => {
      const ab = TitleMatch.compare(a, b)
      expect(ab).toEqual(TitleMatch.compare(b, a))
      expect(ab.similarity >= 0 && ab.similarity <= 1).toBe(true)
      expect(!ab.same || ab.similarity >= TitleMatch.bound).toBe(true)
    }))
  })
})

describe("TitleMatch: a text longer than any real title", () => {
  const huge = `A study of ${"word ".repeat(2_000_000)}`

  it("is read only up to 10,000 characters: normalised, it is no longer than that", () => {
    const normalised = TitleMatch.normalise(huge)
    expect(normalised.length).toBeLessThanOrEqual(10_000)
    expect(normalised.startsWith("a study of word word")).toBe(true)
  })

  it("is the same as another text only when the two are equal, even when they agree that far", () => {
    const long = "word ".repeat(2_400)
    expect(TitleMatch.compare(long, `${long} and more`).same).toBe(false)
    expect(TitleMatch.compare(huge, huge)).toEqual({ similarity: 1, same: true })
    const short = TitleMatch.compare(huge, "A study of word")
    expect(short.same).toBe(false)
    expect(short.similarity).toBeLessThan(0.01)
  })

  it("a real title's comparison is unchanged (property)", () =>
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), (a, b) => {
        const c = TitleMatch.compare(a, b)
        expect(c.same).toBe(TitleMatch.compare(b, a).same)
        if (a === b && TitleMatch.normalise(a).length > 0) expect(c.same).toBe(true)
      })
    ))
})
