/**
 * What a reference says, made from a recorded paper: the facts as people cite them ({@link factsOf}),
 * the harmless ways real references differ from the record ({@link realVariants}), and every kind
 * of bad reference ({@link badKinds}), each a change of the facts that no paper bears out.
 */
import type { RecordedPaper } from "./papers.js"
import type { Facts, Person, Shown } from "./styles.js"

/** A seeded source of numbers: the same seed, the same references. */
export interface Rng {
  /** An integer in [0, n). */
  readonly int: (n: number) => number
  readonly pick: <A>(xs: ReadonlyArray<A>) => A
}

/** mulberry32: small, fast, and the same on every platform. */
export const rng = (seed: number): Rng => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return { int, pick: (xs) => xs[int(xs.length)]! }
}

const particles = new Set(["van", "von", "de", "der", "den", "da", "di", "del", "la", "le", "du", "dos", "bin"])

/** A name as S2 writes it ("Noam M. Shazeer", "A. Turing", "Ludwig van Beethoven") split as BibTeX would. */
export const personOf = (name: string): Person => {
  // A few recorded names carry a profile link glued to them ("Kosinskihttps://…"); no reference does.
  const words = name.replace(/https?:\/\/\S*/g, () => "").trim().split(/\s+/)
  let start = words.length - 1
  if (start > 0 && /^(jr\.?|sr\.?|ii|iii|iv)$/i.test(words[start]!)) start--
  while (start > 1 && particles.has(words[start - 1]!.toLowerCase())) start--
  return { given: words.slice(0, start).join(" "), family: words.slice(start).join(" ") }
}

const entities: Readonly<Record<string, string>> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": "\"",
  "&#39;": "'"
}
/** Recorded text with the HTML entities some records carry ("Journal of A &amp; B") as people write it. */
const unescaped = (s: string): string => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => entities[e] ?? e)

const preprintVenue = /^(arxiv(\.org)?|corr|biorxiv|medrxiv|ssrn|social science research network)$/i

/** The facts of a paper as a careful author cites it: its own title, authors, year, venue, ids. */
export const factsOf = (paper: RecordedPaper): Facts => {
  const names = paper.authors.map((a) => personOf(a.name)).filter((p) => p.family.length > 0)
  const journal = paper.journal ?? undefined
  const journalName = journal?.name?.trim()
  const named = journalName !== undefined && journalName !== "" ? journalName : paper.venue?.trim() || undefined
  const venue = named === undefined ? undefined : unescaped(named)
  const doi = paper.externalIds?.DOI
  const arxiv = paper.externalIds?.ArXiv
  const volume = journal?.volume?.trim()
  return {
    title: unescaped(paper.title.trim()),
    authors: names.length > 10 ? names.slice(0, 6) : names,
    etAl: names.length > 10,
    everyAuthor: names,
    year: paper.year,
    date: typeof paper.publicationDate === "string" ? paper.publicationDate : undefined,
    venue: venue !== undefined && preprintVenue.test(venue) ? "arXiv" : venue,
    conference: venue !== undefined && /conference|proceedings|workshop|symposium|meeting/i.test(venue),
    volume: volume === undefined || volume === "" || volume.startsWith("abs/") ? undefined : volume,
    pages: journal?.pages?.trim() || undefined,
    doi: typeof doi === "string" ? doi.toLowerCase() : undefined,
    arxiv: typeof arxiv === "string" ? arxiv : undefined
  }
}

/** Whether a paper's venue is a preprint server or none: one cited as published is a bad reference. */
export const isPreprint = (paper: RecordedPaper): boolean => {
  const f = factsOf(paper)
  return f.arxiv !== undefined && (f.venue === undefined || f.venue === "arXiv")
}

