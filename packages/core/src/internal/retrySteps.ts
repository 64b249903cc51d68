/**
 * What a retry step says, read by the policy's public module and by the retry log: an error's
 * cause, whether a schedule's output is a step, and a wait as people read it. Here, not in
 * RetryPolicy.ts, so that the retry log (which RetryPolicy.logged wraps) imports no value of it.
 */
import * as Predicate from "effect/Predicate"
import type { Cause, RetryStep } from "../RetryPolicy.js"
import type { S2Error } from "../S2Error.js"

export const causeOf = (error: S2Error): Cause | undefined => {
  switch (error._tag) {
    case "RateLimited":
      return "rateLimited"
    case "ServerError":
      return "serverFailed"
    case "Timeout":
      return "timeout"
    case "TransportError":
      return error.reason === "reset" || error.reason === "cutShort" || error.reason === "malformed"
        ? "serverFailed"
        : "unreachable"
    default:
      return undefined
  }
}

export const isRetryStep = (u: unknown): u is RetryStep => Predicate.isTagged(u, "RetryStep")

/** Units of {@link formatWait}, largest first: size, short name, long (singular) name. */
const units = [
  [86_400_000, " day", " day"],
  [3_600_000, " h", " hour"],
  [60_000, " min", " minute"],
  [1000, " s", " second"]
] as const

export const formatWait = (millis: number, style: "wait" | "limit" = "wait"): string => {
  if (!Number.isFinite(millis)) return "unbounded"
  if (millis < 1000) return `${Math.round(millis)}${style === "wait" ? " ms" : " millisecond"}`
  if (millis < 60_000 && style === "wait") return `${Math.round(millis / 100) / 10} s`
  const name = (n: number, unit: string, longName: string) =>
    style === "limit" ? `${n}${longName}` : `${n}${unit}${unit === " day" && n !== 1 ? "s" : ""}`
  // Rounded to the smaller unit shown, and the larger unit chosen after rounding: a store's
  // 23 h 59 min 59.8 s is `1 day`.
  const index = units.findIndex(([size], i) =>
    Math.round(millis / (units[i + 1]?.[0] ?? size)) * (units[i + 1]?.[0] ?? size) >= size
  )
  const [size, short, long] = units[index]!
  const next = units[index + 1]
  const step = next?.[0] ?? size
  const total = Math.round(millis / step)
  const whole = Math.floor(total / (size / step))
  const rest = total - whole * (size / step)
  return next === undefined || rest === 0
    ? name(whole, short, long)
    : `${name(whole, short, long)} ${name(rest, next[1], next[2])}`
}
