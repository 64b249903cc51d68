/**
 * The client on Node: `@effect/platform-node`'s undici HttpClient (or `node:http`, which uses less
 * memory), one keep-alive connection pool per layer, and settings from the environment through
 * Effect `Config`.
 *
 * @since 0.1.0
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import type { BadQueryParameters, Options } from "@s2-effect/core"
import { SemanticScholar } from "@s2-effect/core"
import type { ConfigError } from "effect"
import { Config, Effect, Layer, Option, Redacted } from "effect"

/**
 * The HTTP stack under the client.
 *
 * - `"undici"` (the default): the fastest here — a bulk harvest from a local server ran about 6%
 *   faster than over `node:http`.
 * - `"node:http"`: about 17 MB less resident memory (undici's code is not loaded), which lowers the
 *   peak of a long bulk harvest from about 186 MB to about 155 MB (packages/bench/RESULTS.md).
 *   Against the real API, whose latency dwarfs either stack's CPU, choose it when memory counts.
 *
 * Both keep connections alive: one pool per layer, so paging over HTTPS does not redo the TLS
 * handshake per page.
 *
 * @since 0.1.0
 */
export type HttpStack = "undici" | "node:http"

// `new http.Agent()` does not keep connections alive by default.
const nodeHttp = NodeHttpClient.layerWithoutAgent.pipe(
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: true }))
)

/**
 * The `HttpClient` under {@link layer}, for code that builds `SemanticScholar.layer` itself.
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 * import { NodeSemanticScholar } from "@s2-effect/node"
 *
 * const client = SemanticScholar.layer({ timeout: "5 seconds" }).pipe(
 *   Layer.provide(NodeSemanticScholar.httpClient("node:http"))
 * )
 * ```
 * @since 0.1.0
 */
export const httpClient = (stack: HttpStack = "undici"): Layer.Layer<HttpClient.HttpClient> =>
  stack === "undici" ? NodeHttpClient.layerUndici : nodeHttp

/**
 * The client's options on Node: those of `SemanticScholar.layer`, and the HTTP stack.
 *
 * @since 0.1.0
 */
export interface NodeOptions extends Options {
  /** Default `"undici"`; see {@link HttpStack}. */
  readonly http?: HttpStack | undefined
}

/**
 * The client with the options given.
 *
 * @example
 * ```ts
 * import { Effect, Redacted } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 * import { NodeSemanticScholar } from "@s2-effect/node"
 *
 * const program = Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:215416146"))
 * program.pipe(
 *   Effect.provide(NodeSemanticScholar.layer({ apiKey: Redacted.make("my key"), timeout: "10 seconds" })),
 *   Effect.runPromise
 * )
 *
 * // A long harvest where memory counts more than the last few percent of CPU:
 * export const harvester = NodeSemanticScholar.layer({ http: "node:http" })
 * ```
 * @since 0.1.0
 */
export const layer = (options: NodeOptions = {}): Layer.Layer<SemanticScholar, BadQueryParameters> => {
  const { http, ...client } = options
  return SemanticScholar.layer(client).pipe(Layer.provide(httpClient(http)))
}

/**
 * The client configured from the environment: `S2_API_KEY` (optional, kept `Redacted`) and
 * `S2_API_URL` (optional), read through Effect `Config` so any `ConfigProvider` works; the other
 * options are given in code.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 * import { NodeSemanticScholar } from "@s2-effect/node"
 *
 * Effect.flatMap(SemanticScholar, (s2) => s2.getAuthor("1741101")).pipe(
 *   Effect.provide(NodeSemanticScholar.layerConfig()),
 *   Effect.runPromise
 * )
 * ```
 * @since 0.1.0
 */
export const layerConfig = (
  options: Omit<NodeOptions, "apiKey" | "apiUrl"> = {}
): Layer.Layer<SemanticScholar, BadQueryParameters | ConfigError.ConfigError> =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const apiKey = yield* Config.option(Config.redacted("S2_API_KEY"))
      const apiUrl = yield* Config.option(Config.nonEmptyString("S2_API_URL"))
      return layer({
        ...options,
        // An empty S2_API_KEY means "no key", as in a shell where it was exported but left blank.
        apiKey: Option.getOrUndefined(Option.filter(apiKey, (key) => Redacted.value(key).length > 0)),
        apiUrl: Option.getOrUndefined(apiUrl)
      })
    })
  )
