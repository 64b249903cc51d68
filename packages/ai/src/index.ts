/**
 * @s2-effect/ai — Semantic Scholar as tools for an AI assistant, over the `@s2-effect/core` client
 * and the `@s2-effect/jobs` jobs: the effect/ai toolkit, its handlers and its registration on an
 * effect/ai MCP server. A package of its own, as Effect keeps each AI provider in its own, so that
 * a program that uses only the client never loads `effect/ai`.
 *
 * @module @s2-effect/ai
 * @document ../README.md
 * @since 1.0.0
 */
/** @category modules */
export * as AssistantTools from "./AssistantTools.js"
/** @category modules */
export * as WatchTools from "./WatchTools.js"
/** @category modules */
export * as McpStdio from "./McpStdio.js"
