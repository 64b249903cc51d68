#!/usr/bin/env node
// The published `s2` (publishConfig.bin points here): runs the compiled build with plain Node. In
// the workspace, bin/s2.mjs runs the TypeScript sources through tsx instead.
import * as Module from "node:module"

// In a clone after `pnpm build`, the other @s2-effect packages still export their TypeScript
// sources (their package.json points at dist only once published), which plain Node cannot load:
// send those imports to the compiled files. Installed from the registry, nothing resolves to src/.
const hook = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  return specifier.startsWith("@s2-effect/") && resolved.url.endsWith("/src/index.ts")
    ? { ...resolved, url: resolved.url.slice(0, -"src/index.ts".length) + "dist/esm/index.js", format: "module" }
    : resolved
}`
// (Module.register is Node 20.6+; older Nodes only run the installed package, which needs no hook.)
Module.register?.(`data:text/javascript,${encodeURIComponent(hook)}`)
await import("../dist/esm/main.js")
