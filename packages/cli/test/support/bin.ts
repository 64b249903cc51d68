import { buildSync } from "esbuild"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * The `s2` bin bundled to plain JavaScript for tests that start it as a process: the development
 * bin loads the TypeScript sources through tsx, which costs about two seconds per process. The
 * bundle is the same code.
 */
export const bundleBin = (): string => {
  const bin = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "s2-cli-bin-")), "s2.mjs")
  buildSync({
    entryPoints: [fileURLToPath(new URL("../../src/main.ts", import.meta.url))],
    outfile: bin,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // CommonJS dependencies bundled into ESM need a require.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" }
  })
  return bin
}
