/**
 * Formatted references as pasted from a paper (APA, Harvard, IEEE, ACM, Vancouver, Chicago, MLA,
 * numbered or not, lines wrapped) into entries. No JavaScript parser reads these well (the good
 * ones are trained models: GROBID, AnyStyle, in other languages), so this is a heuristic: the list
 * is cut into references (by numbers, blank lines, or lines that start a reference), ids are taken
 * out by `PaperId.recognise`, then the first of a table of layouts that fits splits what is left
 * into authors, year, title and the rest, where the venue, volume, issue and pages are found.
 * A field it cannot tell is left out: a missing field is never a difference.
 */
import type * as Verify from "../Verify.js"
import { entry, type Fields, newFields, put, putAuthors, putDate, putId, putPages, putVenue } from "./readFields.js"
import { names } from "./readNames.js"

/** A reference's number at the start of its first line: `[12]`, `(12)`, `12.`, `12)`. */
const numbering = /^\s*(?:\[(\d{1,5})\]|\((\d{1,5})\)|(\d{1,5})[.)])\s+/

export const numberOf = (line: string): number | undefined => {
  const m = numbering.exec(line)
  return m === null ? undefined : Number(m[1] ?? m[2] ?? m[3])
}

/** One reference's text, its first line, how many lines it took, and its number when the list is numbered. */
export interface Cut {
  readonly text: string
  readonly line: number
  readonly lines: number
  readonly number?: number
}

/** Whether a line ends a reference: with a point, a closing bracket or quote, or an id. */
const ends = (line: string): boolean => /[.!?)\]"”’]$|\d$|\S*\/\S+$/.test(line)

/**
 * Whether a line goes on the reference before it rather than starting one, from the line before
 * it (never the whole reference: a list of titles without points joins into one, and looking back
 * over it at each line would be quadratic).
 */
const continues = (prev: string, line: string, indentFirst: boolean): boolean =>
  /^\s*[\p{Ll}\d(:,;–-]/u.test(line) || /[-/,;:&]$|\band$/.test(prev) || !ends(prev) ||
  (!indentFirst && /^\s+\S/.test(line))

/** What goes between two lines of a reference: nothing after a word broken by a hyphen (which goes) or a link broken after a "/", else a space. */
const between = (left: string, right: string): { readonly drop: number; readonly glue: string } => {
  const token = left.slice(left.lastIndexOf(" ") + 1)
  if (/\p{Ll}-$/u.test(left) && /^\p{Ll}/u.test(right) && !/-\S*-$/.test(token)) return { drop: 1, glue: "" }
  if (left.endsWith("/") || (/^(?:https?:|doi:|10\.\d)/i.test(token) && /[._-]$/.test(token))) {
    return { drop: 0, glue: "" }
  }
  return { drop: 0, glue: " " }
}

/** A line that starts with an inverted name ("Vaswani, A.", "LeCun, Yann"), as APA, Harvard, Chicago and MLA start a reference. */
const invertedName = /^\s*\p{Lu}[\p{L}'’\u2010\u2011-]+(?:\s+\p{Lu}[\p{L}'’\u2010\u2011-]+)?,\s+\p{Lu}/u

/**
 * Whether a line may start a reference of a list whose first starts with an inverted name: it
 * starts so too, or gives a year in parentheses (an organisation as author: "World Health
 * Organization. (2020)."). A title or venue wrapped onto a line of its own does neither.
 */
const startsAuthorFirst = (line: string): boolean => invertedName.test(line) || /\((?:1[6-9]|20)\d\d[a-z]?\)/.test(line)

interface Open {
  readonly parts: Array<string>
  readonly line: number
  readonly number?: number
  last: string
}

/** A list cut into references: numbered ones at each next number, else at blank lines, else at lines that start one. */
export const cut = (text: string): ReadonlyArray<Cut> => {
  const lines = text.split(/\r\n|\r|\n/)
  const isBlank = (l: string) => l.trim().length === 0 || l.trim().startsWith("#")
  const first = lines.findIndex((l) => !isBlank(l))
  if (first === -1) return []
  let lastLine = lines.length - 1
  while (isBlank(lines[lastLine]!)) lastLine--
  const numbered = numberOf(lines[first]!) !== undefined
  const blankSeparated = !numbered && lines.slice(first, lastLine).some(isBlank)
  const indentFirst = /^\s/.test(lines[first]!)
  const authorFirst = invertedName.test(lines[first]!)
  const out: Array<Open> = []
  let blank = true
  lines.forEach((raw, i) => {
    if (isBlank(raw)) {
      blank = true
      return
    }
    const line = raw.trim()
    const last = out.at(-1)
    const n = numberOf(raw)
    const starts = last === undefined ||
      (numbered
        ? n !== undefined && n === (last.number ?? 0) + 1
        : blankSeparated
        ? blank
        : !continues(last.last, raw, indentFirst) && (!authorFirst || startsAuthorFirst(raw)))
    blank = false
    if (starts) {
      const first = numbered && n !== undefined ? raw.replace(numbering, "").trim() : line
      out.push({ parts: [first], line: i + 1, last: first, ...(numbered && n !== undefined ? { number: n } : {}) })
      return
    }
    const { drop, glue } = between(last!.last, line)
    const parts = last!.parts
    parts[parts.length - 1] = parts.at(-1)!.slice(0, parts.at(-1)!.length - drop)
    parts.push(glue, line)
    last!.last = line
  })
  return out.map((o) => ({
    text: o.parts.join(""),
    line: o.line,
    lines: (o.parts.length + 1) / 2,
    ...(o.number === undefined ? {} : { number: o.number })
  }))
}