const spellings: ReadonlyArray<readonly [RegExp, (word: string) => string]> = [
  [
    /\b(\w+)i([sz])(e|es|ed|ing|ation|ations|er|ers)\b/gi,
    (w) =>
      w.replace(
        /i([sz])(e|es|ed|ing|ation|ations|er|ers)$/i,
        (_m, s: string, end: string) => `i${s === "z" ? "s" : s === "Z" ? "S" : s === "s" ? "z" : "Z"}${end}`
      )
  ],
  [
    /\b(behavio|colo|neighbo|favo|labo|humo|rumo)u?r(s|al|ing|ed|ful|hood|hoods)?\b/gi,
    (w) => /our/i.test(w) ? w.replace(/our/i, (m) => m[0] + m[2]!) : w.replace(/or/i, (m) => `${m[0]}u${m[1]}`)
  ],
  [
    /\b(model|label|travel|cancel)l?(ing|ed)\b/gi,
    (w) => /ll/.test(w) ? w.replace(/ll/, () => "l") : w.replace(/l(ing|ed)$/, (_m, end: string) => `ll${end}`)
  ],
  [
    /\b(cent|met|theat|fib)(re|er)s?\b/gi,
    (w) => w.replace(/(re|er)(s?)$/, (_m, end: string, s: string) => `${end === "re" ? "er" : "re"}${s}`)
  ],
  [
    /\b(analy|paraly)(s|z)(e|es|ed|ing)\b/gi,
    (w) => w.replace(/(s|z)(e|es|ed|ing)$/, (_m, sz: string, end: string) => `${sz === "s" ? "z" : "s"}${end}`)
  ]
]
const stopWords = new Set(["the", "and", "for", "with", "from", "into", "that", "this", "their", "over", "under"])
/** Words the "-ise" rule must leave alone: not verbs with an American spelling. */
const notVerbs =
  /^(wis|nois|pois|rais|prais|ris|aris|premis|promis|advis|advertis|exercis|expertis|enterpris|otherwis|precis|concis|devis|revis|supervis|surpris|compris|compromis|improvis|televis|franchis|merchandis|paradis|siz|seiz|priz|citizen|horizon|dozen|frozen)/i

/** The title with its British spellings American or the other way round; undefined when it has none. */
export const respelled = (title: string): string | undefined => {
  for (const [pattern, change] of spellings) {
    let changed = false
    const out = title.replace(pattern, (word) => {
      if (notVerbs.test(word) || word.length < 6) return word
      changed = true
      return change(word)
    })
    if (changed && out !== title) return out
  }
  return undefined
}

const subtitles = ["A Survey", "An Empirical Study", "Extended Version", "Theory and Practice", "A Case Study"]

/** A harmless difference a real reference has from the record. */
export interface RealVariant {
  readonly name: string
  /** What a style must show for the variant to be there at all. */
  readonly needs: Shown
  readonly change: (facts: Facts, r: Rng) => Facts | undefined
}

/** The real-reference variants people write (each with every style that shows what it changes). */
export const realVariants: ReadonlyArray<RealVariant> = [
  { name: "as recorded", needs: "title", change: (f) => f },
  {
    name: "British/American spelling",
    needs: "title",
    change: (f) => {
      const title = respelled(f.title)
      return title === undefined ? undefined : { ...f, title }
    }
  },
  {
    name: "subtitle dropped",
    needs: "title",
    change: (f) => {
      const at = f.title.indexOf(": ")
      const head = at < 0 ? "" : f.title.slice(0, at)
      return head.split(/\s+/).length < 3 ? undefined : { ...f, title: head }
    }
  },
  {
    name: "subtitle added",
    needs: "title",
    change: (f, r) => (f.title.includes(":") ? undefined : { ...f, title: `${f.title}: ${r.pick(subtitles)}` })
  },
  {
    name: "first author et al.",
    needs: "authors",
    change: (f) => (f.authors.length < 3 ? undefined : { ...f, authors: f.authors.slice(0, 1), etAl: true })
  }
]

/** What the kinds of bad reference draw on: the papers, and words and names no paper has. */
export interface Pool {
  readonly papers: ReadonlyArray<RecordedPaper>
  /** Content words of the corpus's titles (for invented and word-swapped titles). */
  readonly words: ReadonlyArray<string>
}

export const poolOf = (papers: ReadonlyArray<RecordedPaper>): Pool => {
  const words = new Set<string>()
  for (const p of papers) {
    for (const w of p.title.split(/[^\p{L}]+/u)) {
      if (w.length >= 5 && !stopWords.has(w.toLowerCase())) words.add(w.toLowerCase())
    }
  }
  return { papers, words: [...words].sort() }
}

