/**
 * The verifier's accuracy (issue 45, point 10): the labelled set generated from the recorded papers
 * (src/accuracy/generate.ts) verified in one `Verify.references` call against a server that knows
 * exactly those papers (src/accuracy/server.ts), every request counted. Prints one JSON line: the
 * tallies per kind and per style, the requests by path, the time; `{"skipped": "…"}` when the
 * recordings are absent.
 * argv: [recordingsDir] [seed]
 * `BENCH_ACCURACY_STYLES=heldout`: the set written in the held-out styles (accuracy/heldOut.ts)
 * instead of the main ones: how far the reader's rules carry to styles they were not tuned on;
 * `=informal`: written as people type a reference on one line (accuracy/informal.ts).
 * `BENCH_ACCURACY_MISSES=<file>`: also writes there, one JSON line each, every real reference
 * flagged and every bad one verified, with its text, the fields read and each input's verdict,
 * differences and notes: what to read when a figure moves.
 */
import { SemanticScholar } from "@s2-effect/core"
import { Verify } from "@s2-effect/jobs"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { defaults, generate } from "../accuracy/generate.js"
import { heldOutStyles } from "../accuracy/heldOut.js"
import { informalStyles } from "../accuracy/informal.js"
import { caseKey, inputsOf, isRead, readerName } from "../accuracy/inputs.js"
import { loadPapers, recordingsDir } from "../accuracy/papers.js"
import { score } from "../accuracy/score.js"
import { makeServer } from "../accuracy/server.js"
import { styles } from "../accuracy/styles.js"
import { report } from "./report.js"

const [dirArg, seedArg] = process.argv.slice(2)
const dir = dirArg === undefined || dirArg === "" ? recordingsDir(Path.resolve(import.meta.dirname, "../..")) : dirArg

const main = async () => {
  const papers = loadPapers(dir)
  if (papers === undefined) return { skipped: `no recordings at ${dir}` }
  const chosen = process.env.BENCH_ACCURACY_STYLES
  const styleSet = chosen === "heldout" ? heldOutStyles : chosen === "informal" ? informalStyles : styles
  const cases = generate(
    papers,
    { ...defaults, seed: seedArg === undefined ? defaults.seed : Number(seedArg) },
    styleSet
  )
  const started = performance.now()
  const inputs = cases.flatMap(inputsOf)
  const server = makeServer(papers)
  const layer = SemanticScholar.layer({ rateLimit: false }).pipe(
    Layer.provide(Layer.succeed(HttpClient.HttpClient, server.client))
  )
  const verifications = await Effect.runPromise(
    Stream.runCollect(Verify.references(inputs)).pipe(Effect.provide(layer))
  )
  const ms = performance.now() - started
  const statuses = new Map<string, Array<string>>()
  for (const v of verifications) {
    const key = caseKey(v.key)
    statuses.set(key, [...(statuses.get(key) ?? []), v.status])
  }
  const scored = score(cases, (key) => statuses.get(key) ?? [], isRead)
  const missesFile = process.env.BENCH_ACCURACY_MISSES
  if (missesFile !== undefined && missesFile !== "") writeMisses(missesFile, cases, verifications)
  return {
    papers: papers.length,
    references: cases.length,
    inputs: inputs.length,
    reader: readerName(),
    seed: seedArg === undefined ? defaults.seed : Number(seedArg),
    ms,
    requests: server.counts.total,
    byPath: server.counts.byPath,
    ...scored
  }
}

/** Every real reference flagged and every bad one verified, with what the verifier read and said. */
const writeMisses = (
  file: string,
  cases: ReturnType<typeof generate>,
  verifications: Iterable<Verify.Verification>
) => {
  const byCase = new Map<string, Array<Verify.Verification>>()
  for (const v of verifications) byCase.set(caseKey(v.key), [...(byCase.get(caseKey(v.key)) ?? []), v])
  const lines = cases.flatMap((c) => {
    const vs = byCase.get(c.key) ?? []
    const flagged = vs.length === 0 || vs.some((v) => v.status !== "verified")
    if (flagged !== (c.label === "real")) return []
    return [JSON.stringify({
      key: c.key,
      label: c.label,
      kind: c.kind,
      style: c.style,
      text: c.text,
      verdicts: vs.map((v) => ({
        status: v.status,
        input: v.input,
        fields: v.entry?.fields,
        differences: v.differences,
        notes: v.notes,
        paper: v.paper === undefined ? undefined : { title: v.paper.title, year: v.paper.year },
        similarity: v.similarity
      }))
    })]
  })
  Fs.writeFileSync(file, lines.join("\n") + "\n")
}

main().then(report, (error) => {
  console.error(error)
  process.exit(1)
})
