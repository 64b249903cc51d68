/**
 * vitest's globalSetup for the CLI's tests: the bundled `s2` (scripts/bundle.mjs) once per run, not
 * once per file that starts it as a process (fourteen files: an esbuild of every source, seconds
 * each on a busy 2-core machine). It is the clone's own bundle of the current sources
 * (scripts/dev-bundle.mjs: built at install and again only when a source changed, the bundle
 * `bin/s2.mjs` runs), copied into a folder of the run's: an esbuild less per run. Each file still
 * gets a folder of its own (support/bin.ts copies the three files there), so a compile cache beside
 * the bin is the file's own.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { TestProject } from "vitest/node"
import { devBundle } from "../../scripts/dev-bundle.mjs"

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder of the bundle built for this run. */
    readonly s2Bundle?: string
  }
}

/** The files of a bundle (scripts/bundle.mjs): the code, its source map and the code-cache entry. */
const bundleFiles = ["s2.cjs", "s2.cjs.map", "s2.js"]

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-cli-bundle-"))
  const built = path.dirname(await devBundle())
  for (const file of bundleFiles) fs.copyFileSync(path.join(built, file), path.join(dir, file))
  project.provide("s2Bundle", dir)
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
