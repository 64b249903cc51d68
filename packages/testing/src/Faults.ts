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
 * @since 1.0.0
 */
import type * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import type * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as internal from "./internal/faults.js"
import * as json from "./internal/faultsJson.js"

/**
 * One fault. `Status` answers with an error status; `Latency` delays the normal answer; `Hang`
 * never answers (interruptible); `Truncate` answers 200 with a body cut short; `Reset` drops the
 * connection. `CursorLoop` answers normally but its pagination cursor points back at the page just
 * served (`next` equal to the request's offset, or the request's own bulk `token`); `CursorBack`
 * points it before that page (`next` one page back, or the bulk token of the first page). Both
 * model a broken server whose streams would never end. `RepeatPage` serves the list's first page
 * again, whatever was asked, with a cursor that still moves on; `Total` answers normally with the
 * page's `total` replaced: a server that does not advance, or miscounts, whatever its cursors say.
 *
 * @category models
 * @since 1.0.0
 */
export type Fault = Data.TaggedEnum<{
  Status: {
    readonly status: number
    readonly retryAfter: number | undefined
    readonly body: string | undefined
  }
  Latency: { readonly millis: number }
  Hang: Record<never, never>
  Truncate: { readonly fraction: number }
  Reset: Record<never, never>
  CursorLoop: Record<never, never>
  CursorBack: Record<never, never>
  RepeatPage: Record<never, never>
  Total: { readonly total: number }
}>

/**
 * Which requests a scripted rule applies to: a 1-based position among the requests matching its
 * route (`3`), a range (`{ from: 2, to: 4 }`, `to` inclusive and optional), or every one (omitted).
 *
 * @category models
 * @since 1.0.0
 */
export type RequestSelector = number | { readonly from: number; readonly to?: number }

/**
 * A route pattern: a path with or without the API prefix (`"/paper/search/bulk"` or
 * `"/graph/v1/paper/search/bulk"`), a prefix ending in `*` (`"/datasets/v1/*"`), or a RegExp over the path.
 *
 * @category models
 * @since 1.0.0
 */
export type RoutePattern = string | RegExp

/**
 * @category models
 * @since 1.0.0
 */
export interface Rule {
  readonly route?: RoutePattern
  readonly method?: string
  readonly requests?: RequestSelector
  readonly fault: Fault
}

/**
 * @category models
 * @since 1.0.0
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
 * @since 1.0.0
 */
export interface KeyPolicy {
  readonly required?: boolean
  readonly keys?: ReadonlyArray<string>
  readonly ratePerSecond?: number
}

/**
 * @category options
 * @since 1.0.0
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
 * @since 1.0.0
 */
export const tooManyRequests = (options: { readonly retryAfter?: number } = {}): Fault =>
  internal.Fault.Status({ status: 429, retryAfter: options.retryAfter, body: undefined })

/**
 * Any status with the API's body for it (500, 502, 503, 504 …).
 *
 * @category constructors
 * @since 1.0.0
 */
export const status = (
  code: number,
  options: { readonly retryAfter?: number; readonly body?: string } = {}
): Fault => internal.Fault.Status({ status: code, retryAfter: options.retryAfter, body: options.body })

/**
 * Delay the normal answer (uses Effect's Clock in memory, so TestClock controls it).
 *
 * @category constructors
 * @since 1.0.0
 */
export const latency = (duration: Duration.Input): Fault =>
  internal.Fault.Latency({ millis: Duration.toMillis(duration) })

/**
 * Never answer.
 *
 * @category constructors
 * @since 1.0.0
 */
export const hang: Fault = internal.Fault.Hang()

/**
 * A 200 whose body stops after `fraction` of its bytes (invalid JSON).
 *
 * @category constructors
 * @since 1.0.0
 */
export const truncate = (fraction = 0.5): Fault => internal.Fault.Truncate({ fraction })

/**
 * Drop the connection (a transport error for the client).
 *
 * @category constructors
 * @since 1.0.0
 */
export const reset: Fault = internal.Fault.Reset()

/**
 * A page whose cursor repeats the request's (`next` = offset, same bulk token).
 *
 * @category constructors
 * @since 1.0.0
 */
export const cursorLoop: Fault = internal.Fault.CursorLoop()

/**
 * A page whose cursor goes back (`next` one page earlier, the first page's bulk token).
 *
 * @category constructors
 * @since 1.0.0
 */
export const cursorBack: Fault = internal.Fault.CursorBack()

/**
 * A page that serves the list's first page again, whatever offset or token was asked for, with a
 * cursor that still moves on: `next` one page past the offset asked (even past `total`), and on
 * bulk search the token the asked page would have had, or, where the search would end, a made-up
 * one (`PCREPEAT…`) that only this fault answers. On every bulk request (`total: 10` with a
 * `bulkSize` of 10) it is the server that sends the same 10 records with a new token forever.
 *
 * @category constructors
 * @since 1.0.0
 */
export const repeatPage: Fault = internal.Fault.RepeatPage()

/**
 * A normal page whose `total` is `count` (negative, or far below the records served, as a broken
 * server may say); on a list that sends no `total` (citations, references) one is added.
 *
 * @category constructors
 * @since 1.0.0
 */
export const total = (count: number): Fault => internal.Fault.Total({ total: count })

/**
 * The message of the API's 429 answer, word for word.
 *
 * @category constants
 * @since 1.0.0
 */
export const TOO_MANY_REQUESTS_MESSAGE = internal.TOO_MANY_REQUESTS_MESSAGE

/**
 * The body the API sends for an error status.
 *
 * @category utils
 * @since 1.0.0
 */
export const bodyFor: (code: number) => unknown = internal.bodyFor

/**
 * Whether a request path matches a rule's route: any path for none, a regular expression, an exact
 * path, or a prefix ending in `*`; the API prefix (`/graph/v1`) may be left out of the route.
 *
 * @category utils
 * @since 1.0.0
 */
export const routeMatches: (pattern: RoutePattern | undefined, path: string) => boolean = internal.routeMatches

/**
 * The JSON form of a {@link Config}, as a Schema: the same keys, faults by their `_tag` with their
 * fields (`{ "_tag": "Status", "status": 429, "retryAfter": 1 }`, `{ "_tag": "Latency", "millis":
 * 2000 }`, `{ "_tag": "Hang" }` …), routes as strings (no RegExp). What `S2_EMULATOR_FAULTS` holds
 * for `s2 --emulator`. Prefer {@link parseConfig}, which refuses unknown keys and builds the faults.
 *
 * @category schemas
 * @since 1.0.0
 */
export const ConfigJson: Schema.Decoder<Config> = json.ConfigJson

/**
 * Decodes the JSON text of a {@link Config} (see {@link ConfigJson}). Unknown keys are refused (a
 * misspelt `retryAfter` would silently change the fault); the failure is one line saying where
 * and what is wrong.
 *
 * @example
 * ```ts
 * import { Faults } from "@s2-effect/testing"
 * const config = Faults.parseConfig(
 *   '{"script":[{"requests":{"from":1,"to":3},"fault":{"_tag":"Status","status":429,"retryAfter":1}}]}'
 * )
 * ```
 *
 * @category constructors
 * @since 1.0.0
 */
export const parseConfig: (text: string) => Result.Result<Config, string> = json.parseConfig
