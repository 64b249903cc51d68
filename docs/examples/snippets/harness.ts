/**
 * What a docs example runs in when `pnpm test` runs it (see extract.ts): an HTTP emulator whose URL
 * is `S2_API_URL`, so `NodeSemanticScholar.layerConfig()` and the `s2` command reach it unchanged; a
 * key in `S2_API_KEY` (the datasets examples need one; the emulator accepts any); a scratch working
 * directory for files the example writes; and every line the example logs, for its assertions.
 */
import { NodeDatasets, NodeSemanticScholar } from "@s2-effect/node"
import { type EmulatorServer, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Layer, Scope } from "effect"
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { promisify } from "node:util"
import { vi } from "vitest"

// Built when an example runs, so it reads the S2_API_URL and S2_API_KEY set below.
const layer = Layer.merge(NodeSemanticScholar.layerConfig(), NodeDatasets.layer)

export interface ExampleContext {
  readonly emulator: EmulatorServer
  /** Every line written with console.log or an Effect logger so far. */
  readonly output: Array<string>
  /** Runs an effect of the example with the client (and datasets layer) the example itself would use. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof layer>>) => Promise<A>
  /** Runs an `s2 …` command line as shown in the docs (alone, after `pnpm` or `pnpm exec`), in the scratch directory. */
  readonly s2: (line: string) => Promise<{ readonly stdout: string; readonly stderr: string }>
  /** The scratch working directory. */
  readonly dir: string
}

const cliBin = Path.resolve(import.meta.dirname, "../../../packages/cli/bin/s2.mjs")

/** Splits a shell command line on spaces, keeping quoted words whole (enough for the docs' lines). */
const words = (line: string): Array<string> =>
  [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!)

/**
 * Before the emulator stops: an example that runs on import (a fire-and-forget `Effect.runPromise`)
 * may still be talking to it, and would fail against a closed port after its test. Only the clean-up
 * waits here; what a test asserts is awaited by the test itself (`run`, `eventually`).
 */
const settle = async (emulator: EmulatorServer): Promise<void> => {
  const count = () => Effect.runSync(emulator.requests).length
  for (let k = 0, last = -1; k < 120; k++) {
    const now = count()
    if (now === last) return
    last = now
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

/** Papers in the emulator's corpus: enough for every example, quick to build. */
const SIZE = 2000

/**
 * The port of this process's emulators. The examples of a worker run in one process (vitest's
 * `isolate: false`), and Effect's default `ConfigProvider` reads the environment once a process: so
 * each example's emulator listens where the first one did, and the S2_API_URL read then stays true.
 */
let port = 0

export const example = async (body: (context: ExampleContext) => Promise<void>): Promise<void> => {
  const scope = Effect.runSync(Scope.make())
  const emulator = await Effect.runPromise(startEmulator({ port, seed: 1, size: SIZE }).pipe(Scope.provide(scope)))
  port = Number(new URL(emulator.url).port)
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-docs-"))
  const cwd = process.cwd()
  const output: Array<string> = []
  const log = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => {
    output.push(args.map((a) => typeof a === "string" ? a : JSON.stringify(a)).join(" "))
  })
  // Progress an example draws with process.stdout.write (datasets) stays out of the test report.
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true)
  process.env.S2_API_URL = emulator.url
  process.env.S2_API_KEY = "docs-example-key"
  process.chdir(dir)
  try {
    await body({
      emulator,
      output,
      dir,
      run: (effect) => Effect.runPromise(Effect.provide(effect, layer)),
      s2: async (line) => {
        const all = words(line.replace(/^\$\s*/, ""))
        // `pnpm exec s2 …` and `pnpm s2 …` as the docs show them for a clone: the same s2.
        const args = all[0] === "pnpm" ? all.slice(all[1] === "exec" ? 2 : 1) : all
        if (args[0] !== "s2") throw new Error(`not an s2 command line: ${line}`)
        const env = { ...process.env, S2_EMULATOR_SIZE: String(SIZE) }
        return promisify(execFile)(process.execPath, [cliBin, ...args.slice(1)], { cwd: dir, env })
      }
    })
    // An example that runs on import (`Effect.runPromise(…)` at the top level) may still be working.
    await settle(emulator)
  } finally {
    log.mockRestore()
    write.mockRestore()
    process.chdir(cwd)
    Fs.rmSync(dir, { recursive: true, force: true })
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/** Waits until the example's fire-and-forget `Effect.runPromise(…)` has logged what `check` expects. */
export const eventually = (check: () => void): Promise<void> => vi.waitFor(check, { timeout: 30_000, interval: 50 })
