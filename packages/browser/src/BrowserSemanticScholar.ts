/**
 * The client in browsers: Effect's HttpClient over the Fetch API (`effect/http/FetchHttpClient`).
 * Interrupting a fiber aborts its `fetch` in flight through the request's `AbortSignal`.
 *
 * @since 1.0.0
 */
import type { InvalidOptions, Options } from "@s2-effect/core"
import { SemanticScholar } from "@s2-effect/core"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Layer from "effect/Layer"

/**
 * The client over the browser's Fetch API. A key in a page is visible to its users: prefer a
 * proxy of your own that adds it, and point `apiUrl` at the proxy. A redirect from the API root is
 * never followed (`redirect: "manual"`), so the key reaches no other origin: the call fails with
 * `UnexpectedStatus` (status 0: the browser hides the redirect's status and location).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { SemanticScholar } from "@s2-effect/core"
 * import { BrowserSemanticScholar } from "@s2-effect/browser"
 *
 * Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:215416146")).pipe(
 *   Effect.provide(BrowserSemanticScholar.layer({ apiUrl: "https://my-proxy.example.org" })),
 *   Effect.runPromise
 * )
 * ```
 * @category layers
 * @since 1.0.0
 */
export const layer = (options: Options = {}): Layer.Layer<SemanticScholar, InvalidOptions> =>
  SemanticScholar.layer(options).pipe(Layer.provide(FetchHttpClient.layer))
