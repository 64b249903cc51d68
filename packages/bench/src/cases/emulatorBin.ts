/**
 * The `s2-emulator` command as plain JavaScript (the bench bundles it like any case), so that its
 * start-up figures are the server's, not a TypeScript loader's. argv: the command's own.
 */
// Dynamic: the testing package says it has no side effects, and a bare import would be dropped.
await import("../../../testing/src/bin.js")
