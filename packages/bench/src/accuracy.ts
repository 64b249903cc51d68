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

/** The section of RESULTS.md: heading, how it was run, the tables. */
export const accuracySection = (tools: AccuracyTools, recordings = ""): Array<string> => {
  const load = Os.loadavg()[0] ?? 0
  const out = tools.runCase("accuracy", [recordings])
  if (typeof out.skipped === "string") return [heading, "", `Skipped: ${out.skipped}.`]
  const m = out as unknown as Measured
  const { fmt } = tools
  const pct = (k: number, n: number) => (n === 0 ? "—" : `${fmt((100 * k) / n)}%`)
  const rate = (t: Tally) => t.flagged / Math.max(1, t.n)
  const recall = rate(m.bad)
  const falseAlarms = rate(m.real)
  const invented = m.byKind.find((t) => t.name === "invented title")
  const per1000 = (n: number) => fmt((1000 * n) / Math.max(1, m.references), 0)
  const paths = Object.entries(m.byPath).sort((a, b) => b[1] - a[1])
    .map(([path, n]) => `${path.replace(/^(GET|POST) \/graph\/v1/, (_all, verb: string) => verb + " ")} ${per1000(n)}`)
    .join(", ")
  const statuses = (t: Tally) =>
    ["verified", "mismatch", "notFound", "no input"].map((s) => fmt(t.statuses[s] ?? 0, 0)).join(" | ")
  const styles = new Map<string, { real?: Tally; bad?: Tally }>()
  for (const t of m.byStyle) styles.set(t.name, { ...styles.get(t.name), [t.label]: t })
  return [
    heading,
    "",
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
    }. A reference is flagged when any of its inputs is not \`verified\`, or it gave none.`,
    `${fmt(m.ms / 1000, 0)} s verifying, ${fmt(m.processMs / 1000, 0)} s the whole case; load average ${fmt(load)} to ${
      fmt(Os.loadavg()[0] ?? 0)
    } on ${Os.cpus().length} cores.`,
    "",
    "| figure | measured | target |",
    "|---|---|---|",
    `| real references verified | ${pct(m.real.n - m.real.flagged, m.real.n)} (${
      fmt(m.real.n - m.real.flagged, 0)
    } of ${fmt(m.real.n, 0)}) | ≥ 99% |`,
    `| bad references flagged | ${pct(m.bad.flagged, m.bad.n)} (${fmt(m.bad.flagged, 0)} of ${
      fmt(m.bad.n, 0)
    }) | ≥ 98% |`,
    `| bad references verified | ${fmt(m.badVerified.length, 0)} | none |`,
    `| precision of a flag at a 1% base rate of bad references (all kinds / invented titles) | ${
      fmt(100 * precisionAt(0.01, recall, falseAlarms))
    }% / ${fmt(100 * precisionAt(0.01, invented === undefined ? 0 : rate(invented), falseAlarms))}% | |`,
    `| requests per 1,000 references | ${per1000(m.requests)} (${paths}) | reported |`,
    "",
    "| bad kind | references | flagged | verified | mismatch | notFound | no input |",
    "|---|---|---|---|---|---|---|",
    ...m.byKind.filter((t) => t.label === "bad").map((t) =>
      `| ${t.name} | ${fmt(t.n, 0)} | ${pct(t.flagged, t.n)} | ${statuses(t)} |`
    ),
    `| **all bad** | ${fmt(m.bad.n, 0)} | ${pct(m.bad.flagged, m.bad.n)} | ${statuses(m.bad)} |`,
    "",
    "| real references, as written | references | flagged (false alarms) | verified | mismatch | notFound | no input |",
    "|---|---|---|---|---|---|---|",
    ...m.byKind.filter((t) => t.label === "real").map((t) =>
      `| ${t.name} | ${fmt(t.n, 0)} | ${pct(t.flagged, t.n)} | ${statuses(t)} |`
    ),
    `| **all real** | ${fmt(m.real.n, 0)} | ${pct(m.real.flagged, m.real.n)} | ${statuses(m.real)} |`,
    "",
    "| style (every variant and kind written in it) | real: references | real: flagged | bad: references | bad: flagged |",
    "|---|---|---|---|---|",
    ...[...styles].map(([name, { bad, real }]) =>
      `| ${name} | ${fmt(real?.n ?? 0, 0)} | ${real === undefined ? "—" : pct(real.flagged, real.n)} | ${
        fmt(bad?.n ?? 0, 0)
      } | ${bad === undefined ? "—" : pct(bad.flagged, bad.n)} |`
    )
  ]
}
