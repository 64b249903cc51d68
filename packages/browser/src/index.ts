/**
 * @s2-effect/browser — the Semantic Scholar client in browsers.
 *
 * @since 0.1.0
 */
/** @category modules */
export * as BrowserSemanticScholar from "./BrowserSemanticScholar.js"
