// The entry of the bundled `s2` (dist/bin/s2.js; scripts/bundle.mjs writes it from this file with
// the bundle's hash). It runs the bundle, dist/bin/s2.cjs, through V8's code cache: a start then
// reads compiled bytecode instead of parsing and compiling the 2.8 MB of code again, which was
// about a third of the CPU of a short command (issue 18: `s2 --help` 0.20 → 0.14 s; a one-page
// `s2 harvest` about 0.1 s less). Node 20 has no compile cache of its own for ES modules
// (`module.enableCompileCache` is Node 22), hence one CommonJS bundle and `vm.Script`.
//
// One cache per command (the first word of the arguments; `help` for --help and --version), made
// by that command's first run when it exits: it then holds the functions the command ran, not
// only those a start compiles. Kept per user in the temporary directory, or in `S2_COMPILE_CACHE`;
// `S2_COMPILE_CACHE=0` or Node's `NODE_DISABLE_COMPILE_CACHE=1` turns it off. V8 refuses a cache
// made by another V8 or for other flags, and the file name holds the bundle's hash (V8 checks only
// the source's length), so a stale cache is never used: it is made again, and the caches of other
// builds are removed then.
import * as fs from "node:fs"
import Module, { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as vm from "node:vm"

const bundleHash = "__S2_BUNDLE_HASH__"
const filename = fileURLToPath(new URL("./s2.cjs", import.meta.url))

/**
 * Makes the cache directory, not the ones above it: Node's recursive mkdir never returns where a
 * directory cannot be made though its parent exists (under /proc). One asked for by name that
 * cannot be made is said in one line; the default one only costs speed.
 */
const makeDirectory = (dir, asked) => {
  try {
    fs.mkdirSync(dir, { mode: 0o700 })
  } catch (error) {
    if (error?.code === "EEXIST") return true
    if (asked) {
      const words = /^[A-Z0-9]+: ([^,]+)/.exec(error?.message ?? "")?.[1]
      process.stderr.write(
        `s2: S2_COMPILE_CACHE ${dir} cannot be made: ${words ?? "error"} (${error?.code}); ` +
          "running without the compile cache (its parent must exist)\n"
      )
    }
    return false
  }
  return true
}

/** The cache directory, or undefined when turned off or not safe to use. */
const directory = () => {
  const env = process.env
  if (env.S2_COMPILE_CACHE === "0" || (env.NODE_DISABLE_COMPILE_CACHE ?? "") !== "") return undefined
  const uid = process.getuid?.()
  const dir = env.S2_COMPILE_CACHE || path.join(os.tmpdir(), `s2-compile-cache-${uid ?? os.userInfo().username}`)
  if (!makeDirectory(dir, Boolean(env.S2_COMPILE_CACHE))) return undefined
  try {
    // The cache is code this process runs: only from a directory no other user can write to.
    const stat = fs.statSync(dir)
    return uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0) ? dir : undefined
  } catch {
    return undefined
  }
}

const command = () => {
  const args = process.argv.slice(2)
  if (args.some((arg) => arg === "--help" || arg === "-h" || arg === "--version")) return "help"
  const first = args.find((arg) => !arg.startsWith("-"))
  return first !== undefined && /^[a-z][a-z-]{0,39}$/.test(first) ? first : "other"
}

const dir = directory()
const cacheFile = dir && path.join(dir, `${bundleHash}-${process.version}-${process.arch}-${command()}.bin`)
let cachedData
if (cacheFile !== undefined) {
  try {
    cachedData = fs.readFileSync(cacheFile)
  } catch {
    // No cache yet: this run makes it.
  }
}
const script = new vm.Script(Module.wrap(fs.readFileSync(filename, "utf8")), { filename, cachedData })
if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
  process.once("exit", () => {
    try {
      // Created exclusively (`wx`: never through a symbolic link) under a name no one can plant first.
      const random = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex")
      const temporary = `${cacheFile}.${random}.tmp`
      try {
        fs.writeFileSync(temporary, script.createCachedData(), { flag: "wx", mode: 0o600 })
        fs.renameSync(temporary, cacheFile)
      } catch (error) {
        // Not what was there already (EEXIST): that is not ours to remove.
        if (error?.code !== "EEXIST") fs.rmSync(temporary, { force: true })
        throw error
      }
      // Caches of other builds of `s2` are of no use to this one: the directory holds one build's.
      for (const name of fs.readdirSync(dir)) {
        if (name.endsWith(".bin") && !name.startsWith(`${bundleHash}-`)) fs.rmSync(path.join(dir, name), { force: true })
      }
    } catch {
      // A cache is an optimisation: a full disk or a read-only directory only costs speed.
    }
  })
}
const module = { exports: {} }
script.runInThisContext()(module.exports, createRequire(filename), module, filename, path.dirname(filename))
