/**
 * A small BibTeX reader: enough to find each entry's key, `doi`, `eprint`/`archivePrefix` and
 * `title`, with `@string` macros expanded. It never throws, never loops and never grows a value
 * much past the text it was read from: an entry ends at its closing brace, or, when its braces do
 * not balance, at the next line that starts an entry (the entry is then `broken`), and reading goes
 * on there; an entry whose macros would expand too far is `broken` too, its values not expanded.
 */

import { PaperId } from "@s2-effect/core"
import { greekLetterByName } from "./text.js"

export interface BibEntry {
  readonly type: string
  readonly key: string
  readonly fields: Readonly<Record<string, string>>
  /** The line of its `@`, from 1. */
  readonly line: number
  /**
   * Why it cannot be read as written: its braces do not balance (it was read up to `lastLine`,
   * before the next line that starts an entry), or a value (`field`) expands past
   * {@link maxExpanded} characters, or the file's macros past {@link maxExpandedInFile} in all.
   */
  readonly broken?:
    | { readonly reason: "braces"; readonly lastLine: number }
    | { readonly reason: "expands"; readonly field: string; readonly over: Over }
  /**
   * The fields written more than once, in order, each with whether a later value differs from the
   * first: BibTeX keeps the first (and warns), and so does `fields`.
   */
  readonly repeated?: ReadonlyArray<Repeated>
}

/** A field an entry writes more than once: `differs` when a later value is not the first's. */
export interface Repeated {
  readonly field: string
  readonly differs: boolean
}

/**
 * The most characters a value may hold beyond what is written of it: `@string` macros joined with
 * `#` can double a value at each line (24 lines of a 631-byte file made a 268-million-character
 * title), so expansion stops here and the entry is broken. A title, a journal's name or an author
 * list expanded from macros is far shorter.
 */
export const maxExpanded = 10_000

/**
 * The most characters macros may add to a whole file's values: without it, one macro of
 * {@link maxExpanded} characters named in 60,000 short entries (a 1 MB file) made 600 million.
 */
export const maxExpandedInFile = 1_000_000

/** Which bound a value went past: its own ({@link maxExpanded}) or the file's ({@link maxExpandedInFile}). */
export type Over = "value" | "file"

const skipped = new Set(["comment", "preamble", "string"])

