/**
 * An author list as a formatted reference writes it, into BibTeX's "Family, Given and …": the
 * inverted names of APA, Harvard and Chicago ("Vaswani, A.", "Vaswani, Ashish"), IEEE's and ACM's
 * names in order ("A. Vaswani", "Ashish Vaswani"), Vancouver's family and bare initials
 * ("Vaswani A"), "et al." as `others`.
 */
import { lazy } from "./lazy.js"
import { particles } from "./verifyAuthors.js"

/**
 * A letter of a name: letters with their combining marks ("Demi\u0307rhan", as records decompose
 * the Turkish dotted i), apostrophes, and the hyphens names are written with, Unicode's own
 * (U+2010, U+2011: "Fernandez\u2010Granda") and an en dash a PDF puts for one ("Russell–Bennett").
 * A dash with spaces around it is never inside a word, so it still parts a title from a subtitle.
 */
export const nameLetter = String.raw`\p{L}\p{M}'’\u2010\u2011\u2013-`

/** "A.", "A. B.", "J.-P.", "A.B.": initials with their points. */
const initials = /^(?:\p{Lu}\.(?:\s*-?\s*\p{Lu}\.)*|\p{Lu}\.?(?:-\p{Lu}\.?)?)(?:\s+\p{Lu}\.?)*$/u

/** Vancouver's bare initials after a family name: "A", "AM", "J-P". */
const bareInitials = /^\p{Lu}{1,3}$|^\p{Lu}-\p{Lu}$/u

const spaced = (bare: string): string =>
  bare.includes("-") ? bare.split("-").map((l) => `${l}.`).join("-") : [...bare].map((l) => `${l}.`).join(" ")

/**
 * A given name (or names) standing alone: initials, or up to four capitalised words, each may be
 * abbreviated with a point, honorifics included as records keep them ("Prof. Dr. Md. Azizul").
 */
const givenWords = lazy(() =>
  new RegExp(String.raw`^\p{Lu}[${nameLetter}]*\.?(?:\s+\p{Lu}[${nameLetter}]*\.?){0,3}$`, "u")
)
const givenOnly = (token: string): boolean => initials.test(token) || givenWords().test(token)

/** A family name standing alone: one capitalised word, particles before it allowed. */
const familyWord = lazy(() => new RegExp(String.raw`^\p{Lu}[${nameLetter}]+$`, "u"))
const familyOnly = (token: string): boolean => {
  const words = token.split(/\s+/)
  return familyWord().test(words.at(-1)!) && words.slice(0, -1).every((w) => particles.has(w.toLowerCase()))
}

/** One name written in order ("A. Vaswani", "Ashish Vaswani", "Vaswani A"): "Family, Given". */
const inOrder = (token: string): string => {
  const words = token.split(/\s+/).filter((w) => w.length > 0)
  if (words.length === 1) return words[0]!
  const last = words.at(-1)!.replace(/\.$/, "")
  if (bareInitials.test(last)) return `${words.slice(0, -1).join(" ")}, ${spaced(last)}`
  let start = words.length - 1
  while (start > 1 && particles.has(words[start - 1]!.toLowerCase())) start--
  // Given names end at the last word that is not a particle: "Ludwig van Beethoven".
  if (start === 1 && particles.has(words[0]!.toLowerCase())) start = 0
  return start === 0 ? words.join(" ") : `${words.slice(start).join(" ")}, ${words.slice(0, start).join(" ")}`
}

const etAl = /,?\s*(?:et\.? al\.?|and others|…|\.\.\.)\s*[.,]?$/i

/** The names of an author list, and whether it ends "et al.". */
export const names = (list: string): { readonly names: ReadonlyArray<string>; readonly others: boolean } => {
  const whole = list.replace(/\s+/g, " ").trim().replace(/\s*\((?:eds?|Hrsg)\.?\)\s*[.,]?$/i, "")
  const others = etAl.test(whole)
  // A last point ends the list, unless it is an initial's ("Parmar, N.").
  const text = whole.replace(etAl, "").replace(/[,;\s]+$/, "").replace(/(?<![\s.-]\p{Lu})\.$/u, "")
  // Each name, and whether "and" or "&" came before it: a name after "and" starts a person of its
  // own, never the given names of the family before it ("Mwamba, Geofrey, Nyabuto, and Franklin Wabwoba").
  const tokens: Array<{ readonly text: string; readonly afterAnd: boolean }> = []
  const separator = /\s*(?:,|;|\s&|\sand\s)\s*(?:&\s*|and\s+)?/g
  let from = 0
  let afterAnd = false
  for (const m of [...text.matchAll(separator), undefined]) {
    const token = text.slice(from, m?.index ?? text.length).trim()
    if (token.length > 0) tokens.push({ text: token, afterAnd })
    if (m === undefined) break
    from = m.index + m[0].length
    afterAnd = /&|\band\b/.test(m[0])
  }
  const out: Array<string> = []
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!.text
    const next = tokens[i + 1]
    // "Vaswani, A." and "Vaswani, Ashish": a family alone, then its given names.
    if (familyOnly(token) && next !== undefined && !next.afterAnd && givenOnly(next.text)) {
      out.push(`${token}, ${next.text}`)
      i++
    } else out.push(inOrder(token))
  }
  return { names: out, others }
}
