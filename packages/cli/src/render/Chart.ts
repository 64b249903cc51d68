/**
 * A small terminal chart: horizontal bars of counts per year (grouped into ranges when there are
 * many years), drawn with eighth-block characters.
 *
 * @since 1.0.0
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { grouped } from "./Progress.js"

const eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

const bar = (value: number, max: number, width: number): string => {
  if (max <= 0 || value <= 0) return ""
  const units = Math.max(1, Math.round((value / max) * width * 8))
  return "█".repeat(Math.floor(units / 8)) + (eighths[units % 8] ?? "")
}

/**
 * The current year (UTC) by Effect's `Clock`, so that tests fix it with `TestClock`.
 *
 * @since 1.0.0
 */
export const currentYear: Effect.Effect<number> = Effect.map(
  Clock.currentTimeMillis,
  (millis) => new Date(millis).getUTCFullYear()
)

/**
 * Groups per-year counts into at most `rows` rows of equal spans (`2000-2004`); counts without a
 * year (key `unknown`) come last. With `thisYear`, the last range ends there (`2025-2026`, not
 * `2025-2029`): a bucket must not claim years that have not happened.
 *
 * @since 1.0.0
 */
export const groupYears = (
  counts: Readonly<Record<string, number>>,
  rows = 20,
  thisYear?: number
): Array<readonly [label: string, count: number]> => {
  const years = Object.keys(counts).filter((k) => /^\d+$/.test(k)).map(Number).sort((a, b) => a - b)
  const out: Array<readonly [string, number]> = []
  const first = years[0]
  const last = years[years.length - 1]
  if (first !== undefined && last !== undefined) {
    const span = Math.max(1, Math.ceil((last - first + 1) / rows))
    const start = span === 1 ? first : first - (first % span)
    for (let from = start; from <= last; from += span) {
      // Years past `thisYear` (a paper dated ahead) still count, in the last row, which then ends at them.
      const to = Math.min(from + span - 1, Math.max(last, thisYear ?? Infinity))
      let sum = 0
      for (let y = from; y <= to; y++) sum += counts[String(y)] ?? 0
      out.push([span === 1 || from === to ? String(from) : `${from}-${to}`, sum])
    }
  }
  const unknown = counts["unknown"] ?? 0
  if (unknown > 0) out.push(["no year", unknown])
  return out
}

/**
 * The chart of papers per year, `width` characters for the longest bar; `thisYear` (see
 * {@link currentYear}) ends the last range. Only years (or ranges) with papers have a row: five
 * papers from 2007 to 2025 are five rows, not nineteen of which fourteen say 0.
 *
 * @since 1.0.0
 */
export const yearChart = (counts: Readonly<Record<string, number>>, width = 40, thisYear?: number): string => {
  const rows = groupYears(counts, 20, thisYear).filter(([, n]) => n > 0)
  if (rows.length === 0) return ""
  const max = rows.reduce((m, [, n]) => Math.max(m, n), 0)
  const labelWidth = rows.reduce((m, [label]) => Math.max(m, label.length), 0)
  return rows.map(([label, n]) => `${label.padStart(labelWidth)} │${bar(n, max, width)} ${grouped(n)}`)
    .join("\n") + "\n"
}
