import { defineConfig } from "vitest/config"

// One run over every package and every docs example that has tests (vitest 5's `projects`, the
// successor of vitest.workspace.ts).
export default defineConfig({
  test: {
    projects: ["packages/*", "docs/examples/*"]
  }
})
