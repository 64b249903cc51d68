/**
 * The benchmark's figures from the verifications: a reference is flagged when it gave no input or
 * any of its inputs is not `verified`; per kind and per style, the share flagged; the precision of
 * a flag at a base rate of bad references; requests per 1,000 references.
 */
import type { Case } from "./generate.js"

export interface Tally {
  readonly name: string
  readonly label: "real" | "bad"
  n: number
  flagged: number
  /** The same among the references whose format the verifier reads (see {@link score}'s `read`). */
  readonly read: { n: number; flagged: number }
  /** Statuses seen, counted per reference (its worst: notFound, then mismatch, other, verified). */
  readonly statuses: Record<string, number>
}

export interface Scored {
  readonly byKind: ReadonlyArray<Tally>
  readonly byStyle: ReadonlyArray<Tally>
  readonly real: Tally
  readonly bad: Tally
  /** Keys of bad references that came out verified (what the target says must never happen). */
  readonly badVerified: ReadonlyArray<{ readonly key: string; readonly kind: string; readonly style: string }>
}

const rank = (status: string) => (status === "notFound" ? 3 : status === "mismatch" ? 2 : status === "verified" ? 0 : 1)

/** The status a reference counts as: the worst of its inputs', `no input` when it gave none. */
export const worst = (statuses: ReadonlyArray<string>): string =>
  statuses.length === 0 ? "no input" : statuses.reduce((a, b) => (rank(b) > rank(a) ? b : a))

/**
 * The tallies; `read` tells the references whose format the verifier reads (.bib and lines, and
 * every format once `Verify.read` is there) from those a line reader cuts into lines, which are
 * flagged for that alone.
 */
export const score = (
  cases: ReadonlyArray<Case>,
  statusesOf: (key: string) => ReadonlyArray<string>,
  read: (c: Case) => boolean = () => true
): Scored => {
  const tallies = new Map<string, Tally>()
  const tally = (name: string, label: Tally["label"]) => {
    const id = `${label}|${name}`
    const t = tallies.get(id) ?? { name, label, n: 0, flagged: 0, read: { n: 0, flagged: 0 }, statuses: {} }
    tallies.set(id, t)
    return t
  }
  const real = tally("all real references", "real")
  const bad = tally("all bad references", "bad")
  const byKind: Array<Tally> = []
  const byStyle: Array<Tally> = []
  const badVerified: Array<{ key: string; kind: string; style: string }> = []
  for (const c of cases) {
    const status = worst(statusesOf(c.key))
    const flagged = status !== "verified"
    const kind = tally(c.kind, c.label)
    const style = tally(`${c.style}`, c.label)
    if (kind.n === 0) byKind.push(kind)
    if (style.n === 0) byStyle.push(style)
    for (const t of [kind, style, c.label === "real" ? real : bad]) {
      t.n++
      if (flagged) t.flagged++
      if (read(c)) {
        t.read.n++
        if (flagged) t.read.flagged++
      }
      t.statuses[status] = (t.statuses[status] ?? 0) + 1
    }
    if (c.label === "bad" && !flagged) badVerified.push({ key: c.key, kind: c.kind, style: c.style })
  }
  return { byKind, byStyle, real, bad, badVerified }
}

/**
 * The share of flags that are bad references when `base` of the references are bad: recall × base
 * over recall × base + false-alarm rate × (1 − base).
 */
export const precisionAt = (base: number, recall: number, falseAlarms: number): number =>
  recall * base + falseAlarms * (1 - base) === 0 ? 0 : (recall * base) / (recall * base + falseAlarms * (1 - base))
