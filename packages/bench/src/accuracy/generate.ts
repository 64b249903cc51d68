/**
 * The labelled set of the accuracy benchmark, generated (seeded, so every run asks the same) from
 * recorded papers: real references in every style and real variant, and bad references of every
 * kind, each written in a style that shows what makes it bad. Pure: no files, no clock.
 */
import { badKinds, factsOf, poolOf, realVariants, rng } from "./kinds.js"
import type { RecordedPaper } from "./papers.js"
import { type Facts, type Format, type Style, styles } from "./styles.js"

/** One reference of the set, labelled. */
export interface Case {
  /** Unique in the set; the .bib key / CSL id the reference is written with. */
  readonly key: string
  readonly label: "real" | "bad"
  /** The bad kind, or the real variant. */
  readonly kind: string
  readonly style: string
  readonly format: Format
  /** The reference as a person writes or pastes it. */
  readonly text: string
  /** The paper it is (real) or is built on (bad). */
  readonly paperId: string
}

export interface GenerateOptions {
  readonly seed: number
  /** Real references per style, as recorded. */
  readonly perStyle: number
  /** Real references per variant other than "as recorded" (styles dealt in turn). */
  readonly perVariant: number
  /** Bad references per kind (styles dealt in turn among those showing what is wrong). */
  readonly perKind: number
}

export const defaults: GenerateOptions = { seed: 45, perStyle: 50, perVariant: 60, perKind: 70 }

const fits = (s: Style, f: Facts) => s.fits === undefined || s.fits(f)

/** A seeded order of `xs` (Fisher–Yates). */
const shuffled = <A>(xs: ReadonlyArray<A>, r: ReturnType<typeof rng>): Array<A> => {
  const out = [...xs]
  for (let i = out.length - 1; i > 0; i--) {
    const j = r.int(i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/**
 * Deals papers in the seeded order from a cursor: each call tries the papers after the last one
 * dealt until `make` gives facts a style can write, so that a style or kind that fits few papers
 * (arXiv ids, preprints) takes each of them in turn rather than the same one again; undefined when
 * none of the papers does.
 */
const dealer = (papers: ReadonlyArray<RecordedPaper>, start: number) => {
  let cursor = start
  return <A>(make: (p: RecordedPaper) => A | undefined): readonly [A, RecordedPaper] | undefined => {
    for (let k = 0; k < papers.length; k++) {
      const paper = papers[(cursor + k) % papers.length]!
      const made = make(paper)
      if (made !== undefined) {
        cursor += k + 1
        return [made, paper]
      }
    }
    return undefined
  }
}

/** The labelled set: real references, then bad ones, each with its own key. */
export const generate = (
  recorded: ReadonlyArray<RecordedPaper>,
  options: GenerateOptions = defaults,
  /** The styles to write in: the main set's, or the held-out ones (heldOut.ts). */
  styleSet: ReadonlyArray<Style> = styles
): Array<Case> => {
  const r = rng(options.seed)
  const papers = shuffled(recorded, r)
  const pool = poolOf(recorded)
  const out: Array<Case> = []
  const add = (label: Case["label"], kind: string, style: Style, facts: Facts, paper: RecordedPaper) => {
    const key = `ref${String(out.length + 1).padStart(4, "0")}`
    out.push({
      key,
      label,
      kind,
      style: style.name,
      format: style.format,
      text: style.write(facts, key),
      paperId: paper.paperId
    })
  }
  if (papers.length === 0) return out
  for (const style of styleSet) {
    const deal = dealer(papers, r.int(papers.length))
    for (let i = 0; i < options.perStyle; i++) {
      const made = deal((p) => (fits(style, factsOf(p)) ? factsOf(p) : undefined))
      if (made !== undefined) add("real", realVariants[0]!.name, style, made[0], made[1])
    }
  }
  for (const variant of realVariants.slice(1)) {
    const shown = styleSet.filter((s) => s.shows.includes(variant.needs))
    const deal = dealer(papers, r.int(papers.length))
    for (let i = 0; i < options.perVariant && shown.length > 0; i++) {
      const style = shown[i % shown.length]!
      const made = deal((p) => {
        const f = variant.change(factsOf(p), r)
        return f !== undefined && fits(style, f) ? f : undefined
      })
      if (made !== undefined) add("real", variant.name, style, made[0], made[1])
    }
  }
  for (const kind of badKinds) {
    const shown = styleSet.filter((s) => kind.needs.every((n) => s.shows.includes(n)))
    const deal = dealer(papers, r.int(papers.length))
    for (let i = 0; i < options.perKind && shown.length > 0; i++) {
      const style = shown[i % shown.length]!
      const made = deal((p) => {
        const f = kind.make(p, pool, r)
        return f !== undefined && fits(style, f) ? f : undefined
      })
      if (made !== undefined) add("bad", kind.name, style, made[0], made[1])
    }
  }
  return out
}