/** The most lines and characters a reference takes: a piece longer is not one (a list of titles joined, say). */
export const maxLines = 12
export const maxLength = 4000

/** Words around ids that say what they are: dropped with the ids. */
const idLabels = [
  /\[Online\]\.?/gi,
  /\b(?:Available|Retrieved|Accessed)(?:\s+(?:at|from|on))?\s*:?[^.]*?(?=\s*(?:$|\.\s))/gi,
  /\b(?:doi|DOI|URL|arXiv)\s*:?\s*(?=[.,;]?\s*$|[.,;]\s)/g,
  /\barXiv preprint\b/gi,
  /\bCoRR\b,?/g,
  /\(\s*\)|\[\s*\]/g
]

/** The ids of a reference into `fields`, and its text without them or the words that named them. */
const takeIds = (text: string, fields: Fields): string => {
  const kept = text.split(/\s+/).filter((word) => {
    const bare = word.replace(/^[(<[]+/, "").replace(/[)>\].,;]+$/, "")
    const id = /^abs\/(\d{4}\.\d{4,5})/.exec(bare)
    return !(bare.length > 6 && putId(fields, id === null ? bare : `arXiv:${id[1]}`))
  })
  return idLabels.reduce((t, label) => t.replace(label, () => ""), kept.join(" "))
    .replace(/\s+([.,;:])/g, (_, p: string) => p).replace(/([.,;:])(?:\s+[.,;:])+/g, (_, p: string) => p)
    .replace(/[\s,;:]+$/, "").trim()
}

const yearPatterns = /\b(1[6-9]\d\d|20\d\d)[a-z]?\b/g

