/**
 * @s2-effect/jobs — jobs on the Semantic Scholar client: references resolved to papers, a
 * bibliography verified, citation graphs and related papers, and citable BibTeX, CSL-JSON and RIS.
 *
 * @module @s2-effect/jobs
 * @document ../README.md
 * @since 1.0.0
 */
/** @category modules */
export * as Citable from "./Citable.js"
/** @category modules */
export * as CitationGraph from "./CitationGraph.js"
/** @category modules */
export * as Harvest from "./Harvest.js"
/** @category modules */
export * as ReferenceInput from "./ReferenceInput.js"
/** @category modules */
export * as Resolve from "./Resolve.js"
/** @category modules */
export * as TitleMatch from "./TitleMatch.js"
/** @category modules */
export * as Verify from "./Verify.js"

/** @category modules */
export * as Watch from "./Watch.js"
