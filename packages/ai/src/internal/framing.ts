/**
 * The framing of an MCP server's standard input and output, in front of effect/ai's stdio transport:
 * lines cut and bounded (./framing/lines.ts), then checked and answered (./framing/messages.ts).
 */
export * from "./framing/lines.js"
export * from "./framing/messages.js"
