/**
 * The `s2` executable.
 *
 * @since 1.0.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Cli from "./Cli.js"
import { ExitCode, fileError } from "./ExitCode.js"
import { Printer } from "./Printer.js"
import { visibleMessage } from "./render/Escape.js"

// `s2 … | head` closes the pipe early: that is not an error. Any other failure (`> file` on a full
// disk) is one line, as every local file's failure is, not a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(ExitCode.ok)
  process.stderr.write(`s2: ${visibleMessage(fileError("cannot write to standard output", error).message)}\n`)
  process.exit(ExitCode.file)
})

let code: number = ExitCode.ok

// `runMain` interrupts the program on SIGINT and SIGTERM alike, with the same clean-up (a harvest
// releases its lock, its checkpoint matches its file); the exit code says which signal it was, as a
// shell's does (128 + its number). Registered first, so called before `runMain`'s listener.
let signal: "SIGINT" | "SIGTERM" | undefined
for (const name of ["SIGINT", "SIGTERM"] as const) process.once(name, () => (signal ??= name))

const program = Effect.gen(function*() {
  code = yield* Cli.run(process.argv)
})

/**
 * Ends the process once the program has: every file it wrote is closed by then. `runMain` exits
 * only for a failure or a signal; left to end by itself, Node tears down the whole heap, 50 ms
 * after a harvest (packages/bench/NOTES.md, issue 47, ninth pass). After the events already
 * queued, so that a write to standard output that failed (`> /dev/full`) reports it through the
 * handler above; and only when what was printed is out: a pipe still draining ends by itself.
 */
const exitWith = (code: number, onExit: (code: number) => void): void => {
  onExit(code)
  setImmediate(() => {
    const out = [process.stdout, process.stderr].every((stream) => stream.writableLength === 0 && !stream.errored)
    if (out) process.exit(code)
  })
}

NodeRuntime.runMain(program.pipe(Effect.provide(Layer.merge(Cli.platform, Printer.layer))), {
  disableErrorReporting: true,
  teardown: (exit, onExit) =>
    exitWith(
      Exit.isSuccess(exit)
        ? code
        : Cause.hasInterruptsOnly(exit.cause)
        ? signal === "SIGTERM" ? ExitCode.terminated : ExitCode.interrupted
        : ExitCode.other,
      onExit
    )
})
