/**
 * Counting from synchronous code: where the retry schedule decides, and per page of a record
 * stream, without an Effect per count.
 */
import * as MetricLabel from "effect/MetricLabel"
import * as Metrics from "../Metrics.js"

const byCause = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()

/** Counts one retry of a cause (a retry budget's, or the error's tag for a policy without one). */
export const countRetry = (cause: string): void => {
  let tags = byCause.get(cause)
  if (tags === undefined) byCause.set(cause, tags = [MetricLabel.make("cause", cause)])
  Metrics.retries.unsafeUpdate(1, tags)
}

const noTags: ReadonlyArray<MetricLabel.MetricLabel> = []

/** Counts records delivered by a stream (per page, not per record). */
export const countRecords = (n: number): void => Metrics.recordsStreamed.unsafeUpdate(n, noTags)

/** Counts one request sent (each attempt). */
export const countRequest = (): void => Metrics.requests.unsafeUpdate(1, noTags)
