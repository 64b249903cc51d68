#!/usr/bin/env node
// Development entry (`pnpm exec s2`, `node packages/cli/bin/s2.mjs`, `pnpm s2`): runs the workspace's
// sources as the published `s2` runs, through one esbuild bundle (scripts/bundle.mjs), built at
// install and again only when a source changed (scripts/dev-bundle.mjs). Compiling the TypeScript
// through tsx on every start took 1.6 s on a quiet machine and 5–6 s on a busy one; the cached
// bundle starts in about 0.2 s. `S2_DEV_TSX=1` runs the sources through tsx instead (stack traces
// into .ts files without a source map).
import { pathToFileURL } from "node:url"

// `pnpm s2 …` runs this at the repository root (also with `pnpm --dir`/`-C`); pnpm keeps the
// caller's folder in INIT_CWD, against which relative paths such as `--out x.jsonl` are meant.
if (
  (process.env.npm_lifecycle_event === "s2" || process.env.npm_lifecycle_event === "demo") &&
  process.env.INIT_CWD !== undefined && process.env.INIT_CWD !== ""
) {
  try {
    process.chdir(process.env.INIT_CWD)
  } catch {
    // A caller's folder that vanished: stay at the root rather than fail before starting.
  }
}

if (process.env.S2_DEV_TSX === "1") {
  const { register } = await import("tsx/esm/api")
  register()
  await import("../src/main.ts")
} else {
  const { devBundle } = await import("../scripts/dev-bundle.mjs")
  await import(pathToFileURL(await devBundle()).href)
}
