import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import * as Path from "node:path"
import { promisify } from "node:util"

const bin = Path.resolve(import.meta.dirname, "../bin/s2-emulator.mjs")

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs the bin to its end (it must end by itself: bad arguments or a failed start). */
const run = (args: ReadonlyArray<string>) =>
  Effect.callback<Ran>((resume) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => stdout += chunk.toString())
    child.stderr.on("data", (chunk: Buffer) => stderr += chunk.toString())
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/** Starts the bin and waits for its ready line; stopped with SIGINT when the scope closes. */
const start = (args: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly child: ChildProcess; readonly line: string; readonly url: string }, Error>((resume) => {
      const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] })
      let out = ""
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
        if (url !== undefined) resume(Effect.succeed({ child, line: out.trim(), url }))
      })
      child.stderr.on("data", (chunk: Buffer) => out += chunk.toString())
      child.on("close", (code) => resume(Effect.fail(new Error(`s2-emulator exited with ${code}: ${out}`))))
    }),
    ({ child }) =>
      Effect.callback<number | null>((resume) => {
        if (child.exitCode !== null) return resume(Effect.succeed(child.exitCode))
        child.on("close", (code) => resume(Effect.succeed(code)))
        child.kill("SIGINT")
      })
  )

describe("the s2-emulator bin", () => {
  it.effect("refuses bad arguments: says what is wrong and exits 2", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, RegExp]> = [
        [["--port", "abc"], /--port expects a whole number from 0 to 65,535, got "abc"/],
        [["--port", "70000"], /--port expects a whole number/],
        [["--prot", "8787"], /unknown option --prot \(did you mean --port\?\)/],
        [["--size", "-5"], /--size expects a whole number from 1 to .*, got "-5"/],
        [["--verbose"], /unknown option --verbose/],
        [["8787"], /Unexpected argument '8787'/],
        [["--size", "10", "--bulk-size", "5"], /--bulk-size expects a whole number from 10 /]
      ]
      const results = yield* Effect.forEach(cases, ([args]) => run(args), { concurrency: 4 })
      results.forEach((ran, k) => {
        const [args, message] = cases[k]!
        expect(ran.code, args.join(" ")).toBe(2)
        expect(ran.stderr).toMatch(message)
        expect(ran.stderr).toMatch(/^s2-emulator: /)
        expect(ran.stderr).toContain("usage: s2-emulator")
        expect(ran.stdout).toBe("")
      })
      const help = yield* run(["--help"])
      expect(help.code).toBe(0)
      expect(help.stdout).toContain("--bulk-size N")
      // From the repository root, as the docs show for a clone.
      const root = Path.resolve(import.meta.dirname, "../../..")
      const viaPnpm = yield* Effect.promise(() =>
        promisify(execFile)("pnpm", ["exec", "s2-emulator", "--help"], { cwd: root, encoding: "utf8" })
      )
      expect(viaPnpm.stdout).toContain("usage: s2-emulator")
    }), 120_000)

  it.effect(
    "prints its URL and corpus size when ready, serves the landmarks, and a second one on its port exits 1",
    () =>
      Effect.gen(function*() {
        const first = yield* start(["--port", "0", "--size", "1000", "--seed", "3", "--lazy-index"])
        expect(first.line).toMatch(
          /^s2-emulator listening on http:\/\/127\.0\.0\.1:\d+ .*1,000 papers, seed 3, ready in \d+ ms$/
        )
        const res = yield* Effect.promise(() =>
          fetch(`${first.url}/graph/v1/paper/DOI:10.1093/mind/lix.236.433?fields=title,year`)
        )
        expect(yield* Effect.promise(() => res.json())).toMatchObject({
          title: "Computing Machinery and Intelligence",
          year: 1950
        })
        const port = new URL(first.url).port
        const second = yield* run(["--port", port, "--size", "100"])
        expect(second.code).toBe(1)
        expect(second.stderr).toContain(`s2-emulator: cannot start: port ${port} on 127.0.0.1 is in use`)
        expect(second.stdout).toBe("")
      }),
    120_000
  )
})
