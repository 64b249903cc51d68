/**
 * The `$ s2 …` transcripts of the docs against real runs (the convention is described in
 * extract.ts's header). `pnpm docs:transcripts` rewrites every `<!-- transcript -->` block from a
 * real run; transcripts.test.ts runs the same lines and fails when a block differs from its run.
 *
 * Each block runs in a fresh scratch folder (its commands share it, so a second harvest sees the
 * first one's file), with the bundled `s2` (packages/cli/scripts/bundle.mjs, built once), stdin
 * empty, stdout and stderr into one file (as a terminal shows them, in order, but piped: no
 * colour, no progress redraws, tables 100 columns wide), no key and no API root in the environment.
 * A fenced block of the page after `<!-- file NAME -->` is written to NAME in the folder of every
 * transcript after it on that page (the file the reader is shown is the file the run reads).
 */
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { copyDevBundle } from "../../../packages/cli/scripts/dev-bundle.mjs"

const docs = Path.resolve(import.meta.dirname, "../..")

/** The pages whose transcripts are checked: docs/*.md and the README. */
export const pages = (): Array<string> => [
  ...Fs.readdirSync(docs).filter((f) => f.endsWith(".md")).map((f) => Path.join(docs, f)),
  Path.resolve(docs, "../README.md")
]

/** One `$ …` line of a block and the output shown under it (trailing blank lines dropped). */
export interface Step {
  readonly command: string
  readonly output: ReadonlyArray<string>
  /** The exit code the block shows (`[exit N]` as the last output line), else 0. */
  readonly exit: number
  /** A blank line followed the output in the block (kept when the block is rewritten). */
  readonly gap: boolean
}

export interface Block {
  readonly file: string
  /** 1-based line of the block's opening fence. */
  readonly line: number
  readonly excerpt: boolean
  /** `<!-- transcript single -->`: the first `$` line is the only command, later ones are its output. */
  readonly single: boolean
  readonly steps: ReadonlyArray<Step>
  /** Offsets of the block's body (between the fences) in the page's text. */
  readonly start: number
  readonly end: number
  /** The files (`<!-- file NAME -->` blocks) before it on its page, written to its folder before it runs. */
  readonly files: ReadonlyArray<{ readonly name: string; readonly text: string }>
}

const exitLine = /^\[exit (\d+)\]$/

const stepsOf = (body: string, single: boolean): Array<Step> => {
  const steps: Array<{ command: string; lines: Array<string> }> = []
  for (const line of body.split("\n")) {
    if (line.startsWith("$ ") && !(single && steps.length > 0)) steps.push({ command: line.slice(2), lines: [] })
    else steps.at(-1)?.lines.push(line)
  }
  return steps.map(({ command, lines }) => {
    let last = lines.length
    while (last > 0 && lines[last - 1] === "") last--
    const output = lines.slice(0, last)
    const code = exitLine.exec(output.at(-1) ?? "")
    return {
      command,
      output: code ? output.slice(0, -1) : output,
      exit: code ? Number(code[1]) : 0,
      gap: last < lines.length
    }
  })
}

/** The `<!-- file NAME -->` blocks of a page: a name (letters, digits, `._-`), its text and where it is. */
const filesOf = (text: string) =>
  [...text.matchAll(/<!-- file ([\w.-]+) -->\n```[a-z]*\n([\s\S]*?)```/g)].map((m) => ({
    name: m[1]!,
    text: m[2] ?? "",
    at: m.index
  }))

/** The blocks of a page marked `<!-- transcript -->`, `<!-- transcript excerpt -->` or `<!-- transcript single -->`. */
export const blocksOf = (file: string, text: string): Array<Block> => {
  const files = filesOf(text)
  return [...text.matchAll(/<!-- transcript( excerpt| single)? -->\n```\n([\s\S]*?)```/g)].map((m) => {
    const start = m.index + m[0].indexOf("```\n") + 4
    const single = m[1] === " single"
    return {
      file,
      line: text.slice(0, start).split("\n").length - 1,
      excerpt: m[1] === " excerpt",
      single,
      steps: stepsOf(m[2] ?? "", single),
      start,
      end: start + (m[2] ?? "").length,
      files: files.filter((f) => f.at < m.index).map(({ name, text }) => ({ name, text }))
    }
  })
}

/**
 * What may differ between two runs, replaced on both sides before comparing: the demo's temporary
 * folder (`/tmp/s2-demo-Xa81Qz`), durations (`in 1.2 s`, `ready in 0.3 s`, `finished in 3.5 s`) and
 * rates (`12,345 papers/s`, `1 paper/s`). Progress lines (`harvest: 92% 49,000/53,151 papers · …`, and
 * `  part-0.jsonl.gz: 0.1 of 0.1 MB` of a download, printed at most once a second when piped) are
 * left out on both sides: how many a run prints depends on its speed.
 */
export const isProgress = (line: string): boolean =>
  /^harvest: \d+% /.test(line) || /^ {2}\S+: \d+\.\d of \d+\.\d MB$/.test(line)

export const normalise = (text: string): string =>
  text
    .replace(/\S*\/s2-demo-[A-Za-z0-9]{6}/g, "<tmp>/s2-demo-XXXXXX")
    .replace(/\bin \d+(?:\.\d+)? s\b/g, "in N s")
    .replace(/[\d,]+ papers?\/s/g, "N papers/s")

let bin: string | undefined

/**
 * The bundled `s2` the transcripts run: the clone's own bundle of the current sources
 * (packages/cli/scripts/dev-bundle.mjs: built at install, and again only when a source changed),
 * copied into a folder of this run's, whose compile cache is then the run's own. Before
 * {@link runLine}.
 */
