/**
 * @s2-effect/node — the Semantic Scholar client on Node.
 *
 * @since 0.1.0
 */
export * as NodeCache from "./NodeCache.js"
export * as NodeDatasets from "./NodeDatasets.js"
export * as NodeRateLimit from "./NodeRateLimit.js"
export * as NodeSemanticScholar from "./NodeSemanticScholar.js"
