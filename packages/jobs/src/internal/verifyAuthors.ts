/**
 * Authors as a list: a BibTeX `author` field read into names (family and given, "others" and "et
 * al." as a flag), the record's display names read the same way, and the two lists compared name
 * by name: count (unless the entry ends in "and others"), order, family names, given names or
 * initials. Forgives what correct references differ in: case, accents, TeX, hyphens, particles,
 * initials for given names, a family name joined or apart ("Le Cun", "LeCun"), and family and
 * given written the other way round ("Sun Weiwei").
 */
import { plain } from "./bibtex.js"
import * as TitleMatch from "./titleMatch.js"

/** A name as compared: normalised words of the family name (particles kept) and of the given names. */
export interface Name {
  /** The name as written (plain text), for messages. */
  readonly shown: string
  /** The family name as written (plain text). */
  readonly familyShown: string
  readonly family: ReadonlyArray<string>
  readonly given: ReadonlyArray<string>
}

/** An entry's authors: the names, and whether the list ends in "and others" / "et al.". */
export interface AuthorList {
  readonly names: ReadonlyArray<Name>
  readonly others: boolean
}

export const particles: ReadonlySet<string> = new Set([
  "van",
  "von",
  "der",
  "den",
  "de",
  "del",
  "della",
  "di",
  "da",
  "du",
  "la",
  "le",
  "ter",
  "ten",
  "zu",
  "dos",
  "das"
])

// A BibTeX value splits at " and " and "," only outside braces: `{Barnes and Noble}` is one name.
export const splitTopLevel = (tex: string, separator: RegExp): Array<string> => {
  const parts: Array<string> = []
  let depth = 0
  let start = 0
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i]
    if (c === "\\") i++
    else if (c === "{") depth++
    else if (c === "}") depth--
    else if (depth === 0) {
      const m = separator.exec(tex.slice(i, i + 8))
      if (m !== null && m.index === 0) {
        parts.push(tex.slice(start, i))
        start = i + m[0].length
        i = start - 1
      }
    }
  }
  parts.push(tex.slice(start))
  return parts.map((p) => p.trim()).filter((p) => p.length > 0)
}

const suffix = /^(?:jr|sr|jnr|snr|ii|iii|iv)\.?$/i
// Initials after a family name ("Vaswani A", "Smith JR"): capitals only, so "Kaiming He" stays a name.
const initial = /^(?:\p{Lu}\.?-?){1,3}$/u
// "et al." written into a name or as the last name: "A. Hussain et al.", "Smith, J. et. al".
const etAl = /[\s,]*\bet\.?\s*al(?:ii|\.)?\.?\s*$/iu

export const words = (text: string): ReadonlyArray<string> => {
  const normalised = TitleMatch.normalise(text)
  return normalised.length === 0 ? [] : normalised.split(" ")
}

const name = (tex: string, family: string, given: string): Name => ({
  shown: plain(tex),
  familyShown: family,
  family: words(family),
  given: words(given)
})

/**
 * One BibTeX name, as BibTeX reads it: "von Last, First" (the part before the first comma is the
 * family), else the last word with the lowercase words before it ("First von Last"). "Vaswani A"
 * (initials after the family name, as some styles write it) is family "Vaswani".
 */
export const nameOf = (tex: string, initialsAfter = true): Name | undefined => {
  const parts = splitTopLevel(tex, /^,/)
  if (parts.length > 1) {
    const family = plain(parts[0]!)
    const given = plain(parts.slice(1).filter((p) => !suffix.test(plain(p))).join(" "))
    return family.length === 0 ? undefined : name(tex, family, given)
  }
  const all = splitTopLevel(tex, /^\s+/)
  while (all.length > 1 && suffix.test(plain(all.at(-1)!))) all.pop()
  if (
    initialsAfter && all.length > 1 && plain(all[0]!).length > 2 && all.slice(1).every((w) => initial.test(plain(w)))
  ) {
    return name(tex, plain(all[0]!), plain(all.slice(1).join(" ")))
  }
  let from = all.length - 1
  while (from > 1 && /^\p{Ll}/u.test(plain(all[from - 1]!))) from--
  const family = plain(all.slice(from).join(" "))
  if (family.length === 0) return undefined
  return name(tex, family, plain(all.slice(0, from).join(" ")))
}

