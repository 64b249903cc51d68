/**
 * What a command loads: `@s2-effect/testing` (the emulator, the cassettes, their corpus) only for
 * `--emulator`, `--record` or `--replay`, never for a command against the API. Checked on the
 * process, which logs every module it loads (support/loadLog.mjs), and on the sources, where only
 * InProcessEmulator.ts and Cassettes.ts may load the package, and only with `import()`.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import type { Loopback } from "@s2-effect/test-support"
import { serve } from "@s2-effect/test-support"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { ExitCode } from "../src/ExitCode.js"
import * as Bin from "./support/bin.js"

const here = path.dirname(fileURLToPath(import.meta.url))
const src = path.resolve(here, "../src")
const devBin = path.resolve(here, "../bin/s2.mjs")
const testingPackage = `${new URL("../../testing/", import.meta.url).href}`
const corePackage = `${new URL("../../core/", import.meta.url).href}`

/** Runs the development bin (the sources, module by module) with `args`; answers its result and the URLs it loaded. */
const loaded = async (args: ReadonlyArray<string>) => {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "s2-load-log-")), "loaded.txt")
  const child = spawn(process.execPath, ["--import", path.join(here, "support/loadLog.mjs"), devBin, ...args], {
    // The sources module by module (S2_DEV_TSX), not the dev bundle: the log names each module.
    env: Bin.cleanEnv({ S2_LOAD_LOG: log, npm_lifecycle_event: "", S2_DEV_TSX: "1" }),
    stdio: ["pipe", "pipe", "pipe"]
  })
  const ran = await Bin.finish(child)
  const urls = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter((url) => url.length > 0) : []
  return { ...ran, urls }
}

describe("what a command loads", () => {
  const servers: Array<Loopback> = []
  afterAll(() => Promise.all(servers.map((server) => server.close())))

  it("s2 paper --api-url loads no module of @s2-effect/testing; --emulator does", async () => {
    const server = await serve(() => ({ json: { paperId: "1".repeat(40), title: "A paper from the API" } }))
    servers.push(server)
    const api = await loaded(["paper", "CorpusId:1", "--fields", "title", "--api-url", server.url, "--no-retry"])
    expect(api.stderr).toBe("")
    expect(api.code).toBe(ExitCode.ok)
    expect(JSON.parse(api.stdout).title).toBe("A paper from the API")
    expect(server.requests).toHaveLength(1)
    // The log holds the client's modules: an empty one would prove nothing.
    expect(api.urls.filter((url) => url.startsWith(corePackage)).length).toBeGreaterThan(10)
    expect(api.urls.filter((url) => url.startsWith(testingPackage))).toEqual([])

    const emulated = await loaded(["paper", "CorpusId:1", "--fields", "title", "--emulator"])
    expect(emulated.urls.filter((url) => url.startsWith(testingPackage)).length).toBeGreaterThan(0)
  })

  it("only InProcessEmulator.ts and Cassettes.ts load @s2-effect/testing, and only with import()", () => {
    const files = fs.readdirSync(src, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"))
    expect(files.length).toBeGreaterThan(20)
    const loading: Array<string> = []
    for (const file of files) {
      const text = fs.readFileSync(path.join(src, file), "utf8")
      // A value import would load the package with the module that has it; a type import is erased.
      const statics = [...text.matchAll(/^(?:import|export) (?!type )[^"]*from "@s2-effect\/testing"/gm)]
      expect(statics.map((m) => `${file}: ${m[0]}`)).toEqual([])
      if (text.includes(`import("@s2-effect/testing")`)) loading.push(file)
    }
    expect(loading.sort()).toEqual(["Cassettes.ts", "InProcessEmulator.ts"])
  })
})
