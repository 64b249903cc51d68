/**
 * The correction policy: what a verified reference list is written as. Every entry is written, so
 * that no `\cite` key disappears: a verified entry as the user wrote it, a mismatch corrected from
 * the record (the user's values kept in a comment), one not found or not checked as written and
 * marked. Used by `s2 verify --format bibtex` and the assistant's `verify_references`.
 */
import type * as Citable from "../Citable.js"
import type { Field, Verification, Written } from "../Verification.js"
import { leftOutNote, writableName } from "./citable/bibtex.js"
import { commentText, oneLine } from "./citable/facts.js"
import { cleanedNote, userKey } from "./citable/keys.js"
import { balanced, tex } from "./citable/latex.js"

/**
 * The fields of an entry that say what the work is and where it appeared: the record's values
 * replace them in a corrected entry where it has one, and the user's are quoted in its comment.
 */
const replaced: ReadonlySet<string> = new Set([
  "author",
  "title",
  "year",
  "month",
  "date",
  "journal",
  "journaltitle",
  "booktitle",
  "volume",
  "number",
  "issue",
  "pages",
  "doi",
  "url",
  "eprint",
  "archiveprefix",
  "eprinttype",
  "primaryclass",
  "howpublished",
  "publisher",
  "issn",
  "isbn"
])

/**
 * Whether a mismatch is corrected from the record: unless both its title and its authors differ
 * (the record found, by an id, may then be another work, and written under the user's key it
 * would cite that work in their place).
 */
export const correctable = (differs: ReadonlyArray<Field>): boolean =>
  !(differs.includes("title") && differs.includes("authors"))

/** What a verification is written from: the record (`Citable.Item`), or the entry as written. */
export type Correction =
  | { readonly _tag: "record"; readonly item: Citable.Item }
  | { readonly _tag: "written"; readonly entry: Written }
  | { readonly _tag: "none" }

/** See `Verify.correction`. */
export const correction = (v: Verification): Correction => {
  const entry = v.entry
  const fromRecord = v.paper !== undefined &&
    (v.status === "verified" || (v.status === "mismatch" && correctable(v.differs)))
  if (fromRecord) {
    return {
      _tag: "record",
      item: entry === undefined
        ? { paper: v.paper! }
        // Every field of the entry: the writer keeps those the record has no value for and names
        // the ones it replaced.
        : { paper: v.paper!, key: entry.key, extra: entry.fields, type: entry.type }
    }
  }
  return entry === undefined ? { _tag: "none" } : { _tag: "written", entry }
}

// BibTeX reads an entry wherever "@" starts one, comments included: a comment never holds one.

/** A `%` comment line. */
const comment = (text: string): string => `% ${commentText(text)}\n`

/**
 * An entry as the user wrote it: their type, key and fields, each value kept when its braces balance;
 * a field whose name we do not write is named in a `%` line before it.
 */
const writtenEntry = (entry: Written): string => {
  const names = Object.keys(entry.fields)
  const unwritable = names.filter((name) => !writableName(name))
  const body = names.filter(writableName).flatMap((name) => {
    const line = oneLine(entry.fields[name]!)
    return line.length === 0 ? [] : [`  ${name} = {${balanced(line) ? line : tex(line)}}`]
  })
  const type = /^[A-Za-z]+$/.test(entry.type ?? "") ? entry.type! : "misc"
  const key = userKey(entry.key)
  const notes = [
    ...(key === entry.key.trim() || entry.key.trim() === "" ? [] : [cleanedNote(entry.key, key)]),
    ...(unwritable.length === 0 ? [] : [leftOutNote(unwritable)])
  ]
  return `${notes.map((line) => `${line}\n`).join("")}@${type}{${key},\n${body.join(",\n")}\n}\n`
}

/** What the comment before an entry says: the verdict, and why. */
const verdict = (v: Verification): string => {
  const why = v.notes.length === 0 ? "" : `: ${v.notes.join("; ")}`
  switch (v.status) {
    case "verified":
      return `verified${why}`
    case "notFound":
      return `not found, likely invented; kept as written${why}`
    case "unchecked":
      return `not checked; kept as written${why}`
    case "mismatch": {
      const record = v.paper === undefined
        ? ""
        : `; the record is ${JSON.stringify(v.paper.title ?? "")} (${v.paper.year ?? "no year"})`
      return `mismatch: ${v.differs.join(", ")}; kept as written: it may be another work${record}`
    }
  }
}

/** The user's values a corrected entry replaced, as comment lines. */
const replacedValues = (entry: Written): string =>
  Object.entries(entry.fields).filter(([name]) => replaced.has(name.toLowerCase())).map(([name, value]) =>
    `%   ${commentText(`${name} = {${value}}`)}\n`
  ).join("")

/** See `Verify.bibtexWriter`. */
export const bibtexWriter = (records: Citable.Writer<string>) => ({
  write: (v: Verification): string => {
    const fix = correction(v)
    // Verified: the user's entry as they wrote it (what the record would add, they did not ask for).
    if (v.status === "verified" && v.entry !== undefined) return writtenEntry(v.entry)
    switch (fix._tag) {
      case "record": {
        const written = records.write(fix.item)
        if (v.status === "verified" || v.entry === undefined) return written
        const why = v.differences?.map((d) => `${d.field}: ${d.why}`).join("; ") ?? ""
        return comment(`s2 verify: ${v.key}: mismatch (${why}); corrected from Semantic Scholar; your entry had:`) +
          replacedValues(v.entry) + written
      }
      case "written":
        return (v.status === "verified" ? "" : comment(`s2 verify: ${v.key}: ${verdict(v)}`)) + writtenEntry(fix.entry)
      case "none":
        return comment(`s2 verify: ${v.key}: ${verdict(v)}: ${v.input}`)
    }
  }
})
