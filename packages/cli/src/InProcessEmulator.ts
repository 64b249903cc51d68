/**
 * The in-process emulator of `--emulator` (and of `s2 demo`): the `@s2-effect/testing` package's
 * `Emulator`, loaded with `import()` when it is asked for, so that no command against the API loads
 * the test package (the cassettes of `--record` and `--replay` load it the same way, in
 * Cassettes.ts; test/loading.test.ts checks that nothing else does).
 *
 * @since 1.1.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import type { Emulator } from "@s2-effect/testing"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type { CommandError } from "./ExitCode.js"
import { badInput } from "./ExitCode.js"

/**
 * The in-process emulator used by `--emulator`: corpus size and seed. The default size is
 * `S2_EMULATOR_SIZE` or 10,000 papers; the demo provides 100,000.
 *
 * @since 1.0.0
 */
export const Settings = Context.Reference<{ readonly size: number | undefined; readonly seed: number }>(
  "@s2-effect/cli/EmulatorSettings",
  { defaultValue: () => ({ size: undefined, seed: 1 }) }
)

/**
 * A running emulator: its `HttpClient` and its corpus.
 *
 * @since 1.1.0
 */
export type Built = Effect.Success<ReturnType<typeof Emulator["make"]>>

const emulators = new Map<string, Built>()

/**
 * The in-process emulator `--emulator` uses, built once per process for the size and seed of
 * {@link Settings} (the demo runs many commands against one corpus, and reads it to choose
 * what to show), its corpus read from its file in the user's cache directory when an earlier
 * command wrote one (`CorpusCache` of `@s2-effect/testing`; `S2_EMULATOR_CACHE` names another
 * directory, or `off`), with the faults of `S2_EMULATOR_FAULTS` (the JSON of a `Faults.Config`), so that
 * a 429 storm can be tried offline; a value that does not decode is refused (exit 2).
 *
 * @since 1.0.0
 */
export const get: Effect.Effect<Built, CommandError> = Effect.gen(function*() {
  const settings = yield* Settings
  const fromEnv = yield* Config.Int("S2_EMULATOR_SIZE").pipe(Config.withDefault(10_000), Effect.orDie)
  const faultsText = Option.filter(
    yield* Config.option(Config.String("S2_EMULATOR_FAULTS")).pipe(Effect.orDie),
    (text) => text.trim().length > 0
  )
  const cacheSetting = yield* Config.option(Config.String("S2_EMULATOR_CACHE")).pipe(Effect.orDie)
  const size = settings.size ?? fromEnv
  const key = `${settings.seed}/${size}/${Option.getOrElse(faultsText, () => "")}`
  let built = emulators.get(key)
  if (built === undefined) {
    // Loaded only when asked for, so that commands against the API start faster.
    const testing = yield* Effect.promise(() => import("@s2-effect/testing"))
    const faults = Option.isNone(faultsText) ? undefined : yield* Result.match(
      testing.Faults.parseConfig(faultsText.value),
      {
        onFailure: (why) =>
          Effect.fail(badInput(`S2_EMULATOR_FAULTS is not a fault configuration (Faults.Config as JSON): ${why}`)),
        onSuccess: Effect.succeed
      }
    )
    // Read from the corpus file of this seed and size when there is a good one (written the first
    // time): the graph and search index are most of a build (CorpusCache; S2_EMULATOR_CACHE).
    const directory = testing.CorpusCache.defaultDirectory({
      ...process.env,
      ...Option.match(cacheSetting, {
        onNone: () => ({}),
        onSome: (value) => ({ S2_EMULATOR_CACHE: value })
      })
    })
    const corpus = yield* testing.CorpusCache.make({ seed: settings.seed, size, directory }).pipe(
      Effect.provide(NodeFileSystem.layer)
    )
    built = yield* testing.Emulator.make({ corpus, ...(faults === undefined ? {} : { faults }) })
    emulators.set(key, built)
  }
  return built
})

/**
 * The API root under `--emulator`: requests never leave the process, and error messages should
 * not name api.semanticscholar.org as the server that answered.
 *
 * @since 1.0.0
 */
export const url = "https://emulator.s2.test"

/**
 * Drops the emulators built so far: the next {@link get} builds a fresh one (its faults' scripts
 * from the start). For a host that runs many command lines in one process, as the CLI's tests do.
 *
 * @since 1.3.0
 */
export const forget = (): void => emulators.clear()
