import { defineProject } from "vitest/config"

// On a busy 2-core machine (CI beside other work) a property test or a test that builds an emulator
// can take well past vitest's 5 s default; a time-out here only bounds how long a broken test takes
// to fail, so it is sized for the slowest machine the suite must pass on, not for the test's speed.
// `isolate: false`: files share a module graph per worker (docs/contributing.md says why and what a file resets).
export default defineProject({
  // No test writes the user's cache of emulator corpora (test/CorpusCache.test.ts uses folders of its own).
  test: { testTimeout: 60_000, hookTimeout: 120_000, env: { S2_EMULATOR_CACHE: "off" }, isolate: false }
})
