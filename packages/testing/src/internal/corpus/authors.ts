/** Pure generator of authors: `authorCore(seed, j)` depends on no other author or paper. */
import type { AuthorCore } from "../../Corpus.js"
import { at, hash, Rng } from "../prng.js"
import { flat, pad } from "./generate.js"
import { AFFILIATIONS, FIRST_NAMES, LAST_NAMES } from "./vocabulary.js"

const SALT_AUTHOR = 0x5eed02

export const authorIdOf = (seed: number, j: number): string => String(1000000 + j * 131 + (hash(seed, j, 17) % 131))
export const indexOfAuthorId = (authorId: number): number => Math.floor((authorId - 1000000) / 131)

/** How `nameText` writes a name: "F. Last", "First Last" (then "First Last 0001" to "0004"), a homepage. */
const NAME_INITIAL = 0
const NAME_FULL = 1
const NAME_HOMEPAGE = 6
const names = new Map<number, string>()
/** A person's name (first and last name's indices) written as `form` says; one string each. */
const nameText = (person: number, form: number): string => {
  const number = person * 8 + form
  let text = names.get(number)
  if (text === undefined) {
    const first = at(FIRST_NAMES, Math.floor(person / LAST_NAMES.length))
    const last = at(LAST_NAMES, person % LAST_NAMES.length)
    text = flat(
      form === NAME_INITIAL
        ? `${first[0]}. ${last}`
        : form === NAME_HOMEPAGE
        ? `https://${last.toLowerCase()}.example.org`
        : `${first} ${last}${form > NAME_FULL ? ` 000${form - NAME_FULL}` : ""}`
    )
    names.set(number, text)
  }
  return text
}

export const authorCore = (seed: number, j: number): AuthorCore => {
  const rng = new Rng(hash(seed, j, SALT_AUTHOR))
  // Drawn as `rng.pick` draws (an index): names come in few combinations, one string each.
  const person = rng.int(FIRST_NAMES.length) * LAST_NAMES.length + rng.int(LAST_NAMES.length)
  const name = nameText(person, rng.chance(0.5) ? NAME_INITIAL : NAME_FULL)
  const affiliations = rng.chance(0.5) ? [] : [rng.pick(AFFILIATIONS)]
  const homepage = rng.chance(0.15) ? nameText(person, NAME_HOMEPAGE) : null
  const externalIds: { DBLP?: ReadonlyArray<string>; ORCID?: string } = {}
  if (rng.chance(0.6)) externalIds.DBLP = [nameText(person, rng.chance(0.3) ? NAME_FULL + 1 + rng.int(4) : NAME_FULL)]
  if (rng.chance(0.2)) {
    externalIds.ORCID = flat(`0000-000${rng.int(3)}-${pad(rng.int(10000), 4)}-${pad(rng.int(10000), 4)}`)
  }
  return { index: j, authorId: authorIdOf(seed, j), name, affiliations, homepage, externalIds }
}
