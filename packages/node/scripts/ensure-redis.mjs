#!/usr/bin/env node
// The shared rate-limit tests start a real Redis: Debian's redis-server (never a downloaded binary).
// `pnpm test` runs this first, as it does for Chromium: as root with apt, it installs the
// `redis-server` package when it is missing; otherwise it says what to do.
import { spawnSync } from "node:child_process"

const binary = process.env.REDIS_SERVER ?? "redis-server"
const found = (command) => spawnSync("sh", ["-c", `command -v "${command}"`], { encoding: "utf8" }).status === 0
if (found(binary)) process.exit(0)

const root = typeof process.getuid === "function" && process.getuid() === 0
if (!root || !found("apt-get")) {
  console.error(
    `redis-server is needed for the shared rate-limit tests and ${binary} was not found.\n` +
      "Install Debian's redis-server package (sudo apt-get install redis-server) or set REDIS_SERVER to a redis-server binary."
  )
  process.exit(1)
}

console.error("redis-server not found: installing Debian's redis-server package for the shared rate-limit tests…")
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
for (const args of [["update"], ["install", "-y", "redis-server"]]) {
  const run = spawnSync("apt-get", args, { stdio: "inherit", env })
  if (run.status !== 0) process.exit(run.status ?? 1)
}
