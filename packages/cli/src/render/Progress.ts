/**
 * Harvest progress on stderr: a live bar on a terminal (drawn by `cli-progress`, which redraws in
 * place, throttles, and hides the cursor), periodic plain lines otherwise (logs, CI, pipes). Both
 * show the same facts, formatted by the pure functions here.
 *
 * @since 1.0.0
 */
import { SingleBar } from "cli-progress"
import * as Effect from "effect/Effect"
import { visible } from "./Escape.js"

/**
 * Where a harvest stands.
 *
 * @since 1.0.0
 */
export interface State {
  /** Records in the output file, including those of earlier runs (resume). */
  readonly records: number
  readonly pages: number
  /** Records expected in all: the search's `total` (cut at `--max`); 0 when not known yet. */
  readonly target: number
  /** Records there were when this run started. */
  readonly startRecords: number
  readonly startedAt: number
  readonly now: number
  /** While a request waits to be retried: `retrying in 10 s (429)`. */
  readonly retrying?: string | undefined
  /** What is counted, in the singular: `paper` unless said (`reference` for `s2 verify`). */
  readonly unit?: string | undefined
  /** Shown instead of the page count: `40 verified, 1 mismatch, 1 not found`. */
  readonly detail?: string | undefined
}

/**
 * The note shown while a request waits to be retried.
 *
 * @since 1.0.0
 */
export const retryNote = (cause: string, waitMillis: number): string =>
  `retrying in ${Math.round(waitMillis / 1000)} s (${cause})`

/**
 * `1234567` → `1,234,567`: what `toLocaleString("en-US")` gives for whole numbers, without loading
 * ICU's number formatting on the first call (about 10 ms, in a harvest's progress line).
 *
 * @since 1.0.0
 */
export const grouped = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

const number = grouped

/**
 * A count and its noun, singular for one: `1 page`, `1,000 papers`.
 *
 * @since 1.0.0
 */
export const count = (n: number, noun: string): string => `${number(n)} ${noun}${n === 1 ? "" : "s"}`

/**
 * Seconds as `42s`, `3m05s`, `1h02m`.
 *
 * @since 1.0.0
 */
