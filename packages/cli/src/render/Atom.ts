/**
 * The Atom 1.0 feed (RFC 4287) of `s2 watch check --format atom`: the papers found last, newest
 * first, at most N. Entry ids are `urn:uuid:` name-based UUIDs (RFC 9562 version 5) of the watch
 * and the paper, so an entry keeps its id from one check to the next and a feed reader shows it
 * once. Text is XML-escaped, and characters XML 1.0 does not allow (controls, lone surrogates,
 * U+FFFE/U+FFFF) are dropped, as are C1 controls, which a reader would show as garbage.
 *
 * @since 1.1.0
 */
import type { Watch } from "@s2-effect/jobs"
import { createHash } from "node:crypto"

/** The UUID namespace of s2 watch feeds (a random v4 UUID, fixed once). */
const NAMESPACE = "9d0b1c6e-3f4a-4b8e-9a51-6c2f0d7e8a13"

/**
 * A name-based UUID (version 5: SHA-1 of the namespace's bytes and the name), as `urn:uuid:…`.
 *
 * @since 1.1.0
 */
export const uuid5 = (name: string): string => {
  const hash = createHash("sha1")
    .update(Buffer.from(NAMESPACE.replaceAll("-", ""), "hex"))
    .update(name, "utf8")
    .digest()
  hash[6] = (hash[6]! & 0x0f) | 0x50
  hash[8] = (hash[8]! & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString("hex")
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** Characters an XML 1.0 document cannot hold, and C1 controls. */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "\"": "&quot;",
  "'": "&apos;"
}

/**
 * `text` as XML character data or an attribute value: escaped, without characters XML forbids.
 *
 * @since 1.1.0
 */
export const escape = (text: string): string =>
  text.replace(NOT_XML, () => "").replace(/[&<>"']/g, (char) => ENTITIES[char]!)

/** An RFC 3339 instant, or `undefined` for what does not read as one. */
const instant = (text: string | null): string | undefined => {
  if (text === null) return undefined
  const millis = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text)
  return Number.isFinite(millis) ? new Date(millis).toISOString() : undefined
}

/** The paper's page on Semantic Scholar (the id goes in one path segment). */
const pageOf = (paperId: string): string => `https://www.semanticscholar.org/paper/${encodeURIComponent(paperId)}`

const newestFirst = (a: Watch.Recent, b: Watch.Recent): number =>
  a.foundAt !== b.foundAt
    ? (a.foundAt < b.foundAt ? 1 : -1)
    : (a.publicationDate ?? "") < (b.publicationDate ?? "")
    ? 1
    : (a.publicationDate ?? "") > (b.publicationDate ?? "")
    ? -1
    : 0

const entry = (item: Watch.Recent): string => {
  const updated = instant(item.foundAt) ?? new Date(0).toISOString()
  const published = instant(item.publicationDate)
  const byline = [
    item.authors.slice(0, 10).join(", ") + (item.authors.length > 10 ? ", et al." : ""),
    item.year === null ? "" : `(${item.year})`,
    item.venue ?? ""
  ].filter((part) => part.length > 0).join(" ")
  const lines = [
    "  <entry>",
    `    <id>${uuid5(`watch/${item.watch}/paper/${item.paperId}`)}</id>`,
    `    <title>${escape(item.title ?? `Paper ${item.paperId}`)}</title>`,
    `    <link rel="alternate" href="${escape(pageOf(item.paperId))}"/>`,
    `    <updated>${updated}</updated>`,
    ...(published === undefined ? [] : [`    <published>${published}</published>`]),
    ...item.authors.slice(0, 50).map((name) => `    <author><name>${escape(name)}</name></author>`),
    `    <category term="${escape(item.watch)}"/>`,
    `    <summary>${escape(`${byline.length > 0 ? `${byline}. ` : ""}New in watch ${item.watch}.`)}</summary>`,
    "  </entry>"
  ]
  return lines.join("\n")
}

/**
 * Options of {@link feed}.
 *
 * @since 1.1.0
 */
export interface FeedOptions {
  /** The watches the feed is of: its title and id. */
  readonly names: ReadonlyArray<string>
  /** The check's instant: the feed's `updated` when it has no entries (else its newest entry's). */
  readonly updated: string
  /** At most this many entries. */
  readonly entries: number
  readonly generatorVersion: string
}

/**
 * The feed of `recent` (what the state remembers as found last), newest first. Its `updated` is
 * its newest entry's, so a check that finds nothing new writes the same bytes.
 *
 * @since 1.1.0
 */
export const feed = (recent: ReadonlyArray<Watch.Recent>, options: FeedOptions): string => {
  const names = [...new Set(options.names)].sort()
  const items = recent.filter((item) => names.includes(item.watch)).sort(newestFirst).slice(0, options.entries)
  // Changed when an entry is, not at every check: a check with nothing new writes the same feed.
  const updated = instant(items[0]?.foundAt ?? null) ?? instant(options.updated)
  return [
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
    "<feed xmlns=\"http://www.w3.org/2005/Atom\">",
    `  <id>${uuid5(`feed/${names.join(",")}`)}</id>`,
    `  <title>${escape(`New papers: ${names.join(", ")}`)}</title>`,
    `  <updated>${updated ?? new Date(0).toISOString()}</updated>`,
    // A feed's entries need an author; papers without authors take the feed's.
    "  <author><name>s2 watch</name></author>",
    `  <generator version="${escape(options.generatorVersion)}">s2</generator>`,
    ...items.map(entry),
    "</feed>",
    ""
  ].join("\n")
}
