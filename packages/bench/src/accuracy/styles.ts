/**
 * The ways people write a reference: BibTeX (several field conventions), RIS, CSL-JSON, formatted
 * strings (APA, IEEE, Vancouver, Chicago, MLA, numbered, wrapped) and bare lines (ids, titles).
 * Each style writes a {@link Facts}: what the reference says, whether or not it is true.
 */

/** A person as a reference names them. */
export interface Person {
  readonly given: string
  readonly family: string
}

/** What a reference says about a paper. */
export interface Facts {
  readonly title: string
  readonly authors: ReadonlyArray<Person>
  /** The author list ends "et al." / "and others". */
  readonly etAl?: boolean | undefined
  /**
   * Every author of the paper whose authors `authors` are the first of (when `etAl`): what a
   * reference manager holds and exports as RIS or CSL-JSON, which have no "et al.".
   */
  readonly everyAuthor?: ReadonlyArray<Person> | undefined
  readonly year: number
  /** ISO date (YYYY-MM-DD), when the reference gives one. */
  readonly date?: string | undefined
  /** Journal, or conference when `conference`. */
  readonly venue?: string | undefined
  readonly conference?: boolean | undefined
  readonly volume?: string | undefined
  readonly pages?: string | undefined
  readonly doi?: string | undefined
  readonly arxiv?: string | undefined
}

/** How a reference reaches the verifier: a .bib text, or a text another reader must make out. */
export type Format = "bibtex" | "ris" | "csl-json" | "formatted" | "line"

/**
 * What a style shows of the facts: a bad kind is written only in styles showing what it falsifies.
 * `authors` is the first author at least; `coauthors` the others too (MLA and "A. Hussain et al."
 * write the first alone and "et al.", so an invented co-author is not in what they write).
 */
export type Shown = "title" | "authors" | "coauthors" | "year" | "venue" | "doi"

export interface Style {
  readonly name: string
  readonly format: Format
  readonly shows: ReadonlyArray<Shown>
  /** Whether the style can write these facts (an arXiv line needs an arXiv id). */
  readonly fits?: (facts: Facts) => boolean
  readonly write: (facts: Facts, key: string) => string
}

const full: ReadonlyArray<Shown> = ["title", "authors", "coauthors", "year", "venue", "doi"]
export const initials = (given: string): string =>
  given.split(/[\s.-]+/).filter((w) => w.length > 0).map((w) => `${w[0]!.toUpperCase()}.`).join(" ")
const compactInitials = (given: string): string => initials(given).replace(/[.\s]/g, "")
const pagesOf = (f: Facts, dash = "–") => f.pages?.replace(/\s*-+\s*/g, () => dash)
const doiUrl = (doi: string) => `https://doi.org/${doi}`
/** The authors a reference manager exports: all of them, where a formatted list writes "et al.". */
const exported = (f: Facts): ReadonlyArray<Person> => (f.etAl === true ? f.everyAuthor ?? f.authors : f.authors)

const etAl = (f: Facts, words = "et al.") => (f.etAl === true ? ` ${words}` : "")
export const listed = (names: ReadonlyArray<string>, and: string, serial = true): string =>
  names.length <= 1
    ? names.join("")
    : names.length === 2
    ? `${names[0]} ${and} ${names[1]}`
    : `${names.slice(0, -1).join(", ")}${serial ? "," : ""} ${and} ${names.at(-1)}`

/** TeX accents for the letters BibTeX users write so. */
const tex = (s: string): string =>
  s.replace(/[áéíóúàèìòùäëïöüçñ]/g, (c) => {
    const base = c.normalize("NFD")
    const mark = { "\u0301": "'", "\u0300": "`", "\u0308": "\"", "\u0327": "c", "\u0303": "~" }[base.slice(1)] ?? "'"
    return mark === "c" ? `{\\c{${base[0]}}}` : `{\\${mark}${base[0]}}`
  })