export const duration = (seconds: number): string => {
  if (!Number.isFinite(seconds) || seconds < 0) return "?"
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`
}

/**
 * Records per second in this run.
 *
 * @since 1.0.0
 */
export const rate = (state: State): number => {
  const seconds = (state.now - state.startedAt) / 1000
  return seconds > 0 ? (state.records - state.startRecords) / seconds : 0
}

/**
 * The time left, when it can be told: a total is known and papers are coming.
 *
 * @since 1.0.0
 */
export const eta = (state: State): string | undefined => {
  const perSecond = rate(state)
  const remaining = Math.max(0, state.target - state.records)
  return state.target === 0
    ? undefined
    : remaining === 0
    ? "0s"
    : perSecond > 0
    ? duration(remaining / perSecond)
    : undefined
}

/**
 * The facts after the bar: `21,000/50,000 papers · 21 pages · 9,800 papers/s · ETA 3s`; without a
 * total (a graph walk), or before papers come, no ETA rather than `ETA ?`. A count of one is
 * singular (`1 paper/s`).
 *
 * @since 1.0.0
 */
export const facts = (state: State): string => {
  const perSecond = Math.round(rate(state))
  const left = eta(state)
  const unit = state.unit ?? "paper"
  const of = state.target > 0 ? `/${number(state.target)} ${unit}s` : state.records === 1 ? ` ${unit}` : ` ${unit}s`
  const detail = state.detail === undefined ? count(state.pages, "page") : visible(state.detail)
  return `${number(state.records)}${of} · ${detail} · ${count(perSecond, unit)}/s${
    left === undefined ? "" : ` · ETA ${left}`
  }${state.retrying === undefined ? "" : ` · ${visible(state.retrying)}`}`
}

/**
 * Percentage done, 0 to 100 (0 while the total is unknown).
 *
 * @since 1.0.0
 */
export const percent = (state: State): number =>
  state.target > 0 ? Math.min(100, Math.floor((100 * state.records) / state.target)) : 0

/**
 * The terminal line: a bar, the percentage and the facts, in at most `columns` characters.
 *
 * @since 1.0.0
 */
export const barLine = (state: State, columns: number): string => {
  const text = ` ${String(percent(state)).padStart(3)}% ${facts(state)}`
  const width = Math.max(10, Math.min(40, columns - text.length - 3))
  const filled = state.target > 0 ? Math.min(width, Math.round((width * state.records) / state.target)) : 0
  return `[${"█".repeat(filled)}${"░".repeat(width - filled)}]${text}`
}

/**
 * The plain line printed periodically when stderr is not a terminal.
 *
 * @since 1.0.0
 */
export const plainLine = (state: State, label = "harvest"): string =>
  `${label}: ${state.target > 0 ? `${percent(state)}% ` : ""}${facts(state)}`

/**
 * Shows progress.
 *
 * @since 1.0.0
 */
export interface Reporter {
  readonly update: (state: State) => Effect.Effect<void>
  /** Draws the final state and releases the terminal. */
  readonly stop: Effect.Effect<void>
}

/**
 * The live bar, on a terminal stream.
 *
 * @since 1.0.0
 */
export const tty = (stream: NodeJS.WritableStream, columns: () => number): Reporter => {
  let last: State | undefined
  const bar = new SingleBar({
    stream,
    fps: 10,
    hideCursor: true,
    clearOnComplete: false,
    stopOnComplete: false,
    linewrap: false,
    format: (_options, _params, payload: { readonly state?: State }) =>
      payload.state === undefined ? "" : barLine(payload.state, columns())
  })
  let started = false
  return {
    update: (state) =>
      Effect.sync(() => {
        last = state
        if (!started) {
          started = true
          bar.start(Math.max(state.target, 1), state.records, { state })
        } else {
          bar.setTotal(Math.max(state.target, 1))
          bar.update(state.records, { state })
        }
      }),
    stop: Effect.sync(() => {
      if (!started) return
      if (last !== undefined) bar.update(last.records, { state: last })
      bar.stop()
      started = false
    })
  }
}

/**
 * Plain lines, at most one per `intervalMillis`, and the last state on stop.
 *
 * @since 1.0.0
 */
export const plain = (
  write: (line: string) => Effect.Effect<void>,
  intervalMillis = 1000,
  label = "harvest"
): Reporter => {
  let printedAt = 0
  let last: State | undefined
  let printed: State | undefined
  return {
    update: (state) =>
      Effect.suspend(() => {
        last = state
        // A retry starting is news: shown at once, whatever the interval.
        const news = state.retrying !== undefined && state.retrying !== printed?.retrying
        if (!news && state.now - printedAt < intervalMillis) return Effect.void
        printedAt = state.now
        printed = state
        return write(plainLine(state, label) + "\n")
      }),
    stop: Effect.suspend(() =>
      last === undefined || last === printed ? Effect.void : Effect.andThen(
        Effect.sync(() => {
          printed = last
        }),
        write(plainLine(last, label) + "\n")
      )
    )
  }
}

/**
 * No progress at all: `-q/--quiet`.
 *
 * @since 1.0.0
 */
export const silent: Reporter = { update: () => Effect.void, stop: Effect.void }

/**
 * Progress shown only once the work has run for `afterMillis` (one second): a short run prints
 * nothing but its result, and a bar drawn and replaced within a blink is noise. Until then nothing is
 * drawn, and `stop` draws nothing either.
 *
 * @since 1.0.0
 */
export const delayed = (reporter: Reporter, afterMillis = 1000): Reporter => {
  let shown = false
  return {
    update: (state) =>
      Effect.suspend(() => {
        if (!shown && state.now - state.startedAt < afterMillis) return Effect.void
        shown = true
        return reporter.update(state)
      }),
    stop: Effect.suspend(() => (shown ? reporter.stop : Effect.void))
  }
}
