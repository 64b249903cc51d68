#!/usr/bin/env node
// Development entry: runs the TypeScript sources through tsx (a build step will replace this).
import { register } from "tsx/esm/api"

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

register()
await import("../src/main.ts")
