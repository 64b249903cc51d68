/** Runs the emulator's bin in a child process, so its CPU is not the client's. */
import { spawn } from "node:child_process"
import * as Path from "node:path"

export interface Running {
  readonly url: string
  readonly stop: () => void
}

const bin = Path.resolve(import.meta.dirname, "../../testing/bin/s2-emulator.mjs")

export const startEmulator = (args: ReadonlyArray<string>): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "--port", "0", "--lazy-index", ...args], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let seen = ""
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (text: string) => {
      seen += text
      const url = /listening on (http:\/\/\S+)/.exec(seen)?.[1]
      if (url !== undefined) resolve({ url, stop: () => child.kill("SIGTERM") })
    })
    child.on("exit", (code) => reject(new Error(`emulator exited (${code}) before listening: ${seen}`)))
  })
