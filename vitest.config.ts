import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The packaging test (a build, then installs from the tarballs: minutes, mostly waiting on child
 * processes) starts first, so that the other worker runs the other files meanwhile instead of it
 * running alone at the end.
 */
class PackagingFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    const packaging = (file: TestSpecification) => file.moduleId.endsWith("packages/smoke/test/pack.test.ts")
    return [...sorted.filter(packaging), ...sorted.filter((file) => !packaging(file))]
  }
}

// One run over every package and every docs example that has tests (vitest 5's `projects`, the
// successor of vitest.workspace.ts). `pnpm test` runs it with `--maxWorkers=3` (.ci/verify): vitest's
// default is one fewer than the cores (one, on 2 cores) while many files wait on child processes,
// a browser or a server, time the other workers use. (A project does not inherit the root's
// `maxWorkers`; the command line's reaches every project.)
export default defineConfig({
  test: {
    projects: ["packages/*", "docs/examples/*"],
    sequence: { sequencer: PackagingFirst }
  }
})
