/**
 * Formatted references as pasted from a paper (APA, Harvard, IEEE, ACM, Vancouver, Chicago, MLA,
 * numbered or not, lines wrapped) into entries. No JavaScript parser reads these well (the good
 * ones are trained models: GROBID, AnyStyle, in other languages), so this is a heuristic: the list
 * is cut into references (by numbers, blank lines, or lines that start a reference), ids are taken
 * out by `PaperId.recognise`, then the first of a table of layouts that fits splits what is left
 * into authors, year, title and the rest, where the venue, volume, issue and pages are found.
 * A field it cannot tell is left out: a missing field is never a difference.
 */
import type * as ReferenceInput from "../ReferenceInput.js"
import { lazy } from "./lazy.js"
import { entry, type Fields, newFields, put, putAuthors, putDate, putId, putPages, putVenue } from "./readFields.js"
import { nameLetter, names } from "./readNames.js"
import { particles } from "./verifyAuthors.js"

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

/** A family name as a list starts with it: capitalised, particles before it ("da Silva", "van der Berg"). */
const familyName = String.raw`(?:(?:${
  [...particles].join("|")
})\s+){0,2}\p{Lu}[${nameLetter}]+(?:\s+\p{Lu}[${nameLetter}]+)?`

/** A line that starts with an inverted name ("Vaswani, A.", "LeCun, Yann"), as APA, Harvard, Chicago and MLA start a reference. */
export const invertedName = lazy(() => new RegExp(String.raw`^\s*${familyName},\s+\p{Lu}`, "u"))

/**
 * The same, the given name ended as a name's is: an initial, or a word then a comma, a point, a
 * parenthesis, an initial or the line's end. "Theory, Culture & Society" is a venue wrapped onto
 * its own line, not "Theory, Culture".
 */
const invertedPerson = lazy(() =>
  new RegExp(String.raw`^\s*${familyName},\s+(?:\p{Lu}\.|\p{Lu}[${nameLetter}]*(?=[,.(]|\s+\p{Lu}\.|\s*$))`, "u")
)

const yearInParentheses = /\((?:1[6-9]|20)\d\d[a-z]?\)|\(n\.\s?d\.\)/

/**
 * Whether a line may start a reference of a list whose first starts with an inverted name: it
 * starts so too, or gives a year in parentheses (an organisation as author: "World Health
 * Organization. (2020)."). A title or venue wrapped onto a line of its own does neither.
 */
const startsAuthorFirst = (line: string): boolean => invertedPerson().test(line) || yearInParentheses.test(line)

/**
 * Whether a line holds nothing but names: every point an initial's, no year. While a reference's
 * lines are all so, its author list goes on, and the next line cannot start another ("…, McKee, K.
 * / R., & Pittman, J. (2024)" is one list wrapped).
 */
const namesOnly = (line: string): boolean => !yearInParentheses.test(line) && onlyInitialsPoints(line)

interface Open {
  readonly parts: Array<string>
  readonly line: number
  readonly number?: number
  last: string
  /** Every line so far {@link namesOnly}: still in its author list. */
  inAuthors: boolean
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
  const authorFirst = invertedName().test(lines[first]!)
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
        : !continues(last.last, raw, indentFirst) && (!authorFirst || (!last.inAuthors && startsAuthorFirst(raw))))
    blank = false
    if (starts) {
      const first = numbered && n !== undefined ? raw.replace(numbering, "").trim() : line
      out.push({
        parts: [first],
        line: i + 1,
        last: first,
        inAuthors: namesOnly(first),
        ...(numbered && n !== undefined ? { number: n } : {})
      })
      return
    }
    const { drop, glue } = between(last!.last, line)
    const parts = last!.parts
    parts[parts.length - 1] = parts.at(-1)!.slice(0, parts.at(-1)!.length - drop)
    parts.push(glue, line)
    last!.last = line
    last!.inAuthors &&= namesOnly(line)
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
  // "arXiv" without a colon is a venue (APA's and Vancouver's "… skills. arXiv."), not the id's label.
  /\b(?:doi|DOI|URL|arXiv\s*:)\s*:?\s*(?=[.,;]?\s*$|[.,;]\s)/g,
  /\barXiv preprint\b/gi,
  /\bCoRR\b,?/g,
  /\(\s*\)|\[\s*\]/g
]

