/**
 * The `s2` executable.
 *
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Cli from "./Cli.js"
import { ExitCode } from "./ExitCode.js"
import { Stdio } from "./Stdio.js"

// `s2 … | head` closes the pipe early: that is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(ExitCode.ok)
  throw error
})

let code: number = ExitCode.ok

const program = Effect.gen(function*() {
  code = yield* Cli.run(process.argv)
})

NodeRuntime.runMain(program.pipe(Effect.provide(Layer.merge(Cli.platform, Stdio.layer))), {
  disableErrorReporting: true,
  teardown: (exit, onExit) =>
    onExit(
      Exit.isSuccess(exit) ? code : Cause.hasInterruptsOnly(exit.cause) ? ExitCode.interrupted : ExitCode.other
    )
})
