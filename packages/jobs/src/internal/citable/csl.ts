/**
 * The CSL-JSON writer: items as citeproc-js (Zotero, Mendeley), pandoc and citeproc-lua read them,
 * built from the same {@link facts} as the BibTeX and RIS writers.
 */
import type { CslItem, CslName, Item } from "../../Citable.js"
import { carried } from "./carried.js"
import { facts as factsOf, type Kind, type Person, withUserFields } from "./facts.js"
import { keyFor, type Keys } from "./keys.js"

// CSL 1.0.2's `article` is "a preprint, working paper, or other type of work" without a more specific type.
const itemType: Readonly<Record<Kind, CslItem["type"]>> = {
  article: "article-journal",
  inproceedings: "paper-conference",
  book: "book",
  preprint: "article",
  misc: "article"
}

const cslName = (p: Person): CslName => ({
  family: p.family,
  ...(p.given.length > 0 ? { given: p.given } : {}),
  ...(p.particle.length > 0 ? { "non-dropping-particle": p.particle } : {}),
  ...(p.suffix.length > 0 ? { suffix: p.suffix } : {})
})

/** Only the variables that have a value: a CSL processor treats `""` as a value. */
const present = (fields: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined && e[1].length > 0))

/** The CSL-JSON item of one paper; its `id` is the user's key, else one made as for BibTeX. */
export const item = (input: Item, keys: Keys): CslItem => {
  const f = withUserFields(factsOf(input.paper, input.type), input.extra)
  const preprint = f.kind === "preprint"
  return {
    id: keyFor(keys, input, f),
    type: itemType[f.kind],
    ...(f.authors.length > 0 ? { author: f.authors.map(cslName) } : {}),
    ...(f.date.length > 0 ? { issued: { "date-parts": [f.date] } } : {}),
    ...present({
      title: f.title,
      "container-title": f.container,
      volume: f.volume,
      issue: f.issue,
      page: f.pages === undefined ? undefined : [f.pages.first, f.pages.last].filter((p) => p.length > 0).join("-"),
      DOI: f.doi,
      URL: f.doi.length > 0 ? undefined : f.url,
      // As Zotero writes a preprint: the server as publisher, the arXiv id as its number.
      publisher: preprint ? f.server : f.publisher,
      number: preprint && f.arxiv.length > 0 ? `arXiv:${f.arxiv}` : undefined
    }),
    // The user's ISBN, abstract, note… (their `url` over the Semantic Scholar page).
    ...Object.fromEntries(carried(input.extra, 1))
  }
}
