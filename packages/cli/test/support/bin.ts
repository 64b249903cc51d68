import { buildSync } from "esbuild"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * The `s2` bin bundled to plain JavaScript for tests that start it as a process: the development
 * bin loads the TypeScript sources through tsx, which costs about two seconds per process. The
 * bundle is the same code.
 */
export const bundleBin = (): string => {
  const bin = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "s2-cli-bin-")), "s2.mjs")
  buildSync({
    entryPoints: [fileURLToPath(new URL("../../src/main.ts", import.meta.url))],
    outfile: bin,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // CommonJS dependencies bundled into ESM need a require.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" }
  })
  return bin
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
  spawn(process.execPath, [bin, ...args], { env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] })

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
