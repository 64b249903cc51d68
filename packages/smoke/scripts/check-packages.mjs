// `pnpm check:packages` (after `pnpm build`): packs each published package and runs publint
// (--strict: warnings fail too) and arethetypeswrong on the tarball, so both check exactly what
// `pnpm publish` would upload. attw runs its esm-only profile (node16 from ESM, bundler): the
// packages are ESM only, like effect 4, so node10 and node16-from-CJS resolution are not checked
// (CommonJS callers load them through Node's require(esm); scripts/smoke.mjs runs such a script).
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pack, published, repoRoot } from "./pack.mjs"

const dest = fs.mkdtempSync(path.join(os.tmpdir(), "s2-effect-check-"))
const bin = (name) => path.join(repoRoot, "node_modules", ".bin", name)
const failures = []
try {
  const tarballs = pack(published, dest)
  for (const name of published) {
    const tgz = tarballs[name]
    console.log(`\n=== @s2-effect/${name} (${path.basename(tgz)})`)
    const publint = spawnSync(bin("publint"), ["run", tgz, "--strict"], { stdio: "inherit" })
    if (publint.status !== 0) failures.push(`publint @s2-effect/${name}`)
    // The CLI has no module entry point (only its `s2` bin), so there are no types to check.
    if (name === "cli") continue
    const attw = spawnSync(bin("attw"), [tgz, "--profile", "esm-only", "--format", "table-flipped"], {
      stdio: "inherit"
    })
    if (attw.status !== 0) failures.push(`attw @s2-effect/${name}`)
  }
} finally {
  fs.rmSync(dest, { recursive: true, force: true })
}
if (failures.length > 0) {
  console.error(`\ncheck:packages failed: ${failures.join(", ")}`)
  process.exit(1)
}
console.log(`\ncheck:packages: ${published.length} packages pass publint and arethetypeswrong`)
