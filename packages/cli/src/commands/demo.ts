/**
 * `s2 demo` (`pnpm demo`): the CLI doing its job against a 100,000-paper in-process emulator, with
 * no network and no key. Each step is an ordinary `s2` command line, printed and then run by the
 * same command code as when typed; dropping `--emulator` runs it against the real API.
 *
 * @since 1.0.0
 */
import type { Corpus } from "@s2-effect/testing"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ExitCode } from "../ExitCode.js"
import * as Help from "../Help.js"
import * as InProcessEmulator from "../InProcessEmulator.js"
import { Printer } from "../Printer.js"

/** The demo's corpus. @since 1.0.0 */
export const corpusSize = 100_000

const quote = (arg: string) => (arg === "" || /[\s"'$|&;<>()*?!]/.test(arg) ? `'${arg.replace(/'/g, "'\\''")}'` : arg)

/** The most cited paper of the corpus makes a good example. */
const mostCited = (corpus: Corpus): string => {
  let best = 0
  for (let i = 1; i < corpus.size; i++) {
    if ((corpus.graph.citationCount[i] ?? 0) > (corpus.graph.citationCount[best] ?? 0)) best = i
  }
  return `CorpusId:${corpus.papers[best]?.corpusId ?? 1015}`
}

/**
 * The demo's steps, a title and a command line each. Fields and formats keep every line within 100
 * columns (docs/cli.md shows this run).
 */
const stepsFor = (id: string, out: string): ReadonlyArray<readonly [title: string, args: ReadonlyArray<string>]> => [
  ["Look up a paper", ["paper", id, "--emulator", "--fields", "title,year,venue,authors", "--format", "table"]],
  ["Stream the papers citing it (first 5)", [
    "citations",
    id,
    "--emulator",
    "--fields",
    "year,title",
    "--max",
    "5",
    "--format",
    "table"
  ]],
  ["Recommend papers like it", [
    "recommend",
    id,
    "--emulator",
    "--max",
    "5",
    "--fields",
    "title,year",
    "--format",
    "table"
  ]],
  ["Harvest every paper since 2017 (bulk endpoint, checkpointed: --resume continues it)", [
    "harvest",
    "",
    "--year",
    "2017-",
    "--out",
    out,
    "--emulator"
  ]]
]

/**
 * Runs the demo: `runCommand` runs one `s2` command line (as `process.argv`) and answers its exit
 * code. Stops at the first failing step with its code. `shared` (the flags every command takes, as
 * given to `s2 demo`) is added to every step, which already has `--emulator`.
 *
 * @since 1.0.0
 */
export const program = <R>(
  runCommand: (argv: ReadonlyArray<string>) => Effect.Effect<ExitCode, never, R>,
  shared: ReadonlyArray<string> = []
): Effect.Effect<ExitCode, never, R | Printer> =>
  Effect.gen(function*() {
    const printer = yield* Printer
    const bold = (text: string) => Help.bold(text, Help.colors(printer.outIsTTY))
    const began = Date.now()
    yield* printer.out(
      bold(`s2 demo: building an in-process emulator with ${corpusSize.toLocaleString("en-US")} papers…`) + "\n"
    )
    const emulator = yield* Effect.result(InProcessEmulator.get)
    if (emulator._tag === "Failure") {
      yield* printer.err(`s2: demo failed: ${emulator.failure.message}\n`)
      return emulator.failure.code
    }
    yield* printer.out(`ready in ${((Date.now() - began) / 1000).toFixed(1)} s (no network, no API key)\n`)

    const id = mostCited(emulator.success.service.corpus)
    // A fresh folder per run: no file of an earlier run (or of someone else on the machine) overwritten.
    const folder = yield* Effect.sync(() => {
      try {
        return fs.mkdtempSync(path.join(os.tmpdir(), "s2-demo-"))
      } catch (cause) {
        return cause instanceof Error ? cause : new Error(String(cause))
      }
    })
    if (folder instanceof Error) {
      yield* printer.err(`s2: demo failed: cannot create a temporary folder in ${os.tmpdir()}: ${folder.message}\n`)
      return ExitCode.file
    }
    const out = path.join(folder, "papers.jsonl")
    yield* printer.out(`files of this demo go to ${folder}\n`)
    const steps = stepsFor(id, out)
    const extra = shared.filter((arg) => arg !== "--emulator")
    for (const [title, step] of steps) {
      const args = [...step, ...extra]
      yield* printer.out(`\n${bold(`# ${title}`)}\n${bold(`$ s2 ${args.map(quote).join(" ")}`)}\n`)
      const code = yield* runCommand(["node", "s2", ...args])
      if (code !== 0) return code
    }
    yield* printer.out(
      `\n${bold(`demo finished in ${((Date.now() - began) / 1000).toFixed(1)} s.`)} ` +
        "Drop --emulator to run the same commands against the real API\n" +
        "(and set S2_API_KEY for a higher rate limit).\n" +
        `The harvested papers are in ${out};\ndelete ${folder} when done.\n`
    )
    return 0
  }).pipe(Effect.provideService(InProcessEmulator.Settings, { size: corpusSize, seed: 1 }))
