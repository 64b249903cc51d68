#!/usr/bin/env node
// Writes src/internal/citable/texTable.ts: each character the BibTeX writer spells in LaTeX, and
// how, as unicode2latex (Better BibTeX's table, "bibtex-creator" mode) spells it. Only characters
// whose spelling typesets with pdfLaTeX and `\usepackage[T1]{fontenc}` alone are taken: the code
// points below were found by compiling every character of unicode2latex's table (1,150 of 2,329
// did), plus the ASCII letters with one accent each and ASCII's own specials. The compile test
// (test/CitableCompile.test.ts) compiles the whole table again; Citable.test.ts checks that it is
// still unicode2latex's. The table is data in the package, not unicode2latex at run time: loading
// that (300 KB of tables, frozen at import) cost every process importing @s2-effect/core ~100 ms.
//
//   node packages/jobs/scripts/citable-table.mjs
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Transform } from "unicode2latex"

const ranges = (
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
)

/** Theta is textgreek's `\\texttheta` in unicode2latex; U+FFFD would be manfnt's `\\dbend`. */
export const charmap = {
  "\u03b8": { math: "\\theta" },
  "\u03d1": { math: "\\vartheta" },
  "\u03f4": { math: "\\Theta" },
  "\ufffd": { text: "?" }
}

/** The characters of the table: the code points above, accented ASCII letters, ASCII's specials. */
export const characters = () => {
  const points = ranges.split(" ").flatMap((range) => {
    const [first, last = first] = range.split("-").map((hex) => parseInt(hex, 16))
    return Array.from({ length: last - first + 1 }, (_, i) => String.fromCodePoint(first + i))
  })
  // Grave, acute, circumflex, tilde, macron, breve, dot, diaeresis, ring, double acute, caron, dot
  // below, comma below, cedilla, ogonek: one each (two on one letter, unicode2latex nests as `\\'\\d e`,
  // which LaTeX cannot typeset).
  const marks = "\u0300\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030b\u030c\u0323\u0326\u0327\u0328"
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
  const accented = Array.from(letters).flatMap((l) => Array.from(marks, (m) => (l + m).normalize("NFC")))
  return [...new Set([...points, ...accented, ..."#$%&\\^_{}~<>|"])]
}

/** unicode2latex's spelling of one character, braced when it ends in a command name. */
export const spell = (transform, c) => {
  const latex = transform.tolatex(c, { bracemath: true })
  return /\\[A-Za-z]+$/.test(latex) ? `{${latex}}` : latex
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const transform = new Transform("bibtex-creator", { charmap })
  const entries = characters().map((c) => [c, spell(transform, c)])
  const bad = entries.filter(([, latex]) => !/^[\x20-\x7e]+$/.test(latex))
  if (bad.length > 0) throw new Error(`not ASCII: ${JSON.stringify(bad)}`)
  const escape = (c) => "\\u" + (c.codePointAt(0) > 0xffff ? `{${c.codePointAt(0).toString(16)}}` : c.codePointAt(0).toString(16).padStart(4, "0"))
  const lines = entries.map(([c, latex]) => `  ${/^[\x20-\x7e]+$/.test(c) ? JSON.stringify(c) : `"${Array.from(c, escape).join("")}"`}: ${JSON.stringify(latex)}`)
  const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src/internal/citable/texTable.ts")
  fs.writeFileSync(
    out,
    "/**\n * Each character the BibTeX writer spells in LaTeX, and how: unicode2latex's spellings that typeset\n" +
      " * with pdfLaTeX and T1 alone. Generated by scripts/citable-table.mjs (which says how they were\n" +
      " * chosen); do not edit by hand.\n */\n" +
      "export const texTable: Readonly<Record<string, string>> = {\n" + lines.join(",\n") + "\n}\n"
  )
  console.log(`${entries.length} characters written to ${out}`)
}