export const prepareBinary = async (): Promise<void> => {
  bin ??= await copyDevBundle(Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-transcripts-bin-")))
}

const binary = (): string => {
  if (bin === undefined) throw new Error("transcripts: prepareBinary() first")
  return bin
}

/** Splits a command line on spaces, keeping quoted words whole (enough for the docs' lines). */
const words = (line: string): Array<string> =>
  [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!)

const environment = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env = { ...process.env }
  for (const name of ["S2_API_KEY", "S2_API_URL", "S2_EMULATOR_SIZE", "FORCE_COLOR", "NO_COLOR"]) delete env[name]
  return { ...env, S2_COMPILE_CACHE: Path.join(Path.dirname(binary()), "compile-cache"), ...extra }
}

/** Runs one `$ …` line (`NAME=value` prefixes become its environment) in `cwd`. */
export const runLine = (command: string, cwd: string): { readonly output: Array<string>; readonly exit: number } => {
  const args = words(command)
  const extra: Record<string, string> = {}
  while (args[0] !== undefined && /^[A-Z_][A-Z0-9_]*=/.test(args[0])) {
    const [name = "", ...value] = args.shift()!.split("=")
    extra[name] = value.join("=")
  }
  if (args[0] !== "s2") throw new Error(`not an s2 command line: $ ${command}`)
  const file = Path.join(cwd, ".transcript-output")
  const fd = Fs.openSync(file, "w")
  try {
    const ran = spawnSync(process.execPath, [binary(), ...args.slice(1)], {
      cwd,
      env: environment(extra),
      stdio: ["ignore", fd, fd],
      timeout: 60_000
    })
    if (ran.error) throw ran.error
    // CSV ends its lines in CRLF; the page shows lines.
    const lines = Fs.readFileSync(file, "utf8").split(/\r?\n/)
    while (lines.length > 0 && lines.at(-1) === "") lines.pop()
    return { output: lines, exit: ran.status ?? 128 }
  } finally {
    Fs.closeSync(fd)
    Fs.rmSync(file, { force: true })
  }
}

/** Runs a block's lines in a fresh folder: each step's real output and exit code. */
export const runBlock = (block: Block): Array<Step> => {
  const cwd = Fs.mkdtempSync(Path.join(Os.tmpdir(), "s2-transcript-"))
  try {
    for (const { name, text } of block.files) Fs.writeFileSync(Path.join(cwd, name), text)
    return block.steps.map((step) => ({ ...step, ...runLine(step.command, cwd) }))
  } finally {
    Fs.rmSync(cwd, { recursive: true, force: true })
  }
}

/** A step as the block shows it. */
export const render = (steps: ReadonlyArray<Step>): string =>
  steps.map((step, k) =>
    [
      `$ ${step.command}`,
      ...step.output,
      ...(step.exit === 0 ? [] : [`[exit ${step.exit}]`]),
      ...(step.gap && k < steps.length - 1 ? [""] : [])
    ].join("\n") + "\n"
  ).join("")

/**
 * Where a block and its run differ, as messages (none when they agree). A whole transcript must
 * match line for line; an excerpt's lines (without its `…` lines) must appear in order in the run.
 */
export const differences = (block: Block, ran: ReadonlyArray<Step>): Array<string> =>
  block.steps.flatMap((step, k) => {
    const real = ran[k]!
    const at = `${Path.relative(Path.resolve(docs, ".."), block.file)}:${block.line} $ ${step.command}`
    const problems: Array<string> = []
    if (real.exit !== step.exit) problems.push(`${at}: exit ${real.exit}, the block shows ${step.exit}`)
    const actual = real.output.filter((l) => !isProgress(l)).map(normalise)
    const shown = step.output.filter((l) => !isProgress(l)).map(normalise)
    if (block.excerpt) {
      let from = 0
      for (const line of shown.filter((l) => l.trim() !== "…" && l !== "")) {
        const found = actual.indexOf(line, from)
        if (found < 0) {
          problems.push(`${at}: the excerpt's line is not in the run (in order): ${line}`)
          break
        }
        from = found + 1
      }
    } else if (actual.join("\n") !== shown.join("\n")) {
      problems.push(`${at}: the output differs; the run gave:\n${real.output.join("\n")}`)
    }
    return problems
  })

/**
 * Rewrites every whole transcript of the docs that differs from its real run (excerpts are only
 * checked, and what differs is printed: cut them by hand).
 */
const main = async (): Promise<void> => {
  await prepareBinary()
  let checked = 0
  for (const file of pages()) {
    let text = Fs.readFileSync(file, "utf8")
    const blocks = blocksOf(file, text)
    // From the last block back, so the offsets of the ones before stay valid.
    for (const block of blocks.reverse()) {
      checked++
      const ran = runBlock(block)
      const problems = differences(block, ran)
      if (block.excerpt) {
        for (const problem of problems) console.error(problem)
        continue
      }
      // A block that matches its run (up to what normalise leaves out) is kept: no churn in the page.
      if (problems.length === 0) continue
      text = text.slice(0, block.start) + render(ran) + text.slice(block.end)
      console.log(`${Path.relative(Path.resolve(docs, ".."), file)}:${block.line}: ${block.steps.length} commands run`)
    }
    Fs.writeFileSync(file, text)
  }
  console.log(`${checked} transcripts run; the ones listed above were rewritten`)
}

if (process.argv[1] !== undefined && Path.resolve(process.argv[1]) === Path.resolve(import.meta.filename)) await main()
