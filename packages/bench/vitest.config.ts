import { defineProject } from "vitest/config"

// On a busy 2-core machine (CI beside other work) a property test or a test that builds an emulator
// can take well past vitest's 5 s default; a time-out here only bounds how long a broken test takes
// to fail, so it is sized for the slowest machine the suite must pass on, not for the test's speed.
// `isolate: false`: files share a module graph per worker (docs/contributing.md says why and what a file resets).
export default defineProject({
  test: { testTimeout: 60_000, hookTimeout: 120_000, isolate: false }
})
