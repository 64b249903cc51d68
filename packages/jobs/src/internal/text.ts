/**
 * The tables text is normalised with, one copy each: the words that seldom tell two titles apart,
 * the letters NFKD does not take apart, and the Greek letters by name. The title match, the .bib
 * reader, the reference checks and the citation keys read them from here.
 */

/**
 * Words that seldom tell two titles apart ("A Survey of X" and "Survey of X"): a difference in them
 * costs only similarity. Negations ("not", "without", "no") are content words.
 */
export const stopWords: ReadonlySet<string> = new Set([
  "a",
  "an",
  "the",
  "of",
  "for",
  "and",
  "in",
  "on",
  "to",
  "with",
  "by",
  "at",
  "from",
  "via"
])

// Letters NFKD does not take apart, lower case (the text is lowered first).
const folded: ReadonlyMap<string, string> = new Map([
  ["ß", "ss"],
  ["æ", "ae"],
  ["œ", "oe"],
  ["ø", "o"],
  ["ł", "l"],
  ["đ", "d"],
  ["ð", "d"],
  ["þ", "th"],
  ["ı", "i"],
  ["ŋ", "n"]
])
const foldedLetter = new RegExp(`[${[...folded.keys()].join("")}]`, "gu")

/** Lower-case text with the letters NFKD does not take apart spelled in ASCII: "ß" as "ss", "ø" as "o". */
export const foldLetters = (lower: string): string => lower.replace(foldedLetter, (c) => folded.get(c)!)

/** The Greek letters by their TeX names, in the alphabet's order. */
export const greekNames: ReadonlyArray<string> = [
  "alpha",
  "beta",
  "gamma",
  "delta",
  "epsilon",
  "zeta",
  "eta",
  "theta",
  "iota",
  "kappa",
  "lambda",
  "mu",
  "nu",
  "xi",
  "omicron",
  "pi",
  "rho",
  "sigma",
  "tau",
  "upsilon",
  "phi",
  "chi",
  "psi",
  "omega"
]

// α is U+03B1; U+03C2 (final sigma) has no name of its own, so the letters after ρ are one on.
const lowerGreek = (k: number): string => String.fromCodePoint(0x3b1 + k + (k >= 17 ? 1 : 0))

const capitalised = (name: string): string => name[0]!.toUpperCase() + name.slice(1)

/** A Greek letter by its TeX name: `alpha` is α, `Omega` is Ω. */
export const greekLetterByName: ReadonlyMap<string, string> = new Map(greekNames.flatMap((name, k) => [
  [name, lowerGreek(k)],
  [capitalised(name), lowerGreek(k).toUpperCase()]
]))

/**
 * A lower-case Greek letter's name, so that "α", `$\alpha$` and "alpha" are one word: every letter,
 * the final sigma, and the symbol forms of epsilon, theta, phi and the micro sign.
 */
export const greekNameByLetter: ReadonlyMap<string, string> = new Map([
  ...greekNames.map((name, k) => [lowerGreek(k), name] as const),
  ["ς", "sigma"],
  ["ϵ", "epsilon"],
  ["ϑ", "theta"],
  ["ϕ", "phi"],
  ["µ", "mu"]
])
