/**
 * `s2` run in the test's own process: `Cli.run` with the arguments, a captured `Printer`, a
 * `Stdio` whose standard input is the given text, the environment given (the user's key and API
 * root removed) and `--emulator` answered by the in-process emulator, built once per test file.
 * Much faster than a process per case, and the same code path but for `main.ts` (signals, the
 * pipe's EPIPE, the exit itself), which the tests of support/bin.ts keep covering.
 *
 * Runs are one at a time (the environment and working folder are the process's while one runs).
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ChildProcessSpawner from "effect/process/ChildProcessSpawner"
import * as Sink from "effect/Sink"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import * as Terminal from "effect/Terminal"
import { Writable } from "node:stream"
import * as Cli from "../../src/Cli.js"
import * as InProcessEmulator from "../../src/InProcessEmulator.js"
import { consoleTo, Printer } from "../../src/Printer.js"
import { visibleLines } from "../../src/render/Escape.js"
import type { Ran } from "./bin.js"

/** How a run differs from a plain one: piped, no input, the test's environment. */
export interface RunOptions {
  /**
   * What standard input holds (none: empty); an async iterable is read as it yields, and ends
   * when it returns (a client that writes while the run goes on, as `s2 mcp`'s).
   */
  readonly stdin?: string | Uint8Array | AsyncIterable<Uint8Array>
  /** Called with each piece of standard output as it is written (to read a long run's answers). */
  readonly onStdout?: (text: string) => void
  /** Called with each piece of standard error as it is written. */
  readonly onStderr?: (text: string) => void
  /** Whether standard input is a terminal (nothing piped). */
  readonly stdinIsTTY?: boolean
  /** Variables added to the environment. */
  readonly env?: Readonly<Record<string, string>>
  /** Standard output and error as a terminal (default: both piped). */
  readonly outIsTTY?: boolean
  readonly errIsTTY?: boolean
  /** The terminal's width (default 80). */
  readonly columns?: number
  /** The working folder during the run. */
  readonly cwd?: string
}

const unused = (what: string) => Effect.die(new Error(`s2 has no ${what}`))

const environment = (extra: Readonly<Record<string, string>>): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value
  delete env["S2_API_KEY"]
  delete env["S2_API_URL"]
  // Progress shows after a second of wall-clock time: never, unless a test asks (no test may
  // depend on how fast the machine is).
  return { ...env, S2_PROGRESS_DELAY_MS: "3600000", ...extra }
}

// The tail of the runs queued so far: a run starts when the one before it has ended, so that tests
// in a `describe.concurrent` do not swap the environment or working folder under each other.
let queue: Promise<unknown> = Promise.resolve()

/**
 * Runs `s2 ARGS` in this process, after any run still going; resolves with its exit code and what
 * it printed.
 */
export const runS2 = (args: ReadonlyArray<string>, options: RunOptions = {}): Promise<Ran> => {
  const ran = queue.then(() => runNow(args, options))
  queue = ran.catch(() => undefined)
  return ran
}

const runNow = async (args: ReadonlyArray<string>, options: RunOptions): Promise<Ran> => {
  let stdout = ""
  let stderr = ""
  const toStdout = (text: string) => {
    stdout += text
    options.onStdout?.(text)
  }
  const toStderr = (text: string) => {
    stderr += text
    options.onStderr?.(text)
  }
  const decoder = new TextDecoder()
  const text = (chunk: string | Uint8Array) => typeof chunk === "string" ? chunk : decoder.decode(chunk)
  const errStream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      toStderr(chunk.toString())
      done()
    }
  })
  // What effect/cli prints through Console (the shell completion script) is the run's stdout.
  const outStream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      toStdout(chunk.toString())
      done()
    }
  })
  const printer = Layer.succeed(Printer, {
    out: (s) => Effect.sync(() => toStdout(s)),
    err: (s) => Effect.sync(() => toStderr(visibleLines(s))),
    outIsTTY: options.outIsTTY ?? false,
    errIsTTY: options.errIsTTY ?? false,
    columns: options.columns ?? 80,
    errStream
  })
  const input = options.stdin === undefined
    ? Stream.empty
    : typeof options.stdin === "string"
    ? Stream.make(new TextEncoder().encode(options.stdin))
    : options.stdin instanceof Uint8Array
    ? Stream.make(options.stdin)
    : Stream.orDie(Stream.fromAsyncIterable(options.stdin, (error) => error))
  const stdio = Layer.succeed(
    Stdio.Stdio,
    Stdio.make({
      args: Effect.succeed(args),
      stdin: input,
      stdinIsTerminal: Effect.succeed(options.stdinIsTTY ?? false),
      stdoutIsTerminal: Effect.succeed(options.outIsTTY ?? false),
      stderrIsTerminal: Effect.succeed(options.errIsTTY ?? false),
      stdout: () => Sink.forEach((chunk: string | Uint8Array) => Effect.sync(() => toStdout(text(chunk)))),
      stderr: () => Sink.forEach((chunk: string | Uint8Array) => Effect.sync(() => toStderr(text(chunk))))
    })
  )
  const terminal = Layer.succeed(
    Terminal.Terminal,
    Terminal.make({
      columns: Effect.succeed(options.columns ?? 80),
      rows: Effect.succeed(24),
      size: unused("terminal input"),
      readInput: unused("terminal input"),
      readLine: unused("terminal input"),
      display: (s) => Effect.sync(() => toStdout(s))
    })
  )
  const env = environment(options.env ?? {})
  const platform = Layer.mergeAll(
    NodeFileSystem.layer,
    NodePath.layer,
    stdio,
    terminal,
    printer,
    Layer.succeed(Console.Console, consoleTo(outStream)),
    ConfigProvider.layer(ConfigProvider.fromEnv({ env })),
    Layer.succeed(ChildProcessSpawner.ChildProcessSpawner, ChildProcessSpawner.make(() => unused("child processes")))
  )
  // What reads the environment without Config (colours, the watch file's default) sees the same.
  const saved = { env: process.env, cwd: process.cwd() }
  process.env = env
  if (options.cwd !== undefined) process.chdir(options.cwd)
  // Faults are scripted per run, as each process had its own.
  if (env["S2_EMULATOR_FAULTS"] !== undefined) InProcessEmulator.forget()
  try {
    const code = await Effect.runPromise(Cli.run(["node", "s2", ...args]).pipe(Effect.provide(platform)))
    return { code, signal: null, stdout, stderr }
  } finally {
    process.env = saved.env
    if (options.cwd !== undefined) process.chdir(saved.cwd)
  }
}
