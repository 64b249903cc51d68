/**
 * Text into BibTeX values. Every character is written as ASCII LaTeX when a command for it is
 * known (from unicode2latex, Better BibTeX's table) and that command typesets with plain pdfLaTeX
 * and `\usepackage[T1]{fontenc}` ({@link typesetRanges}, {@link accents}); else it stays UTF-8 (CJK, Arabic, Cyrillic,
 * emoji: those need XeLaTeX/LuaLaTeX or a package for the script). Each character's command is
 * braced on its own (`{\'e}`, `{$\alpha$}`, `{\textbraceleft}`), so BibTeX sees it as one special
 * character and a value never has a brace of its own: braces in a value are always balanced.
 */
import { Transform } from "unicode2latex"

/**
 * The characters (code points, as hex ranges) whose unicode2latex rendering typesets with pdfLaTeX,
 * `\usepackage[T1]{fontenc}` and the LaTeX kernel alone: found by compiling every character of
 * its table, and checked again by the compile test. Accented letters are not here: they are a
 * letter and its marks ({@link accents}).
 */
export const typesetRanges: ReadonlyArray<readonly [number, number]> = (
  "a0-a1 a3 a7-a9 ab-b7 b9 bb-bf c6 d0 d7-d8 de-df e6 f0 f7-f8 fe 110-111 127 131-133 138 141-142 " +
  "149-14b 152-153 17f 192 237 25b 261 263 2b0 2b2-2b3 2b7-2b9 2bb-2bd 2c6-2c7 2c9 2cb 2d8 2da-2dd " +
  "2e1-2e3 338 375 391-3a1 3a3-3a9 3b1-3c9 3d1-3d2 3d5-3d6 3f1 3f4-3f5 871 1d2c 1d43 1d47-1d49 1d4d " +
  "1d4f-1d50 1d52 1d56-1d58 1d5b 1d9c 1da0 1dbb 2002-200c 2010-2016 2018-201a 201c-2027 202f " +
  "2032-2034 2039-203b 203d-203e 2044 2048-204a 2052 2057 205f 2070-2071 2074-208e 2090-2093 " +
  "2095-209c 20ac 2100-2101 2103 2105-2106 2109-210b 2110 2112-2113 2116-2118 211b 2120-2121 2127 " +
  "212c 212e-2131 2133-2135 2150-215e 2160-217f 2189 2190-2199 21a6 21a9-21aa 21bc-21bd 21c0 21cc " +
  "21d0-21d5 2200 2202-2203 2208 220b 220f-2213 2215 2217-221a 221d-221e 2220 2223 2225 2227-222e " +
  "2236 223a 223c 2240 2243 2245 2248 224d 2250 2254-2255 2261 2264-2265 226a-226b 227a-227b " +
  "2282-2283 2286-2287 228e 2291-2299 22a2-22a5 22c0-22c6 22c8 22ee-22ef 22f1 2308-230b 2316 " +
  "2322-2323 23b0-23b1 2422 246a-24c7 24c9-24ea 2500-2505 2507-250b 254c-2551 2573 257c-257f 25bd " +
  "25cb 25e6 25ef 2613 2661-2663 266a 266d-266f 27c2 27e8-27e9 27ee-27ef 27f5-27fa 27fc 29f5 " +
  "2a00-2a02 2a3f 2a6e 2a7d 2aaf-2ab0 2afd 3008-3009 fb00-fb06 fffd 1d400-1d454 1d456-1d467 1d49c " +
  "1d49e-1d49f 1d4a2 1d4a5-1d4a6 1d4a9-1d4ac 1d4ae-1d4b9 1d4bb 1d4bd-1d4c3 1d4c5-1d4cf 1d56c-1d5d3 " +
  "1d670-1d6a5 1d6a8-1d6dd 1d6df-1d717 1d719-1d71b 1d727-1d728 1d72a 1d741-1d742 1d744 1d74f-1d750 " +
  "1d761-1d762 1d764 1d77b-1d77c 1d77e 1d789-1d78a 1d7b5-1d7b6 1d7b8 1d7c3-1d7c4 1d7ce-1d7d7 " +
  "1d7e2-1d7eb 1d7f6-1d7ff"
).split(" ").map((range) => {
  const [first, last] = range.split("-").map((hex) => parseInt(hex, 16))
  return [first!, last ?? first!] as const
})

const inTable = (code: number): boolean => typesetRanges.some(([first, last]) => code >= first && code <= last)

/**
 * A combining mark whose accent command T1 puts on any letter: grave, acute, circumflex, tilde,
 * macron, breve, dot, diaeresis, ring, double acute, caron, dot below, comma below, cedilla,
 * ogonek. One only: unicode2latex nests two as `\'\d e`, which LaTeX cannot typeset.
 */
export const accents = /^[\u0300-\u0304\u0306-\u0308\u030a-\u030c\u0323\u0326-\u0328]$/

// unicode2latex's "bibtex-creator" mode braces each special character as BibTeX wants it. Theta in
// its table is textgreek's `\texttheta`; U+FFFD (what a lone surrogate became) would be `\dbend`.
const transform = new Transform("bibtex-creator", {
  charmap: {
    "\u03b8": { math: "\\theta" },
    "\u03d1": { math: "\\vartheta" },
    "\u03f4": { math: "\\Theta" },
    "\ufffd": { text: "?" }
  }
})

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

const cache = new Map<string, string>()

/**
 * Whether a character (a base and its combining marks) gets unicode2latex's rendering: a code
 * point of {@link typesetRanges}, or an ASCII letter with {@link accents}.
 */
const renderable = (c: string): boolean => {
  // ASCII that is not literal: `#$%&\^_{}~<>|`, each with a command of its own.
  if (c.length === 1 && c < "\x7f") return true
  const code = c.codePointAt(0)!
  if (c.length === String.fromCodePoint(code).length && inTable(code)) return true
  const parts = c.normalize("NFD")
  return parts.length > 1 && /^[A-Za-z]/.test(parts) && accents.test(parts.slice(1))
}

/** One character as LaTeX, or as it is (UTF-8) when pdfLaTeX has no command for it. */
const character = (c: string): string => {
  const known = cache.get(c)
  if (known !== undefined) return known
  // A combining mark on nothing (or on a space) has nothing to accent: dropped.
  const base = /^[\p{M}\s]/u.test(c) ? c.replace(/\p{M}/gu, "") : c
  let out = base
  if (base.length > 0 && renderable(base)) {
    const latex = transform.tolatex(base, { bracemath: true })
    // Belt and braces: what goes into a value is printable ASCII with balanced braces.
    if (/^[\x20-\x7e]+$/.test(latex) && balanced(latex)) out = /\\[A-Za-z]+$/.test(latex) ? `{${latex}}` : latex
  }
  if (cache.size < 4096) cache.set(c, out)
  return out
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
