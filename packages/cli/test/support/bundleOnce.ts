/**
 * vitest's globalSetup for the CLI's tests: the bundled `s2` (scripts/bundle.mjs) built once per
 * run, not once per file that starts it as a process (fourteen files: an esbuild of every source,
 * seconds each on a busy 2-core machine). Each file still gets a folder of its own (support/bin.ts
 * copies the three files there), so a compile cache beside the bin is the file's own.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { TestProject } from "vitest/node"
import { bundleCli } from "../../scripts/bundle.mjs"

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder of the bundle built for this run. */
    readonly s2Bundle?: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-cli-bundle-"))
  await bundleCli(dir)
  project.provide("s2Bundle", dir)
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
