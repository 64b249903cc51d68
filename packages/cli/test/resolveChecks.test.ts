/**
 * `s2 resolve` as a claim, checked (issues 36, 37, 39): a title match with another title is not
 * found, naming the nearest; an entry's id whose paper has another title is told; a broken .bib
 * entry is that entry's failure; a reference the API cannot take is that reference's; titles go to
 * the API in groups. The real bin against the in-process emulator and an HTTP emulator (a Node
 * HTTP server: like the API's gateway, it refuses a URL of 20,000 characters).
 */
import { describe, expect, it } from "@effect/vitest"
import { type EmulatorServer, startEmulator } from "@s2-effect/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { runS2 } from "./support/inProcess.js"

const s2 = (args: ReadonlyArray<string>, input?: string) => runS2(args, input === undefined ? {} : { stdin: input })

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "s2-resolve-checks-"))
const write = (name: string, text: string): string => {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

const jsonl = (stdout: string) => stdout.trim().split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l))

const withServer = async (body: (server: EmulatorServer) => Promise<void>) => {
  const scope = Effect.runSync(Scope.make())
  try {
    const server = await Effect.runPromise(startEmulator({ seed: 1, size: 1000 }).pipe(Scope.provide(scope)))
    await body(server)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

const attention = "Attention Is All You Need"

const bib = String.raw`@string{aiayn = "Attention Is All You Need"}
@misc{vaswani, title = aiayn, eprint = {arXiv:1706.03762}}
@article{broken,
  title = {Computing Machinery and {Intelligence},
  year = 1950
}
@article{turing, title = {Computing Machinery and Intelligence}, doi = {10.1093/mind/lix.236.433}}
@article{wrongdoi, title = {Deep Residual Learning for Image Recognition}, doi = {10.1093/mind/lix.236.433}}
@inproceedings{invented, title = {Deep residual learning for image recognition}}
`

describe("s2 resolve checks what it claims", () => {
  it(
    "a .bib: a broken entry, an id whose paper has another title and an invented title are each told by key and line; the rest resolve",
    async () => {
      const ran = await s2(["resolve", write("mixed.bib", bib), "--emulator", "--format", "jsonl", "--fields", "title"])
      expect(ran.code).toBe(3)
      expect(jsonl(ran.stdout).map((r) => [r.key, r.input, r.via, r.paper.title])).toEqual([
        ["vaswani", "ARXIV:1706.03762", "id", attention],
        ["turing", "DOI:10.1093/mind/lix.236.433", "id", "Computing Machinery and Intelligence"]
      ])
      const err = ran.stderr.trim().split("\n")
      expect(err[0]).toBe(
        "s2: not resolved (@broken, line 3): (empty): its braces do not balance: lines 3 to 6 skipped"
      )
      expect(err[1]).toMatch(
        /^s2: not resolved \(@wrongdoi, line 8\): DOI:10\.1093\/mind\/lix\.236\.433: its title differs: the paper is "Computing Machinery and Intelligence", 0\.\d\d similar to the title given; check the entry's id and title$/
      )
      expect(err[2]).toMatch(
        /^s2: not resolved \(@invented, line 9\): Deep residual learning for image recognition: no paper has this title; the nearest, "Deep variational inference for speech recognition and image classification", is 0\.\d\d similar/
      )
      expect(err.slice(3)).toEqual(["s2: 3 of 5 references not resolved (listed above)"])
    },
    60_000
  )

  it(
    "a reference the API cannot take (20,000 characters; 2,000 CJK characters, 18 KB URL-encoded) fails alone, on one short line; exit 3, not 9",
    () =>
      withServer(async (server) => {
        const long = "a".repeat(20_000)
        const cjk = "文献".repeat(1000)
        const ran = await s2(
          ["resolve", "-", "--api-url", server.url, "--format", "jsonl", "--fields", "title"],
          [long, "arXiv:1706.03762", cjk, attention].join("\n")
        )
        expect(ran.code).toBe(3)
        expect(jsonl(ran.stdout).map((r) => r.paper.title)).toEqual([attention, attention])
        const err = ran.stderr.trim().split("\n")
        expect(err).toHaveLength(3)
        expect(err[0]).toMatch(
          /^s2: not resolved \(line 1\): a{199}…: too long to send: 20000 bytes URL-encoded, at most 4000$/
        )
        expect(err[1]).toMatch(
          /^s2: not resolved \(line 3\): (文献){99}文…: too long to send: 18000 bytes URL-encoded, at most 4000$/
        )
        expect(err[2]).toBe("s2: 2 of 4 references not resolved (listed above)")
        for (const line of err) expect(line.length).toBeLessThan(300)
      }),
    60_000
  )

  it(
    "titles go in groups: 60 titles cost a few bulk searches and one batch, counted in the emulator's request log",
    () =>
      withServer(async (server) => {
        const page = await fetch(`${server.url}/graph/v1/paper/search/bulk?query=&fields=title`).then((r) => r.json())
        const titles: Array<string> = page.data.slice(0, 60).map((p: { title: string }) => p.title)
        Effect.runSync(server.clearRequests)
        const ran = await s2(
          ["resolve", "-", "--api-url", server.url, "--format", "jsonl", "--fields", "title"],
          titles.join("\n")
        )
        expect(ran.stderr).toBe("")
        expect(ran.code).toBe(0)
        expect(jsonl(ran.stdout).map((r) => r.paper.title)).toEqual(titles)
        const counts = Effect.runSync(server.requestCounts)
        expect(counts["/graph/v1/paper/search/bulk"]).toBeLessThanOrEqual(2)
        expect(counts["/graph/v1/paper/batch"]).toBe(1)
        // Only titles of fewer than three content words go to title match, one each.
        expect(counts["/graph/v1/paper/search/match"] ?? 0).toBeLessThanOrEqual(10)
      }),
    60_000
  )
})
