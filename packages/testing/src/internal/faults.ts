/** The fault counters and decisions behind the public `Faults` configuration values. */
import * as Data from "effect/Data"
import type * as Faults from "../Faults.js"
import { hash, unit } from "./prng.js"

/** Constructors, `$is` and `$match` of {@link Faults.Fault}. */
export const Fault = Data.taggedEnum<Faults.Fault>()

export const TOO_MANY_REQUESTS_MESSAGE =
  "Too Many Requests. Please wait and try again or apply for a key for higher rate limits. https://www.semanticscholar.org/product/api#api-key-form"

/** The API's body for each error status it sends; anything else is its 500 body. */
const BODIES: Readonly<Record<number, unknown>> = {
  429: { message: TOO_MANY_REQUESTS_MESSAGE, code: "429" },
  504: { message: "Endpoint request timed out" },
  502: { message: "Bad Gateway" },
  503: { message: "Service Unavailable" },
  403: { message: "Forbidden" }
}

export const bodyFor = (code: number): unknown => BODIES[code] ?? { message: "Internal Server Error" }

const API_PREFIX = /^\/(graph|recommendations|datasets)\/v1(?=\/)/

export const routeMatches = (pattern: Faults.RoutePattern | undefined, path: string): boolean => {
  if (pattern === undefined) return true
  if (typeof pattern !== "string") return pattern.test(path)
  const stripped = path.replace(API_PREFIX, "")
  if (pattern.endsWith("*")) {
    const prefix = pattern.slice(0, -1)
    return path.startsWith(prefix) || stripped.startsWith(prefix)
  }
  const norm = (p: string) => p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p
  return norm(path) === norm(pattern) || norm(stripped) === norm(pattern)
}

const selected = (selector: Faults.RequestSelector | undefined, n: number): boolean => {
  if (selector === undefined) return true
  if (typeof selector === "number") return n === selector
  return n >= selector.from && (selector.to === undefined || n <= selector.to)
}

/** What the emulator must do before (or instead of) answering. */
export interface Decision {
  readonly delayMillis: number
  readonly terminal: Faults.Fault | undefined
}

/** The counters of one fault configuration: scripted rules, random draws and per-key token buckets. */
export class FaultState {
  private ruleCounts: Array<number>
  private randomCounts: Array<number>
  private readonly buckets = new Map<string, { tokens: number; at: number }>()
  readonly random: ReadonlyArray<Faults.Random>
  constructor(readonly config: Faults.Config) {
    this.ruleCounts = (config.script ?? []).map(() => 0)
    this.random = config.random === undefined
      ? []
      : Array.isArray(config.random)
      ? config.random
      : [config.random as Faults.Random]
    this.randomCounts = this.random.map(() => 0)
  }

  decide(method: string, path: string): Decision {
    let delayMillis = 0
    let terminal: Faults.Fault | undefined
    const consider = (fault: Faults.Fault) => {
      if (terminal !== undefined) return
      if (fault._tag === "Latency") delayMillis += fault.millis
      else terminal = fault
    }
    ;(this.config.script ?? []).forEach((rule, k) => {
      if (!routeMatches(rule.route, path)) return
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) return
      const n = ++this.ruleCounts[k]!
      if (selected(rule.requests, n)) consider(rule.fault)
    })
    this.random.forEach((r, k) => {
      if (!routeMatches(r.route, path) || r.faults.length === 0) return
      const n = this.randomCounts[k]!++
      const h = hash(r.seed, n, 43)
      if (unit(h) < r.rate) consider(r.faults[hash(r.seed, n, 47) % r.faults.length]!)
    })
    return { delayMillis, terminal }
  }

  /**
   * True when this request exceeds the per-key rate: a token bucket per key, as API gateways
   * throttle, holding `ratePerSecond` tokens and refilled at that rate. A client pacing itself at
   * the rate passes even when its requests arrive a little early or late; one going faster is
   * refused once the bucket is empty. Refused requests take no token.
   */
  overRate(key: string | undefined, nowMillis: number): boolean {
    const rate = this.config.keyPolicy?.ratePerSecond
    if (rate === undefined) return false
    const id = key ?? "<anonymous>"
    const bucket = this.buckets.get(id) ?? { tokens: rate, at: nowMillis }
    const tokens = Math.min(rate, bucket.tokens + (Math.max(0, nowMillis - bucket.at) * rate) / 1000)
    const over = tokens < 1
    this.buckets.set(id, { tokens: over ? tokens : tokens - 1, at: nowMillis })
    return over
  }
}
