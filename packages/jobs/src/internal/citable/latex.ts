/**
 * Text into BibTeX values. Every character is written as ASCII LaTeX when {@link texTable} has it
 * (unicode2latex's spelling, Better BibTeX's table, of the characters whose spelling typesets with
 * pdfLaTeX and `\usepackage[T1]{fontenc}` alone); else it stays UTF-8 (CJK, Arabic, Cyrillic,
 * emoji, a letter with two accents: those need XeLaTeX/LuaLaTeX or a package for the script). Each
 * character's command is braced on its own (`{\'e}`, `{$\alpha$}`, `{\textbraceleft}`), so BibTeX
 * sees it as one special character and a value never has a brace of its own: braces in a value are
 * always balanced.
 */
import { texTable } from "./texTable.js"

/** Everything ASCII that LaTeX prints as itself. */
const literal = /^[A-Za-z0-9 !'()*+,\-./:;=?@[\]`"]+$/

/** Whether braces balance as BibTeX counts them (every `{` and `}`, escaped or not), with no `\` before one. */
export const balanced = (text: string): boolean => {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "\\" && (i + 1 === text.length || text[i + 1] === "{" || text[i + 1] === "}")) return false
    if (c === "{") depth++
    else if (c === "}" && --depth < 0) return false
  }
  return depth === 0
}

// A Map of the generated table, as it is looked up by the server's text: no character of it can
// reach an object's prototype.
const spelling: ReadonlyMap<string, string> = new Map(Object.entries(texTable))

/** One code point as LaTeX: itself when LaTeX prints it as itself or the table has no spelling (UTF-8). */
const codePoint = (c: string): string => literal.test(c) ? c : spelling.get(c) ?? c

/**
 * One character (a base and its combining marks) as LaTeX: the table's spelling of the whole when
 * it has one (`é`), else the base's spelling followed by the marks as UTF-8. The base is never
 * written raw when the table spells it: `}` with an acute accent is `{\textbraceright}` and the
 * accent, never a bare `}` that closes the field.
 */
const character = (c: string): string => {
  // A combining mark on nothing (or on a space) has nothing to accent: dropped.
  const base = /^[\p{M}\s]/u.test(c) ? c.replace(/\p{M}/gu, "") : c
  const whole = spelling.get(base) ?? spelling.get(base.normalize("NFC"))
  if (whole !== undefined || base.length === 0) return whole ?? ""
  const [first, ...marks] = Array.from(base)
  return codePoint(first!) + marks.join("")
}

/** Text as a BibTeX value (one line, as {@link oneLine} leaves it): escaped, braces balanced. */
export const tex = (text: string): string =>
  literal.test(text)
    ? text
    : Array.from(text.matchAll(/\P{M}\p{M}*|\p{M}+/gu), (m) => literal.test(m[0]) ? m[0] : character(m[0])).join("")

/**
 * A title as a BibTeX value with its capitals protected: a word keeps its case under a style that
 * lowercases titles (plain, abbrv, IEEEtran…) when it is braced. Braced: every word with a capital
 * letter, except the title's first word when its only capital is its first letter (BibTeX keeps
 * that one). So "ChatGPT", "BERT", "COVID-19", "Turing" and "Chinese" keep their case, and so does
 * every capitalised word of a title in Title Case: the title reads as the publisher wrote it.
 */
export const title = (text: string): string =>
  text.split(" ").map((word, i) => {
    const capitals = (word.match(/\p{Lu}/gu) ?? []).length
    const keeps = i === 0 && capitals === 1 && /^\p{Lu}/u.test(word)
    return capitals > 0 && !keeps ? `{${tex(word)}}` : tex(word)
  }).join(" ")
