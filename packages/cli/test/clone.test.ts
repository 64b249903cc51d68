/**
 * Working from the clone: `pnpm exec s2 …` runs the dev bin where it is called and prints only what
 * s2 prints; `pnpm s2 …` runs it at the repository root, so relative paths must be resolved against
 * the caller's folder (pnpm's INIT_CWD), not the root.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as Demo from "../src/commands/demo.js"
import { ExitCode } from "../src/ExitCode.js"
import { Printer } from "../src/Printer.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
const devBin = path.join(root, "packages/cli/bin/s2.mjs")
const T = 120_000

/** A harvest of 5 papers into the relative `--out x.jsonl`, as the process `cwd` and `env` say. */
const harvest = (cwd: string, env: Record<string, string>, command: ReadonlyArray<string>) => {
  const ran = spawnSync(command[0]!, [
    ...command.slice(1),
    "harvest",
    "",
    "--max",
    "5",
    "--out",
    "x.jsonl",
    "--emulator"
  ], {
    cwd,
    // Progress would show after a second of wall-clock time: never here (no test may depend on the
    // machine's speed).
    env: { ...process.env, npm_lifecycle_event: "", INIT_CWD: "", S2_PROGRESS_DELAY_MS: "3600000", ...env },
    encoding: "utf8",
    timeout: T
  })
  return { code: ran.status, stderr: ran.stderr }
}

const subfolder = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-clone-sub-"))

describe.concurrent("pnpm s2 from a subfolder", () => {
  it(
    "as the `s2` script (pnpm's env: root cwd, INIT_CWD the caller's folder), --out lands in the caller's folder",
    () => {
      const sub = subfolder()
      const ran = harvest(root, { npm_lifecycle_event: "s2", INIT_CWD: sub }, ["node", devBin])
      expect(ran.stderr).toBe("")
      expect(ran.code).toBe(0)
      expect(fs.readFileSync(path.join(sub, "x.jsonl"), "utf8").trim().split("\n")).toHaveLength(5)
      expect(fs.existsSync(path.join(root, "x.jsonl"))).toBe(false)
      fs.rmSync(sub, { recursive: true, force: true })
    },
    T
  )

  it("run by pnpm itself with -C and --dir from another folder: the file lands where pnpm was called", () => {
    for (const flag of ["-C", "--dir"]) {
      const sub = subfolder()
      const ran = harvest(sub, {}, ["pnpm", "--silent", flag, root, "s2"])
      expect(ran.code).toBe(0)
      expect(fs.existsSync(path.join(sub, "x.jsonl"))).toBe(true)
      expect(fs.existsSync(path.join(root, "x.jsonl"))).toBe(false)
      fs.rmSync(sub, { recursive: true, force: true })
    }
  }, T)

  it("run directly (no pnpm script), the process's own folder is kept", () => {
    const sub = subfolder()
    const other = subfolder()
    const ran = harvest(sub, { INIT_CWD: other }, ["node", devBin])
    expect(ran.code).toBe(0)
    expect(fs.existsSync(path.join(sub, "x.jsonl"))).toBe(true)
    expect(fs.existsSync(path.join(other, "x.jsonl"))).toBe(false)
    fs.rmSync(sub, { recursive: true, force: true })
    fs.rmSync(other, { recursive: true, force: true })
  }, T)
})

