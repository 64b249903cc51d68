/**
 * The RIS writer: one record per paper, `TY` first and `ER` last, one `TAG  - value` line per
 * value, lines ending in CR LF as the format's specification has them. Every value is on one line
 * ({@link oneLine}), so nothing a server sends can start a tag or end a record.
 */
import type { Item } from "../../Citable.js"
import { carried } from "./carried.js"
import { type Facts, facts as factsOf, type Kind, type Person, withUserFields } from "./facts.js"
import { keyFor, type Keys } from "./keys.js"

const recordType: Readonly<Record<Kind, string>> = {
  article: "JOUR",
  inproceedings: "CPAPER",
  book: "BOOK",
  preprint: "UNPB",
  misc: "GEN"
}

/** "Family, Given, Suffix", the particle with the family name, as RIS spells a name. */
const risName = (p: Person): string =>
  [p.particle.length > 0 ? `${p.particle} ${p.family}` : p.family, p.given, p.suffix]
    .filter((part, i) => i === 0 || part.length > 0).join(", ")

const date = (f: Facts): string =>
  f.date.length === 3 ? `${f.date[0]}/${String(f.date[1]).padStart(2, "0")}/${String(f.date[2]).padStart(2, "0")}/` : ""

/** The tags of one record, in order, without `TY` and `ER`; "" means none. */
const tags = (f: Facts, key: string): ReadonlyArray<readonly [string, string]> => [
  ["ID", key],
  ...f.authors.map((p) => ["AU", risName(p)] as const),
  ["TI", f.title],
  // T2 is the container in every reference type; JO names the journal for readers that look there.
  ["T2", f.container],
  ["JO", f.kind === "article" ? f.container : ""],
  ["PB", f.kind === "preprint" ? f.server : f.publisher],
  ["PY", f.year === undefined ? "" : String(f.year)],
  ["DA", date(f)],
  ["VL", f.volume],
  ["IS", f.issue],
  ["SP", f.pages?.first ?? ""],
  ["EP", f.pages?.last ?? ""],
  ["DO", f.doi],
  ["UR", f.doi.length > 0 ? "" : f.url],
  ["AN", f.arxiv.length > 0 ? `arXiv:${f.arxiv}` : ""]
]

/** The RIS record of one paper; `ID` is the user's key, else one made as for BibTeX. */
export const record = (input: Item, keys: Keys): string => {
  const f = withUserFields(factsOf(input.paper, input.type), input.extra)
  const key = keyFor(keys, input, f)
  const user = carried(input.extra, 2)
  // The user's link over the Semantic Scholar page, as the BibTeX writer keeps it.
  const own = tags(f, key).filter(([tag, v]) => v.length > 0 && !(tag === "UR" && user.some(([t]) => t === "UR")))
  const lines = [["TY", recordType[f.kind]] as const, ...own, ...user, ["ER", ""] as const]
  return lines.map(([tag, value]) => `${tag}  - ${value}\r\n`).join("")
}
