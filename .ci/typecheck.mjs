// `pnpm typecheck`: every TypeScript program of the workspace, each file checked as few times as its
// compiler options allow. The packages import each other's sources (their workspace exports are
// src/index.ts), so one `tsc` per package checked core's sources in every package that uses it:
// eleven programs of the same options, 239 s of CPU at load 10. .ci/tsconfig.check.json is those
// eleven as one program (40 s); the programs whose options differ stay their own: the browser
// package without Node's types, its scripts, the map page's JavaScript, the web example (bundler
// resolution). The docs' code blocks (unused names allowed: an example may import for show) are
// checked in the packages' program (.ci/typecheck-with-docs.mjs): as their own program they checked
// again every package source they import.
// `--jobs N` runs N at a time (default 2), each program a process of its own; `--jobs 1` (.ci/verify,
// beside the tests) runs them one after the other in this process, where they share the parsed
// declaration files (./shared-parse.mjs: effect's and Node's, parsed and bound once, not five
// times). `--api-reference` also checks the API reference as `pnpm run docs --emit none` does
// (./api-reference.mjs: with --jobs 1, in this process on the shared files, its compile errors not
// asked for again). `pnpm --filter <package> typecheck` still checks one package.
import { spawn } from "node:child_process"
import * as path from "node:path"
import ts from "typescript"
import { programOf, sharingHost } from "./shared-parse.mjs"
import { checkWithDocs } from "./typecheck-with-docs.mjs"

const root = path.resolve(import.meta.dirname, "..")
const at = process.argv.indexOf("--jobs")
const jobs = at < 0 ? 2 : Number(process.argv[at + 1])
if (!(jobs >= 1)) throw new Error("typecheck: --jobs takes a number of at least 1")
const tsc = path.join(root, "node_modules/typescript/bin/tsc")
const typedoc = path.join(root, "node_modules/typedoc/bin/typedoc")

/** Longest first, so that the last to start is a short one. */
const programs = [
  [".ci/tsconfig.check.json", "docs/examples/snippets/tsconfig.json"],
  "packages/browser/tsconfig.json",
  "docs/examples/web/tsconfig.json",
  "packages/cli/tsconfig.page.json",
  "packages/browser/scripts/tsconfig.json"
]

/** Runs a command to its end, its output prefixed with its name; resolves to whether it passed. */
const run = (name, command, args) =>
  new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (chunk) => (out += chunk))
    child.stderr.on("data", (chunk) => (out += chunk))
    child.on("close", (code) => {
      const lines = out.split("\n").filter((line) => line !== "").map((line) => `${name}: ${line}`)
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      console.log([...lines, `${name}: ${code === 0 ? "ok" : `failed (exit ${code})`} in ${seconds} s`].join("\n"))
      resolve(code === 0)
    })
  })

// The docs' code blocks are files only once extracted; `--extracted` when the caller has just done
// it (.ci/verify, whose vitest runs the extracted tests meanwhile: extracting rewrites the folder).
const extracted = process.argv.includes("--extracted") ||
  await run("docs/examples/snippets extract", process.execPath, [
    path.join(root, "node_modules/tsx/dist/cli.mjs"),
    path.join(root, "docs/examples/snippets/extract.ts")
  ])

/** `tsc --noEmit -p <config>` in this process, its files parsed through the shared host. */
const checkConfig = (config) => {
  const program = programOf(path.join(root, config), { noEmit: true }, () => {})
  if (program === undefined) return { passed: false, output: `${config}: cannot be read\n` }
  const diagnostics = ts.getPreEmitDiagnostics(program)
  return { passed: diagnostics.length === 0, output: ts.formatDiagnostics(diagnostics, format) }
}
const format = { getCanonicalFileName: (file) => file, getCurrentDirectory: () => root, getNewLine: () => "\n" }

/** A program checked in this process, reported as `run` reports a process. */
const runHere = (name, check) => {
  const started = Date.now()
  const { output, passed } = check()
  const lines = output.split("\n").filter((line) => line !== "").map((line) => `${name}: ${line}`)
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  console.log([...lines, `${name}: ${passed ? "ok" : "failed"} in ${seconds} s`].join("\n"))
  return passed
}

const queue = [...programs]
const results = [extracted]
const apiReference = process.argv.includes("--api-reference")
if (jobs === 1) {
  for (const next of queue) {
    results.push(
      typeof next === "string"
        ? runHere(next, () => checkConfig(next))
        : runHere(next.join(" + "), () => checkWithDocs(...next.map((file) => path.join(root, file)), sharingHost))
    )
  }
  if (apiReference) {
    const started = Date.now()
    const { checkApiReference } = await import("./api-reference.mjs")
    const passed = await checkApiReference(sharingHost)
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    console.log(`API reference (.ci/typedoc.json): ${passed ? "ok" : "failed"} in ${seconds} s`)
    results.push(passed)
  }
} else {
  if (apiReference) queue.push(["typedoc", "--options", ".ci/typedoc.json", "--emit", "none"])
  await Promise.all(Array.from({ length: jobs }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      results.push(
        await (typeof next === "string"
          ? run(next, process.execPath, [tsc, "--noEmit", "-p", next])
          : next[0] === "typedoc"
          ? run("API reference (.ci/typedoc.json)", process.execPath, [typedoc, ...next.slice(1)])
          : run(next.join(" + "), process.execPath, [path.join(root, ".ci/typecheck-with-docs.mjs"), ...next]))
      )
    }
  }))
}
if (results.includes(false)) process.exit(1)
