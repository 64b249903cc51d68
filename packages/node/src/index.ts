/**
 * @s2-effect/node — the Semantic Scholar client on Node.
 *
 * @module @s2-effect/node
 * @document ../README.md
 * @since 1.0.0
 */
/** @category modules */
export * as NodeCache from "./NodeCache.js"
/** @category modules */
export * as NodeDatasets from "./NodeDatasets.js"
/** @category modules */
export * as NodeRateLimit from "./NodeRateLimit.js"
/** @category modules */
export * as NodeSemanticScholar from "./NodeSemanticScholar.js"
