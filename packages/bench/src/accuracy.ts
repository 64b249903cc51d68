/**
 * `BENCH_ONLY=accuracy` (or `pnpm bench accuracy`): the issue 45 rows, the verifier's accuracy on a
 * labelled set generated from the recorded papers (src/cases/accuracy.ts). One run: the set is
 * seeded and the server in memory, so the figures are the same every run of the same tree; only
 * the time varies.
 */
import * as Os from "node:os"
import type { Scored, Tally } from "./accuracy/score.js"
import { precisionAt } from "./accuracy/score.js"

export interface AccuracyTools {
  readonly runCase: (name: string, args: ReadonlyArray<string>) => Record<string, unknown>
  readonly fmt: (n: number, digits?: number) => string
}

interface Measured extends Scored {
  readonly papers: number
  readonly references: number
  readonly inputs: number
  readonly reader: string
  readonly seed: number
  readonly ms: number
  readonly processMs: number
  readonly requests: number
  readonly byPath: Readonly<Record<string, number>>
}

const heading = "## The verifier's accuracy (issue 45, point 10)"

type Fmt = AccuracyTools["fmt"]
const pct = (fmt: Fmt, k: number, n: number) => (n === 0 ? "—" : `${fmt((100 * k) / n)}%`)
const rate = (t: { readonly n: number; readonly flagged: number }) => t.flagged / Math.max(1, t.n)

/** How the section was run. */
const preamble = (m: Measured, fmt: Fmt, load: number): Array<string> => [
  `\`pnpm bench accuracy\` (packages/bench/src/accuracy.ts, cases/accuracy.ts, accuracy/*) on ${
    new Date().toISOString().slice(0, 10)
  }: ${fmt(m.references, 0)} references (${fmt(m.real.n, 0)} real, ${
    fmt(m.bad.n, 0)
  } bad) generated with seed ${m.seed}`,
  `from the ${
    fmt(m.papers, 0)
  } paper records of ../shared/s2-recordings that have a title, authors and a year, verified in one`,
  `\`Verify.references\` call (${
    fmt(m.inputs, 0)
  } inputs) against an in-memory server of exactly those papers (accuracy/server.ts).`,
  `.bib through \`Verify.fromBibtex\`; RIS, CSL-JSON and formatted strings through ${
    m.reader === "lines"
      ? "the line reader (`Verify.read` is not there yet): each non-blank line an input"
      : "`Verify.read`"
  }. A reference is flagged when any of its inputs is not \`verified\`, or it gave none; "read" counts only the`,
  `references whose format the verifier reads as one reference (${m.reader === "lines" ? ".bib and lines" : "all"}). ${
    fmt(m.ms / 1000, 0)
  } s verifying, ${fmt(m.processMs / 1000, 0)} s the whole case; load average ${fmt(load)} to ${
    fmt(Os.loadavg()[0] ?? 0)
  } on ${Os.cpus().length} cores.`
]

/** The figures the issue sets targets for. */
const summary = (m: Measured, fmt: Fmt): Array<string> => {
  const invented = m.byKind.find((t) => t.name === "invented title")
  const per1000 = (n: number) => fmt((1000 * n) / Math.max(1, m.references), 0)
  const paths = Object.entries(m.byPath).sort((a, b) => b[1] - a[1])
    .map(([path, n]) => `${path.replace(/^(GET|POST) \/graph\/v1/, (_all, verb: string) => verb + " ")} ${per1000(n)}`)
    .join(", ")
  const precision = (real: Tally["read"], bad: Tally["read"], kind: Tally["read"] | undefined) =>
    `${fmt(100 * precisionAt(0.01, rate(bad), rate(real)))}% / ${
      fmt(100 * precisionAt(0.01, kind === undefined ? 0 : rate(kind), rate(real)))
    }%`
  const verified = (t: Tally["read"]) =>
    `${pct(fmt, t.n - t.flagged, t.n)} (${fmt(t.n - t.flagged, 0)} of ${fmt(t.n, 0)})`
  const flagged = (t: Tally["read"]) => `${pct(fmt, t.flagged, t.n)} (${fmt(t.flagged, 0)} of ${fmt(t.n, 0)})`
  return [
    "| figure | all references | read | target |",
    "|---|---|---|---|",
    `| real references verified | ${verified(m.real)} | ${verified(m.real.read)} | ≥ 99% |`,
    `| bad references flagged | ${flagged(m.bad)} | ${flagged(m.bad.read)} | ≥ 98% |`,
    `| bad references verified | ${fmt(m.badVerified.length, 0)} | | none |`,
    `| precision of a flag at a 1% base rate of bad references (all kinds / invented titles) | ${
      precision(m.real, m.bad, invented)
    } | ${precision(m.real.read, m.bad.read, invented?.read)} | |`,
    `| requests per 1,000 references | ${per1000(m.requests)} (${paths}) | | reported |`
  ]
}

/** One table row per kind (bad) or variant (real) of `label`, and its total. */
const kindRows = (m: Measured, fmt: Fmt, label: "real" | "bad"): Array<string> => {
  const statuses = (t: Tally) =>
    ["verified", "mismatch", "notFound", "no input"].map((s) => fmt(t.statuses[s] ?? 0, 0)).join(" | ")
  const row = (t: Tally, name: string) =>
    `| ${name} | ${fmt(t.n, 0)} | ${pct(fmt, t.flagged, t.n)} | ${fmt(t.read.n, 0)} | ${
      pct(fmt, t.read.flagged, t.read.n)
    } | ${statuses(t)} |`
  return [
    `| ${
      label === "bad" ? "bad kind" : "real references, as written"
    } | references | flagged | read | flagged, read | verified | mismatch | notFound | no input |`,
    "|---|---|---|---|---|---|---|---|---|",
    ...m.byKind.filter((t) => t.label === label).map((t) => row(t, t.name)),
    row(label === "bad" ? m.bad : m.real, `**all ${label}**`)
  ]
}

const styleRows = (m: Measured, fmt: Fmt): Array<string> => {
  const styles = new Map<string, { real?: Tally; bad?: Tally }>()
  for (const t of m.byStyle) styles.set(t.name, { ...styles.get(t.name), [t.label]: t })
  const cells = (t: Tally | undefined) => `${fmt(t?.n ?? 0, 0)} | ${t === undefined ? "—" : pct(fmt, t.flagged, t.n)}`
  return [
    "| style (every variant and kind written in it) | real: references | real: flagged | bad: references | bad: flagged |",
    "|---|---|---|---|---|",
    ...[...styles].map(([name, { bad, real }]) => `| ${name} | ${cells(real)} | ${cells(bad)} |`)
  ]
}

/** The section of RESULTS.md: heading, how it was run, the tables. */
export const accuracySection = (tools: AccuracyTools, recordings = ""): Array<string> => {
  const load = Os.loadavg()[0] ?? 0
  const out = tools.runCase("accuracy", [recordings])
  if (typeof out.skipped === "string") return [heading, "", `Skipped: ${out.skipped}.`]
  const m = out as unknown as Measured
  return [
    heading,
    "",
    ...preamble(m, tools.fmt, load),
    "",
    ...summary(m, tools.fmt),
    "",
    ...kindRows(m, tools.fmt, "bad"),
    "",
    ...kindRows(m, tools.fmt, "real"),
    "",
    ...styleRows(m, tools.fmt)
  ]
}
