/**
 * The published shape of the packages, checked as part of `pnpm test`: `pnpm build`, then, at
 * once, the built `s2` run from the clone, publint + arethetypeswrong on the packed tarballs
 * (scripts/check-packages.mjs) and the pack-and-install smoke test (scripts/smoke.mjs: every npm
 * and pnpm install line of the docs checked by reading it, and run as written in one project per
 * package manager plus one per tarball recipe, against the packed tarballs; then ESM and CommonJS
 * scripts that query the emulator and a strict `tsc`). A few minutes; the installs need the registry.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import { beforeAll, describe, it } from "vitest"

const run = promisify(execFile)
const here = import.meta.dirname
const repoRoot = path.resolve(here, "../../..")
const options = { cwd: repoRoot, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 } as const

// The build first (its own time-out, so that each check's counts only the check); then the checks
// of what it built at once: arethetypeswrong mostly computes while the installs of the smoke test
// mostly wait on the registry (one after the other they took minutes more on a busy 2-core machine).
// The time-outs only bound how long a broken step takes to fail, on a machine loaded to about 20.
let build: { readonly stderr: string } | undefined
beforeAll(async () => {
  build = await run("pnpm", ["build"], options)
}, 1_200_000)

describe("packaging", { concurrent: true }, () => {
  it("builds every published package", ({ expect }) => {
    expect(build).toBeDefined()
    for (const name of ["core", "node", "browser", "testing", "jobs", "ai"]) {
      expect(fs.existsSync(path.join(repoRoot, "packages", name, "dist/esm/index.js")), name).toBe(true)
    }
    expect(fs.existsSync(path.join(repoRoot, "packages/cli/dist/bin/s2.cjs"))).toBe(true)
  })

  it("runs the built s2 from the clone (node packages/cli/bin/s2.dist.mjs)", async ({ expect }) => {
    const bin = path.join(repoRoot, "packages/cli/bin/s2.dist.mjs")
    const args = ["paper", "DOI:10.1093/mind/lix.236.433", "--fields", "title,year", "--emulator", "--format", "json"]
    const { stdout } = await run(process.execPath, [bin, ...args], {
      ...options,
      env: { ...process.env, S2_EMULATOR_SIZE: "200" }
    })
    expect(JSON.parse(stdout)).toMatchObject({ title: "Computing Machinery and Intelligence", year: 1950 })
  }, 300_000)

  it("passes publint and arethetypeswrong", async ({ expect }) => {
    const { stdout } = await run(process.execPath, [path.join(here, "../scripts/check-packages.mjs")], options)
    expect(stdout).toContain("check:packages: 7 packages pass publint and arethetypeswrong")
  }, 900_000)

  it("installs from the tarballs and queries the emulator from ESM and CommonJS", async ({ expect }) => {
    const { stdout } = await run(process.execPath, [path.join(here, "../scripts/smoke.mjs")], options)
    expect(stdout).toContain("esm.mjs: {\"found\":5")
    expect(stdout).toContain("cjs.cjs: {\"found\":5")
    expect(stdout).toContain("smoke test passed")
  }, 1_800_000)
})
