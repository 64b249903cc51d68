/**
 * The published shape of the packages, checked as part of `pnpm test`: `pnpm build`, then
 * publint + arethetypeswrong on the packed tarballs (scripts/check-packages.mjs), then the
 * pack-and-install smoke test (scripts/smoke.mjs: the docs' npm and pnpm install lines, run as
 * written in fresh projects against the packed tarballs, then ESM and CommonJS scripts that query
 * the emulator and a strict `tsc`). A few minutes; the installs need the registry.
 */
import { execFile } from "node:child_process"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const run = promisify(execFile)
const here = import.meta.dirname
const repoRoot = path.resolve(here, "../../..")
const options = { cwd: repoRoot, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 } as const

// In order, never concurrently: each step needs the build of the first (vitest 5 has no describe.sequential).
describe("packaging", { concurrent: false }, () => {
  it("builds every published package", async () => {
    await run("pnpm", ["build"], options)
  }, 300_000)

  it("runs the built s2 from the clone (node packages/cli/bin/s2.dist.mjs)", async () => {
    const bin = path.join(repoRoot, "packages/cli/bin/s2.dist.mjs")
    const args = ["paper", "DOI:10.1093/mind/lix.236.433", "--fields", "title,year", "--emulator", "--format", "json"]
    const { stdout } = await run(process.execPath, [bin, ...args], {
      ...options,
      env: { ...process.env, S2_EMULATOR_SIZE: "200" }
    })
    expect(JSON.parse(stdout)).toMatchObject({ title: "Computing Machinery and Intelligence", year: 1950 })
  }, 120_000)

  it("passes publint and arethetypeswrong", async () => {
    const { stdout } = await run(process.execPath, [path.join(here, "../scripts/check-packages.mjs")], options)
    expect(stdout).toContain("check:packages: 7 packages pass publint and arethetypeswrong")
  }, 300_000)

  it("installs from the tarballs and queries the emulator from ESM and CommonJS", async () => {
    const { stdout } = await run(process.execPath, [path.join(here, "../scripts/smoke.mjs")], options)
    expect(stdout).toContain("esm.mjs: {\"found\":5")
    expect(stdout).toContain("cjs.cjs: {\"found\":5")
    expect(stdout).toContain("smoke test passed")
  }, 900_000)
})