/** A sentence from the start of `text` (to its first point, question or exclamation mark), and the rest. */
// A point ends no sentence after an abbreviation written with points ("A.I.", "U.S.") or before a
// number it abbreviates the name of ("Guide No. 158", "Vol. 2").
const firstSentence = (text: string): readonly [string, string] => {
  const m = /^(.+?)(?:(?<=[?!])\s+|(?<!(?:^|[\s(])(?:\p{Lu}\.)+\p{Lu})(?<!\b(?:No|Vol|Pt|Part|Nr))\.\s+|\.?$)/su.exec(
    text
  )
  return m === null ? [text, ""] : [m[1]!.trim(), text.slice(m[0].length).trim()]
}

/**
 * A title's sentence and the rest: after a question ("Is attention all you need? A study."), the
 * next sentence is its subtitle when more follows it, and the venue when nothing does.
 */
const sentence = (text: string): readonly [string, string] => {
  const [first, rest] = firstSentence(text)
  if (!/[?!]$/.test(first) || rest.length === 0) return [first, rest]
  const [sub, after] = firstSentence(rest)
  return after.length > 0 && !/\d/.test(sub) ? [`${first} ${sub}`, after] : [first, rest]
}

/** What follows a point in an author list that goes on: an initial, a name and its comma, "&", "and", "et al.". */
const namesGoOn = /^(?:\p{Lu}\.|\p{Lu}[\p{L}'’-]+(?:,|\s+(?:and|&)\s)|&|and\s|et al)/u

/**
 * Where the author list ends in a reference without a year after it: the first point after a word,
 * or after an initial when no name follows it (Vancouver's "Parmar N. Attention…", Nature's "Hinton,
 * G. Deep learning."). Only a few characters either side are looked at.
 */
const authorsEnd = (text: string): number => {
  const re = /\.\s+/g
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const before = (m.index >= 3 ? "" : " ") + text.slice(Math.max(0, m.index - 3), m.index)
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 60)
    if (!/[\s.,-]\p{Lu}$/u.test(before) || !namesGoOn.test(after)) return m.index
  }
  return -1
}

/** Whether every point in a piece is an initial's or "et al."'s: it is an author list, not a title. */
const onlyInitialsPoints = (text: string): boolean =>
  [...text.matchAll(/\.(?=\s|$)/g)].every((m) => /(?:(?:^|[\s.,-])\p{Lu}|\bal)$/u.test(text.slice(0, m.index)))

/** One name as initials then family name: "A. Vaswani", "M.-W. Chang", "Ł. Kaiser". */
const initialsName = String.raw`(?:\p{Lu}\.(?:\s*|-))+\p{Lu}[\p{L}'’\u2010\u2011-]+`

/** A list of such names, "and" or "&" before the last, "et al." after it, then a comma and the rest. */
const initialsFirst = new RegExp(
  String.raw`^(${initialsName}(?:,?\s+(?:and\s+|&\s+)?${initialsName})*(?:,?\s+et al\.)?),\s+(.+)$`,
  "su"
)

/** What a reference holds before its venue: authors, title, year when it comes first, and the rest. */
interface Head {
  readonly authors: string
  readonly title: string
  readonly year?: string
  readonly rest: string
}

/** The layouts, tried in order: the first that fits splits the reference. */
const layouts: ReadonlyArray<(text: string) => Head | undefined> = [
  // IEEE, Chicago, MLA, Harvard: the title in quotes, right after the authors (or their year): a
  // quote after another word is a phrase in a title ("…empathy in ‘It from Bit’"). A title in “”
  // closes at ”; in ‘’ at a ’ that ends a word, not an apostrophe ("Turing’s", "There’s").
  (text) => {
    const m = /^(.*?)(?:“([^”]{6,}?)[,.]?”|"([^"]{6,}?)[,.]?"|‘(.{6,}?)[,.]?’(?![\p{L}\d]))(.*)$/su.exec(text)
    if (m === null || !/(?:^|[,.:)]\s*)$/.test(m[1]!)) return undefined
    const title = (m[2] ?? m[3] ?? m[4])!
    const year = /\(?\b(1[6-9]\d\d|20\d\d)[a-z]?\)?[.,]?\s*$/.exec(m[1]!)
    const authors = year === null ? m[1]! : m[1]!.slice(0, year.index)
    return { authors, title, ...(year === null ? {} : { year: year[1]! }), rest: m[5]! }
  },
  // Elsevier, and lists that drop IEEE's quotes: A. Vaswani, N. Shazeer et al., Title, Venue, 2017
  // (the venue may be left out). A quoted title was taken by the layout before.
  (text) => {
    const m = initialsFirst.exec(text)
    const end = m === null ? null : /(?:,\s*(?:in:?\s+|In:?\s+)?([^,]*))?,\s*(1[6-9]\d\d|20\d\d)[a-z]?\.?$/u.exec(m[2]!)
    if (m === null || end === null || end.index === 0) return undefined
    return { authors: m[1]!, title: m[2]!.slice(0, end.index), year: end[2]!, rest: end[1] ?? "" }
  },
  // APA, Harvard: authors (2017). Title. Rest — and ACM, Chicago author-date: authors. 2017. Title. Rest.
  // A bare year stands alone, ended by its point: "Intelligence. 2022 IEEE Conference" is a
  // Vancouver title followed by a venue that starts with its year, not an author-date year.
  (text) => {
    const m =
      /^([^\d()]+?)[.,]?\s*(?:\((1[6-9]\d\d|20\d\d)[a-z]?(?:,[^)]*)?\)[.,:]?|(?<=\.)\s*(1[6-9]\d\d|20\d\d)[a-z]?[.:])\s+(.+)$/su
        .exec(text)
    if (m === null || !onlyInitialsPoints(m[1]!)) return undefined
    const [title, rest] = sentence(m[4]!)
    return { authors: m[1]!, year: (m[2] ?? m[3])!, title, rest }
  },
  // Springer LNCS: authors: Title. Rest. The list ends in an initial's point or "et al." before its
  // colon; else the colon is a title's ("Lomas T. Stranger than we can imagine: the possibility…").
  (text) => {
    const m = /^([^:\d()]+?):\s+(.+)$/su.exec(text)
    if (m === null || !onlyInitialsPoints(m[1]!) || !/(?:(?:^|[\s.,-])\p{Lu}|\bal)\.$/u.test(m[1]!.trim())) {
      return undefined
    }
    const [title, rest] = sentence(m[2]!)
    return { authors: m[1]!, title, rest }
  },
  // Vancouver, and others: authors. Title. Rest.
  (text) => {
    const end = authorsEnd(text)
    if (end === -1) return undefined
    const [title, rest] = sentence(text.slice(end + 1).trim())
    return { authors: text.slice(0, end + 1), title, rest }
  }
]