/** A line that starts an entry: where reading resumes after an entry whose braces do not balance. */
const entryLine = /\n[ \t]*@[ \t]*[A-Za-z]+[ \t]*[{(]/g

/**
 * Where the first line that starts an entry at or after `from` begins (the text's length when none),
 * for `from` that only grows. The last one found is kept and the text searched again only once
 * `from` has passed it: entries sharing one line (`@a{k,title={x}}` repeated) would each search to
 * the end of the text, quadratic in it (600 KB took 4 s).
 */
const entryLines = (text: string): (from: number) => number => {
  let found = -1
  return (from) => {
    if (found < from) {
      entryLine.lastIndex = from
      found = entryLine.exec(text)?.index ?? text.length
    }
    return found
  }
}

/**
 * The index after the delimiter closing the one at `text[open]` (`{` or `(`), before `limit`; -1
 * when it does not close there. A `(` entry closes at a `)` outside braces.
 */
const closing = (text: string, open: number, limit: number): number => {
  let depth = 0
  const paren = text[open] === "("
  for (let i = open + 1; i < limit; i++) {
    const c = text[i]
    if (c === "\\") i++
    else if (c === "{") depth++
    else if (c === "}" && --depth < 0) return paren ? -1 : i + 1
    else if (c === ")" && paren && depth === 0) return i + 1
  }
  return -1
}

// A field name as BibTeX reads one (bibtex.web's identifiers): no digit first, then anything but
// white space and `"#%'(),={}`. A narrower pattern stopped at `x/y = …` and lost every field after it.
const fieldName = /^\s*([^\d\s"#%'(),={}][^\s"#%'(),={}]*)\s*=\s*/
const bareWord = /^[^,}#\s]*/

/** A macro's value, or which bound its expansion went past (its value then unused). */
type Macro = { readonly text: string } | { readonly over: Over }

/**
 * What one entry's `name = value` pairs read to (a field written twice keeps its first value, as
 * BibTeX reads it), the fields (in order) that expanded too far, and those written more than once.
 */
interface Read {
  readonly fields: Record<string, string>
  readonly overs: ReadonlyArray<readonly [string, Over]>
  readonly repeated: ReadonlyArray<Repeated>
}

/** The text of one entry, read up to `limit`. */
interface Span {
  readonly text: string
  readonly limit: number
}

/**
 * `pattern` (anchored) matched at `at`, within the entry: in a window of the text that grows
 * (fourfold) while the match, or the lack of one, may be the window's cut. No length bound, so
 * a long name or word is read whole (a fixed window would cut it and lose the fields after it),
 * and no search runs over the whole text.
 */
const matchAt = ({ limit, text }: Span, pattern: RegExp, at: number): RegExpExecArray | undefined => {
  for (let size = 256;; size *= 4) {
    const end = Math.min(at + size, limit)
    const m = pattern.exec(text.slice(at, end))
    if (end === limit || (m !== null && m[0].length < end - at)) return m ?? undefined
  }
}

/** A braced value from `text[at] === "{"`: the inner text and the index after it. */
const braced = ({ limit, text }: Span, at: number): [string, number] => {
  let depth = 0
  for (let i = at; i < limit; i++) {
    const c = text[i]
    if (c === "\\") i++
    else if (c === "{") depth++
    else if (c === "}" && --depth === 0) return [text.slice(at + 1, i), i + 1]
  }
  return [text.slice(at + 1, limit), limit]
}

/** A quoted value from `text[at] === '"'`: braces inside may hold a quote. */
const quoted = ({ limit, text }: Span, at: number): [string, number] => {
  let depth = 0
  for (let i = at + 1; i < limit; i++) {
    const c = text[i]
    if (c === "\\") i++
    else if (c === "{") depth++
    else if (c === "}") depth--
    else if (c === "\"" && depth <= 0) return [text.slice(at + 1, i), i + 1]
  }
  return [text.slice(at + 1, limit), limit]
}

const space = ({ limit, text }: Span, i: number): number => {
  while (i < limit && /\s/.test(text[i]!)) i++
  return i
}

/**
 * A reader of one entry's text, up to `limit`: values, with `@string` macros expanded as long as
 * they stay within {@link maxExpanded} and the file's `budget` (characters macros may still add).
 */
const reader = (text: string, limit: number, macros: ReadonlyMap<string, Macro>, budget: { left: number }) => {
  const span: Span = { text, limit }
  /** One part of a value: braced, quoted, or a bare word (a macro's value when one is defined, else kept as written). */
  const part = (i: number): [string | Macro, number] => {
    const c = text[i]
    if (c === "{") return braced(span, i)
    if (c === "\"") return quoted(span, i)
    const word = matchAt(span, bareWord, i)?.[0] ?? ""
    return [macros.get(word.toLowerCase()) ?? word, i + word.length]
  }
  /**
   * `out` and `piece` joined, or the bound joining them would pass. Only macros make a value
   * longer than its text, so a value's bound is {@link maxExpanded} or its `written` length,
   * whichever is more; and each macro's text is taken from the file's `budget`.
   */
  const join = (out: string, piece: string | Macro, written: number): string | { readonly over: Over } => {
    if (typeof piece === "string") return out + piece
    if ("over" in piece) return piece
    if (out.length + piece.text.length > Math.max(maxExpanded, written)) return { over: "value" }
    if (piece.text.length > budget.left) return { over: "file" }
    budget.left -= piece.text.length
    return out + piece.text
  }
  /**
   * One value, with `#` concatenation, and the bound it went past if it did: then it is read to its
   * end but no longer joined.
   */
  const value = (at: number): [string, number, Over?] => {
    let out = ""
    let over: Over | undefined
    let i = at
    for (;;) {
      const [piece, next] = part(space(span, i))
      if (over === undefined) {
        const joined = join(out, piece, next - at)
        if (typeof joined === "string") out = joined
        else over = joined.over
      }
      i = space(span, next)
      if (text[i] !== "#" || i >= limit) return over === undefined ? [out, i] : ["", i, over]
      i++
    }
  }
  /** The `name = value` pairs from `at`, as far as they go, and those that went past a bound. */
  const fields = (at: number): Read => {
    const out: Record<string, string> = Object.create(null)
    const overs: Array<readonly [string, Over]> = []
    const repeated = new Map<string, boolean>()
    let i = at
    for (;;) {
      const name = matchAt(span, fieldName, i)
      if (name === undefined) {
        return { fields: out, overs, repeated: [...repeated].map(([field, differs]) => ({ field, differs })) }
      }
      const field = name[1]!.toLowerCase()
      const [v, next, over] = value(i + name[0].length)
      if (field in out) repeated.set(field, (repeated.get(field) ?? false) || out[field] !== v)
      else out[field] = v
      if (over !== undefined) overs.push([field, over])
      i = next
      while (i < limit && /[\s,]/.test(text[i]!)) i++
    }
  }
  return { fields }
}

/** The entries of a .bib text, in order; `@comment`, `@preamble` and `@string` are skipped, `@string` macros kept for the entries after them. */
export const parse = (text: string): ReadonlyArray<BibEntry> => {
  const entries: Array<BibEntry> = []
  // A Map: a macro named `__proto__` or `constructor` is the file's, never Object.prototype's.
  const macros = new Map<string, Macro>()
  const budget = { left: maxExpandedInFile }
  const nextEntryLine = entryLines(text)
  let line = 1
  let counted = 0
  const lineOf = (at: number): number => {
    for (; counted < at; counted++) if (text.charCodeAt(counted) === 10) line++
    return line
  }
  let i = 0
  while ((i = text.indexOf("@", i)) !== -1) {
    const head = /^@\s*([A-Za-z]+)\s*[{(]/.exec(text.slice(i, i + 100))
    if (head === null) {
      i++
      continue
    }
    const type = head[1]!.toLowerCase()
    const at = i
    const open = i + head[0].length - 1
    const limit = nextEntryLine(open)
    const end = closing(text, open, limit)
    const read = reader(text, end === -1 ? limit : end, macros, budget)
    i = end === -1 ? limit : end
    if (type === "string") {
      const { fields, overs } = read.fields(open + 1)
      for (const [name, value] of Object.entries(fields)) macros.set(name, { text: value })
      for (const [name, over] of overs) macros.set(name, { over })
    }
    if (skipped.has(type)) continue
    // The key as long as it is: a fixed window would cut a longer one and lose the entry's fields.
    const keyMatch = /^\s*([^,\s}]*)\s*,?/.exec(text.slice(open + 1, i))!
    const first = lineOf(at)
    const { fields, overs, repeated } = read.fields(open + 1 + keyMatch[0].length)
    const broken = end === -1
      ? { reason: "braces" as const, lastLine: lineOf(limit) }
      : overs.length > 0
      ? { reason: "expands" as const, field: overs[0]![0], over: overs[0]![1] }
      : undefined
    entries.push({
      type,
      key: keyMatch[1]!,
      fields,
      line: first,
      ...(broken === undefined ? {} : { broken }),
      ...(repeated.length === 0 ? {} : { repeated })
    })
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
// server's title has, rather than dropped (which left "$$"). `\alpha`, `\varepsilon`, `\Omega`, not
// `\alphabet`.
const greekCommand = new RegExp(String.raw`\\(?:var)?(${[...greekLetterByName.keys()].join("|")})(?![A-Za-z])\s*`, "g")

// The symbols a title match spells as words ("C$\sharp$" is "C#"), rather than dropped as commands.
const symbols: Readonly<Record<string, string>> = {
  sharp: "#",
  ast: "*",
  lt: "<",
  gt: ">",
  le: "≤",
  leq: "≤",
  ge: "≥",
  geq: "≥",
  ne: "≠",
  neq: "≠"
}
const symbolCommand = new RegExp(String.raw`\\(${Object.keys(symbols).join("|")})(?![A-Za-z])\s*`, "g")

/**
 * Longer than any field of a real entry (an abstract included): such a value is not read as TeX.
 * Reading it copies it a dozen times (a 10 MB title peaked at 470 MB), and a title or name that
 * long is refused as too long to send whatever it reads as.
 */
const longestTex = 65_536

/**
 * TeX to plain text, as far as a title match needs: accents, special and Greek letters and symbols
 * as Unicode, math's `$`, braces and other commands dropped; a value over {@link longestTex}
 * characters as given.
 */
export const plain = (tex: string): string => tex.length > longestTex ? tex : readTex(tex)

const readTex = (tex: string): string =>
  tex.replace(letterCommand, (_, name: string) => letters[name]!)
    .replace(symbolCommand, (_, name: string) => symbols[name]!)
    .replace(accentCommand, (_, accent: string, braced?: string, bare?: string) => (braced ?? bare)! + accents[accent]!)
    .replace(greekCommand, (_, name: string) => greekLetterByName.get(name)!)
    .replace(/(?<!\\)\$/g, "")
    .replace(/\\[a-zA-Z]+\s*/g, "").replace(/\\(.)/g, "$1").replace(/[{}]/g, "").replace(/~/g, " ")
    .normalize("NFC").replace(/\s+/g, " ").trim()

/** `text` as `PaperId.recognise` reads it, when it is an id with `prefix` (`DOI:`, `ARXIV:`). */
const recognisedAs = (prefix: string, text: string): string | undefined => {
  if (text.length === 0) return undefined
  const r = PaperId.recognise(text)
  return r._tag === "Id" && r.id.startsWith(prefix) ? r.id : undefined
}

/**
 * The ids an entry gives, in the API's spelling, read by core's `PaperId.recognise` (the one reader
 * of ids): its `doi`; its `eprint` when it is arXiv's (`archivePrefix` or `eprinttype` says so, or
 * none does and it reads as an arXiv id); and, for an entry with neither, a `url` that is a DOI or
 * arXiv link (styles without a `doi` field write the DOI there).
 */
export const idsOf = (f: Readonly<Record<string, string>>): {
  readonly doi?: string
  readonly arxiv?: string
} => {
  const doiText = plain(f["doi"] ?? "")
  const doi = doiText.length === 0
    ? undefined
    : recognisedAs("", doiText) ?? `DOI:${PaperId.withoutDoiPrefix(doiText)}`
  const eprint = plain(f["eprint"] ?? "")
  const archive = plain(f["archiveprefix"] ?? f["eprinttype"] ?? "").toLowerCase()
  const arxiv = archive === "" || archive === "arxiv"
    ? recognisedAs("ARXIV:", eprint) ?? (archive === "arxiv" && eprint.length > 0 ? `ARXIV:${eprint}` : undefined)
    : undefined
  if (doi !== undefined || arxiv !== undefined) {
    return { ...(doi === undefined ? {} : { doi }), ...(arxiv === undefined ? {} : { arxiv }) }
  }
  const url = plain(f["url"] ?? "")
  const linked = recognisedAs("DOI:", url) ?? recognisedAs("ARXIV:", url)
  return linked === undefined ? {} : linked.startsWith("DOI:") ? { doi: linked } : { arxiv: linked }
}

/** What to ask for an entry: its DOI, else its arXiv id (see {@link idsOf}), else its title ("" when none). */
export const inputOf = (entry: BibEntry): string => {
  const { arxiv, doi } = idsOf(entry.fields)
  return doi ?? arxiv ?? plain(entry.fields["title"] ?? "")
}
