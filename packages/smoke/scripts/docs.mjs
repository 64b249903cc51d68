// The install commands the docs give, read from the pages themselves so that the smoke test runs
// what a reader copies: every ```sh block of an "## Install…" section of the README, of
// docs/getting-started.md and of the packages' READMEs, and every inline `npm install …` /
// `pnpm add …` of an @s2-effect package in those pages. A block offering pnpm after npm (a line
// `# or, with pnpm…`) is two variants; the pnpm one repeats the block's lines up to its first `cd`,
// which run in the clone, before its own.
import * as fs from "node:fs"
import * as path from "node:path"
import { repoRoot } from "./pack.mjs"

/** The pages with install lines, relative to the repository root. */
export const pages = () => [
  "README.md",
  "docs/getting-started.md",
  ...fs.readdirSync(path.join(repoRoot, "packages"))
    .map((name) => `packages/${name}/README.md`)
    .filter((file) => fs.existsSync(path.join(repoRoot, file)))
]

const alternative = /^#\s*or,? with pnpm/i

/** The "## Install…" sections of a page (up to the next second-level heading). */
const installSections = (text) =>
  text.split(/^(?=## )/m).filter((section) => /^## Install/.test(section))

/** A block's lines as variants: npm's lines, then pnpm's (after the clone lines they share). */
const variantsOf = (block) => {
  const lines = block.split("\n").map((line) => line.trimEnd()).filter((line) => line.trim() !== "")
  const split = lines.findIndex((line) => alternative.test(line))
  if (split < 0) return [lines]
  const first = lines.slice(0, split)
  const cd = first.findIndex((line) => /^cd\s/.test(line))
  const shared = cd < 0 ? [] : first.slice(0, cd + 1)
  return [first, [...shared, ...lines.slice(split + 1)]]
}

/**
 * Every install variant of every page, without repeats (the same lines on two pages run once).
 * @returns {Array<{ readonly from: ReadonlyArray<string>, readonly lines: ReadonlyArray<string> }>}
 */
export const installVariants = () => {
  /** @type {Map<string, { from: Array<string>, lines: ReadonlyArray<string> }>} */
  const found = new Map()
  const add = (from, lines) => {
    const key = lines.join("\n")
    const known = found.get(key)
    if (known === undefined) found.set(key, { from: [from], lines })
    else if (!known.from.includes(from)) known.from.push(from)
  }
  for (const page of pages()) {
    const text = fs.readFileSync(path.join(repoRoot, page), "utf8")
    for (const section of installSections(text)) {
      for (const [, block] of section.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
        for (const lines of variantsOf(block)) {
          if (lines.some((line) => /^(npm install|pnpm add)\s/.test(line))) add(page, lines)
        }
      }
    }
    for (const [, command] of text.matchAll(/`((?:npm install|npm i|pnpm add)\s[^`\n]*@s2-effect\/[^`\n]*)`/g)) {
      add(page, [command])
    }
  }
  return [...found.values()]
}

/** The lines of a variant that are the clone's own set-up, which the smoke test has done already. */
export const isCloneSetup = (line) => /^git clone\s/.test(line) || /^pnpm install && pnpm build\b/.test(line)

const gettingStarted = () => fs.readFileSync(path.join(repoRoot, "docs/getting-started.md"), "utf8")

/** The `tsconfig.json` getting-started gives: its one ```json block. */
export const documentedTsconfig = () => {
  const blocks = [...gettingStarted().matchAll(/^```json\n([\s\S]*?)^```/gm)]
  if (blocks.length !== 1) throw new Error(`docs/getting-started.md should have one json block (its tsconfig.json), has ${blocks.length}`)
  return JSON.parse(blocks[0][1])
}

/** The first ```ts block of a section of getting-started (`## On Node`, `## In tests`). */
export const documentedExample = (heading) => {
  const section = gettingStarted().split(/^(?=## )/m).find((s) => s.startsWith(`${heading}\n`))
  const block = section === undefined ? undefined : /^```ts\n([\s\S]*?)^```/m.exec(section)
  if (block == null) throw new Error(`docs/getting-started.md has no ts block under ${heading}`)
  return block[1]
}
