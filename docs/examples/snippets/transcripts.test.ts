/**
 * Every `$ s2 …` transcript of the docs (blocks marked `<!-- transcript -->` or
 * `<!-- transcript excerpt -->`, see extract.ts) against a real run of the bundled CLI: a change in
 * the CLI's output or exit codes fails here until `pnpm docs:transcripts` rewrites the block.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import { type Block, blocksOf, differences, pages, prepareBinary, runBlock } from "./transcripts.js"

const blocks: Array<Block> = pages().flatMap((file) => blocksOf(file, Fs.readFileSync(file, "utf8")))

describe("docs transcripts", () => {
  beforeAll(prepareBinary, 120_000)

  it("the docs have transcripts, every $ line of them an s2 command", () => {
    expect(blocks.length).toBeGreaterThan(5)
    for (const block of blocks) expect(block.steps.length).toBeGreaterThan(0)
  })

  it.each(blocks.map((block) => [`${block.file.split("/").at(-1)}:${block.line}`, block] as const))(
    "%s matches a real run",
    (_, block) => {
      expect(differences(block, runBlock(block))).toEqual([])
    },
    120_000
  )
})
