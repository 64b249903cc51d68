/**
 * @s2-effect/browser — the Semantic Scholar client in browsers.
 *
 * @module @s2-effect/browser
 * @document ../README.md
 * @since 1.0.0
 */
/** @category modules */
export * as BrowserSemanticScholar from "./BrowserSemanticScholar.js"