/** Volume, issue and pages as the styles write them, each pattern's groups named. */
const numbers: ReadonlyArray<RegExp> = [
  /\bvol(?:ume)?\.?\s*(?<volume>\d+)/i,
  /\b(?:no|issue)\.?\s*(?<number>\d+)/i,
  // Chicago: Nature 521, no. 7553
  /\s(?<volume>\d+),\s*no\.\s*\d/,
  /\bpp?\.?\s*(?<first>\d+)\s*[-–—]+\s*(?<last>\d+)/,
  /\bpages\s+(?<first>\d+)\s*[-–—]+\s*(?<last>\d+)/i,
  // Vancouver: 2017;30(4):5998-6008.
  /;\s*(?<volume>\d+)\s*(?:\((?<number>[^)]+)\))?\s*:\s*(?<first>\w+)(?:\s*[-–—]\s*(?<last>\w+))?/,
  // APA: Journal, 30(4), 5998–6008; Nature, LNCS: Nature 521(7553), 436–444.
  /[,\s]\s*(?<volume>\d+)\s*(?:\((?<number>[^)]+)\))?,\s*(?<first>\d+)\s*[-–—]+\s*(?<last>\d+)/,
  // ACM: Journal 30, 4 (2017), 5998–6008 — and any last range: 5998–6008.
  /\b(?<first>\d+)\s*[-–—]+\s*(?<last>\d+)\.?\s*$/
]

/** Words that say a venue is a book or proceedings. */
const inBook = /\b(?:proc\.|proceedings|conference|conf\.|workshop|symposium|meeting|congress)/i

/** Where a venue's name stops: at its volume, issue, pages, year, place or publisher. */
const venueEnd =
  /(?:[,.;:]\s*|\s+)(?=vol\b|vol\.|volume\b|no\.|pp?\.|pages\b|\(|edited\b|eds?\.)|[,.;:]\s*(?=\d)|\s+(?=\d+\s*(?:[,.;:(]|$))|[,;]\s*(?=\p{Lu}[\p{L}]+,\s*\p{Lu}{2}\b)/iu

/** The venue and its numbers from what follows the title. */
const tail = (rest: string, fields: Fields): void => {
  for (const pattern of numbers) {
    const g = pattern.exec(rest)?.groups
    if (g === undefined) continue
    put(fields, "volume", g["volume"])
    put(fields, "number", g["number"])
    if (g["first"] !== undefined && fields["pages"] === undefined) putPages(fields, g["first"], g["last"])
  }
  const trimmed = rest.replace(/^[\s,.;:]+/, "")
  // "In I. Guyon et al. (Eds.), Advances in …": the editors are not the venue.
  const book = /^(?:In|in)\s*:?\s+(?:[^()]*?\((?:Eds?|Hrsg)\.?\),?\s*)?/.exec(trimmed)
  const from = book === null ? trimmed : trimmed.slice(book[0].length)
  const end = venueEnd.exec(from)
  const venue = (end === null ? from : from.slice(0, end.index))
    .replace(/^(?:Paper presented at|Presented at)\s+(?:the\s+)?/i, "").replace(/[\s.,;:]+$/, "")
  if (/\p{L}{2}/u.test(venue)) putVenue(fields, venue, book !== null || inBook.test(venue))
}

/** One formatted reference into an entry's fields. */
export const parseReference = (text: string): Fields => {
  const fields = newFields()
  const body = takeIds(text.replace(numbering, ""), fields)
  const head = layouts.reduce<Head | undefined>((found, layout) => found ?? layout(body), undefined)
  if (head === undefined) {
    put(fields, "title", body.replace(/[.\s]+$/, ""))
    return fields
  }
  const listed = names(head.authors)
  putAuthors(fields, listed.names, listed.others)
  put(fields, "title", head.title.replace(/[\s.,:;]+$/, ""))
  if (head.year !== undefined) putDate(fields, head.year)
  tail(head.rest, fields)
  // The year after the title is its last (IEEE: "IS4SI 2021, 2022"): a venue's name may hold its own.
  if (fields["year"] === undefined) {
    putDate(fields, [...head.rest.replace(/\d+\s*[-–—]+\s*\d+/g, "").matchAll(yearPatterns)].at(-1)?.[1])
  }
  return fields
}

/** The references of a formatted list, keyed by their number, else by their first line. */
export const readFormatted = (text: string): ReadonlyArray<Verify.Entry> =>
  cut(text).map((c) => {
    const key = String(c.number ?? c.line)
    if (c.lines <= maxLines && c.text.length <= maxLength) return entry(key, parseReference(c.text), c.line)
    const problem = `${c.text.length} characters on ${c.lines} line(s): longer than any reference, not read`
    return { key, fields: newFields(), line: c.line, problem }
  })
