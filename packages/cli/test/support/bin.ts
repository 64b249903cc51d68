import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { inject } from "vitest"
import { bundleCliSync } from "../../scripts/bundle.mjs"

/**
 * The `s2` bin as published (scripts/bundle.mjs: the bundle and its code-cache entry), for tests
 * that start it as a process: the development bin loads the TypeScript sources through tsx, which
 * costs about two seconds per process. A copy, in a folder of the caller's, of the bundle the run
 * built once (support/bundleOnce.ts); built here when the run did not. Returns the path of the entry.
 */
export const bundleBin = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-cli-bin-"))
  const built = inject("s2Bundle")
  if (built === undefined) return bundleCliSync(dir)
  for (const file of fs.readdirSync(built)) fs.copyFileSync(path.join(built, file), path.join(dir, file))
  return path.join(dir, "s2.js")
}

/** What a finished `s2` process left. */
export interface Ran {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/** The test's environment without the user's key and API root, plus `extra`. */
export const cleanEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const base = { ...process.env }
  delete base["S2_API_KEY"]
  delete base["S2_API_URL"]
  return { ...base, ...extra }
}

/** Starts the bundled bin with `args`. */
export const start = (bin: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): ChildProcess =>
  spawn(process.execPath, [bin, ...args], {
    // The compile cache beside the test's bundle, not in the user's.
    env: cleanEnv({ S2_COMPILE_CACHE: path.join(path.dirname(bin), "compile-cache"), ...env }),
    stdio: ["pipe", "pipe", "pipe"]
  })

/**
 * Runs the bundled bin with its standard output (and error) on a pseudo-terminal, as in a user's
 * shell: util-linux's `script`, its exit code the bin's. What the terminal showed is `stdout`.
 */
export const onTerminal = (bin: string, args: ReadonlyArray<string>): Promise<Ran> => {
  const quoted = [process.execPath, bin, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ")
  const child = spawn("script", ["-qec", quoted, "/dev/null"], {
    env: cleanEnv({ S2_COMPILE_CACHE: path.join(path.dirname(bin), "compile-cache") }),
    stdio: ["pipe", "pipe", "pipe"]
  })
  return finish(child)
}

/** Collects a process's output until it exits; `input` goes to its stdin. */
export const finish = (child: ChildProcess, input?: string): Promise<Ran> =>
  new Promise((resolve, reject) => {
    let stdout = ""
    let stderr = ""
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()))
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()))
    child.on("error", reject)
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }))
    child.stdin?.end(input ?? "")
  })

/**
 * Whether process `pid` is waiting for its standard input (Linux): its main thread blocked in
 * `read(0, …)` (system call 0 on x86-64 and 63 on arm64, per /proc/PID/syscall), or fd 0 in one
 * of its epoll sets (/proc/PID/fdinfo: a stream on the pipe, as effect's `Stdio` reads it); false
 * once it has gone.
 */
export const readingStdin = (pid: number): boolean => {
  try {
    if (/^(0|63) 0x0 /.test(fs.readFileSync(`/proc/${pid}/syscall`, "utf8"))) return true
    return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
      if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) !== "anon_inode:[eventpoll]") return false
      return /^tfd:\s+0\s/m.test(fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8"))
    })
  } catch {
    return false
  }
}
