/**
 * Fault injection for the emulator: scripted faults ("the 3rd request gets 429"), seeded random
 * faults, and an API-key policy. A configuration is a plain value; the emulator keeps the counters.
 *
 * @example
 * ```ts
 * import { Faults } from "@s2-effect/testing"
 * const faults: Faults.Config = {
 *   script: [
 *     { requests: 3, fault: Faults.tooManyRequests({ retryAfter: 2 }) },
 *     { route: "/paper/search/bulk", requests: { from: 2, to: 4 }, fault: Faults.status(503) }
 *   ],
 *   random: { seed: 7, rate: 0.1, faults: [Faults.status(500), Faults.latency("2 seconds")] },
 *   keyPolicy: { keys: ["secret"], ratePerSecond: 1 }
 * }
 * ```
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import { hash, unit } from "./internal/prng.js"

/**
 * One fault. `Status` answers with an error status; `Latency` delays the normal answer; `Hang`
 * never answers (interruptible); `Truncate` answers 200 with a body cut short; `Reset` drops the
 * connection. `CursorLoop` answers normally but its pagination cursor points back at the page just
 * served (`next` equal to the request's offset, or the request's own bulk `token`); `CursorBack`
 * points it before that page (`next` one page back, or the bulk token of the first page). Both
 * model a broken server whose streams would never end.
 *
 * @category models
 * @since 0.1.0
 */
export type Fault =
  | {
    readonly _tag: "Status"
    readonly status: number
    readonly retryAfter: number | undefined
    readonly body: string | undefined
  }
  | { readonly _tag: "Latency"; readonly millis: number }
  | { readonly _tag: "Hang" }
  | { readonly _tag: "Truncate"; readonly fraction: number }
  | { readonly _tag: "Reset" }
  | { readonly _tag: "CursorLoop" }
  | { readonly _tag: "CursorBack" }

/**
 * Which requests a scripted rule applies to: a 1-based position among the requests matching its
 * route (`3`), a range (`{ from: 2, to: 4 }`, `to` inclusive and optional), or every one (omitted).
 *
 * @category models
 * @since 0.1.0
 */
export type RequestSelector = number | { readonly from: number; readonly to?: number }

/**
 * A route pattern: a path with or without the API prefix (`"/paper/search/bulk"` or
 * `"/graph/v1/paper/search/bulk"`), a prefix ending in `*` (`"/datasets/v1/*"`), or a RegExp over the path.
 *
 * @category models
 * @since 0.1.0
 */
export type RoutePattern = string | RegExp

/**
 * @category models
 * @since 0.1.0
 */
export interface Rule {
  readonly route?: RoutePattern
  readonly method?: string
  readonly requests?: RequestSelector
  readonly fault: Fault
}

/**
 * @category models
 * @since 0.1.0
 */
export interface Random {
  readonly seed: number
  /** Probability in [0, 1] that a matching request gets a fault. */
  readonly rate: number
  readonly faults: ReadonlyArray<Fault>
  readonly route?: RoutePattern
}

/**
 * API-key policy. `required`: requests without a key get 403. `keys`: the valid keys; a request
 * with another key gets 403. `ratePerSecond`: per key (anonymous requests share one pool), a token
 * bucket of that many requests refilled at that rate per second: bursts of up to `ratePerSecond`,
 * then that rate; requests beyond it get 429 with `Retry-After: 1`.
 *
 * @category models
 * @since 0.1.0
 */
export interface KeyPolicy {
  readonly required?: boolean
  readonly keys?: ReadonlyArray<string>
  readonly ratePerSecond?: number
}

/**
 * @category options
 * @since 0.1.0
 */
export interface Config {
  readonly script?: ReadonlyArray<Rule>
  readonly random?: Random | ReadonlyArray<Random>
  readonly keyPolicy?: KeyPolicy
}

/**
 * 429 Too Many Requests, with a `Retry-After` header (seconds) when given.
 *
 * @category constructors
 * @since 0.1.0
 */
export const tooManyRequests = (options: { readonly retryAfter?: number } = {}): Fault => ({
  _tag: "Status",
  status: 429,
  retryAfter: options.retryAfter,
  body: undefined
})

