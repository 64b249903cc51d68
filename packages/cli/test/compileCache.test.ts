/**
 * The published `s2` runs its bundle through V8's code cache (scripts/compile-cache.mjs): one cache
 * per command, made by that command's first run, used by the next, made again when V8 refuses it,
 * never written where another user could, off on request; a new build removes the old one's.
 * Whatever the cache, the output is the same.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Bin from "./support/bin.js"

const bin = Bin.bundleBin()
const paper = ["paper", "DOI:10.1093/mind/lix.236.433", "--fields", "title,year", "--emulator", "--format", "json"]
const emulator = { S2_EMULATOR_SIZE: "200" }

const s2 = (args: ReadonlyArray<string>, env: Record<string, string>) => Bin.finish(Bin.start(bin, args, env))
const cacheDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-compile-cache-test-"))
const files = (dir: string) => fs.readdirSync(dir).sort()

describe("the compile cache of the published s2", () => {
  it("is made per command by its first run and used by the next, with the same output", async () => {
    const dir = cacheDir()
    fs.chmodSync(dir, 0o700)
    const env = { ...emulator, S2_COMPILE_CACHE: dir }
    // Left by another build of s2: removed when this build makes a cache.
    fs.writeFileSync(path.join(dir, `0000000000000000-${process.version}-${process.arch}-paper.bin`), "old")
    const first = await s2(paper, env)
    expect(first.code).toBe(0)
    expect(JSON.parse(first.stdout)).toMatchObject({ title: "Computing Machinery and Intelligence", year: 1950 })
    const made = files(dir)
    expect(made).toHaveLength(1)
    expect(made[0]).toMatch(/^[0-9a-f]{16}-v\d+\.\d+\.\d+-\w+-paper\.bin$/)
    const stat = fs.statSync(path.join(dir, made[0]!))
    expect(stat.size).toBeGreaterThan(100_000)

    const second = await s2(paper, env)
    expect(second).toEqual(first)
    // Used, not made again.
    expect(fs.statSync(path.join(dir, made[0]!)).mtimeMs).toBe(stat.mtimeMs)

    const help = await s2(["--help"], env)
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("USAGE")
    expect(files(dir)).toEqual([...made, made[0]!.replace(/-paper\.bin$/, "-help.bin")].sort())
  }, 60_000)

  it("replaces a cache V8 refuses", async () => {
    const dir = cacheDir()
    fs.chmodSync(dir, 0o700)
    const env = { ...emulator, S2_COMPILE_CACHE: dir }
    const clean = await s2(paper, { ...emulator, S2_COMPILE_CACHE: "0" })
    await s2(paper, env)
    const [file] = files(dir)
    fs.writeFileSync(path.join(dir, file!), Buffer.from("not a code cache"))
    const ran = await s2(paper, env)
    expect(ran).toEqual(clean)
    expect(fs.statSync(path.join(dir, file!)).size).toBeGreaterThan(100_000)
  }, 60_000)

  it("is not written when turned off, nor in a directory others can write to", async () => {
    const off = cacheDir()
    fs.chmodSync(off, 0o700)
    const offRun = await s2(paper, { ...emulator, S2_COMPILE_CACHE: off, NODE_DISABLE_COMPILE_CACHE: "1" })
    expect(offRun.code).toBe(0)
    expect(files(off)).toEqual([])

    const shared = cacheDir()
    fs.chmodSync(shared, 0o777)
    const sharedRun = await s2(paper, { ...emulator, S2_COMPILE_CACHE: shared })
    expect(sharedRun).toEqual(offRun)
    expect(files(shared)).toEqual([])
  }, 60_000)
})
