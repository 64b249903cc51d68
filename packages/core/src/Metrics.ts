/**
 * The client's counters, as Effect `Metric`s: read them with `Metric.value`, or export them with
 * any metrics exporter (e.g. `@effect/opentelemetry`). They count every client in the process.
 *
 * @example
 * ```ts
 * import { Effect, Metric } from "effect"
 * import { Metrics } from "@s2-effect/core"
 *
 * const report = Effect.gen(function*() {
 *   const requests = yield* Metric.value(Metrics.requests)
 *   const streamed = yield* Metric.value(Metrics.recordsStreamed)
 *   return `${requests.count} requests, ${streamed.count} records streamed`
 * })
 * ```
 * @since 0.1.0
 */
import * as Metric from "effect/Metric"
import * as MetricLabel from "effect/MetricLabel"
import type { Cause } from "./RetryPolicy.js"

/**
 * Requests sent to the API: every attempt, retries included (answers from the response cache are
 * not requests).
 *
 * @category metrics
 * @since 0.1.0
 */
export const requests = Metric.counter("s2_requests_total", {
  description: "HTTP requests sent to the Semantic Scholar APIs, retries included",
  incremental: true
})

/**
 * Retries made, tagged `cause` with the retry policy's cause (`rateLimited`, `serverFailed`,
 * `unreachable`, `timeout`).
 *
 * @category metrics
 * @since 0.1.0
 */
export const retries = Metric.counter("s2_retries_total", {
  description: "Retries of requests to the Semantic Scholar APIs, by cause",
  incremental: true
})

/**
 * Answers with HTTP 429 (Too Many Requests), whether retried or not.
 *
 * @category metrics
 * @since 0.1.0
 */
export const rateLimited = Metric.counter("s2_rate_limited_total", {
  description: "HTTP 429 answers from the Semantic Scholar APIs",
  incremental: true
})

/**
 * Records delivered by the record streams (`searchPaper`, `getPaperCitations`, …).
 *
 * @category metrics
 * @since 0.1.0
 */
export const recordsStreamed = Metric.counter("s2_records_streamed_total", {
  description: "Records delivered by the streams of the Semantic Scholar client",
  incremental: true
})

const byCause = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()

/**
 * Counts one retry of a cause. Synchronous: called where the retry schedule decides.
 *
 * @category utils
 * @since 0.1.0
 */
export const unsafeCountRetry = (cause: Cause | string): void => {
  let tags = byCause.get(cause)
  if (tags === undefined) byCause.set(cause, tags = [MetricLabel.make("cause", cause)])
  retries.unsafeUpdate(1, tags)
}

const noTags: ReadonlyArray<MetricLabel.MetricLabel> = []

/**
 * Counts one request sent.
 *
 * @category utils
 * @since 0.1.0
 */
export const unsafeCountRequest = (): void => requests.unsafeUpdate(1, noTags)

/**
 * Counts a 429 answer.
 *
 * @category utils
 * @since 0.1.0
 */
export const unsafeCountRateLimited = (): void => rateLimited.unsafeUpdate(1, noTags)

/**
 * Counts records delivered by a stream (per page, not per record).
 *
 * @category utils
 * @since 0.1.0
 */
export const unsafeCountRecords = (n: number): void => recordsStreamed.unsafeUpdate(n, noTags)
