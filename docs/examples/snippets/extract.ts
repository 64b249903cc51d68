/**
 * Writes every ```ts block of the Markdown files in docs/, the README and the packages' READMEs,
 * and of the `@example` tags in the packages' sources, to generated/, one module per block, so
 * `tsc` checks that each compiles against the packages as they are, and vitest runs the blocks that
 * are test suites.
 *
 * An example that talks to a server is followed in its page by an HTML comment, invisible once
 * rendered, holding the test that runs it: `<!-- test` on a line, then TypeScript, then `-->`. The
 * test becomes `<page>-<n>.run.test.ts`, whose body runs inside `example(…)` from harness.ts (an
 * HTTP emulator as `S2_API_URL`; `output`, `run`, `s2`, `emulator`, `dir`, `eventually` in scope);
 * `await load()` imports the block's module (its top-level declarations are exported). A test after
 * a ```sh block has the block's command lines in `commands`, to run with `s2(line)`.
 *
 * A ``` block (no language) of `$ s2 …` lines, each followed by its output, is a transcript when
 * the line before it is one of these comments; transcripts.ts collects them from docs/*.md and the
 * README, transcripts.test.ts runs them against the bundled CLI and `pnpm docs:transcripts` rewrites them:
 * - `<!-- transcript -->`: every line of the output, stdout and stderr in the order written (piped:
 *   no colour, tables 100 columns wide), must be the run's. A block's commands share one scratch
 *   folder; `NAME=value` before `s2` sets the environment; `--emulator` is the in-process emulator.
 * - `<!-- transcript excerpt -->`: a help cut short; the block's lines other than `…` must appear in
 *   the run's output in that order. Checked, never rewritten.
 * - `<!-- transcript single -->`: the first `$` line is the only command; later `$` lines are its
 *   output (`s2 demo` prints the command lines it runs).
 * A command that exits other than 0 is followed by `[exit N]` as its last line. A fenced block
 * after `<!-- file NAME -->` (a .bib the page shows, say) is written to NAME in the scratch folder of
 * every transcript after it on that page.
 * Normalised on both sides before comparing (only what must vary between runs): the demo's folder
 * `/tmp/s2-demo-XXXXXX`, durations (`in 1.2 s`), rates (`N papers/s`), CRLF (CSV) to LF, and
 * progress lines dropped (`harvest: N% …`, a download's `  part-0.jsonl.gz: 0.1 of 0.1 MB`: printed
 * at most once a second when piped, so their count is timing).
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

const docs = Path.resolve(import.meta.dirname, "../..")
const out = Path.join(import.meta.dirname, "generated")
Fs.rmSync(out, { recursive: true, force: true })
Fs.mkdirSync(out, { recursive: true })

const packages = Path.resolve(docs, "../packages")
const sources = [
  ...Fs.readdirSync(docs).filter((f) => f.endsWith(".md")).map((f) => Path.join(docs, f)),
  Path.resolve(docs, "../README.md"),
  ...Fs.readdirSync(packages)
    .map((name) => Path.join(packages, name, "README.md"))
    .filter((file) => Fs.existsSync(file))
]

/** Every `.ts` file under `dir`, recursively. */
const sourcesUnder = (dir: string): Array<string> =>
  Fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = Path.join(dir, entry.name)
    return entry.isDirectory() ? sourcesUnder(path) : entry.name.endsWith(".ts") ? [path] : []
  })

/** The ```ts blocks of the `@example` tags of a source file's TSDoc comments (without their ` * `). */
const examplesOf = (text: string): Array<string> =>
  [...text.matchAll(/\/\*\*[\s\S]*?\*\//g)].flatMap((comment) => {
    const lines = comment[0].split("\n").map((line) => line.replace(/^\s*\* ?/, ""))
    const examples = lines.join("\n").split("@example").slice(1)
    return examples.flatMap((example) => [...example.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? ""))
  })

const examples = Fs.readdirSync(packages).flatMap((name) => {
  const src = Path.join(packages, name, "src")
  return Fs.existsSync(src) ? sourcesUnder(src) : []
})

/** The names a block declares at its top level and does not export itself. */
const topLevelNames = (code: string): Array<string> =>
  [...code.matchAll(/^(?:const|let|function\*?|class) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!)

let count = 0
let runs = 0

/** A block as a module: exporting its names keeps blocks of one page apart and lets a test reach them. */
const writeBlock = (name: string, from: string, code: string): void => {
  Fs.writeFileSync(Path.join(out, name), `// from ${from}\n${code}\nexport { ${topLevelNames(code).join(", ")} }\n`)
  count++
}

const runTest = (from: string, title: string, context: string, body: string): string =>
  [
    `// from ${from}: the test written after the example, run against the emulator`,
    `import { describe, expect, it } from "vitest"`,
    `import { eventually, example } from "../harness.js"`,
    ``,
    `describe(${JSON.stringify(title)}, () => {`,
    `  it("runs against the emulator and gives the output the page shows", () =>`,
    `    example(async ({ dir, emulator, output, run, s2 }) => {`,
    `      ${context}`,
    body.split("\n").map((line) => line === "" ? line : `      ${line}`).join("\n"),
    `    }), 120_000)`,
    `})`,
    ``
  ].join("\n")

for (const file of sources) {
  const text = Fs.readFileSync(file, "utf8")
  const from = Path.relative(docs, file)
  const page = Path.relative(Path.resolve(docs, ".."), file).replace(/\.md$/, "").replace(/[/\\]/g, "_")
  const blocks = [...text.matchAll(/```(ts|sh)\n([\s\S]*?)```(?:\n+<!-- test\n([\s\S]*?)-->)?/g)]
  let ts = 0
  let sh = 0
  for (const [, lang, code = "", test] of blocks) {
    if (lang === "sh") {
      sh++
      if (test !== undefined) {
        const name = `${page}-sh-${sh}.run.test.ts`
        const commands = code.split("\n").map((line) => line.replace(/\s+#.*$/, "").trim()).filter((l) => l !== "")
        const context = `const commands: ReadonlyArray<string> = ${JSON.stringify(commands)}`
        Fs.writeFileSync(Path.join(out, name), runTest(from, `${from}, shell example ${sh}`, context, test))
        runs++
      }
      continue
    }
    ts++
    // A block that is a test suite is also run by vitest, so the page's test is known to pass.
    const suffix = code.includes("describe(") ? ".test.ts" : ".ts"
    const name = `${page}-${ts}${suffix}`
    writeBlock(name, from, code)
    if (test !== undefined) {
      // Imported when the test says so: an example that runs on import finds its files and server ready.
      const context = `const load = () => import(${JSON.stringify(`./${name.replace(/\.ts$/, ".js")}`)})`
      Fs.writeFileSync(
        Path.join(out, `${page}-${ts}.run.test.ts`),
        runTest(from, `${from}, example ${ts}`, context, test)
      )
      runs++
    }
  }
}
for (const file of examples) {
  const page = Path.relative(Path.resolve(docs, ".."), file).replace(/\.ts$/, "").replace(/[/\\]/g, "_")
  examplesOf(Fs.readFileSync(file, "utf8")).forEach((code, i) => {
    const suffix = code.includes("describe(") ? ".test.ts" : ".ts"
    writeBlock(`${page}-${i + 1}${suffix}`, Path.relative(docs, file), code)
  })
}
console.log(
  `extracted ${count} TypeScript blocks from ${sources.length} Markdown files and ${examples.length} sources, ` +
    `and ${runs} tests that run examples`
)