/** The ids of a reference into `fields`, and its text without them or the words that named them. */
export const takeIds = (text: string, fields: Fields): string => {
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
export const sentence = (text: string): readonly [string, string] => {
  const [first, rest] = firstSentence(text)
  if (rest.length === 0) return [first, rest]
  const [sub, after] = firstSentence(rest)
  // A part's number is the title's: "Studies in the History of Probability and Statistics. XXXVII."
  if (partNumber.test(sub)) return [`${first}. ${sub}`, after]
  // "Know?. Circulation": the point after a question is the style's own end of the title.
  if (!/[?!]$/.test(first)) return titleSentences(first, rest)
  if (text.trimStart().charAt(first.length) === ".") return [first, rest]
  return after.length > 0 && !/\d/.test(sub) ? [`${first} ${sub}`, after] : [first, rest]
}

/** Words that name a venue: a sentence holding one is the venue, not a title's. */
const venueWords =
  /\b(?:journal|proceedings|proc|transactions|conference|symposium|workshop|annals|bulletin|magazine|letters|advances|trends|frontiers|arxiv|ieee|acm)\b/i

/**
 * A title that is two sentences ("Mixed reality videography. Analyzing joint behaviour of…"): the
 * sentence after the first is the title's when it reads as prose (four words or more, a small
 * word among them, no number, no venue's word, not "In …") and a sentence with words still follows
 * it for the venue. A venue's own points ("Filosofija. Sociologija.", "Philosophical
 * transactions. Series A") are short or have no small word; a venue then its year ("Frontiers in
 * Psychology. 2024;6") leaves no venue after it.
 */
const titleSentences = (title: string, rest: string): readonly [string, string] => {
  const [next, after] = firstSentence(rest)
  const words = next.split(/\s+/)
  const prose = words.length >= 4 && words.some((w) => smallWords.has(w.toLowerCase())) && !/\d/.test(next) &&
    !venueWords.test(next) && !/^In\b/.test(next)
  return prose && /^\p{L}/u.test(after) && /\p{L}{2}/u.test(firstSentence(after)[0])
    ? [`${title}. ${next}`, after]
    : [title, rest]
}

/** Small words of English, German, French, Spanish and Italian titles. */
const smallWords: ReadonlySet<string> = new Set(
  "a an the of in on for and to with from by at as is are der die das und zur zum von im den le la les des du et en pour de del los las y para con di il e per"
    .split(" ")
)

/** A sentence that is only a part's number: a Roman numeral, or "Part 2". */
const partNumber = /^(?:[IVXL]{1,7}|Part\s+(?:\d+|[IVXL]{1,7}))$/

/** What follows a point in an author list that goes on: an initial, a name and its comma, "&", "and", "et al.". */
const namesGoOn = lazy(() =>
  new RegExp(String.raw`^(?:\p{Lu}\.|\p{Lu}[${nameLetter}]+(?:,|\s+(?:and|&)\s)|&|and\s|et al)`, "u")
)

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
    const list = text.slice(0, m.index)
    if (!/[\s.,-]\p{Lu}$/u.test(before) || !namesGoOn().test(after) || vancouverList(list)) return m.index
    // The name after "&" or "and" is the last, and an inverted list goes on after a comma: after
    // the point only initials, "&", "and" or "et al." go on ("… & Polosa, R. Progress and…",
    // "Searle, J. Minds, brains and…").
    const end = lastChars(list, list.length, 80)
    if ((lastJoined.test(end) || invertedList(list, end)) && !/^(?:\p{Lu}\.|&|and\s|et al)/u.test(after)) {
      return m.index
    }
  }
  return -1
}

/** A list whose last name came after "&" or "and": "Goh, B. & Lee, W", "Laurie L. and M". */
const lastJoined = /\s(?:&|and)\s+[^,&]+(?:,\s*[^,&]+)?$/

/** A list of inverted names ending in an initial: "Searle, J", "Wong, L.W., Mak, S. H". */
const invertedList = (list: string, end: string): boolean =>
  invertedName().test(list) && /,\s+\p{Lu}(?:\.\s*-?\p{Lu})*$/u.test(end)

/** One name as Vancouver writes it: a family name (a word or a few) and bare initials. */
const vancouverName = lazy(() =>
  new RegExp(String.raw`^\p{Lu}[${nameLetter}]*(?:\s+[${nameLetter}]+){0,3}\s+\p{Lu}{1,3}$`, "u")
)

/**
 * Whether a list before a point is Vancouver's, every name a family and bare initials ("Lu Y, Li
 * W"): its point ends it, whatever follows ("Li W. Techniques and Paradigms…" is no name and "and").
 */
const vancouverList = (list: string): boolean =>
  !list.includes(".") && list.split(/,\s+/).every((name) => vancouverName().test(name.trim()))

