import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { describe, expect, it } from "@effect/vitest"
import { Harvest as Job } from "@s2-effect/jobs"
import { Arbitrary, Effect, Layer, Option, Schema } from "effect"
import type { FileSystem } from "effect/FileSystem"
import type { Path } from "effect/Path"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ExitCode } from "../src/ExitCode.js"
import * as Harvest from "../src/Harvest.js"
import * as Progress from "../src/render/Progress.js"

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "s2-checkpoint-"))
const spec: Job.Spec = { query: "", filters: {}, sort: null, fields: ["title", "year"], max: null }
const run = <A, E>(effect: Effect.Effect<A, E, FileSystem | Path>) =>
  Effect.runPromise(Effect.provide(effect, Layer.merge(NodeFileSystem.layer, NodePath.layer)))

describe("the harvest's checkpoint", () => {
  it("what is written reads back equal, and no temporary file stays beside it (property)", async () => {
    const dir = tmp()
    const out = path.join(dir, "papers.jsonl")
    const cases = Arbitrary.all({
      checkpoint: Arbitrary.schema(Job.Checkpoint),
      sync: Arbitrary.schema(Schema.Boolean)
    })
    const result = await run(Arbitrary.checkEffect(cases, ({ checkpoint, sync }) =>
      Effect.gen(function*() {
        yield* Harvest.writeCheckpoint(out, checkpoint, { sync })
        const read = yield* Harvest.readCheckpoint(out)
        // Compared in their encoded form: `undefined` optional keys are not written.
        const encoded = Schema.encodeSync(Job.Checkpoint)
        expect(Option.map(read, encoded)).toEqual(Option.some(JSON.parse(JSON.stringify(encoded(checkpoint)))))
        expect(fs.readdirSync(dir)).toEqual(["papers.jsonl.checkpoint.json"])
        return true
      }), { runs: 200, concurrency: 1 })) // one file: the runs write it in turn
    expect(Arbitrary.formatCheckFailure(result)).toBeUndefined()
    expect(result._tag).toBe("Passed")
  })

  it("no checkpoint reads as None", async () => {
    expect(await run(Harvest.readCheckpoint(path.join(tmp(), "none.jsonl")))).toEqual(Option.none())
  })

  it("a corrupt or foreign checkpoint is refused with what is wrong; --overwrite starts again", async () => {
    const out = path.join(tmp(), "papers.jsonl")
    fs.writeFileSync(out, "")
    const refused = async (text: string) => {
      fs.writeFileSync(Job.checkpointPath(out), text)
      const error = await run(Effect.flip(Harvest.prepare(out, spec, { resume: true, overwrite: false })))
      expect(error.code).toBe(ExitCode.badInput)
      expect(error.message).toContain(`${out}.checkpoint.json is not a harvest checkpoint of this version of s2`)
      return error.message
    }
    expect(await refused("{\"version\": 1, \"bytes\": 12")).toMatch(/JSON/)
    expect(await refused(JSON.stringify({ version: 2 }))).toContain("at version")
    expect(await refused(JSON.stringify({ name: "package.json, not a checkpoint" }))).toContain("is missing")
    expect(await refused(JSON.stringify({ ...Job.initial(spec), bytes: -5 }))).toContain("at bytes")
    // Starting again does not need to read it.
    const start = await run(Harvest.prepare(out, spec, { resume: false, overwrite: true }))
    expect(start).toMatchObject({ bytes: 0, pages: 0, done: false })
    expect(Option.getOrThrow(await run(Harvest.readCheckpoint(out)))).toMatchObject({ bytes: 0, pages: 0 })
  })

  it("a checkpoint that cannot be written is a file error (exit 10) naming it", async () => {
    const out = path.join(tmp(), "no-such-dir", "papers.jsonl")
    const error = await run(Effect.flip(Harvest.writeCheckpoint(out, Job.initial(spec), { sync: false })))
    expect(error.code).toBe(ExitCode.file)
    expect(error.message).toContain(`cannot write the checkpoint ${out}.checkpoint.json`)
  })
})

describe("Harvest.differences", () => {
  it("names each setting that differs as the user would type it, and only those", () => {
    const saved: Job.Spec = { ...spec, query: "graphs", max: 100_000 }
    expect(Harvest.differences(saved, { ...saved, max: 5000 })).toBe(
      "the checkpoint is for --max 100000; this run has --max 5000"
    )
    expect(
      Harvest.differences(saved, {
        ...saved,
        filters: { venue: ["Nature", "Science Advances"] },
        sort: "citationCount:desc",
        fields: null,
        max: null
      })
    ).toBe(
      "the checkpoint is for no --venue and no --sort and --fields title,year and --max 100000; " +
        "this run has --venue \"Nature,Science Advances\" and --sort citationCount:desc and --fields all and no --max"
    )
    expect(Harvest.differences(saved, { ...saved, query: "trees" })).toBe(
      "the checkpoint is for the query \"graphs\"; this run has the query \"trees\""
    )
    expect(Harvest.differences(saved, { ...saved, filters: { openAccessPdf: true } })).toBe(
      "the checkpoint is for no --open-access-pdf; this run has --open-access-pdf"
    )
  })
})

describe("Progress.delayed", () => {
  const state = (now: number): Progress.State => ({
    records: now,
    pages: 1,
    target: 10_000,
    startRecords: 0,
    startedAt: 0,
    now
  })
  it("shows nothing before a second, everything after, and stops only what it showed", () => {
    const lines: Array<string> = []
    const write = (line: string) => Effect.sync(() => void lines.push(line))
    const short = Progress.delayed(Progress.plain(write, 0))
    Effect.runSync(Effect.andThen(short.update(state(999)), short.stop))
    expect(lines).toEqual([])
    const long = Progress.delayed(Progress.plain(write, 0))
    Effect.runSync(Effect.andThen(Effect.andThen(long.update(state(500)), long.update(state(1000))), long.stop))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("1,000/10,000 papers")
  })
})
