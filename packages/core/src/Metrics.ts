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
 * @since 1.0.0
 */
import * as Metric from "effect/Metric"

/**
 * Requests sent to the API: every attempt, retries included (answers from the response cache are
 * not requests).
 *
 * @category metrics
 * @since 1.0.0
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
 * @since 1.0.0
 */
export const retries = Metric.counter("s2_retries_total", {
  description: "Retries of requests to the Semantic Scholar APIs, by cause",
  incremental: true
})

/**
 * Answers with HTTP 429 (Too Many Requests), whether retried or not.
 *
 * @category metrics
 * @since 1.0.0
 */
export const rateLimited = Metric.counter("s2_rate_limited_total", {
  description: "HTTP 429 answers from the Semantic Scholar APIs",
  incremental: true
})

/**
 * Records delivered by the record streams (`searchPaper`, `getPaperCitations`, …).
 *
 * @category metrics
 * @since 1.0.0
 */
export const recordsStreamed = Metric.counter("s2_records_streamed_total", {
  description: "Records delivered by the streams of the Semantic Scholar client",
  incremental: true
})
