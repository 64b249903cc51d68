/// <reference types="node" />
/**
 * What a program of the client alone loads: the typical page of `scripts/bundle-size.ts` (the
 * browser layer, `getPaper`, a `searchPaper` stream), and `@s2-effect/core` imported whole, bundled
 * by esbuild. Every module esbuild reads for an entry is one Node would load for it (tree shaking
 * aside), so none may be of `effect/ai`: the assistant tools are `@s2-effect/ai`'s, not core's.
 */
import { describe, expect, it } from "@effect/vitest"
import * as esbuild from "esbuild"
import * as path from "node:path"
import { entries } from "../scripts/bundleEntries.js"

const packageDir = path.resolve(import.meta.dirname, "..")

/** The files esbuild read to bundle `source` (an entry's code), as paths. */
const modulesOf = async (source: string): Promise<ReadonlyArray<string>> => {
  const result = await esbuild.build({
    stdin: { contents: source, resolveDir: packageDir, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    metafile: true,
    write: false,
    logLevel: "silent"
  })
  return Object.keys(result.metafile.inputs)
}

/** A module of effect's `effect/ai` (its package folder `dist/ai`, or `src/ai` when built from source). */
const isEffectAi = (file: string) => /(^|\/)effect\/(dist|src)\/ai\//.test(file)

describe("a program of the client alone", () => {
  it("the typical page loads no module of effect/ai", async () => {
    const typical = entries.find((entry) => entry.name.startsWith("typical"))!
    const modules = await modulesOf(typical.source)
    expect(modules.some((file) => file.includes("@s2-effect/core") || file.includes("packages/core/"))).toBe(true)
    expect(modules.filter(isEffectAi)).toEqual([])
  }, 60_000)

  it("every export of @s2-effect/core, imported at once, loads no module of effect/ai", async () => {
    const modules = await modulesOf(`import * as Core from "@s2-effect/core"\nconsole.log(Object.keys(Core))`)
    expect(modules.filter(isEffectAi)).toEqual([])
  }, 60_000)

  it("(the check sees effect/ai where a program imports it)", async () => {
    const modules = await modulesOf(`import { Tool } from "effect/ai"\nconsole.log(Tool)`)
    expect(modules.filter(isEffectAi).length).toBeGreaterThan(0)
  }, 60_000)
})
