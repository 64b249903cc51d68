/**
 * `--emulator` reads its corpus from the file an earlier command wrote in S2_EMULATOR_CACHE (issue
 * 48, point 4): the same answers, nothing said; a damaged file is one Warning, the corpus is built
 * and the file written again; `off` writes nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { CorpusCache } from "@s2-effect/testing"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as InProcessEmulator from "../src/InProcessEmulator.js"
import { runS2 } from "./support/inProcess.js"

const SIZE = 300
const search = ["search", "neural network", "--max", "3", "--fields", "title,year", "--emulator"]

/** `s2 search … --emulator` in a fresh emulator (not the one an earlier run left in this process). */
const run = (env: Record<string, string>) => {
  InProcessEmulator.forget()
  return runS2(search, { env: { S2_EMULATOR_SIZE: String(SIZE), ...env } })
}

describe("--emulator's corpus file", () => {
  it("is written by the first command and read by the next: same answer, nothing on stderr", async () => {
    const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-emulator-cache-"))
    const file = Path.join(directory, CorpusCache.fileName(1, SIZE))
    const first = await run({ S2_EMULATOR_CACHE: directory })
    expect([first.code, first.stderr]).toEqual([0, ""])
    expect(Fs.readdirSync(directory)).toEqual([CorpusCache.fileName(1, SIZE)])
    const written = Fs.readFileSync(file)
    const second = await run({ S2_EMULATOR_CACHE: directory })
    expect(second).toEqual(first)

    // A damaged file: one Warning naming it, the same answer, and a good file again.
    Fs.writeFileSync(file, written.subarray(0, written.length - 8))
    const damaged = await run({ S2_EMULATOR_CACHE: directory })
    expect([damaged.code, damaged.stdout]).toEqual([0, first.stdout])
    expect(damaged.stderr).toContain(`emulator corpus file ${file} not used`)
    expect(Fs.readFileSync(file).equals(written)).toBe(true)
    InProcessEmulator.forget()
  })

  it("is neither read nor written with S2_EMULATOR_CACHE=off", async () => {
    const home = Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-emulator-home-"))
    const off = await run({ S2_EMULATOR_CACHE: "off", XDG_CACHE_HOME: home, HOME: home })
    expect([off.code, off.stderr]).toEqual([0, ""])
    expect(Fs.readdirSync(home)).toEqual([])
    InProcessEmulator.forget()
  })
})
