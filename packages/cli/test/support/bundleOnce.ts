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
import { copyDevBundle } from "../../scripts/dev-bundle.mjs"

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder of the bundle built for this run. */
    readonly s2Bundle?: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-cli-bundle-"))
  await copyDevBundle(dir)
  project.provide("s2Bundle", dir)
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
