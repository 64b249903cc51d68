/**
 * The in-memory emulator: a `Layer` providing `HttpClient.HttpClient` that answers from the
 * emulator (no sockets), together with the {@link Emulator} service for inspecting requests,
 * changing faults and reading the corpus.
 *
 * @since 1.0.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import type { Corpus, CorpusOptions } from "./Corpus.js"
import type { Config } from "./Faults.js"
import type { EmulatorCore } from "./internal/core.js"
import * as internal from "./internal/emulator.js"

/**
 * Options shared by {@link Emulator.layer} and {@link startEmulator}.
 *
 * @category options
 * @since 1.0.0
 */
export interface EmulatorOptions extends Partial<CorpusOptions> {
  /** Reuse an already generated corpus (its options win over seed/size/bulkSize/openWorld). */
  readonly corpus?: Corpus
  readonly faults?: Config
  /** Dataset releases: weekly from `start` (default "2022-05-10"), `count` of them (default 172). */
  readonly releases?: { readonly start?: string; readonly count?: number }
  /** Where dataset file links point (default in memory: "https://files.emulator.test"). */
  readonly fileBase?: string
  /**
   * Requests per clock second per API key (anonymous requests share one pool); more get 429 with
   * `Retry-After: 1`. Kept across `setFaults`; a fault config's `keyPolicy.ratePerSecond` wins.
   */
  readonly rateLimit?: number
  /**
   * Papers arrive as the clock moves (the in-memory emulator reads Effect's `Clock`, so `TestClock`
   * drives it). Absent: every paper is there from the start.
   */
  readonly arrivals?: Arrivals
}

/**
 * A corpus that grows with the clock. Each materialized paper arrives `0..delayDays` days after its
 * publication date, or, for a seeded share `lateShare`, `delayDays..lateDays` days after it (a paper
 * dated weeks ago appearing today, as Semantic Scholar adds papers late). Papers arrived by `from`
 * are there from the start; the others are hidden, until the clock passes their arrival, from
 * lookups (404), batches (`null`), citation and author-paper lists, relevance and bulk search (with
 * arrivals, bulk search ranges over the materialized papers only). Their citations arrive with
 * them; counts (`citationCount`, …) and reference lists stay those of the whole corpus. Seeded:
 * the same options give the same arrivals.
 *
 * @category options
 * @since 1.1.0
 */
export interface Arrivals {
  /** The clock instant (milliseconds since the epoch) at which the corpus is as first seen. */
  readonly from: number
  /** Most days an ordinary paper takes to arrive after its publication date (default 7). */
  readonly delayDays?: number
  /** Share of papers that arrive late (default 0.1). */
  readonly lateShare?: number
  /** Most days a late paper takes (default 60). */
  readonly lateDays?: number
}

/**
 * A request the emulator saw. The `x-api-key` header value is replaced by `"<redacted>"`;
 * `keyPresent` says whether one was sent and `keyMatched` whether it was one of the policy's
 * keys (`undefined` when the policy lists none).
 *
 * @category models
 * @since 1.0.0
 */
export interface RecordedRequest {
  readonly seq: number
  readonly at: number
  readonly method: string
  readonly url: string
  readonly host: string
  readonly path: string
  readonly query: ReadonlyArray<readonly [string, string]>
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
  readonly keyPresent: boolean
  readonly keyMatched: boolean | undefined
  /** Status answered, or what happened instead. */
  readonly outcome: number | "hang" | "reset"
}

/**
 * A request as the emulator sees it, whether it came in memory or over HTTP.
 *
 * @category models
 * @since 1.0.0
 */
export interface EmulatorRequest {
  readonly method: string
  readonly url: URL
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
}

/**
 * A response produced by a route handler.
 *
 * @category models
 * @since 1.0.0
 */
export interface EmulatorResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | Uint8Array
}

/**
 * What tests can do with a running emulator.
 *
 * @category services
 * @since 1.0.0
 */
