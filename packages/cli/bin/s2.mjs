#!/usr/bin/env node
// Development entry (`pnpm s2`, `node packages/cli/bin/s2.mjs`): runs the workspace's sources as the
// published `s2` runs, through one esbuild bundle (scripts/bundle.mjs), built again only when a
// source changed. Compiling the TypeScript through tsx on every start took 1.6 s on a quiet machine
// and 5–6 s on a busy one; the cached bundle starts in about 0.2 s. `S2_DEV_TSX=1` runs the sources
// through tsx instead (stack traces into .ts files without a source map).
import * as Fs from "node:fs"
import * as Path from "node:path"
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

const cli = Path.join(import.meta.dirname, "..")
const packages = Path.join(cli, "..")

/** Every file the bundle is made from, with its size and time: what a rebuild is keyed by. */
const sourceStamp = () => {
  const parts = []
  const walk = (dir) => {
    let entries
    try {
      entries = Fs.readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = Path.join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) {
        const stat = Fs.statSync(path)
        parts.push(`${path}\0${stat.size}\0${stat.mtimeMs}`)
      }
    }
  }
  for (const name of Fs.readdirSync(packages)) walk(Path.join(packages, name, "src"))
  walk(Path.join(cli, "scripts"))
  return parts.join("\n")
}

/** The bundle for these sources: built once into a folder named by their stamp, then reused. */
const devBundle = async () => {
  const { createHash } = await import("node:crypto")
  const cache = Path.join(cli, "node_modules/.cache/s2-dev")
  const hash = createHash("sha256").update(sourceStamp()).digest("hex").slice(0, 16)
  const entry = Path.join(cache, hash, "s2.js")
  if (Fs.existsSync(entry)) return entry
  const { bundleCliSync } = await import("../scripts/bundle.mjs")
  // Built aside and renamed into place, so that two starts at once never run a half-written bundle.
  Fs.mkdirSync(cache, { recursive: true })
  const aside = Fs.mkdtempSync(Path.join(cache, "build-"))
  bundleCliSync(aside)
  try {
    Fs.renameSync(aside, Path.join(cache, hash))
  } catch {
    Fs.rmSync(aside, { recursive: true, force: true })
  }
  for (const old of Fs.readdirSync(cache)) {
    if (old !== hash && !old.startsWith("build-")) Fs.rmSync(Path.join(cache, old), { recursive: true, force: true })
  }
  return entry
}

if (process.env.S2_DEV_TSX === "1") {
  const { register } = await import("tsx/esm/api")
  register()
  await import("../src/main.ts")
} else {
  await import(pathToFileURL(await devBundle()).href)
}
