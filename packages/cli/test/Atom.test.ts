/**
 * The Atom feed of `s2 watch check --format atom`, read back by feedsmith (support/atom.ts): valid
 * Atom 1.0 whatever the papers' text, newest first, at most N entries, ids that stay.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Watch } from "@s2-effect/jobs"
import * as fc from "fast-check"
import { XMLValidator } from "fast-xml-parser"
import * as Atom from "../src/render/Atom.js"
import { readAtom } from "./support/atom.js"

const instant = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2026, 0, 1) }).map((t) =>
  new Date(t).toISOString()
)
const day = instant.map((t) => t.slice(0, 10))
/** Text as papers have it, markup and quotes and astral characters included, but nothing XML drops. */
const text = fc.string({ unit: fc.constantFrom("a", "Z", " ", "&", "<", ">", "\"", "'", "é", "\u00a0", "😀", "ß") })

const recent: fc.Arbitrary<Watch.Recent> = fc.record({
  watch: fc.constantFrom("mine", "topic", "other"),
  paperId: fc.stringMatching(/^[0-9a-f]{40}$/),
  title: fc.option(text.filter((t) => t.trim().length > 0), { nil: null }),
  authors: fc.array(text.filter((t) => t.trim().length > 0), { maxLength: 3 }),
  publicationDate: fc.option(day, { nil: null }),
  year: fc.option(fc.integer({ min: 1900, max: 2026 }), { nil: null }),
  venue: fc.option(text, { nil: null }),
  url: fc.constant(null),
  foundAt: instant
})

describe("Atom.feed", () => {
  it("is valid Atom 1.0 that a feed parser reads back: newest first, at most N, stable ids", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(recent, { selector: (r) => `${r.watch} ${r.paperId}`, maxLength: 25 }),
        fc.integer({ min: 1, max: 30 }),
        instant,
        (items, entries, updated) => {
          const names = ["mine", "topic"]
          const xml = Atom.feed(items, { names, updated, entries, generatorVersion: "1.2.3" })
          expect(XMLValidator.validate(xml)).toBe(true)
          const { feed, problems } = readAtom(xml)
          expect(problems).toEqual([])
          const kept = items.filter((item) => names.includes(item.watch))
          expect(feed.entries?.length ?? 0).toBe(Math.min(entries, kept.length))
          const updates = (feed.entries ?? []).map((entry) => entry.updated!)
          expect(updates).toEqual([...updates].sort().reverse())
          // The feed changed when its newest entry came; with none, at the check.
          expect(feed.updated).toBe(updates[0] ?? new Date(updated).toISOString())
          // What a reader shows is what the paper says, escaped and read back whole.
          for (const entry of feed.entries ?? []) {
            const item = kept.find((item) => entry.links?.[0]?.href?.endsWith(item.paperId))!
            expect(entry.title?.value ?? "").toBe((item.title ?? `Paper ${item.paperId}`).trim())
            expect((entry.authors ?? []).map((author) => author.name)).toEqual(item.authors.map((a) => a.trim()))
          }
          // The same papers in a later feed keep their ids; a feed of other watches has other ids.
          const later = readAtom(
            Atom.feed(items, { names, updated: "2030-01-01T00:00:00Z", entries, generatorVersion: "1" })
          )
          expect(later.feed.entries?.map((entry) => entry.id)).toEqual(feed.entries?.map((entry) => entry.id))
          expect(later.feed.id).toBe(feed.id)
          const other = readAtom(Atom.feed(items, { names: ["other"], updated, entries, generatorVersion: "1" }))
          expect(other.problems).toEqual([])
          expect(other.feed.id).not.toBe(feed.id)
        }
      ),
      { numRuns: 25 }
    )
  })

  it("a feed of nothing found is still valid: an id, a title, an author and an updated", () => {
    const xml = Atom.feed([], {
      names: ["mine"],
      updated: "2025-03-01T10:00:00.000Z",
      entries: 5,
      generatorVersion: "1"
    })
    const { feed, problems } = readAtom(xml)
    expect(problems).toEqual([])
    expect(feed.entries ?? []).toEqual([])
    expect(feed.title?.value).toBe("New papers: mine")
  })

  it("the check finds what Atom 1.0 requires and a feed lacks", () => {
    const xml = [
      "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title><updated>2025-03-01</updated>",
      "<entry><title>x</title><updated>2025-03-01T10:00:00Z</updated></entry></feed>"
    ].join("")
    expect(readAtom(xml).problems).toEqual([
      "feed: no id",
      "feed: updated 2025-03-01 is not an RFC 3339 instant",
      "entry 0: no id",
      "entry 0: no author",
      "entry 0: no content and no alternate link"
    ])
  })
})
