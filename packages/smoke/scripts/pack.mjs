// Packs workspace packages the way `pnpm publish` would (publishConfig applied, `workspace:^`
// rewritten to real ranges) into a folder, and returns the tarball of each package by name.
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

export const repoRoot = path.resolve(import.meta.dirname, "../../..")

/** The packages that are published, in dependency order. */
export const published = ["core", "node", "browser", "testing", "jobs", "ai", "cli"]

/** @param {ReadonlyArray<string>} names folder names under packages/ @param {string} dest */
export const pack = (names, dest) => {
  fs.mkdirSync(dest, { recursive: true })
  /** @type {Record<string, string>} */
  const tarballs = {}
  for (const name of names) {
    const dir = path.join(repoRoot, "packages", name)
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"))
    if (!fs.existsSync(path.join(dir, "dist"))) {
      throw new Error(`${manifest.name} is not built: run \`pnpm build\` first`)
    }
    execFileSync("pnpm", ["pack", "--pack-destination", dest], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] })
    const file = `${manifest.name.replace("@", "").replace("/", "-")}-${manifest.version}.tgz`
    if (!fs.existsSync(path.join(dest, file))) {
      throw new Error(`pnpm pack did not produce ${file} in ${dest}`)
    }
    tarballs[name] = path.join(dest, file)
  }
  return tarballs
}
