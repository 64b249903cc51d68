/**
 * Reading a reference list in whatever form it comes: the format is told by the content (never by
 * a file name, so standard input reads as a file does), then read by its reader. See `Verify.read`.
 */
import { PaperId } from "@s2-effect/core"
import * as Result from "effect/Result"
import type * as ReferenceInput from "../ReferenceInput.js"
import { type Unreadable, unreadable } from "../Unreadable.js"
import type * as Verify from "../Verify.js"
import * as bibtex from "./bibtex.js"
import { lazy } from "./lazy.js"
import { cslItems, readCsl } from "./readCsl.js"
import { entry } from "./readFields.js"
import { cut, invertedName, maxLength, maxLines, parseReference, readFormatted } from "./readFormatted.js"
import { informal, readInformal } from "./readInformal.js"
import { nameLetter } from "./readNames.js"
import { looksLikeRis, readRis } from "./readRis.js"
import { brokenWhy } from "./resolve.js"

/** What a field written twice says: a problem when its values differ, else a warning. */
const repeatedWhy = (fields: ReadonlyArray<string>, differ: boolean): string =>
  `${fields.join(", ")} ${fields.length === 1 ? "is" : "are"} written twice${
    differ
      ? " with different values: BibTeX uses the first and warns, so the entry is read so; say which one is meant"
      : " with the same value: BibTeX uses the first and warns"
  }`

/** An entry's type and fields, to tell an entry written again alike from another under its key. */
const written = (entry: bibtex.BibEntry): string =>
  JSON.stringify([entry.type, Object.entries(entry.fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])

/**
 * What an entry whose key an entry before it has (`first`, compared without case as BibTeX does)
 * says: BibTeX prints the first and warns "Repeated entry"; a problem when this one differs.
 */
const repeatedKey = (entry: bibtex.BibEntry, first: bibtex.BibEntry): { problem?: string; warning?: string } => {
  const twice = `key written twice (first on line ${first.line}${first.key === entry.key ? "" : `, as ${first.key}`})`
  return written(entry) === written(first)
    ? { warning: `${twice}, alike: BibTeX prints the first and warns "Repeated entry"` }
    : {
      problem: `${twice}: BibTeX prints that entry, warns "Repeated entry" and drops this one; give it a key of its own`
    }
}

/**
 * See `Verify.fromBibtex`: each entry read once, a broken one with why; a field written twice with
 * different values is a `problem` (what BibTeX prints is the first, and what was checked must be
 * what it prints), with the same value a `warning`; so is a key an entry before has: BibTeX prints
 * that entry and drops this one.
 */
export const fromBibtex = (text: string): ReadonlyArray<ReferenceInput.Entry> => {
  const firsts = new Map<string, bibtex.BibEntry>()
  return bibtex.parse(text).map((entry): ReferenceInput.Entry => {
    const differ = (entry.repeated ?? []).filter((r) => r.differs).map((r) => r.field)
    const same = (entry.repeated ?? []).filter((r) => !r.differs).map((r) => r.field)
    const lower = entry.key.toLowerCase()
    const first = firsts.get(lower)
    if (first === undefined && lower.length > 0) firsts.set(lower, entry)
    const key = first === undefined ? {} : repeatedKey(entry, first)
    const problem = entry.broken !== undefined
      ? brokenWhy(entry.line, entry.broken)
      : key.problem ?? (differ.length > 0 ? repeatedWhy(differ, true) : undefined)
    const warnings = [
      ...(key.warning === undefined ? [] : [key.warning]),
      ...(same.length === 0 ? [] : [repeatedWhy(same, false)])
    ]
    return {
      key: entry.key,
      fields: entry.fields,
      line: entry.line,
      type: entry.type,
      ...(problem === undefined ? {} : { problem }),
      ...(warnings.length === 0 ? {} : { warnings })
    }
  })
}

/** A line that starts a BibTeX entry, anywhere in the text (Mendeley's export starts with prose). */
const bibtexEntry = /^[ \t]*@[ \t]*[A-Za-z]+[ \t]*[{(]/m

/**
 * The lines of a list: ids in the API's spelling, a reference written informally as the entry
 * `readInformal` reads, anything else as written (a title); blank and `#` lines skipped.
 */
const readLines = (text: string): ReadonlyArray<ReferenceInput.Line | ReferenceInput.Entry> =>
  text.split(/\r\n|\r|\n/).flatMap((raw, i): ReadonlyArray<ReferenceInput.Line | ReferenceInput.Entry> => {
    const line = raw.trim()
    if (line.length === 0 || line.startsWith("#")) return []
    const key = String(i + 1)
    const r = PaperId.recognise(line)
    if (r._tag === "Id") return [{ key, text: r.id }]
    // Longer than any reference: a title as written (refused as too long to send), not read for names.
    if (line.length > maxLength) return [{ key, text: line }]
    // A line of a mixed list that reads as a formatted reference is read as one.
    const fields = readInformal(line) ?? (referenceLike(line) ? parseReference(line, informal) : undefined)
    return [fields === undefined ? { key, text: line } : { ...entry(key, fields, i + 1), format: "lines" }]
  })

/** Signs that a piece of text is a formatted reference rather than a title. */
const signs = lazy((): ReadonlyArray<RegExp> => [
  /^\s*(?:\[\d{1,4}\]|\(\d{1,4}\)|\d{1,4}[.)])\s/,
  /[“”‘]|"[^"]{6,}"/,
  /\((?:1[6-9]|20)\d\d[a-z]?\)/,
  /\b(?:pp?\.\s*\d|vol\.\s*\d|no\.\s*\d|doi\b|et al\.|In:|in Proc)/i,
  invertedName(),
  new RegExp(String.raw`^\p{Lu}[${nameLetter}]+ \p{Lu}{1,3}[,.]`, "u"),
  new RegExp(String.raw`^(?:\p{Lu}\.\s*)+\p{Lu}[${nameLetter}]+(?:,| et al\.)`, "u"),
  /\d+\s*[-–]\s*\d+\.?\s*$/,
  // Elsevier's order ends in its year: "…, Cryptologia, 2001."
  /,\s*(?:1[6-9]|20)\d\d[a-z]?\.?\s*$/,
  /\.\s.+\.\s.+\./
])

const year = /\b(?:1[6-9]|20)\d\d[a-z]?\b/

/** Whether a piece of a list reads as a formatted reference: a year, and two more signs. */
const referenceLike = (text: string): boolean =>
  year.test(text) && signs().filter((sign) => sign.test(text)).length >= 2

/** Whether a list of lines is formatted references: numbered, or most of its pieces read as references. */
const formatted = (text: string): boolean => {
  const pieces = cut(text).filter((c) => PaperId.recognise(c.text)._tag !== "Id")
  if (pieces.length > 1 && pieces.every((c) => c.number !== undefined)) return true
  // A piece longer than any reference is lines joined that were not one (titles without points).
  if (pieces.length === 0 || pieces.some((c) => c.lines > maxLines || c.text.length > maxLength)) return false
  return pieces.filter((c) => referenceLike(c.text)).length * 2 > pieces.length
}

/** JSON: CSL-JSON, or a refusal that says what JSON it is. */
const readJson = (text: string): Result.Result<Verify.ReadResult, Unreadable> | undefined => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    // "[1] Vaswani…" starts like JSON too: only `{` or `[{` is JSON that failed.
    return /^\s*(?:\{|\[\s*\{)/.test(text)
      ? Result.fail(unreadable("Format", "the text looks like JSON but does not parse"))
      : undefined
  }
  const items = cslItems(json)
  if (items === undefined) {
    return Result.fail(unreadable("Format", "the text is JSON, but not CSL-JSON (items with a type, title, DOI or id)"))
  }
  return Result.succeed({ format: "csl-json", inputs: readCsl(items) })
}

/** Kinds of text that hold no references we read, and what each looks like. */
const refused: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\s*<(?:!doctype html|html)\b/i, "the text looks like an HTML page"],
  [/^\s*<\?xml|^\s*<(?:xml|records|mods|modsCollection)\b/i, "the text looks like XML (an EndNote or MODS export)"],
  [/^\s*%PDF-/, "the text looks like a PDF file"],
  [/^\s*PK\u0003\u0004/, "the text looks like a zip archive"]
]

