/**
 * A small BibTeX reader: enough to find each entry's key, `doi`, `eprint`/`archivePrefix` and
 * `title`. It never throws and never loops: malformed text ends the entry it is in, and reading
 * goes on at the next `@`.
 */

export interface BibEntry {
  readonly type: string
  readonly key: string
  readonly fields: Readonly<Record<string, string>>
}

const skipped = new Set(["comment", "preamble", "string"])

/** Reads a braced value from `text[at] === "{"`: returns the inner text and the index after it. */
const braced = (text: string, at: number): [string, number] => {
  let depth = 0
  for (let i = at; i < text.length; i++) {
    const c = text[i]
    if (c === "\\") i++
    else if (c === "{") depth++
    else if (c === "}" && --depth === 0) return [text.slice(at + 1, i), i + 1]
  }
  return [text.slice(at + 1), text.length]
}

const quoted = (text: string, at: number): [string, number] => {
  let depth = 0
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]
    if (c === "\\") i++
    else if (c === "{") depth++
    else if (c === "}") depth--
    else if (c === "\"" && depth <= 0) return [text.slice(at + 1, i), i + 1]
  }
  return [text.slice(at + 1), text.length]
}

/** One value, with `#` concatenation; bare words (months, macros) are kept as written. */
const value = (text: string, at: number): [string, number] => {
  let out = ""
  let i = at
  for (;;) {
    while (/\s/.test(text[i] ?? "")) i++
    const c = text[i]
    let part: [string, number]
    if (c === "{") part = braced(text, i)
    else if (c === "\"") part = quoted(text, i)
    else {
      const m = /^[^,}#\s]*/.exec(text.slice(i, i + 200))![0]
      part = [m, i + m.length]
    }
    out += part[0]
    i = part[1]
    while (/\s/.test(text[i] ?? "")) i++
    if (text[i] !== "#") return [out, i]
    i++
  }
}

/** The entries of a .bib text, in order; `@comment`, `@preamble` and `@string` are skipped. */
export const parse = (text: string): ReadonlyArray<BibEntry> => {
  const entries: Array<BibEntry> = []
  let i = 0
  while ((i = text.indexOf("@", i)) !== -1) {
    const head = /^@\s*([A-Za-z]+)\s*[{(]/.exec(text.slice(i, i + 100))
    if (head === null) {
      i++
      continue
    }
    const type = head[1]!.toLowerCase()
    i += head[0].length
    if (skipped.has(type)) {
      // Skip the whole body, so an `@` inside a comment does not start an entry.
      const close = text.indexOf(")", i)
      i = text[i - 1] === "{" ? braced(text, i - 1)[1] : close === -1 ? text.length : close + 1
      continue
    }
    const keyMatch = /^\s*([^,\s}]*)\s*,?/.exec(text.slice(i, i + 1000))!
    const key = keyMatch[1]!
    i += keyMatch[0].length
    const fields: Record<string, string> = Object.create(null)
    for (;;) {
      const name = /^\s*([A-Za-z][\w:.+-]*)\s*=\s*/.exec(text.slice(i, i + 200))
      if (name === null) break
      const [v, next] = value(text, i + name[0].length)
      fields[name[1]!.toLowerCase()] = v
      i = next
      while (/[\s,]/.test(text[i] ?? "")) i++
    }
    entries.push({ type, key, fields })
  }
  return entries
}

// A title match compares letters: `Erd{\H{o}}s` must be sent as "Erdős", not "Erdos" or "Erd{o}s".
const accents: Readonly<Record<string, string>> = {
  "'": "\u0301",
  "`": "\u0300",
  "^": "\u0302",
  "\"": "\u0308",
  "~": "\u0303",
  "=": "\u0304",
  ".": "\u0307",
  u: "\u0306",
  v: "\u030c",
  H: "\u030b",
  c: "\u0327",
  k: "\u0328",
  r: "\u030a",
  d: "\u0323",
  b: "\u0331"
}
const letters: Readonly<Record<string, string>> = {
  i: "i",
  j: "j",
  l: "ł",
  L: "Ł",
  o: "ø",
  O: "Ø",
  ss: "ß",
  ae: "æ",
  AE: "Æ",
  oe: "œ",
  OE: "Œ",
  aa: "å",
  AA: "Å",
  TeX: "TeX",
  LaTeX: "LaTeX",
  BibTeX: "BibTeX"
}
const letterCommand = /\\(ss|ae|AE|oe|OE|aa|AA|TeX|LaTeX|BibTeX|[ijlLoO])(?![A-Za-z])\s*/g
const accentCommand =
  /\\(['`^"~=.]|[uvHckrdb](?![A-Za-z]))\s*(?:\{\s*([A-Za-z\u00c0-\u024f])\s*\}|([A-Za-z\u00c0-\u024f]))/g

// Math in titles is mostly a Greek letter (`$\alpha$-synuclein`): as the Unicode letter the
// server's title has, rather than dropped (which left "$$").
const greek = [
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
const capitalised = (name: string): string => name[0]!.toUpperCase() + name.slice(1)
const greekLetters: Readonly<Record<string, string>> = Object.fromEntries(greek.flatMap((name, k) => {
  // α is U+03B1; U+03C2 (final sigma) has no command of its own, so the letters after ρ are one on.
  const lower = String.fromCodePoint(0x3b1 + k + (k >= 17 ? 1 : 0))
  return [[name, lower], [capitalised(name), lower.toUpperCase()]]
}))
// `\alpha`, `\varepsilon`, `\Omega`, not `\alphabet`.
const greekCommand = new RegExp(
  String.raw`\\(?:var)?(${[...greek, ...greek.map(capitalised)].join("|")})(?![A-Za-z])\s*`,
  "g"
)

/** TeX to plain text, as far as a title match needs: accents, special and Greek letters as Unicode, math's `$`, braces and other commands dropped. */
export const plain = (tex: string): string =>
  tex.replace(letterCommand, (_, name: string) => letters[name]!)
    .replace(accentCommand, (_, accent: string, braced?: string, bare?: string) => (braced ?? bare)! + accents[accent]!)
    .replace(greekCommand, (_, name: string) => greekLetters[name]!)
    .replace(/(?<!\\)\$/g, "")
    .replace(/\\[a-zA-Z]+\s*/g, "").replace(/\\(.)/g, "$1").replace(/[{}]/g, "").replace(/~/g, " ")
    .normalize("NFC").replace(/\s+/g, " ").trim()

/** What to ask for an entry: its DOI, else its arXiv eprint, else its title ("" when none). */
export const inputOf = (entry: BibEntry): string => {
  const f = entry.fields
  const doi = plain(f["doi"] ?? "")
  if (doi.length > 0) return /^(https?:|doi:)/i.test(doi) ? doi : `DOI:${doi}`
  const eprint = plain(f["eprint"] ?? "")
  const archive = (f["archiveprefix"] ?? f["eprinttype"] ?? "").toLowerCase()
  if (eprint.length > 0 && (archive === "arxiv" || /^\d{4}\.\d{4,5}(v\d+)?$/.test(eprint))) {
    return `ARXIV:${eprint.replace(/v\d+$/, "")}`
  }
  return plain(f["title"] ?? "")
}
