import { defineProject } from "vitest/config"

// On a busy 2-core machine (CI beside other work) a property test or a test that builds an emulator
// can take well past vitest's 5 s default; a time-out here only bounds how long a broken test takes
// to fail, so it is sized for the slowest machine the suite must pass on, not for the test's speed.
// The files of this package run in one module graph per worker (`isolate: false`): each file
// importing effect and the packages again was half the package's CPU in `pnpm test` (core: 47 → 21 s
// of CPU). A file that replaces modules (`vi.mock`) reads what it tests again after
// `vi.resetModules()`.
export default defineProject({
  test: { testTimeout: 60_000, hookTimeout: 120_000, isolate: false }
})