/**
 * Whether a text is binary data: control characters (escape aside, which a pasted coloured line
 * may hold) are at least 1 in 100 of it. A stray one in a list is the list's, reported with its line.
 */
const binary = (text: string): boolean => {
  const controls = text.match(/[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/g)?.length ?? 0
  return controls >= 2 && controls * 100 >= text.length
}

/** See `Verify.read`. */
export const read = (input: string): Result.Result<Verify.ReadResult, Unreadable> => {
  const text = input.replace(/^\uFEFF/, "")
  if (text.trim().length === 0) return Result.fail(unreadable("Empty", "the text is empty"))
  const json = /^\s*[[{]/.test(text) ? readJson(text) : undefined
  if (json !== undefined) return json
  for (const [pattern, looksLike] of refused) {
    if (pattern.test(text)) return Result.fail(unreadable("Format", looksLike))
  }
  if (binary(text)) {
    return Result.fail(unreadable("Format", "the text holds control characters: it looks like binary data"))
  }
  if (bibtexEntry.test(text)) {
    const entries = fromBibtex(text)
    return entries.length > 0
      ? Result.succeed({ format: "bibtex", inputs: entries })
      : Result.fail(
        unreadable("Format", "the text looks like BibTeX but holds no entry (only @string, @comment or @preamble)")
      )
  }
  if (looksLikeRis(text)) return Result.succeed({ format: "ris", inputs: readRis(text) })
  if (formatted(text)) {
    return Result.succeed({
      format: "formatted",
      inputs: readFormatted(text, informal).map((e): ReferenceInput.Entry => ({ ...e, format: "formatted" }))
    })
  }
  const lines = readLines(text)
  return lines.length > 0
    ? Result.succeed({ format: "lines", inputs: lines })
    : Result.fail(unreadable("Empty", "the text holds only blank and # lines"))
}