/** Whether every point in a piece is an initial's or "et al."'s: it is an author list, not a title. */
const onlyInitialsPoints = (text: string): boolean => !otherPoint.test(text)

/** A point that ends a word, not an initial's, "et al."'s or an honorific's: one pass over the text. */
const otherPoint = /(?<!(?:^|[\s.,-])\p{Lu}|\bal|\b(?:Dr|Prof|Md|Mr|Mrs|Ms|Jr|Sr))\.(?=\s|$)/u

/** The `n` characters before `at`, a space first when the text starts there: the end of a list, looked at in the same time however long the list. */
const lastChars = (text: string, at: number, n: number): string =>
  at > n ? text.slice(at - n, at) : ` ${text.slice(0, at)}`

/** Words an author list holds besides names: its joins, "et al.", particles, and an organisation's small words. */
const listWords: ReadonlySet<string> = new Set([
  ...particles,
  "and",
  "et",
  "al",
  "others",
  "of",
  "for",
  "the",
  "on",
  "in"
])

/**
 * Whether a piece reads as an author list: every word capitalised, an initial, or one of
 * {@link listWords}. "Turing A. Proposed electronic calculator (1945)" is a Vancouver author and
 * a title with a year in it, not authors and their year.
 */
const nameWords = (text: string): boolean =>
  text.split(/[\s,;&]+/).every((w) => w.length === 0 || /^[\p{Lu}'’(]/u.test(w) || listWords.has(w.replace(/\.+$/, "")))

/** One name as initials then family name: "A. Vaswani", "M.-W. Chang", "Ł. Kaiser". */
const initialsName = String.raw`(?:\p{Lu}\.(?:\s*|-))+\p{Lu}[${nameLetter}]+`

/** A list of such names, "and" or "&" before the last, "et al." after it, then a comma and the rest. */
const initialsFirst = lazy(() =>
  new RegExp(String.raw`^(${initialsName}(?:,?\s+(?:and\s+|&\s+)?${initialsName})*(?:,?\s+et al\.)?),\s+(.+)$`, "su")
)

/**
 * The first quoted piece of a reference, of six characters or more: in “…” up to the ” that closes
 * the first “ (a title quotes a phrase of its own: “A Framework of “Quantitative…” Induced…,”), in
 * "…" up to the next ", in ‘…’ up to a ’ that ends a word, not an apostrophe ("Turing’s"). The
 * point or comma a style puts inside the quotes is dropped.
 */
const quoted = (
  text: string
): { readonly before: string; readonly title: string; readonly after: string } | undefined => {
  for (const open of text.matchAll(/[“"‘]/g)) {
    const start = open.index + 1
    const close = open[0] === "“"
      ? balancedQuote(text, start)
      : open[0] === "\""
      ? text.indexOf("\"", start)
      : (/’(?![\p{L}\d])/u.exec(text.slice(start))?.index ?? -1) + start
    if (close < start) continue
    const title = text.slice(start, close).replace(/[,.]$/, "")
    if (title.length >= 6) return { before: text.slice(0, open.index), title, after: text.slice(close + 1) }
  }
  return undefined
}

/** Where the ” that closes a “ opened before `from` is: quotes inside counted, else the first ”; -1 when none. */
const balancedQuote = (text: string, from: number): number => {
  let depth = 1
  let first = -1
  for (let i = from; i < text.length; i++) {
    if (text[i] === "“") depth++
    else if (text[i] === "”") {
      if (first === -1) first = i
      if (--depth === 0) return i
    }
  }
  return first
}

/** Words that name a venue: a piece after a comma that holds one starts the venue. */
export const venueWord =
  /\b(?:journal|proceedings|proc\.|transactions|trans\.|conference|conf\.|symposium|workshop|annals|bulletin|magazine|letters|arxiv|ieee|acm)\b/i

/**
 * A title and its venue parted by commas only (Elsevier's order: "Title, Venue, 2023"), when both
 * may hold commas: the venue starts at the first piece that is capitalised and names a venue
 * ("…Career Choice, Journal of Logistics, Informatics and Service Science"), else it is the last
 * piece ("…OF DAYTON, OHIO, Cryptologia"). "In" before a venue goes.
 */
const titleAndVenue = (text: string): readonly [string, string] => {
  const pieces = text.split(/,\s+/)
  const at = pieces.findIndex((p, i) => i > 0 && /^(?:[Ii]n:?\s+)?[\p{Lu}\d]/u.test(p) && venueWord.test(p))
  const from = at === -1 ? pieces.length - 1 : at
  if (from === 0) return [text, ""]
  return [pieces.slice(0, from).join(", "), pieces.slice(from).join(", ").replace(/^[Ii]n:?\s+/, "")]
}

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
    const q = quoted(text)
    // A quote before a colon opens the title with a quoted phrase ("“Bot or Not”: Turing Problem…").
    if (q === undefined || !/(?:^|[,.:)]\s*)$/.test(q.before) || /^\s*:\s/.test(q.after)) return undefined
    const year = /\(?\b(1[6-9]\d\d|20\d\d)[a-z]?\)?[.,]?\s*$/.exec(q.before)
    const authors = year === null ? q.before : q.before.slice(0, year.index)
    // What comes before the title is its authors: "Collins, J. Generative linguistics: ‘Galilean
    // style’." quotes a phrase inside a title that has no quotes.
    if (!nameWords(authors)) return undefined
    return { authors, title: q.title, ...(year === null ? {} : { year: year[1]! }), rest: q.after }
  },
  // Elsevier, and lists that drop IEEE's quotes: A. Vaswani, N. Shazeer et al., Title, Venue, 2017
  // (the venue may be left out). A quoted title was taken by the layout before.
  (text) => {
    const m = initialsFirst().exec(text)
    const end = m === null ? null : /,\s*(1[6-9]\d\d|20\d\d)[a-z]?\.?$/u.exec(m[2]!)
    if (m === null || end === null || end.index === 0) return undefined
    const [title, venue] = titleAndVenue(m[2]!.slice(0, end.index))
    return { authors: m[1]!, title, year: end[1]!, rest: venue }
  },
  // APA, Harvard: authors (2017). Title. Rest — and ACM, Chicago author-date: authors. 2017. Title. Rest.
  // A bare year stands alone, ended by its point: "Intelligence. 2022 IEEE Conference" is a
  // Vancouver title followed by a venue that starts with its year, not an author-date year.
  (text) => {
    const m =
      /^([^\d()]+?)[.,]?\s*(?:\((1[6-9]\d\d|20\d\d)[a-z]?(?:,[^)]*)?\)[.,:]?|(?<=\.)\s*(1[6-9]\d\d|20\d\d)[a-z]?[.:])\s+(.+)$/su
        .exec(text)
    if (m === null || !onlyInitialsPoints(m[1]!) || !nameWords(m[1]!)) return undefined
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

/**
 * Where a venue's name stops: at its volume, issue, pages, year, place or publisher. A decimal
 * number is the name's ("Conference on Industry 4.0, …"): no volume is written with a point.
 */
const venueEnd =
  /(?:[,.;:]\s*|\s+)(?=vol\b|vol\.|volume\b|no\.|pp?\.|pages\b|\(|edited\b|eds?\.)|(?:[,;:]|(?<!\d)\.)\s*(?=\d)|\s+(?=\d+\s*(?:[,;:(]|\.(?!\d)|$))|[,;]\s*(?=\p{Lu}[\p{L}]+,\s*\p{Lu}{2}\b)/iu

/** The venue and its numbers from what follows the title. */
export const tail = (rest: string, fields: Fields): void => {
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

/**
 * Reads a reference's text (its ids taken out) that none of the {@link layouts} fits into `fields`,
 * and says whether it could: the informal reader's layouts ("Title - Vaswani et al., 2017").
 */
export type Fallback = (body: string, fields: Fields) => boolean

/** One formatted reference into an entry's fields. */
export const parseReference = (text: string, fallback: Fallback = () => false): Fields => {
  const fields = newFields()
  const body = takeIds(text.replace(numbering, ""), fields)
  const head = layouts.reduce<Head | undefined>((found, layout) => found ?? layout(body), undefined)
  if (head === undefined) {
    if (!fallback(body.replace(/[.\s]+$/, ""), fields)) put(fields, "title", body.replace(/[.\s]+$/, ""))
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

/** The references of a formatted list, keyed by their number, else by their first line; `fallback` reads one no layout fits. */
export const readFormatted = (text: string, fallback?: Fallback): ReadonlyArray<ReferenceInput.Entry> =>
  cut(text).map((c) => {
    const key = String(c.number ?? c.line)
    if (c.lines <= maxLines && c.text.length <= maxLength) return entry(key, parseReference(c.text, fallback), c.line)
    const problem = `${c.text.length} characters on ${c.lines} line(s): longer than any reference, not read`
    return { key, fields: newFields(), line: c.line, problem }
  })
