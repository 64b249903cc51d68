/**
 * @s2-effect/browser — the Semantic Scholar client in browsers.
 *
 * @since 0.1.0
 */
export * as BrowserSemanticScholar from "./BrowserSemanticScholar.js"
