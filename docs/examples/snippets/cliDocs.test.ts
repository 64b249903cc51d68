/**
 * docs/cli.md against the CLI it describes: the exit-code table lists exactly the codes
 * packages/cli/src/ExitCode.ts defines, and every `$ s2 …` transcript fits 100 columns.
 * ExitCode.ts is read as text (not imported) so this project needs no CLI build.
 * Not held to the width: an `s2:` error line (one line by design, the terminal wraps it; the widest
 * carry the request's URL). The demo's block is held to it: the demo chooses fields that fit.
 * Whether the transcripts are what the CLI prints is transcripts.test.ts's part.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const cliMd = readFileSync(`${root}docs/cli.md`, "utf8")

const definedCodes = (): Array<number> => {
  const source = readFileSync(`${root}packages/cli/src/ExitCode.ts`, "utf8")
  const body = source.slice(source.indexOf("export const ExitCode = {"))
  const object = body.slice(0, body.indexOf("} as const"))
  return [...object.matchAll(/^\s+\w+: (\d+),?$/gm)].map((m) => Number(m[1])).sort((a, b) => a - b)
}

const documentedCodes = (): Array<number> => {
  const table = cliMd.slice(cliMd.indexOf("| code | meaning |"))
  const rows = table.slice(0, table.indexOf("\n\n")).split("\n").slice(2)
  return rows.map((row) => Number(/^\| (\d+) \|/.exec(row)?.[1])).sort((a, b) => a - b)
}

const transcripts = (): Array<{ readonly line: number; readonly text: string }> => {
  const out: Array<{ line: number; text: string }> = []
  let inBlock = false
  let isTranscript = false
  cliMd.split("\n").forEach((text, index) => {
    if (text.trimStart().startsWith("```")) {
      inBlock = !inBlock
      isTranscript = false
      return
    }
    if (inBlock) {
      if (text.startsWith("$ s2")) isTranscript = true
      if (isTranscript && !text.startsWith("s2: ")) out.push({ line: index + 1, text })
    }
  })
  return out
}

describe("docs/cli.md", () => {
  it("the exit-code table lists exactly the codes ExitCode.ts defines", () => {
    const defined = definedCodes()
    expect(defined.length).toBeGreaterThan(10)
    expect(documentedCodes()).toEqual(defined)
  })

  it("every $ s2 transcript line fits 100 columns", () => {
    const lines = transcripts()
    expect(lines.length).toBeGreaterThan(10)
    const wide = lines.filter(({ text }) => [...text].length > 100).map(({ line, text }) => `${line}: ${text}`)
    expect(wide).toEqual([])
  })
})
