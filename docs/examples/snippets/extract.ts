/**
 * Writes every ```ts block of the Markdown files in docs/, the README and the packages' READMEs,
 * and of the `@example` tags in the packages' sources, to generated/, one module per block, so
 * `tsc` checks that each compiles against the packages as they are, and vitest runs the blocks that
 * are test suites.
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

/**
 * The ```ts blocks of a Markdown page, or of the `@example` tags of a source file's TSDoc comments
 * (without the comments' leading ` * `), so TSDoc examples are checked the way pages are.
 */
const blocksOf = (file: string): Array<string> => {
  const text = Fs.readFileSync(file, "utf8")
  if (file.endsWith(".md")) return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "")
  return [...text.matchAll(/\/\*\*[\s\S]*?\*\//g)].flatMap((comment) => {
    const lines = comment[0].split("\n").map((line) => line.replace(/^\s*\* ?/, ""))
    const examples = lines.join("\n").split("@example").slice(1)
    return examples.flatMap((example) => [...example.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? ""))
  })
}

const examples = Fs.readdirSync(packages).flatMap((name) => {
  const src = Path.join(packages, name, "src")
  return Fs.existsSync(src) ? sourcesUnder(src) : []
})

let count = 0
for (const file of [...sources, ...examples]) {
  blocksOf(file).forEach((block, i) => {
    // A block that is a test suite is also run by vitest, so the page's test is known to pass.
    const suffix = block.includes("describe(") ? ".test.ts" : ".ts"
    const page = Path.relative(Path.resolve(docs, ".."), file).replace(/\.(md|ts)$/, "").replace(/[/\\]/g, "_")
    const name = `${page}-${i + 1}${suffix}`
    // `export {}` makes every block a module, so blocks of one page do not clash.
    Fs.writeFileSync(Path.join(out, name), `// from ${Path.relative(docs, file)}\n${block}\nexport {}\n`)
    count++
  })
}
console.log(`extracted ${count} TypeScript blocks from ${sources.length} Markdown files and ${examples.length} sources`)