export interface EmulatorService {
  readonly corpus: Corpus
  /** Base URL dataset file links point at (a different host from the API root). */
  readonly fileUrl: string
  /** Every request seen so far, oldest first (the API key redacted). */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** How many requests the emulator saw since it started or since `clearRequests`. */
  readonly requestCount: Effect.Effect<number>
  /**
   * The same requests counted by path, e.g. `{ "/graph/v1/paper/batch": 2, "/graph/v1/paper/CorpusId:1": 1 }`:
   * what a test of caching or batching asserts in one line.
   */
  readonly requestCounts: Effect.Effect<Readonly<Record<string, number>>>
  /** Forgets the requests seen so far (counts start again from zero). */
  readonly clearRequests: Effect.Effect<void>
  /**
   * The clock instant at which the materialized paper `index` arrives under
   * {@link EmulatorOptions.arrivals}; 0 without arrivals (there from the start).
   *
   * @since 1.1.0
   */
  readonly arrival: (index: number) => number
  /** Replaces the fault configuration (and resets its counters). */
  readonly setFaults: (config: Config) => Effect.Effect<void>
  /**
   * The transport-independent core; the in-memory client and the HTTP server both call it.
   * @internal
   */
  readonly core: EmulatorCore
}

/**
 * The emulator service tag. Provided by {@link Emulator.layer} together with `HttpClient`.
 *
 * @example
 * ```ts
 * import { it, expect } from "@effect/vitest"
 * import { Effect } from "effect"
 * import { HttpClient } from "effect/http"
 * import { Emulator } from "@s2-effect/testing"
 *
 * it.effect("fetches a paper", () =>
 *   Effect.gen(function*() {
 *     const client = yield* HttpClient.HttpClient
 *     const res = yield* client.get("https://api.semanticscholar.org/graph/v1/paper/CorpusId:1015")
 *     expect(res.status).toBe(200)
 *     const emulator = yield* Emulator
 *     expect(yield* emulator.requestCount).toBe(1)
 *     expect(yield* emulator.requestCounts).toEqual({ "/graph/v1/paper/CorpusId:1015": 1 })
 *   }).pipe(Effect.provide(Emulator.layer({ seed: 1, size: 1000 }))))
 * ```
 * @category services
 * @since 1.0.0
 */
export class Emulator extends Context.Service<Emulator, EmulatorService>()("@s2-effect/testing/Emulator") {
  /**
   * Builds an emulator (corpus included) without providing anything.
   *
   * @example
   * ```ts
   * import { Emulator } from "@s2-effect/testing"
   * import { Effect } from "effect"
   *
   * const program = Effect.gen(function*() {
   *   const { client, service } = yield* Emulator.make({ seed: 1, size: 1000 })
   *   return { client, service }
   * })
   * ```
   * @since 1.0.0
   */
  static make(
    options: EmulatorOptions = {}
  ): Effect.Effect<{ readonly service: EmulatorService; readonly client: HttpClient.HttpClient }> {
    return internal.make(options)
  }

  /**
   * The mocked layer: `HttpClient.HttpClient` answering from the emulator, plus the
   * {@link Emulator} service. Any host is answered; use the real API root as the base URL.
   *
   * @example
   * ```ts
   * import { SemanticScholar } from "@s2-effect/core"
   * import { Emulator, Faults } from "@s2-effect/testing"
   * import { Effect, Layer } from "effect"
   *
   * const program = Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1"))
   * // The first request answers 503; the client's retry policy tries again.
   * const faulty = Emulator.layer({ seed: 1, size: 1000, faults: { script: [{ requests: 1, fault: Faults.status(503) }] } })
   * const result = program.pipe(Effect.provide(SemanticScholar.layer().pipe(Layer.provide(faulty))))
   * ```
   * @since 1.0.0
   */
  static layer(options: EmulatorOptions = {}): Layer.Layer<Emulator | HttpClient.HttpClient> {
    return Layer.effectContext(
      Effect.map(
        internal.make(options),
        ({ client, service }) => Context.make(Emulator, service).pipe(Context.add(HttpClient.HttpClient, client))
      )
    )
  }
}
