/**
 * docs/getting-started.md's install lines pin versions "known to work together": each pinned
 * package is the version this workspace installs and tests (the @s2-effect packages their own
 * version; `@types/node` its major), so a dependency upgrade that forgets the page fails here, with
 * no network. That the lines install and the examples run from the packed tarballs is
 * `pnpm smoke`'s part (packages/smoke), which runs them as written.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const page = readFileSync(`${root}docs/getting-started.md`, "utf8")
const installing = page.slice(page.indexOf("## Installing"), page.indexOf("\n## ", page.indexOf("## Installing") + 1))
const require = createRequire(import.meta.url)

/** Every `name@version` of the section's install commands, scoped names included. */
const pins = (): Array<readonly [name: string, version: string]> =>
  [...installing.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap(([, block]) =>
    (block ?? "").split("\n").filter((line) => /^(npm|pnpm) (install|add)\b/.test(line)).flatMap((line) =>
      line.split(/\s+/).flatMap((word) => {
        const pin = /^(@?[^@\s/]+(?:\/[^@\s]+)?)@(\d[\w.-]*)$/.exec(word)
        return pin === null ? [] : [[pin[1]!, pin[2]!] as const]
      })
    )
  )

/** The version the workspace installs, from the packages that depend on it. */
const installed = (name: string): string => {
  const from = ["", "packages/core/", "packages/node/", "packages/cli/", "docs/examples/snippets/"].map((p) => root + p)
  const manifest = require.resolve(`${name}/package.json`, { paths: from })
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version
}

describe("docs/getting-started.md", () => {
  it("pins each package it installs to the version the workspace tests", () => {
    const found = pins()
    expect(new Set(found.map(([name]) => name))).toEqual(
      new Set([
        "@s2-effect/core",
        "@s2-effect/node",
        "@s2-effect/testing",
        "@s2-effect/cli",
        "effect",
        "@effect/platform-node",
        "typescript",
        "@types/node",
        "vitest",
        "@effect/vitest"
      ])
    )
    for (const [name, version] of found) {
      const own = /^@s2-effect\/(\w+)$/.exec(name)?.[1]
      const expected = own !== undefined
        ? (JSON.parse(readFileSync(`${root}packages/${own}/package.json`, "utf8")) as { version: string }).version
        : installed(name)
      if (name === "@types/node") expect(expected.split(".")[0], name).toBe(version)
      else expect(`${name}@${version}`).toBe(`${name}@${expected}`)
    }
  })

  it("makes the project ES modules before installing, in each variant, and gives one tsconfig.json", () => {
    const blocks = [...installing.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map(([, block]) => block ?? "")
    expect(blocks.length).toBe(2)
    for (const block of blocks) {
      const variants = block.split(/^# or, with pnpm:\n/m)
      expect(variants.length).toBe(2)
      for (const lines of variants) expect(lines).toContain("npm pkg set type=module\n")
    }
    const tsconfig = [...page.matchAll(/^```json\n([\s\S]*?)^```/gm)]
    expect(tsconfig.length).toBe(1)
    // skipLibCheck on, as the page recommends and says why (issue 48); the smoke test checks the
    // packages' .d.ts with it off.
    expect(JSON.parse(tsconfig[0]![1]!)).toMatchObject({
      compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", skipLibCheck: true }
    })
  })
})
