import { defineProject } from "vitest/config"

// Most tests here start `s2` as a process (and build its bundle first); on a loaded 2-core machine
// one can take tens of seconds, past vitest's 5 s default, so every test and hook of this package
// gets a time-out sized for that. A time-out only bounds how long a broken test takes to fail.
// The bundled `s2` is built once for the run (test/support/bundleOnce.ts) and copied per file.
// `isolate: false`: files share a module graph per worker (docs/contributing.md says why and what a file resets).
export default defineProject({
  // No test writes the user's cache of emulator corpora (test/emulatorCache.test.ts uses a folder of its own).
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    isolate: false,
    env: { S2_EMULATOR_CACHE: "off" },
    globalSetup: ["./test/support/bundleOnce.ts"]
  }
})
