/**
 * The real `s2` binary and the folders it makes and the disk it writes to: a folder that cannot be
 * made (anywhere under /proc, where Node's recursive mkdir never returns) ends the command at once
 * with one line naming it, and a full disk is said as the system says it, not as the platform
 * names its call.
 *
 * The folders' tests run in process (support/inProcess.ts); a hang there fails on the test's
 * time-out. S2_COMPILE_CACHE is read by the bin's start-up (main.ts), a full standard output is
 * the process's own file descriptor, and the full disk is a mount namespace of one process, so
 * those three start the bundled bin.
 */
import { describe, expect, it } from "@effect/vitest"
import { PlatformError } from "effect"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ExitCode, fileError } from "../src/ExitCode.js"
import * as Bin from "./support/bin.js"
import { runS2 } from "./support/inProcess.js"

// Bundled on first use: only start-up, standard output and the full disk start a process.
let bundled: string | undefined
const bin = () => bundled ??= Bin.bundleBin()

/** Runs s2 in process with the emulator's small corpus. */
const s2 = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  runS2(args, { env: { S2_EMULATOR_SIZE: "200", ...env } })

/**
 * Runs the bin; one still running after 45 s (before the fix, these hung forever) is killed, so
 * that the test fails on what it printed instead of timing out with a process left behind.
 */
const s2Process = async (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const child = Bin.start(bin(), args, { S2_EMULATOR_SIZE: "200", ...env })
  const killer = setTimeout(() => child.kill("SIGKILL"), 45_000)
  try {
    return await Bin.finish(child)
  } finally {
    clearTimeout(killer)
  }
}

const paper = ["paper", "DOI:10.1093/mind/lix.236.433", "--fields", "title", "--emulator", "--format", "json"]
const onLinux = process.platform === "linux"
const under = (name: string) => `/proc/s2-effect-test/${name}`

/**
 * A real full disk for one process: a 64 KB tmpfs mounted over `dir` in a mount namespace of its
 * own (`unshare -rm`, no privileges needed where user namespaces are allowed), filled before the
 * command runs. Whether this machine allows it.
 */
