#!/usr/bin/env node
// The published `s2`: one esbuild bundle of src/main.ts in dist/bin (bin/s2.dist.mjs imports it),
// so that a start reads two files instead of hundreds of modules: dist/bin/s2.cjs, the code, and
// dist/bin/s2.js, which runs it through V8's code cache (scripts/compile-cache.mjs). CommonJS, so
// that V8 can cache it on Node 20; what a command loads only when it runs (the in-process
// emulator, Redis, the MCP server with @s2-effect/ai and effect/ai) is still evaluated only then, since esbuild turns those `import()`s into lazy
// initialisers. Of undici only the HTTP client is loaded (scripts/slim-undici.mjs); d3-force, the
// maps' layout, and the maps' page code are text in it (scripts/d3-source.mjs, map-page-source.mjs).
// The bench and the CLI's process tests build the same bundle.
import { build, buildSync } from "esbuild"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"
import { d3ForceSource } from "./d3-source.mjs"
import { mapPageSource } from "./map-page-source.mjs"
import { slimUndici } from "./slim-undici.mjs"

const here = import.meta.dirname

/** @param {string} outdir @param {string} undici the file standing in for undici */
const options = (outdir, undici) => /** @type {const} */ ({
  entryPoints: [Path.join(here, "../src/main.ts")],
  outfile: Path.join(outdir, "s2.cjs"),
  // The paths the bundle names its modules by are relative to the package, wherever it is built
  // from (its build, the root's `pnpm build`, the CLI tests' setup): the same sources, the same bundle.
  absWorkingDir: Path.join(here, ".."),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  // Whitespace and syntax only: names stay readable in `--verbose` stack traces (minifying the
  // names too made the code 30% smaller but started no faster).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: "linked",
  alias: { undici },
  // The layout library and the page code of the HTML maps, built in: the published `s2` reads no
  // file to write one.
  define: {
    S2_D3_FORCE_SOURCE: JSON.stringify(d3ForceSource()),
    S2_MAP_PAGE_SOURCE: JSON.stringify(mapPageSource())
  },
  logLevel: "warning"
})

/** Writes the entry, s2.js, beside the bundle: the code-cache loader, keyed by the bundle's hash. */
const writeEntry = (outdir) => {
  const hash = createHash("sha256").update(Fs.readFileSync(Path.join(outdir, "s2.cjs"))).digest("hex").slice(0, 16)
  const loader = Fs.readFileSync(Path.join(here, "compile-cache.mjs"), "utf8").replace("__S2_BUNDLE_HASH__", hash)
  Fs.writeFileSync(Path.join(outdir, "s2.js"), loader)
  return Path.join(outdir, "s2.js")
}

/**
 * The options, with the stand-in for undici written where every build finds it (atomically: the
 * CLI's tests build in parallel; a fixed path keeps the bundle the same from build to build).
 */
const optionsWithUndici = (outdir) => {
  const undici = Path.join(here, "../node_modules/.cache/s2-bundle/undici.cjs")
  Fs.mkdirSync(Path.dirname(undici), { recursive: true })
  const temporary = `${undici}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`
  Fs.writeFileSync(temporary, slimUndici(Path.join(here, "bundle.mjs")))
  Fs.renameSync(temporary, undici)
  return options(outdir, undici)
}

/** Builds the bundle into `outdir`; returns the path of its entry (`s2.js`). */
export const bundleCli = async (outdir = Path.join(here, "../dist/bin")) => {
  await build(optionsWithUndici(outdir))
  return writeEntry(outdir)
}

/** {@link bundleCli}, synchronously (for tests that build it while loading). */
export const bundleCliSync = (outdir = Path.join(here, "../dist/bin")) => {
  buildSync(optionsWithUndici(outdir))
  return writeEntry(outdir)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await bundleCli(process.argv[2])