const inventedGiven = ["Marlon", "Ines", "Tobias", "Yuki", "Priya", "Anselm", "Oksana", "Dario", "Helga", "Kwame"]
const inventedFamily = [
  "Quennell",
  "Vardakis",
  "Ostrowiak",
  "Lindqvarn",
  "Tembeleza",
  "Haraldsen-Poe",
  "Mbeki-Orr",
  "Castellvi",
  "Dunmorrow",
  "Zyskowitz"
]
const inventedPerson = (r: Rng): Person => ({ given: r.pick(inventedGiven), family: r.pick(inventedFamily) })
const placeholders: ReadonlyArray<ReadonlyArray<Person>> = [
  [{ given: "A.", family: "Author" }],
  [{ given: "John", family: "Doe" }, { given: "Jane", family: "Roe" }],
  [{ given: "Firstname", family: "Lastname" }],
  [{ given: "A.", family: "Anonymous" }],
  [{ given: "J.", family: "Smith" }, { given: "A. N.", family: "Other" }]
]
const capital = (w: string) => w[0]!.toUpperCase() + w.slice(1)
const templates: ReadonlyArray<(w: () => string) => string> = [
  (w) => `Towards ${capital(w())} ${capital(w())} for ${capital(w())} ${capital(w())}`,
  (w) => `${capital(w())} ${capital(w())}: A ${capital(w())} Approach to ${capital(w())}`,
  (w) => `On the ${capital(w())} of ${capital(w())} ${capital(w())} in ${capital(w())} Systems`,
  (w) => `Learning ${capital(w())} ${capital(w())} with ${capital(w())} ${capital(w())}`,
  (w) => `A Survey of ${capital(w())} ${capital(w())} for ${capital(w())} ${capital(w())}`
]
const words = (title: string) => title.split(/\s+/)
const half = (title: string, first: boolean) => {
  const ws = words(title)
  const at = Math.max(1, Math.floor(ws.length / 2))
  return (first ? ws.slice(0, at) : ws.slice(at)).join(" ")
}
const other = (pool: Pool, r: Rng, not: RecordedPaper, ok: (p: RecordedPaper) => boolean = () => true) => {
  for (let i = 0; i < 50; i++) {
    const p = r.pick(pool.papers)
    if (p.paperId !== not.paperId && p.title.toLowerCase() !== not.title.toLowerCase() && ok(p)) return p
  }
  return undefined
}
/** Another paper none of whose authors has a family name of `p`'s: its author list is no one's of `p`. */
const strangerTo = (pool: Pool, r: Rng, p: RecordedPaper): RecordedPaper | undefined => {
  const own = new Set(factsOf(p).authors.map((a) => a.family.toLowerCase()))
  return other(pool, r, p, (q) => factsOf(q).authors.every((a) => !own.has(a.family.toLowerCase())))
}

/** A kind of bad reference: the facts it says, from a paper it is built on, or undefined when it cannot be made from it. */
export interface BadKind {
  readonly name: string
  /** What a style must show for the reference to be bad at all. */
  readonly needs: ReadonlyArray<Shown>
  readonly make: (paper: RecordedPaper, pool: Pool, r: Rng) => Facts | undefined
}

