import { defineProject } from "vitest/config"

// Packing, installing and running the tarballs are processes: time-outs sized for a loaded 2-core
// machine (each test still names its own when it needs longer).
export default defineProject({
  test: { testTimeout: 300_000, hookTimeout: 300_000 }
})
