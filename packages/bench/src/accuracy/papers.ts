/**
 * The papers the accuracy benchmark knows: every paper record of the recorded exchanges
 * (../shared/s2-recordings) that has a title, authors and a year, its fields merged across the
 * recordings it appears in. The recordings are read at bench time and never copied into the repo.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

/** A paper record as the API answers it (every field it was recorded with). */
export interface RecordedPaper {
  readonly paperId: string
  readonly corpusId?: number
  readonly title: string
  readonly abstract?: string | null
  readonly authors: ReadonlyArray<{ readonly authorId?: string | null; readonly name: string }>
  readonly year: number
  readonly venue?: string | null
  readonly publicationDate?: string | null
  readonly journal?: { readonly name?: string; readonly volume?: string; readonly pages?: string } | null
  readonly externalIds?: Readonly<Record<string, string | number>> | null
  readonly [field: string]: unknown
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null

/** Whether a merged record can be a reference: a title, named authors and a year. */
const complete = (p: Record<string, unknown>): boolean =>
  typeof p.title === "string" && p.title.trim().length > 0 && typeof p.year === "number" &&
  Array.isArray(p.authors) && p.authors.length > 0 &&
  p.authors.every((a) => isObject(a) && typeof a.name === "string" && a.name.trim().length > 0)

/**
 * The paper records found anywhere in `values` (parsed recordings), merged by `paperId` (the first
 * non-null value of each field wins), the complete ones sorted by `paperId` so that the same
 * recordings always give the same list.
 */
export const papersOf = (values: ReadonlyArray<unknown>): Array<RecordedPaper> => {
  const byId = new Map<string, Record<string, unknown>>()
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) {
      for (const item of x) walk(item)
      return
    }
    if (!isObject(x)) return
    if (typeof x.paperId === "string" && x.paperId.length > 0 && typeof x.title === "string") {
      const merged = byId.get(x.paperId) ?? Object.create(null) as Record<string, unknown>
      for (const [key, value] of Object.entries(x)) {
        if (value !== null && merged[key] === undefined && key !== "embedding" && key !== "citationStyles") {
          merged[key] = value
        }
      }
      byId.set(x.paperId, merged)
    }
    for (const value of Object.values(x)) walk(value)
  }
  walk(values)
  return [...byId.values()].filter(complete).map((p) => p as unknown as RecordedPaper)
    .sort((a, b) => (a.paperId < b.paperId ? -1 : a.paperId > b.paperId ? 1 : 0))
}

/**
 * Where the recordings are: `BENCH_RECORDINGS` when set (a git worktree elsewhere than beside
 * ../shared), else the repository's ../shared/s2-recordings, from packages/bench.
 */
export const recordingsDir = (benchDir: string): string =>
  process.env.BENCH_RECORDINGS ?? Path.resolve(benchDir, "../../../shared/s2-recordings")

/** The papers of the recordings in `dir`, or undefined when there are none (../shared absent). */
export const loadPapers = (dir: string): Array<RecordedPaper> | undefined => {
  if (!Fs.existsSync(dir)) return undefined
  const files = Fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort()
  if (files.length === 0) return undefined
  return papersOf(files.map((f) => JSON.parse(Fs.readFileSync(Path.join(dir, f), "utf8")) as unknown))
}