/** Every kind of bad reference the benchmark writes. */
export const badKinds: ReadonlyArray<BadKind> = [
  {
    name: "invented title",
    needs: ["title"],
    make: (p, pool, r) => ({
      ...factsOf(p),
      title: r.pick(templates)(() => r.pick(pool.words)),
      doi: undefined,
      arxiv: undefined
    })
  },
  {
    name: "recombined title (halves of two)",
    needs: ["title"],
    make: (p, pool, r) => {
      const b = other(pool, r, p, (q) => words(q.title).length >= 4)
      return b === undefined || words(p.title).length < 4
        ? undefined
        : { ...factsOf(p), title: `${half(p.title, true)} ${half(b.title, false)}`, doi: undefined, arxiv: undefined }
    }
  },
  {
    name: "chimeric title (middle of another)",
    needs: ["title"],
    make: (p, pool, r) => {
      const a = words(p.title)
      const b = other(pool, r, p, (q) => words(q.title).length >= 5)
      if (b === undefined || a.length < 5) return undefined
      const bw = words(b.title)
      const cut = Math.ceil(a.length * 0.4)
      const middle = bw.slice(
        Math.floor(bw.length / 3),
        Math.floor(bw.length / 3) + Math.max(2, Math.floor(bw.length / 3))
      )
      const title = [...a.slice(0, cut), ...middle, ...a.slice(cut + Math.max(1, Math.floor(a.length / 3)))].join(" ")
      return { ...factsOf(p), title, doi: undefined, arxiv: undefined }
    }
  },
  {
    name: "one word swapped",
    needs: ["title"],
    make: (p, pool, r) => {
      const ws = words(p.title)
      const at = ws.map((w, i) => [w, i] as const).filter(([w]) =>
        /^\p{L}{5,}$/u.test(w) && !stopWords.has(w.toLowerCase())
      )
      if (at.length === 0) return undefined
      const [word, i] = r.pick(at)
      const has = new Set(ws.map((w) => w.toLowerCase()))
      let swap = r.pick(pool.words)
      for (let k = 0; k < 20 && has.has(swap); k++) swap = r.pick(pool.words)
      const out = [...ws]
      out[i] = word[0] === word[0]!.toUpperCase() ? capital(swap) : swap
      return { ...factsOf(p), title: out.join(" "), doi: undefined, arxiv: undefined }
    }
  },
  {
    name: "partial authors (first real, rest invented)",
    needs: ["title", "authors", "coauthors"],
    make: (p, _pool, r) => {
      const f = factsOf(p)
      const rest = Array.from({ length: Math.max(2, f.authors.length - 1) }, () => inventedPerson(r))
      return { ...f, authors: [f.authors[0]!, ...rest], etAl: false }
    }
  },
  {
    name: "swapped authors (another paper's)",
    needs: ["title", "authors"],
    make: (p, pool, r) => {
      const b = strangerTo(pool, r, p)
      return b === undefined
        ? undefined
        : { ...factsOf(p), authors: factsOf(b).authors, etAl: factsOf(b).etAl, everyAuthor: factsOf(b).everyAuthor }
    }
  },
  {
    name: "placeholder authors",
    needs: ["title", "authors"],
    make: (p, _pool, r) => ({ ...factsOf(p), authors: r.pick(placeholders), etAl: false })
  },
  {
    name: "wrong year (2 to 6 off)",
    needs: ["title", "year"],
    make: (p, _pool, r) => {
      const f = factsOf(p)
      const off = 2 + r.int(5)
      const year = f.year + off <= 2026 && r.int(2) === 0 ? f.year + off : f.year - off
      return { ...f, year, date: undefined }
    }
  },
  {
    name: "future date",
    needs: ["title", "year"],
    make: (p, _pool, r) => {
      const year = 2027 + r.int(3)
      return { ...factsOf(p), year, date: `${year}-0${1 + r.int(9)}-15` }
    }
  },
  {
    name: "wrong venue",
    needs: ["title", "venue"],
    make: (p, pool, r) => {
      const f = factsOf(p)
      if (f.venue === undefined || f.venue === "arXiv") return undefined
      const b = other(pool, r, p, (q) => {
        const v = factsOf(q).venue
        return v !== undefined && v !== "arXiv" && v.toLowerCase() !== f.venue!.toLowerCase()
      })
      return b === undefined
        ? undefined
        : { ...f, venue: factsOf(b).venue, conference: factsOf(b).conference, volume: undefined, pages: undefined }
    }
  },
  {
    name: "preprint cited as published",
    needs: ["title", "venue"],
    make: (p, _pool, r) =>
      !isPreprint(p) ? undefined : {
        ...factsOf(p),
        venue: r.pick([
          "Nature",
          "Science",
          "Journal of Machine Learning Research",
          "Nature Machine Intelligence",
          "Proceedings of the National Academy of Sciences"
        ]),
        conference: false,
        volume: String(10 + r.int(90)),
        pages: `${100 + r.int(800)}-${900 + r.int(90)}`
      }
  },
  {
    name: "wrong DOI (another paper's)",
    needs: ["title", "doi"],
    make: (p, pool, r) => {
      const f = factsOf(p)
      const b = other(pool, r, p, (q) => factsOf(q).doi !== undefined && factsOf(q).doi !== f.doi)
      return b === undefined ? undefined : { ...f, doi: factsOf(b).doi }
    }
  },
  {
    name: "invented DOI",
    needs: ["doi"],
    make: (p, _pool, r) => ({
      ...factsOf(p),
      doi: `10.${1000 + r.int(8999)}/${["j", "s", "art", "ijai"][r.int(4)]}.${p.year}.${10000 + r.int(89999)}`
    })
  },
  {
    name: "two papers merged into one entry",
    needs: ["title", "authors"],
    make: (p, pool, r) => {
      const b = strangerTo(pool, r, p)
      if (b === undefined) return undefined
      const g = factsOf(b)
      return {
        ...factsOf(p),
        authors: g.authors,
        etAl: g.etAl,
        everyAuthor: g.everyAuthor,
        year: g.year,
        date: g.date,
        venue: g.venue,
        conference: g.conference,
        volume: g.volume,
        pages: g.pages,
        doi: g.doi,
        arxiv: undefined
      }
    }
  }
]
