// The install commands the docs give, read from the pages themselves so that the smoke test runs
// what a reader copies: every ```sh block of an "## Install…" section of the README, of
// docs/getting-started.md and of the packages' READMEs, and every inline `npm install …` /
// `pnpm add …` of an @s2-effect package in those pages. A block offering pnpm after npm (a line
// `# or, with pnpm…`) is two variants; the pnpm one repeats the block's lines up to its first `cd`,
// which run in the clone, before its own.
import * as fs from "node:fs"
import { createRequire } from "node:module"
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

/** Whether a line installs packages (`npm install …`, `npm i …`, `pnpm add …`). */
export const isInstall = (line) => /^(npm (install|i)|pnpm add)\s/.test(line)

/** Whether an install line installs globally. */
export const isGlobal = (line) => /\s(--global|-g)(\s|$)/.test(line)

/**
 * The packages an install line names: `{ name, version }` (version undefined when unpinned), a
 * tarball `/tmp/s2-effect-<x>.tgz` as the package `@s2-effect/<x>` with its file.
 * @returns {Array<{ readonly name: string, readonly version: string | undefined, readonly tarball?: string }>}
 */
export const packagesOf = (line) => {
  if (!isInstall(line)) return []
  const words = line.replace(/\s#.*$/, "").trim().split(/\s+/).slice(2).filter((word) => !word.startsWith("-"))
  return words.map((spec) => {
    const tarball = /s2-effect-([a-z]+)\.tgz$/.exec(spec)
    if (tarball) return { name: `@s2-effect/${tarball[1]}`, version: undefined, tarball: spec }
    const at = spec.lastIndexOf("@")
    return at > 0 ? { name: spec.slice(0, at), version: spec.slice(at + 1) } : { name: spec, version: undefined }
  })
}

/** Whether `version` satisfies a `~x.y.z`, `^x.y.z` or exact range (the forms the manifests use). */
const satisfies = (version, range) => {
  const [major, minor, patch] = version.split(".").map(Number)
  const match = /^([~^]?)(\d+)\.(\d+)\.(\d+)$/.exec(range)
  if (match === null) throw new Error(`smoke: cannot read the range ${range}`)
  const [want, wantMinor, wantPatch] = match.slice(2).map(Number)
  if (match[1] === "") return version === range
  if (major !== want) return false
  if (match[1] === "~") return minor === wantMinor && patch >= wantPatch
  return minor > wantMinor || (minor === wantMinor && patch >= wantPatch)
}

/** The version the workspace has of a package (its tests run on it), or undefined. */
const workspaceVersion = (name) => {
  for (const base of [repoRoot, path.join(repoRoot, "packages/cli"), path.join(repoRoot, "packages/testing")]) {
    try {
      return createRequire(path.join(base, "package.json"))(`${name}/package.json`).version
    } catch {
      // not a dependency of this folder: the next
    }
  }
  return undefined
}

/**
 * What every install line says, checked by reading it (the smoke test runs a line only where it
 * installs something the lines before it in the same project did not): each `@s2-effect` package it
 * names is a published one, at the workspace's version when pinned; each other pinned package
 * satisfies the peer range of every named `@s2-effect` package that has it, and is the version the
 * workspace tests with ("versions known to work together"). Returns the problems found.
 * @param {ReadonlyArray<{ readonly from: ReadonlyArray<string>, readonly lines: ReadonlyArray<string> }>} variants
 * @param {ReadonlyArray<string>} published folder names of the published packages
 */
export const lineProblems = (variants, published) => {
  const manifests = new Map(published.map((name) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "packages", name, "package.json"), "utf8"))
    return [manifest.name, manifest]
  }))
  const problems = []
  for (const variant of variants) {
    for (const line of variant.lines) {
      const named = packagesOf(line)
      const ours = named.filter((p) => p.name.startsWith("@s2-effect/"))
      for (const { name, version } of named) {
        const where = `${variant.from.join(", ")}: \`${line}\``
        if (name.startsWith("@s2-effect/")) {
          const manifest = manifests.get(name)
          if (manifest === undefined) problems.push(`${where} names ${name}, which is not published`)
          else if (version !== undefined && version !== manifest.version) {
            problems.push(`${where} pins ${name}@${version}; the package is ${manifest.version}`)
          }
          continue
        }
        if (version === undefined) continue
        for (const { name: own } of ours) {
          const range = manifests.get(own)?.peerDependencies?.[name]
          if (range !== undefined && !satisfies(version, range)) {
            problems.push(`${where} pins ${name}@${version}, outside ${own}'s peer range ${range}`)
          }
        }
        const tested = workspaceVersion(name)
        if (tested === undefined) problems.push(`${where} pins ${name}, which the workspace does not have`)
        else if (tested !== version && !tested.startsWith(`${version}.`)) {
          problems.push(`${where} pins ${name}@${version}; the workspace tests with ${tested}`)
        }
      }
    }
  }
  return problems
}
