/**
 * An Atom feed read back by feedsmith (a maintained feed parser) and checked against what RFC 4287
 * requires of it: feed id, title and updated; an author for every entry (its own or the feed's);
 * per entry an id, a title, an updated and an alternate link (there is no content); dates as RFC
 * 3339 instants; entry ids unique.
 */
import { parseAtomFeed } from "feedsmith"

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

export type AtomFeed = ReturnType<typeof parseAtomFeed<string>>

/** What the feed lacks of Atom 1.0's requirements (none when it is valid). */
export const problems = (xml: string, feed: AtomFeed): Array<string> => {
  const out: Array<string> = []
  if (!/<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"[\s>]/.test(xml)) out.push("feed: not in the Atom namespace")
  if (!feed.id) out.push("feed: no id")
  if (!feed.title?.value) out.push("feed: no title")
  if (!RFC3339.test(feed.updated ?? "")) out.push(`feed: updated ${feed.updated} is not an RFC 3339 instant`)
  const feedAuthor = (feed.authors ?? []).some((author) => !!author.name)
  const ids = new Set<string>()
  for (const [k, entry] of (feed.entries ?? []).entries()) {
    const at = `entry ${k}`
    if (!entry.id) out.push(`${at}: no id`)
    else if (ids.has(entry.id)) out.push(`${at}: id ${entry.id} twice`)
    else ids.add(entry.id)
    if (entry.title === undefined) out.push(`${at}: no title`)
    if (!RFC3339.test(entry.updated ?? "")) out.push(`${at}: updated ${entry.updated} is not an RFC 3339 instant`)
    if (entry.published !== undefined && !RFC3339.test(entry.published)) out.push(`${at}: published ${entry.published}`)
    if (!feedAuthor && !(entry.authors ?? []).some((author) => !!author.name)) out.push(`${at}: no author`)
    const alternate = (entry.links ?? []).find((link) => (link.rel ?? "alternate") === "alternate")
    if (entry.content === undefined && (alternate?.href === undefined || !URL.canParse(alternate.href))) {
      out.push(`${at}: no content and no alternate link`)
    }
  }
  return out
}

/** The feed as a feed reader sees it, and what it lacks of Atom 1.0. */
export const readAtom = (xml: string): { readonly feed: AtomFeed; readonly problems: Array<string> } => {
  const feed = parseAtomFeed<string>(xml)
  return { feed, problems: problems(xml, feed) }
}