const canMountTmpfs = (): boolean => {
  if (!onLinux) return false
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-tmpfs-probe-"))
  try {
    return spawnSync("unshare", ["-rm", "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]).status === 0
  } catch {
    return false
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** `s2 args` with `dir` a full disk (see {@link canMountTmpfs}). */
const s2OnFullDisk = (dir: string, args: ReadonlyArray<string>) => {
  const fill = `mount -t tmpfs -o size=64k tmpfs "$1" && { head -c 1048576 /dev/zero > "$1/filler"; shift; exec "$@"; }`
  const child = spawn("unshare", ["-rm", "sh", "-c", fill, "sh", dir, process.execPath, bin(), ...args], {
    env: Bin.cleanEnv({ S2_COMPILE_CACHE: path.join(path.dirname(bin()), "compile-cache"), S2_EMULATOR_SIZE: "200" }),
    stdio: ["ignore", "pipe", "pipe"]
  })
  const killer = setTimeout(() => child.kill("SIGKILL"), 45_000)
  return Bin.finish(child).finally(() => clearTimeout(killer))
}

describe("a folder s2 cannot make", () => {
  it.runIf(onLinux)("--cache and S2_CACHE: exit 10 at once, naming the flag and the folder", async () => {
    for (const [args, env] of [[["--cache", under("cache")], {}], [[], { S2_CACHE: under("cache") }]] as const) {
      const ran = await s2([...paper, ...args], env)
      expect(ran.signal).toBeNull()
      expect(ran.code).toBe(10)
      expect(ran.stderr).toBe(
        `s2: cannot create the --cache directory ${under("cache")}: no such file or directory (ENOENT)\n`
      )
    }
  }, 120_000)

  it.runIf(onLinux)("--record: exit 10 before anything is asked", async () => {
    const ran = await s2([...paper, "--record", under("cassettes")])
    expect(ran.signal).toBeNull()
    expect(ran.code).toBe(10)
    expect(ran.stderr).toBe(
      `s2: cannot create the --record directory ${under("cassettes")}: no such file or directory (ENOENT)\n`
    )
  }, 60_000)

  it.runIf(onLinux)("datasets download --dir: exit 10, naming the folder", async () => {
    const ran = await s2(["datasets", "download", "abstracts", "--dir", under("data"), "--emulator"], {
      S2_API_KEY: "a-key"
    })
    expect(ran.signal).toBeNull()
    expect(ran.code).toBe(10)
    expect(ran.stderr).toBe(
      `s2: download of abstracts in release latest: cannot create the directory ${
        under("data")
      }: no such file or directory (ENOENT)\n`
    )
  }, 60_000)

  it.runIf(onLinux)("S2_COMPILE_CACHE: the command runs without the cache, and says why once", async () => {
    const ran = await s2Process(paper, { S2_COMPILE_CACHE: under("compile-cache") })
    expect(ran.code).toBe(0)
    expect(JSON.parse(ran.stdout)).toMatchObject({ title: "Computing Machinery and Intelligence" })
    expect(ran.stderr).toBe(
      `s2: S2_COMPILE_CACHE ${
        under("compile-cache")
      } cannot be made: no such file or directory (ENOENT); running without the compile cache (its parent must exist)\n`
    )
  }, 60_000)
})

describe("a full disk", () => {
  it.runIf(fs.existsSync("/dev/full"))(
    "is said in the one line users see, not only with --verbose: `s2 … > file` on a full disk",
    async () => {
      // /dev/full answers every write with ENOSPC, as a full disk does.
      const full = fs.openSync("/dev/full", "w")
      const child = spawn(process.execPath, [bin(), ...paper], {
        env: Bin.cleanEnv({
          S2_COMPILE_CACHE: path.join(path.dirname(bin()), "compile-cache"),
          S2_EMULATOR_SIZE: "200"
        }),
        stdio: ["ignore", full, "pipe"]
      })
      fs.closeSync(full)
      const ran = await Bin.finish(child)
      expect(ran.code).toBe(10)
      expect(ran.stderr).toBe("s2: cannot write to standard output: no space left on device (ENOSPC)\n")
    },
    60_000
  )

  it.runIf(fs.existsSync("/dev/full"))(
    "the help and the version, printed in one write as the program ends, still end in the same line and exit 10",
    async () => {
      for (const args of [["--version"], ["--help"], ["paper", "--help"]]) {
        const full = fs.openSync("/dev/full", "w")
        const child = spawn(process.execPath, [bin(), ...args], {
          env: Bin.cleanEnv({ S2_COMPILE_CACHE: path.join(path.dirname(bin()), "compile-cache") }),
          stdio: ["ignore", full, "pipe"]
        })
        fs.closeSync(full)
        const ran = await Bin.finish(child)
        expect([args, ran.code]).toEqual([args, 10])
        expect(ran.stderr).toBe("s2: cannot write to standard output: no space left on device (ENOSPC)\n")
      }
    },
    60_000
  )

  it.runIf(canMountTmpfs())(
    "--record onto a full disk: the cassette's line says ENOSPC in the system's words",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-full-record-"))
      const ran = await s2OnFullDisk(dir, [...paper, "--record", dir])
      // The filler's own failure (head: No space left on device) comes first: it is what fills the disk.
      const lines = ran.stderr.split("\n").filter((line) => line.startsWith("s2"))
      expect(ran.code).toBe(10)
      expect(ran.stdout).toBe("")
      expect(lines).toEqual([
        `s2: paper DOI:10.1093/mind/lix.236.433 failed: cassette ${
          path.join(dir, "s2.cassette.json")
        } cannot be written: no space left on device (ENOSPC); check the directory of --record (permissions, free space)`
      ])
    },
    60_000
  )

  it("every local file's failure is rendered that way, whatever the command (ExitCode.fileError)", () => {
    const full = PlatformError.systemError({
      _tag: "Unknown",
      module: "FileSystem",
      method: "writeAll",
      pathOrDescriptor: 21,
      cause: Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" })
    })
    expect(fileError("cannot write out.jsonl", full)).toMatchObject({
      code: ExitCode.file,
      message: "cannot write out.jsonl: no space left on device (ENOSPC)",
      cause: full
    })
  })
})
