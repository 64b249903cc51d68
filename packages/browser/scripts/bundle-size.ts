/**
 * How much `@s2-effect/browser` adds to a page: a typical entry (the browser layer, `getPaper` and a
 * `searchPaper` stream) is bundled for browsers, minified and tree-shaken, by the two bundlers a page
 * is likely built with — Vite (Rollup) and esbuild — and gzipped; a baseline entry (Effect and its
 * Fetch HttpClient alone) shows what the client itself costs on top. Prints the
 * table and writes it into docs/browser.md between its markers.
 *
 *   pnpm --filter @s2-effect/browser bundle-size            # measure and update docs/browser.md
 *   pnpm --filter @s2-effect/browser bundle-size --dry-run  # measure only
 */
import * as esbuild from "esbuild"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as zlib from "node:zlib"
import type { Plugin, Rollup } from "vite"
import { build, version as viteVersion } from "vite"
import { entries, type Entry } from "./bundleEntries.js"

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const docsFile = path.resolve(packageDir, "../../docs/browser.md")
const start = "<!-- bundle-size:start -->"
const end = "<!-- bundle-size:end -->"

interface Sizes {
  readonly raw: number
  readonly minified: number
  readonly gzip: number
  readonly brotli: number
}

const esbuildBundle = async (source: string, minify: boolean): Promise<Uint8Array> => {
  const result = await esbuild.build({
    stdin: { contents: source, resolveDir: packageDir, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    treeShaking: true,
    minify,
    define: { "process.env.NODE_ENV": "\"production\"" },
    legalComments: "none",
    write: false,
    logLevel: "warning"
  })
  const [file] = result.outputFiles
  if (file === undefined) throw new Error("esbuild produced no output")
  return file.contents
}

const entryId = "\0s2-bundle-size-entry.ts"

/** Vite's production build (Rollup; minified by esbuild) of the entry as an app's only script. */
const viteBundle = async (source: string, minify: boolean): Promise<Uint8Array> => {
  const entry: Plugin = {
    name: "s2-bundle-size-entry",
    resolveId: (id) => (id === entryId ? id : undefined),
    load: (id) => (id === entryId ? source : undefined)
  }
  const result = await build({
    configFile: false,
    root: packageDir,
    logLevel: "warn",
    plugins: [entry],
    build: {
      write: false,
      target: "es2022",
      minify: minify ? "esbuild" : false,
      modulePreload: false,
      rollupOptions: { input: entryId, output: { inlineDynamicImports: true } }
    }
  })
  const outputs: ReadonlyArray<Rollup.RollupOutput> = Array.isArray(result)
    ? result
    : "output" in result
    ? [result]
    : []
  const chunks = outputs.flatMap((o) => o.output).filter((o): o is Rollup.OutputChunk => o.type === "chunk")
  if (chunks.length !== 1 || chunks[0] === undefined) throw new Error(`vite produced ${chunks.length} chunks`)
  return new TextEncoder().encode(chunks[0].code)
}

const measure = async (
  bundle: (source: string, minify: boolean) => Promise<Uint8Array>,
  entry: Entry
): Promise<Sizes> => {
  const raw = await bundle(entry.source, false)
  const minified = await bundle(entry.source, true)
  return {
    raw: raw.length,
    minified: minified.length,
    gzip: zlib.gzipSync(minified, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(minified).length
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

const main = async () => {
  const dryRun = process.argv.includes("--dry-run")
  const rows: Array<string> = []
  const bundlers = [
    { name: `Vite ${viteVersion} (Rollup)`, bundle: viteBundle },
    { name: `esbuild ${esbuild.version}`, bundle: esbuildBundle }
  ]
  for (const entry of entries) {
    for (const bundler of bundlers) {
      const sizes = await measure(bundler.bundle, entry)
      rows.push(
        `| ${entry.name} | ${bundler.name} | ${kib(sizes.raw)} | ${kib(sizes.minified)} | **${kib(sizes.gzip)}** | ${
          kib(sizes.brotli)
        } |`
      )
    }
  }
  const date = new Date().toISOString().slice(0, 10)
  const table = [
    `Measured ${date}: ES2022 ESM for browsers, tree-shaken, minified with esbuild's minifier; gzip level 9.`,
    "",
    "| entry | bundler | bundled | minified | minified + gzip | minified + brotli |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
    ...rows
  ].join("\n")
  console.log(table)
  if (dryRun) return
  const docs = fs.readFileSync(docsFile, "utf8")
  const from = docs.indexOf(start)
  const to = docs.indexOf(end)
  if (from < 0 || to < from) throw new Error(`${docsFile} has no ${start} … ${end} section to update`)
  fs.writeFileSync(docsFile, `${docs.slice(0, from + start.length)}\n${table}\n${docs.slice(to)}`)
  console.log(`\nupdated ${path.relative(process.cwd(), docsFile)}`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