describe("pnpm exec s2, the documented way to run the clone's s2", () => {
  it("from a folder inside the clone: a verify finding is exit 3 with only s2's lines, and --out lands there", () => {
    const cache = path.join(root, "node_modules/.cache")
    fs.mkdirSync(cache, { recursive: true })
    const inside = fs.mkdtempSync(path.join(cache, "s2-clone-exec-"))
    fs.writeFileSync(
      path.join(inside, "made-up.bib"),
      "@article{llama19, title={Quantum llamas of the seventh kind}, author={Nobody, A.}, year={2019}}\n"
    )
    const ran = spawnSync("pnpm", ["exec", "s2", "verify", "made-up.bib", "--emulator", "--format", "jsonl"], {
      cwd: inside,
      env: { ...process.env, npm_lifecycle_event: "", INIT_CWD: "" },
      encoding: "utf8",
      timeout: T
    })
    // Not pnpm's "[ELIFECYCLE] Command failed with exit code 3." after a finding, nor its command line.
    expect(ran.stderr).toBe("s2: 0 verified, 0 mismatch, 1 not found\ns2: 1 of 1 references not verified\n")
    expect(ran.status).toBe(3)
    expect(JSON.parse(ran.stdout)).toMatchObject({ key: "llama19", status: "notFound" })
    expect(harvest(inside, {}, ["pnpm", "exec", "s2"]).code).toBe(0)
    expect(fs.readFileSync(path.join(inside, "x.jsonl"), "utf8").trim().split("\n")).toHaveLength(5)
    fs.rmSync(inside, { recursive: true, force: true })
  }, T)
})

describe("--replay of a request that was not recorded (the dev bin's process)", () => {
  it("says it is not in the cassette, names the nearest recorded request once, exit 10, no network advice", () => {
    const dir = subfolder()
    const s2 = (args: ReadonlyArray<string>) => {
      const ran = spawnSync("node", [devBin, ...args, "--emulator"], { cwd: dir, encoding: "utf8", timeout: T })
      return { code: ran.status, stderr: ran.stderr }
    }
    expect(s2(["paper", "CorpusId:1", "--record", dir]).code).not.toBeNull()
    for (const extra of [[], ["--no-retry"]]) {
      const missed = s2(["paper", "CorpusId:2", "--replay", dir, ...extra])
      expect(missed.code).toBe(10)
      expect(missed.stderr).toContain("the request is not in the cassette (--replay)")
      expect(missed.stderr.match(/nearest recorded: GET \/graph\/v1\/paper\/CorpusId:1\?/g)).toHaveLength(1)
      expect(missed.stderr).not.toContain("--no-retry")
      expect(missed.stderr).not.toContain("could not reach")
      expect(missed.stderr).not.toContain("check the network")
    }
    fs.rmSync(dir, { recursive: true, force: true })
  }, T)
})

describe("pnpm demo", () => {
  it.effect(
    "writes to a fresh temporary folder per run, says where, and never passes --overwrite",
    () =>
      Effect.gen(function*() {
        const runs: Array<{ out: string; argv: Array<ReadonlyArray<string>> }> = []
        for (let i = 0; i < 2; i++) {
          let out = ""
          const argv: Array<ReadonlyArray<string>> = []
          const printer = Printer.of({
            out: (text) => Effect.sync(() => void (out += text)),
            err: (text) => Effect.sync(() => void (out += text)),
            outIsTTY: false,
            errIsTTY: false,
            columns: 80,
            errStream: process.stderr
          })
          const code = yield* Demo.program((args) => Effect.sync(() => (argv.push(args), ExitCode.ok))).pipe(
            Effect.provideService(Printer, printer)
          )
          expect(code).toBe(ExitCode.ok)
          runs.push({ out, argv })
        }
        const outs = runs.map(({ argv }) => {
          const harvest = argv.find((args) => args[2] === "harvest")!
          expect(harvest).not.toContain("--overwrite")
          return harvest[harvest.indexOf("--out") + 1]!
        })
        expect(outs[0]).not.toBe(outs[1])
        for (const [i, out] of outs.entries()) {
          const folder = path.dirname(out)
          expect(path.dirname(folder)).toBe(os.tmpdir())
          expect(path.basename(folder)).toMatch(/^s2-demo-/)
          expect(fs.readdirSync(folder)).toEqual([])
          expect(runs[i]!.out).toContain(`files of this demo go to ${folder}\n`)
          fs.rmSync(folder, { recursive: true, force: true })
        }
      }),
    T
  )
})
