#!/usr/bin/env node
// The clone's `s2` (bin/s2.mjs) runs one esbuild bundle of the workspace's sources (bundle.mjs),
// built again only when a source changed. Run as a script (the root's `postinstall`), it builds
// that bundle at install, so that the first `pnpm exec s2` after `pnpm install` starts in about a
// second instead of waiting for the build (11 to 17 s on a busy 2-core machine, load average 10 to 13).
import * as Fs from "node:fs"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"

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
export const devBundle = async () => {
  const { createHash } = await import("node:crypto")
  const cache = Path.join(cli, "node_modules/.cache/s2-dev")
  const hash = createHash("sha256").update(sourceStamp()).digest("hex").slice(0, 16)
  const entry = Path.join(cache, hash, "s2.js")
  if (Fs.existsSync(entry)) return entry
  const { bundleCliSync } = await import("./bundle.mjs")
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

/**
 * That bundle copied into `dir` (its code, source map and code-cache entry), so that a compile
 * cache beside it is the copy's own; resolves to the copy's entry, `s2.js`.
 */
export const copyDevBundle = async (dir) => {
  const built = Path.dirname(await devBundle())
  for (const file of ["s2.cjs", "s2.cjs.map", "s2.js"]) Fs.copyFileSync(Path.join(built, file), Path.join(dir, file))
  return Path.join(dir, "s2.js")
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    await devBundle()
  } catch (error) {
    // An install never fails for it: the first start of `s2` builds the bundle (and says why not).
    process.stderr.write(`s2: the clone's s2 is built at its first start instead: ${String(error)}\n`)
  }
}
