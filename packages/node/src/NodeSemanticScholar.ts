/**
 * The client on Node: `@effect/platform-node`'s `HttpClient` over `node:http` (a keep-alive
 * agent), and settings from the environment through Effect `Config`.
 *
 * @since 1.0.0
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type { Configured, InvalidOptions, Options } from "@s2-effect/core"
import { SemanticScholar } from "@s2-effect/core"
import type * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as NodeRateLimit from "./NodeRateLimit.js"

/**
 * The options of the core layer, where `rateLimit` may also be `{ store: "redis", url, key,
 * perSecond }`: one pace shared through Redis by every process on the key.
 *
 * @category options
 * @since 1.0.0
 */
export interface NodeOptions extends Omit<Options, "rateLimit"> {
  readonly rateLimit?: Options["rateLimit"] | NodeRateLimit.Redis
}

const coreOptions = ({ rateLimit, ...options }: NodeOptions): Options => ({
  ...options,
  ...(rateLimit === undefined
    ? {}
    : { rateLimit: NodeRateLimit.isRedis(rateLimit) ? NodeRateLimit.shared(rateLimit) : rateLimit })
})

/** The packages' `engines.node`: Node's `fetch` needs what older Node lacks (`zlib.createZstdDecompress`). */
const minimumNode = [22, 19] as const

/**
 * Refuses a Node older than the packages' `engines` when the client is built, in one sentence,
 * instead of a `TypeError` from deep inside an HTTP client (`Cannot read properties of undefined
 * (reading 'bind')` in undici on Node 20). A defect: no program can go on from it, only run on a newer Node.
 */
const supportedNode = (version: string): Effect.Effect<void> => {
  const [major = 0, minor = 0] = version.split(".").map(Number)
  return major > minimumNode[0] || (major === minimumNode[0] && minor >= minimumNode[1])
    ? Effect.void
    : Effect.die(
      new Error(
        `@s2-effect/node needs Node ≥ ${minimumNode.join(".")}, this is ${version}: run the program on Node ${
          minimumNode.join(".")
        } or newer (Node 24 LTS)`
      )
    )
}

/** `node:http` with keep-alive agents: a harvest's pages share their connections, as with `fetch`'s pool. */
const nodeHttp = Layer.provide(
  NodeHttpClient.layerNodeHttpNoAgent,
  NodeHttpClient.layerAgentOptions({ keepAlive: true })
)

/**
 * The `HttpClient` under {@link layer}: `@effect/platform-node`'s client over `node:http`, with
 * its keep-alive agent. Exported for code that builds `SemanticScholar.layer` itself, such as the
 * `s2` command.
 *
 * Why `node:http`: of the three clients Node offers (undici, its built-in `fetch`, `node:http`), it
 * leaves the least garbage a page: a bulk harvest's peak RSS at 100,000 records was 1.2x a
 * hand-written loop's with it, 1.5x with `fetch` and 1.6x with undici, for the same CPU
 * (packages/bench/NOTES.md, issue 47); and it loads no undici package. To send through a proxy of
 * your own, give `transformClient`, or build `SemanticScholar.layer` over
 * `NodeHttpClient.layerNodeHttpNoAgent` with an agent of your own.
 *
 * @example
 * ```ts
 * import { Layer } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 * import { NodeSemanticScholar } from "@s2-effect/node"
 *
 * const client = SemanticScholar.layer({ timeout: "5 seconds" }).pipe(Layer.provide(NodeSemanticScholar.httpClient))
 * ```
 * @category layers
 * @since 1.0.0
 */
export const httpClient: Layer.Layer<HttpClient.HttpClient> = Layer.unwrap(
  Effect.suspend(() => Effect.as(supportedNode(process.versions.node), nodeHttp))
)

/**
 * The client over Node's `fetch`, with the options given.
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
 * ```
 * @category layers
 * @since 1.0.0
 */
export const layer = (options: NodeOptions = {}): Layer.Layer<SemanticScholar, InvalidOptions> =>
  SemanticScholar.layer(coreOptions(options)).pipe(Layer.provide(httpClient))

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
 * @category layers
 * @since 1.0.0
 */
export const layerConfig = (
  options: Configured<NodeOptions> = {}
): Layer.Layer<SemanticScholar, InvalidOptions | Config.ConfigError> =>
  Layer.unwrap(Effect.map(SemanticScholar.config<NodeOptions>(options), layer))
