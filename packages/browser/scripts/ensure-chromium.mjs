#!/usr/bin/env node
// The browser tests drive Debian's Chromium (never a downloaded browser). `pnpm test` runs this
// first, so that the README's test command works on a machine with only Node and npm: as root with
// apt, it installs the `chromium` package when it is missing; otherwise it says what to do.
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"

const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
if (existsSync(path)) process.exit(0)

const root = typeof process.getuid === "function" && process.getuid() === 0
const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0
if (!root || !apt) {
  console.error(
    `Chromium is needed for the browser tests and was not found at ${path}.\n` +
      "Install Debian's chromium package (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary."
  )
  process.exit(1)
}

console.error(`Chromium not found at ${path}: installing Debian's chromium package for the browser tests…`)
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
for (const args of [["update"], ["install", "-y", "chromium"]]) {
  const run = spawnSync("apt-get", args, { stdio: "inherit", env })
  if (run.status !== 0) process.exit(run.status ?? 1)
}