const bibAuthors = (f: Facts, form: "family" | "given"): string => {
  const names = f.authors.map((p) => form === "family" ? `${p.family}, ${p.given}` : `${p.given} ${p.family}`)
  return [...names, ...(f.etAl === true ? ["others"] : [])].join(" and ")
}

/** A .bib entry; `&`, `%`, `#` and `_` escaped as TeX wants them (a BibTeX user writes `\&`). */
const bib = (type: string, key: string, fields: ReadonlyArray<readonly [string, string | undefined]>): string =>
  `@${type}{${key},\n${
    fields.filter((e): e is readonly [string, string] => e[1] !== undefined && e[1] !== "")
      .map(([name, value]) =>
        `  ${name} = {${name === "url" || name === "doi" ? value : value.replace(/[&%#_]/g, (c) => `\\${c}`)}}`
      )
      .join(",\n")
  }\n}\n`

const journalBib = (f: Facts, key: string) =>
  bib(f.conference === true ? "inproceedings" : "article", key, [
    ["title", f.title],
    ["author", bibAuthors(f, "family")],
    [f.conference === true ? "booktitle" : "journal", f.venue],
    ["volume", f.volume],
    ["pages", pagesOf(f, "--")],
    ["year", String(f.year)],
    ["doi", f.doi]
  ])

// A list cut to its first author keeps its "et al." ("Kaliki, S., et al."): without it the
// reference says the paper has one author, which is a partial author list, not this variant.
const apaAuthors = (f: Facts) =>
  f.authors.length === 1
    ? `${f.authors[0]!.family}, ${initials(f.authors[0]!.given)}${f.etAl === true ? `,${etAl(f)}` : ""}`
    : listed(f.authors.map((p) => `${p.family}, ${initials(p.given)}`), "&") + etAl(f)
const ieeeAuthors = (f: Facts) => listed(f.authors.map((p) => `${initials(p.given)} ${p.family}`), "and") + etAl(f)
const apa = (f: Facts) =>
  `${apaAuthors(f)} (${f.year}). ${f.title}. ${
    f.venue === undefined ?
      "" :
      `${f.venue}${f.volume === undefined ? "" : `, ${f.volume}`}${f.pages === undefined ? "" : `, ${pagesOf(f)}`}. `
  }${f.doi === undefined ? "" : doiUrl(f.doi)}`.trim()
const ieee = (f: Facts) =>
  `${ieeeAuthors(f)}, “${f.title},” ${
    f.venue === undefined ? "" : `${f.conference === true ? "in Proc. " : ""}${f.venue}, `
  }${f.volume === undefined ? "" : `vol. ${f.volume}, `}${f.pages === undefined ? "" : `pp. ${pagesOf(f)}, `}${f.year}${
    f.doi === undefined ? "." : `, doi: ${f.doi}.`
  }`

/** Wraps a text at `width` columns, as a reference copied from a PDF arrives. */
export const wrapped = (text: string, width: number): string => {
  const lines: Array<string> = []
  let line = ""
  for (const word of text.split(" ")) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line.length === 0 ? word : `${line} ${word}`
  }
  return [...lines, line].join("\n")
}

const hasArxiv = (f: Facts) => f.arxiv !== undefined
const hasDoi = (f: Facts) => f.doi !== undefined

/** Every style, in the order the generator deals them out. */
export const styles: ReadonlyArray<Style> = [
  { name: "bibtex @article/@inproceedings, Family, Given", format: "bibtex", shows: full, write: journalBib },
  {
    name: "bibtex, Given Family, no doi",
    format: "bibtex",
    shows: ["title", "authors", "coauthors", "year", "venue"],
    write: (f, key) =>
      bib(f.conference === true ? "inproceedings" : "article", key, [
        ["author", bibAuthors(f, "given")],
        ["title", f.title],
        [f.conference === true ? "booktitle" : "journal", f.venue],
        ["year", String(f.year)]
      ])
  },
  {
    name: "bibtex @misc arXiv eprint",
    format: "bibtex",
    shows: ["title", "authors", "coauthors", "year"],
    fits: hasArxiv,
    write: (f, key) =>
      bib("misc", key, [
        ["title", f.title],
        ["author", bibAuthors(f, "family")],
        ["year", String(f.year)],
        ["eprint", f.arxiv],
        ["archiveprefix", "arXiv"],
        ["primaryclass", "cs.CL"]
      ])
  },
  {
    name: "bibtex title, author, year only",
    format: "bibtex",
    shows: ["title", "authors", "coauthors", "year"],
    write: (f, key) =>
      bib("article", key, [["title", f.title], ["author", bibAuthors(f, "family")], ["year", String(f.year)]])
  },
  {
    name: "bibtex {{protected}} title, TeX accents, month",
    format: "bibtex",
    shows: full,
    write: (f, key) =>
      bib("article", key, [
        ["title", `{${f.title}}`],
        ["author", tex(bibAuthors(f, "family"))],
        ["journal", f.venue],
        ["year", String(f.year)],
        [
          "month",
          f.date === undefined
            ? undefined
            : [
              "jan",
              "feb",
              "mar",
              "apr",
              "may",
              "jun",
              "jul",
              "aug",
              "sep",
              "oct",
              "nov",
              "dec"
            ][Number(f.date.slice(5, 7)) - 1]
        ],
        ["doi", f.doi]
      ])
  },
  {
    name: "bibtex doi as a doi.org url",
    format: "bibtex",
    shows: full,
    fits: hasDoi,
    write: (f, key) =>
      bib("article", key, [
        ["title", f.title],
        ["author", bibAuthors(f, "family")],
        ["journal", f.venue],
        ["year", String(f.year)],
        ["url", f.doi === undefined ? undefined : doiUrl(f.doi)]
      ])
  },
  {
    name: "biblatex date/journaltitle",
    format: "bibtex",
    shows: full,
    write: (f, key) =>
      bib("article", key, [
        ["author", bibAuthors(f, "family")],
        ["title", f.title],
        ["journaltitle", f.venue],
        ["date", f.date ?? String(f.year)],
        ["doi", f.doi]
      ])
  },
  {
    name: "RIS",
    format: "ris",
    shows: full,
    write: (f) =>
      [
        `TY  - ${f.conference === true ? "CPAPER" : "JOUR"}`,
        `TI  - ${f.title}`,
        ...exported(f).map((p) => `AU  - ${p.family}, ${p.given}`),
        `PY  - ${f.year}`,
        ...(f.date === undefined ? [] : [`DA  - ${f.date.replace(/-/g, "/")}`]),
        ...(f.venue === undefined ? [] : [`${f.conference === true ? "T2" : "JO"}  - ${f.venue}`]),
        ...(f.volume === undefined ? [] : [`VL  - ${f.volume}`]),
        ...(f.doi === undefined ? [] : [`DO  - ${f.doi}`]),
        "ER  - ",
        ""
      ].join("\n")
  },
  {
    name: "CSL-JSON",
    format: "csl-json",
    shows: full,
    write: (f, key) =>
      JSON.stringify(
        [{
          id: key,
          type: f.conference === true ? "paper-conference" : "article-journal",
          title: f.title,
          author: exported(f).map((p) => ({ family: p.family, given: p.given })),
          issued: { "date-parts": [f.date === undefined ? [f.year] : f.date.split("-").map(Number)] },
          ...(f.venue === undefined ? {} : { "container-title": f.venue }),
          ...(f.volume === undefined ? {} : { volume: f.volume }),
          ...(f.doi === undefined ? {} : { DOI: f.doi })
        }],
        null,
        2
      )
  },
  { name: "APA", format: "formatted", shows: full, write: apa },
  { name: "IEEE", format: "formatted", shows: full, write: ieee },
  {
    name: "Vancouver",
    format: "formatted",
    shows: full,
    write: (f) =>
      `${f.authors.slice(0, 6).map((p) => `${p.family} ${compactInitials(p.given)}`).join(", ")}${
        f.authors.length > 6 || f.etAl === true ? ", et al" : ""
      }. ${f.title}. ${f.venue === undefined ? "" : `${f.venue}. `}${f.year}${
        f.volume === undefined ? "" : `;${f.volume}`
      }${f.pages === undefined ? "" : `:${pagesOf(f, "-")}`}.${f.doi === undefined ? "" : ` doi:${f.doi}`}`
  },
  {
    name: "Chicago",
    format: "formatted",
    shows: full,
    write: (f) => {
      const [first, ...rest] = f.authors
      const names = [`${first!.family}, ${first!.given}`, ...rest.map((p) => `${p.given} ${p.family}`)]
      return `${listed(names, "and")}${etAl(f)}. ${f.year}. “${f.title}.” ${
        f.venue === undefined ?
          "" :
          `${f.venue}${f.volume === undefined ? "" : ` ${f.volume}`}${f.pages === undefined ? "" : `: ${pagesOf(f)}`}. `
      }${f.doi === undefined ? "" : doiUrl(f.doi) + "."}`.trim()
    }
  },
  {
    name: "MLA",
    format: "formatted",
    shows: ["title", "authors", "year", "venue"],
    write: (f) => {
      const first = f.authors[0]!
      const who = f.authors.length > 2 || f.etAl === true
        ? `${first.family}, ${first.given}, et al.`
        : f.authors.length === 2
        ? `${first.family}, ${first.given}, and ${f.authors[1]!.given} ${f.authors[1]!.family}.`
        : `${first.family}, ${first.given}.`
      return `${who} “${f.title}.” ${f.venue === undefined ? "" : `${f.venue}, `}${
        f.volume === undefined ? "" : `vol. ${f.volume}, `
      }${f.year}${f.pages === undefined ? "" : `, pp. ${pagesOf(f)}`}.`
    }
  },
  {
    name: "numbered list item [n] IEEE",
    format: "formatted",
    shows: full,
    write: (f, key) => `[${key.replace(/\D/g, "").slice(-2) || "1"}] ${ieee(f)}`
  },
  { name: "APA wrapped at 60 columns", format: "formatted", shows: full, write: (f) => wrapped(apa(f), 60) },
  {
    name: "“A. Hussain et al.” short author list",
    format: "formatted",
    shows: ["title", "authors", "year", "venue"],
    write: (f) =>
      `${initials(f.authors[0]!.given)} ${f.authors[0]!.family}${
        f.authors.length > 1 || f.etAl === true ? " et al." : ""
      }, ${f.title}, ${f.venue === undefined ? "" : `${f.venue}, `}${f.year}.`
  },
  { name: "line: bare DOI", format: "line", shows: ["doi"], fits: hasDoi, write: (f) => f.doi! },
  { name: "line: https://doi.org/ DOI", format: "line", shows: ["doi"], fits: hasDoi, write: (f) => doiUrl(f.doi!) },
  { name: "line: bare arXiv id", format: "line", shows: [], fits: hasArxiv, write: (f) => f.arxiv! },
  {
    name: "line: arXiv:id v1 [cs.CL]",
    format: "line",
    shows: [],
    fits: hasArxiv,
    write: (f) => `arXiv:${f.arxiv}v1 [cs.CL]`
  },
  {
    name: "line: versioned arXiv DOI",
    format: "line",
    shows: [],
    fits: hasArxiv,
    write: (f) => `10.48550/arXiv.${f.arxiv}v2`
  },
  {
    name: "line: arxiv.org/abs URL",
    format: "line",
    shows: [],
    fits: hasArxiv,
    write: (f) => `https://arxiv.org/abs/${f.arxiv}`
  },
  { name: "line: title", format: "line", shows: ["title"], write: (f) => f.title }
]

/** The style named `name` (a generator's table names its styles). */
export const style = (name: string): Style => {
  const found = styles.find((s) => s.name === name)
  if (found === undefined) throw new Error(`no style ${name}`)
  return found
}
