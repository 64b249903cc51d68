import { defineProject } from "vitest/config"

// On a busy 2-core machine (CI beside other work) a property test or a test that builds an emulator
// can take well past vitest's 5 s default; a time-out here only bounds how long a broken test takes
// to fail, so it is sized for the slowest machine the suite must pass on, not for the test's speed.
// The examples of a worker run in one module graph (`isolate: false`): importing effect and the
// packages again for each of the 48 files was half this project's CPU (134 → 71 s). harness.ts keeps
// what an example's environment must not carry over to the next.
export default defineProject({
  test: { testTimeout: 60_000, hookTimeout: 120_000, isolate: false }
})
