/**
 * Styles the reader was not tuned on: the held-out check of issue 45 (`BENCH_ACCURACY_STYLES=heldout`).
 * The same facts, variants and bad kinds as the main set, written the ways other journals and
 * tools write them: Harvard, ACM, Springer LNCS, Nature, AMA, Chicago notes-bibliography, IEEE
 * with "et al." after three names, and an IEEE list wrapped at 72 columns. Nothing here is read
 * by the main figures of RESULTS.md; its rows say how far the reader's rules carry to new styles.
 */
import { type Facts, initials as spaced, listed as and, type Person, type Style, wrapped } from "./styles.js"

const initials = (given: string, sep = " "): string => sep === " " ? spaced(given) : spaced(given).replace(/\s+/g, "")
const bare = (given: string): string => initials(given).replace(/[.\s]/g, "")
const pages = (f: Facts, dash = "–") => f.pages?.replace(/\s*-+\s*/g, () => dash)
const inverted = (p: Person) => `${p.family}, ${initials(p.given, "")}`
const inOrder = (p: Person) => `${initials(p.given)} ${p.family}`
const etAl = (f: Facts, text = " et al.") => (f.etAl === true ? text : "")

const ieeeEtAl = (f: Facts) => {
  const names = f.authors.map(inOrder)
  const who = names.length > 3 || f.etAl === true ? `${names[0]} et al.` : and(names, "and")
  return `${who}, “${f.title},” ${f.venue === undefined ? "" : `${f.venue}, `}${
    f.volume === undefined ? "" : `vol. ${f.volume}, `
  }${f.pages === undefined ? "" : `pp. ${pages(f)}, `}${f.year}${f.doi === undefined ? "." : `, doi: ${f.doi}.`}`
}

/** The held-out styles, each writing the facts as its journals do. */
export const heldOutStyles: ReadonlyArray<Style> = [
  {
    name: "held out: Harvard ‘single quotes’",
    format: "formatted",
    shows: ["title", "authors", "coauthors", "year", "venue", "doi"],
    write: (f) =>
      `${and(f.authors.map(inverted), "and", false)}${etAl(f)} (${f.year}) ‘${f.title}’${
        f.venue === undefined ? "" : `, ${f.venue}`
      }${f.volume === undefined ? "" : `, ${f.volume}`}${f.pages === undefined ? "" : `, pp. ${pages(f)}`}.${
        f.doi === undefined ? "" : ` doi:${f.doi}.`
      }`
  },
  {
    name: "held out: ACM author-date, full names",
    format: "formatted",
    shows: ["title", "authors", "coauthors", "year", "venue", "doi"],
    write: (f) =>
      `${and(f.authors.map((p) => `${p.given} ${p.family}`), "and")}${etAl(f)}. ${f.year}. ${f.title}. ${
        f.venue === undefined ?
          "" :
          `${f.conference === true ? "In " : ""}${f.venue}${f.volume === undefined ? "" : ` ${f.volume}`}${
            f.pages === undefined ? "" : `, ${pages(f)}`
          }. `
      }${f.doi === undefined ? "" : `https://doi.org/${f.doi}`}`.trim()
  },
  {
    name: "held out: Springer LNCS",
    format: "formatted",
    shows: ["title", "authors", "coauthors", "year", "venue", "doi"],
    write: (f) =>
      `${f.authors.map((p) => `${p.family}, ${initials(p.given, "")}`).join(", ")}${etAl(f, ", et al.")}: ${f.title}. ${
        f.venue === undefined ? "" : `${f.conference === true ? "In: " : ""}${f.venue}`
      }${f.volume === undefined ? "" : ` ${f.volume}`}${f.pages === undefined ? "" : `, ${pages(f)}`} (${f.year})${
        f.doi === undefined ? "" : `. https://doi.org/${f.doi}`
      }`
  },
  {
    name: "held out: Nature",
    format: "formatted",
    shows: ["title", "authors", "coauthors", "year", "venue"],
    write: (f) =>
      `${and(f.authors.map(inverted), "&", false)}${etAl(f)} ${f.title}. ${
        f.venue === undefined ?
          "" :
          `${f.venue}${f.volume === undefined ? "" : ` ${f.volume}`}${f.pages === undefined ? "" : `, ${pages(f)}`} `
      }(${f.year}).`
  },
  {
    name: "held out: AMA",
    format: "formatted",
    shows: ["title", "authors", "coauthors", "year", "venue", "doi"],
    write: (f) =>
      `${f.authors.slice(0, 6).map((p) => `${p.family} ${bare(p.given)}`).join(", ")}${
        f.authors.length > 6 || f.etAl === true ? ", et al" : ""
      }. ${f.title}. ${f.venue === undefined ? "" : `${f.venue}. `}${f.year}${
        f.volume === undefined ? "" : `;${f.volume}`
      }${f.pages === undefined ? "" : `:${pages(f, "-")}`}.${f.doi === undefined ? "" : ` doi:${f.doi}`}`
  },
  {
    name: "held out: Chicago notes-bibliography",
    format: "formatted",
    shows: ["title", "authors", "coauthors", "year", "venue", "doi"],
    write: (f) => {
      const [first, ...rest] = f.authors
      const names = [`${first!.family}, ${first!.given}`, ...rest.map((p) => `${p.given} ${p.family}`)]
      return `${and(names, "and")}${etAl(f)}. “${f.title}.” ${f.venue ?? ""}${
        f.volume === undefined ? "" : ` ${f.volume}`
      } (${f.year})${f.pages === undefined ? "" : `: ${pages(f)}`}.${
        f.doi === undefined ? "" : ` https://doi.org/${f.doi}.`
      }`
    }
  },
  {
    name: "held out: IEEE, “et al.” after three",
    format: "formatted",
    shows: ["title", "authors", "year", "venue", "doi"],
    write: ieeeEtAl
  },
  {
    name: "held out: IEEE numbered, wrapped at 72 columns",
    format: "formatted",
    shows: ["title", "authors", "year", "venue", "doi"],
    write: (f, key) => wrapped(`[${key.replace(/\D/g, "").slice(-2) || "1"}] ${ieeeEtAl(f)}`, 72)
  }
]