/**
 * Any status with the API's body for it (500, 502, 503, 504 …).
 *
 * @category constructors
 * @since 0.1.0
 */
export const status = (
  code: number,
  options: { readonly retryAfter?: number; readonly body?: string } = {}
): Fault => ({
  _tag: "Status",
  status: code,
  retryAfter: options.retryAfter,
  body: options.body
})

/**
 * Delay the normal answer (uses Effect's Clock in memory, so TestClock controls it).
 *
 * @category constructors
 * @since 0.1.0
 */
export const latency = (duration: Duration.DurationInput): Fault => ({
  _tag: "Latency",
  millis: Duration.toMillis(Duration.decode(duration))
})

/**
 * Never answer.
 *
 * @category constructors
 * @since 0.1.0
 */
export const hang: Fault = { _tag: "Hang" }

/**
 * A 200 whose body stops after `fraction` of its bytes (invalid JSON).
 *
 * @category constructors
 * @since 0.1.0
 */
export const truncate = (fraction = 0.5): Fault => ({ _tag: "Truncate", fraction })

/**
 * Drop the connection (a transport error for the client).
 *
 * @category constructors
 * @since 0.1.0
 */
export const reset: Fault = { _tag: "Reset" }

/**
 * A page whose cursor repeats the request's (`next` = offset, same bulk token).
 *
 * @category constructors
 * @since 0.1.0
 */
export const cursorLoop: Fault = { _tag: "CursorLoop" }

/**
 * A page whose cursor goes back (`next` one page earlier, the first page's bulk token).
 *
 * @category constructors
 * @since 0.1.0
 */
export const cursorBack: Fault = { _tag: "CursorBack" }

/**
 * The message of the API's 429 answer, word for word.
 *
 * @category constants
 * @since 0.1.0
 */
export const TOO_MANY_REQUESTS_MESSAGE =
  "Too Many Requests. Please wait and try again or apply for a key for higher rate limits. https://www.semanticscholar.org/product/api#api-key-form"

/**
 * The body the API sends for an error status.
 *
 * @category utils
 * @since 0.1.0
 */
export const bodyFor = (code: number): unknown => {
  switch (code) {
    case 429:
      return { message: TOO_MANY_REQUESTS_MESSAGE, code: "429" }
    case 504:
      return { message: "Endpoint request timed out" }
    case 502:
      return { message: "Bad Gateway" }
    case 503:
      return { message: "Service Unavailable" }
    case 403:
      return { message: "Forbidden" }
    default:
      return { message: "Internal Server Error" }
  }
}

const API_PREFIX = /^\/(graph|recommendations|datasets)\/v1(?=\/)/

/**
 * Whether a request path matches a rule's route: any path for none, a regular expression, an exact
 * path, or a prefix ending in `*`; the API prefix (`/graph/v1`) may be left out of the route.
 *
 * @category utils
 * @since 0.1.0
 */
export const routeMatches = (pattern: RoutePattern | undefined, path: string): boolean => {
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

const selected = (selector: RequestSelector | undefined, n: number): boolean => {
  if (selector === undefined) return true
  if (typeof selector === "number") return n === selector
  return n >= selector.from && (selector.to === undefined || n <= selector.to)
}

/**
 * What the emulator must do before (or instead of) answering.
 *
 * @category models
 */
export interface Decision {
  readonly delayMillis: number
  readonly terminal: Fault | undefined
}

/**
 * Counters for one configuration. Internal to the emulator.
 *
 * @category models
 */
export class FaultState {
  private ruleCounts: Array<number>
  private randomCounts: Array<number>
  private readonly buckets = new Map<string, { tokens: number; at: number }>()
  readonly random: ReadonlyArray<Random>
  constructor(readonly config: Config) {
    this.ruleCounts = (config.script ?? []).map(() => 0)
    this.random = config.random === undefined
      ? []
      : Array.isArray(config.random)
      ? config.random
      : [config.random as Random]
    this.randomCounts = this.random.map(() => 0)
  }

  decide(method: string, path: string): Decision {
    let delayMillis = 0
    let terminal: Fault | undefined
    const consider = (fault: Fault) => {
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
