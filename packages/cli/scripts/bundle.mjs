#!/usr/bin/env node
// The published `s2`: one esbuild bundle of src/main.ts in dist/bin (bin/s2.dist.mjs imports it),
// so that a start reads a few files instead of hundreds of modules. Code split: what a command
// loads only when it runs (undici with @s2-effect/node, the in-process emulator) stays out of the
// first chunk, and `s2 --help` parses only what it needs. The bench builds the same bundle.
import { build } from "esbuild"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"

const here = import.meta.dirname
const stub = Path.join(here, "no-config-files.mjs")

/** Builds the bundle into `outdir`; returns the path of its entry (`s2.js`). */
export const bundleCli = async (outdir = Path.join(here, "../dist/bin")) => {
  await build({
    entryPoints: { s2: Path.join(here, "../src/main.ts") },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Whitespace and syntax only: names stay readable in `--verbose` stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: "linked",
    alias: { yaml: stub, toml: stub, ini: stub },
    // CommonJS dependencies (undici) bundled into ESM need a require.
    banner: { js: "import{createRequire as __s2Require}from'node:module';const require=__s2Require(import.meta.url);" },
    logLevel: "warning"
  })
  return Path.join(outdir, "s2.js")
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await bundleCli(process.argv[2])
