/**
 * References written informally, one per line, as people type them into a chat, a note or an
 * e-mail rather than paste them from a paper (`BENCH_ACCURACY_STYLES=informal`): a title then
 * "Family Year", "Family et al. (Year) Title", a title alone in lower case, a title with its venue
 * and year, a trailing link. The same facts, variants and bad kinds as the main set; each style
 * shows only what it writes (a first author alone shows no co-authors).
 */
import type { Facts, Style } from "./styles.js"

const first = (f: Facts) => f.authors[0]!.family
/** "Vaswani", "Vaswani et al.", "Bertrand and Duflo": as people name a paper's authors in passing. */
const who = (f: Facts) =>
  f.authors.length === 2 && f.etAl !== true
    ? `${first(f)} and ${f.authors[1]!.family}`
    : f.authors.length > 1 || f.etAl === true
    ? `${first(f)} et al.`
    : first(f)
const hasVenue = (f: Facts) => f.venue !== undefined

export const informalStyles: ReadonlyArray<Style> = [
  {
    name: "informal: Title. Family Year",
    format: "line",
    shows: ["title", "authors", "year"],
    write: (f) => `${f.title}. ${first(f)} ${f.year}`
  },
  {
    name: "informal: Family et al. (Year) Title",
    format: "line",
    shows: ["title", "authors", "year"],
    write: (f) => `${who(f)} (${f.year}) ${f.title}`
  },
  {
    name: "informal: Family et al. Year. title in lower case",
    format: "line",
    shows: ["title", "authors", "year"],
    write: (f) => `${who(f)} ${f.year}. ${f.title.toLowerCase()}`
  },
  {
    name: "informal: Title (Family et al., Year)",
    format: "line",
    shows: ["title", "authors", "year"],
    write: (f) => `${f.title} (${who(f)}, ${f.year})`
  },
  {
    name: "informal: title alone, lower case, no punctuation",
    format: "line",
    shows: ["title"],
    write: (f) => f.title.toLowerCase().replace(/[.,:;?!]/g, "")
  },
  {
    name: "informal: Title, Venue Year",
    format: "line",
    shows: ["title", "venue", "year"],
    fits: hasVenue,
    write: (f) => `${f.title}, ${f.venue} ${f.year}`
  },
  {
    name: "informal: Family and Family, Title, Venue Year",
    format: "line",
    shows: ["title", "authors", "venue", "year"],
    fits: hasVenue,
    write: (f) => `${who(f)}, ${f.title}, ${f.venue} ${f.year}`
  },
  {
    name: "informal: Title and a doi.org link",
    format: "line",
    shows: ["title", "doi"],
    fits: (f) => f.doi !== undefined,
    write: (f) => `${f.title} https://doi.org/${f.doi}`
  }
]
