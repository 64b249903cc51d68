/**
 * Where the CLI prints: standard output for records, standard error for messages and progress.
 * Not effect's `Stdio` (the process's raw streams and arguments, which `s2 mcp` frames): what `s2`
 * prints through, knowing whether each stream is a terminal. A service so that tests and the demo
 * can capture or redirect it; writes wait for the stream to drain, so piping millions of records
 * does not buffer them all in memory. Standard error shows control characters escaped
 * (render/Escape.ts): messages quote what servers sent.
 *
 * @since 1.0.0
 */
import type * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Console as NodeConsole } from "node:console"
import { inspect } from "node:util"
import { visibleLines } from "./render/Escape.js"

/**
 * The two output streams and what is known about them.
 *
 * @since 1.0.0
 */
export interface Service {
  /** Writes to standard output, waiting for the stream to drain when its buffer is full. */
  readonly out: (text: string) => Effect.Effect<void>
  /** Writes to standard error (the process's own escapes control characters but line feeds). */
  readonly err: (text: string) => Effect.Effect<void>
  /** Whether standard output is a terminal (pretty JSON by default) or a pipe/file (JSON lines). */
  readonly outIsTTY: boolean
  /** Whether standard error is a terminal (live progress bar) or not (periodic plain lines). */
  readonly errIsTTY: boolean
  /** Width of the terminal on standard error (80 when unknown). */
  readonly columns: number
  /** The raw error stream, for the progress-bar library. */
  readonly errStream: NodeJS.WritableStream
}

const write = (stream: NodeJS.WritableStream, text: string): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    if (stream.write(text)) resume(Effect.void)
    else stream.once("drain", () => resume(Effect.void))
  })

/**
 * Where the CLI prints.
 *
 * @since 1.0.0
 */
export class Printer extends Context.Service<Printer, Service>()("@s2-effect/cli/Printer") {
  /** The process's own standard output and standard error. */
  static readonly layer: Layer.Layer<Printer> = Layer.sync(Printer)(() => ({
    out: (text) => write(process.stdout, text),
    err: (text) => write(process.stderr, visibleLines(text)),
    outIsTTY: process.stdout.isTTY === true,
    errIsTTY: process.stderr.isTTY === true,
    columns: process.stderr.columns ?? 80,
    errStream: process.stderr
  }))
}

const visibleArgs = (args: ReadonlyArray<unknown>): Array<string> =>
  args.map((arg) => visibleLines(typeof arg === "string" ? arg : inspect(arg)))

/**
 * The console the CLI's logger writes through: one over `stream` (the printer's standard error),
 * with control characters in what it prints escaped but line feeds (a log line quotes URLs,
 * causes and bodies from servers). Node's own `Console` class keeps the logger's group indents.
 *
 * @since 1.3.0
 */
export const consoleTo = (stream: NodeJS.WritableStream): Console.Console => {
  const node = new NodeConsole({ stdout: stream, stderr: stream, colorMode: false })
  const escaped = (print: (...args: Array<unknown>) => void) => (...args: ReadonlyArray<unknown>) =>
    print(...visibleArgs(args))
  return Object.assign(Object.create(node) as Console.Console, {
    debug: escaped(node.debug.bind(node)),
    error: escaped(node.error.bind(node)),
    group: escaped(node.group.bind(node)),
    groupEnd: () => node.groupEnd(),
    info: escaped(node.info.bind(node)),
    log: escaped(node.log.bind(node)),
    trace: escaped(node.trace.bind(node)),
    warn: escaped(node.warn.bind(node))
  })
}

/**
 * The console over the process's standard error (see {@link consoleTo}).
 *
 * @since 1.0.0
 * @deprecated Use `consoleTo(printer.errStream)`: it writes where the `Printer` in context does.
 */
export const safeConsole: Console.Console = consoleTo(process.stderr)
