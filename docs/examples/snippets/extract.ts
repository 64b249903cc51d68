/**
 * Writes every ```ts block of the Markdown files in docs/, the README and the packages' READMEs to
 * generated/, one module
 * per block, so `tsc` checks that each compiles against the packages as they are, and vitest runs
 * the blocks that are test suites.
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

let count = 0
for (const file of sources) {
  const text = Fs.readFileSync(file, "utf8")
  const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)]
  blocks.forEach((match, i) => {
    // A block that is a test suite is also run by vitest, so the page's test is known to pass.
    const suffix = match[1]?.includes("describe(") ? ".test.ts" : ".ts"
    const page = Path.relative(Path.resolve(docs, ".."), file).replace(/\.md$/, "").replace(/[/\\]/g, "_")
    const name = `${page}-${i + 1}${suffix}`
    // `export {}` makes every block a module, so blocks of one page do not clash.
    Fs.writeFileSync(Path.join(out, name), `// from ${Path.relative(docs, file)}\n${match[1]}\nexport {}\n`)
    count++
  })
}
console.log(`extracted ${count} TypeScript blocks from ${sources.length} Markdown files`)
