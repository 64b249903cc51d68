/**
 * @s2-effect/browser — the Semantic Scholar client in browsers.
 *
 * @since 1.0.0
 */
/** @category modules */
export * as BrowserSemanticScholar from "./BrowserSemanticScholar.js"
