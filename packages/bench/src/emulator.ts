/** Runs the emulator's bin in a child process, so its CPU is not the client's. */
import { spawn } from "node:child_process"
import * as Path from "node:path"

export interface Running {
  readonly url: string
  readonly pid: number
  readonly stop: () => void
}

const defaultBin = Path.resolve(import.meta.dirname, "../../testing/bin/s2-emulator.mjs")

/**
 * Starts an `s2-emulator` (the clone's, or `options.bin`) on a free port and answers once it prints
 * its ready line. With `--lazy-index` unless `lazyIndex: false`: the cases time the client, not the
 * emulator's index.
 */
export const startEmulator = (
  args: ReadonlyArray<string>,
  options: { readonly bin?: string; readonly lazyIndex?: boolean } = {}
): Promise<Running> =>
  new Promise((resolve, reject) => {
    const lazy = options.lazyIndex === false ? [] : ["--lazy-index"]
    const child = spawn(process.execPath, [options.bin ?? defaultBin, "--port", "0", ...lazy, ...args], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let seen = ""
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (text: string) => {
      seen += text
      const url = /listening on (http:\/\/\S+)/.exec(seen)?.[1]
      if (url === undefined) return
      child.removeAllListeners("exit")
      resolve({ url, pid: child.pid!, stop: () => child.kill("SIGTERM") })
    })
    child.on("exit", (code) => reject(new Error(`emulator exited (${code}) before listening: ${seen}`)))
  })
