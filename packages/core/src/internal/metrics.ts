/**
 * Counting from synchronous code: where the retry schedule decides, and per page of a record
 * stream, without an Effect per count. Effect 4 keeps a metric's series in the `MetricRegistry` of
 * the context; a count made without one (the default context) lands in the process's default
 * registry, which is the one `Metric.value` reads unless a registry was provided.
 */
import * as Context from "effect/Context"
import * as Metric from "effect/Metric"
import * as Metrics from "../Metrics.js"

const byCause = new Map<string, Metric.Counter<number>>()

const noContext: Context.Context<never> = Context.empty()

/** Counts one retry of a cause (a retry budget's, or the error's tag for a policy without one). */
export const countRetry = (cause: string, context: Context.Context<never> = noContext): void => {
  let tagged = byCause.get(cause)
  if (tagged === undefined) byCause.set(cause, tagged = Metric.withAttributes(Metrics.retries, { cause }))
  tagged.updateUnsafe(1, context)
}

/** Counts records delivered by a stream (per page, not per record). */
export const countRecords = (n: number, context: Context.Context<never> = noContext): void =>
  Metrics.recordsStreamed.updateUnsafe(n, context)

/** Counts one request sent (each attempt). */
export const countRequest = (context: Context.Context<never> = noContext): void =>
  Metrics.requests.updateUnsafe(1, context)