/** A BibTeX `author` field as a list: "others" and a trailing "et al." set `others`. */
export const authorList = (field: string): AuthorList => {
  const names: Array<Name> = []
  let others = false
  for (const raw of splitTopLevel(field, /^\s+and\s+/i)) {
    const text = raw.replace(etAl, () => {
      others = true
      return ""
    })
    if (/^(?:others|et\.?\s*al\.?)$/i.test(plain(text)) || plain(text).length === 0) {
      others = true
      continue
    }
    const name = nameOf(text)
    if (name !== undefined && name.family.length > 0) names.push(name)
  }
  return { names, others }
}

/**
 * A display name of the record ("Ashish Vaswani", "L. van der Maaten"), read as a BibTeX name. A
 * link is no part of a name: the API has names with one glued on ("Michal
 * Kosinskihttps://www.semanticscholar.org/me/account"), which no entry writes.
 */
export const displayName = (name: string): Name | undefined =>
  nameOf(name.replace(/[{}\\]/g, () => "").replace(/(?:https?:\/\/|www\.)\S*/gi, () => " "), false)

/** Whether consecutive words join to `word`: "Le Cun" for "LeCun". */
const joinsTo = (have: ReadonlyArray<string>, word: string): boolean =>
  have.some((_, i) => {
    let joined = ""
    for (let j = i; j < have.length && joined.length < word.length; j++) joined += have[j]
    return joined === word
  })

/** Whether the family name is among the record name's words (particles aside, or joined). */
export const familyIn = (family: ReadonlyArray<string>, have: ReadonlyArray<string>): boolean => {
  const wanted = family.filter((w) => !particles.has(w))
  if (wanted.length === 0) return true
  return wanted.every((w) => have.includes(w)) || joinsTo(have, wanted.join("")) || joinsTo(have, family.join(""))
}

/** Whether two given names agree: the same word, or one an initial (or prefix) of the other. */
const givenAgrees = (a: string, b: string): boolean => a.startsWith(b) || b.startsWith(a)

/**
 * How the entry's name stands to the record's: `same`, `given` (the family agrees, the given name
 * or initial does not: "Jennifer J. Sun" for "Weiwei Sun") or `other`. Only the first given name
 * (or initial) is compared: middle names are left out as often as not.
 */
export const compareName = (entry: Name, record: Name): "same" | "given" | "other" => {
  // In the order written, so that "Le Cun" joins to "LeCun".
  const all = words(record.shown)
  if (!familyIn(entry.family, all)) return "other"
  // The family's words taken out once each, from the end: "Ahmed Mohamed Ahmed" keeps a given "Ahmed".
  const rest = [...all]
  for (const w of entry.family) {
    const at = rest.lastIndexOf(w)
    if (at >= 0) rest.splice(at, 1)
  }
  const others = rest.filter((w) => !particles.has(w))
  const mine = entry.given.filter((w) => !particles.has(w))
  if (mine.length === 0 || others.length === 0) return "same"
  // The record may give the family name first ("Sun Weiwei"): any of its other words may be the given.
  return others.some((w) => givenAgrees(mine[0]!, w)) ? "same" : "given"
}

/** What differs between two author lists, as sentences; empty when they agree. */
export const compareAuthors = (entry: AuthorList, record: ReadonlyArray<Name>): ReadonlyArray<string> => {
  if (entry.names.length === 0 || record.length === 0) return []
  const problems: Array<string> = []
  const shown = (n: Name) => JSON.stringify(n.shown)
  entry.names.forEach((name, i) => {
    const at = record[i]
    const here = at === undefined ? "other" : compareName(name, at)
    if (here === "same") return
    const elsewhere = record.findIndex((r, j) => j !== i && compareName(name, r) === "same")
    const position = i === 0 ? "first author" : `author ${i + 1}`
    if (here === "given") problems.push(`${position} ${shown(name)} is ${shown(at!)} in the record`)
    else if (elsewhere >= 0) problems.push(`${position} ${shown(name)} is author ${elsewhere + 1} in the record`)
    else problems.push(`${position} ${shown(name)} is not an author of the paper`)
  })
  const [n, m] = [entry.names.length, record.length]
  if (entry.others ? n > m : n !== m) {
    problems.push(
      `the entry names ${n} author${n === 1 ? "" : "s"}${entry.others ? " and others" : ""}, the paper has ${m}`
    )
  }
  return problems
}

/**
 * Whether an entry names the paper's first author alone, no "et al." after it, for a paper of more
 * authors: how people cite a paper in passing ("Vaswani 2017"), the others left unsaid, not said
 * to be none. A list of two names or more is written out, and is compared name by name.
 */
export const firstAuthorAlone = (entry: AuthorList, record: ReadonlyArray<Name>): boolean =>
  entry.names.length === 1 && !entry.others && record.length > 1 && compareName(entry.names[0]!, record[0]!) === "same"
