/**
 * The state file of `s2 watch`: one JSON file holding the watches and what each has shown
 * (`Watch.State`), by default `watches.json` in the user's configuration directory
 * (`$XDG_CONFIG_HOME/s2`, `~/.config/s2`, or `%APPDATA%\s2` on Windows).
 *
 * It is changed only under the lock `<file>.lock` (the harvest's lock, `Harvest.lock` of the jobs: two checks at once would each
 * report the same papers and one would lose the other's state), written atomically
 * (`Files.writeAtomic`: a new file renamed over the old, so a killed run leaves the state as it
 * was or as it became, never in between), and never through a symbolic link (`Symlinks`).
 *
 * @since 1.1.0
 */
import { Files } from "@s2-effect/core"
import { Harvest as Job, Watch } from "@s2-effect/jobs"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import type * as Path from "effect/Path"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as os from "node:os"
import * as nodePath from "node:path"
import { badInput, CommandError, ExitCode, fileError } from "./ExitCode.js"
import * as Harvest from "./Harvest.js"
import * as Symlinks from "./Symlinks.js"

/**
 * Where the state lives when `--state` is not given.
 *
 * @since 1.1.0
 */
export const defaultPath = (env: NodeJS.ProcessEnv = process.env): string => {
  const base = process.platform === "win32" && env.APPDATA !== undefined && env.APPDATA !== ""
    ? env.APPDATA
    : env.XDG_CONFIG_HOME !== undefined && nodePath.isAbsolute(env.XDG_CONFIG_HOME)
    ? env.XDG_CONFIG_HOME
    : nodePath.join(os.homedir(), ".config")
  return nodePath.join(base, "s2", "watches.json")
}

const decode = Schema.decodeUnknownResult(Schema.fromJsonString(Watch.State))
/** The version a state file says it is, whatever else it holds. */
const versionOf = Schema.decodeUnknownResult(Schema.fromJsonString(Schema.Struct({ version: Schema.Int })))
const VERSION = Watch.empty.version

/** Why the text of `file` is no state this `s2` reads: of a newer `s2` (kept for it), or not one at all. */
const unreadable = (file: string, text: string, issue: string): CommandError => {
  const version = versionOf(text)
  return Result.isSuccess(version) && version.success.version > VERSION
    ? badInput(
      `${file} was written by a newer s2 (state version ${version.success.version}; this one reads version ${VERSION}): ` +
        "upgrade s2 to use it, or give another --state"
    )
    : badInput(
      `${file} is not a watch state of this version of s2 (${issue}); give another --state, or move it away to start again`
    )
}

const refuseLink = (file: string): Effect.Effect<void, CommandError, FileSystem.FileSystem> =>
  Effect.flatMap(Symlinks.linkAt(file), (link) =>
    link._tag === "Some"
      ? Effect.fail(Symlinks.refuse("the watch state", link.value, `give --state a file of its own`))
      : Effect.void)

/**
 * Reads the state at `file`: no watches when there is no file; a {@link CommandError} (bad input)
 * saying what is wrong when the file is not a state of this version of `s2`, or is a link.
 *
 * @since 1.1.0
 */
export const read = (file: string): Effect.Effect<Watch.State, CommandError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    yield* refuseLink(file)
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(file).pipe(
      Effect.map((text): string | undefined => text),
      Effect.catchIf((error) => error.reason._tag === "NotFound", () => Effect.succeed(undefined)),
      Effect.mapError((cause) => fileError(`cannot read the watch state ${file}`, cause))
    )
    if (text === undefined) return Watch.empty
    const decoded = decode(text)
    if (Result.isFailure(decoded)) return yield* Effect.fail(unreadable(file, text, Job.describeIssue(decoded.failure)))
    return decoded.success
  })

/**
 * Replaces the state at `file` atomically, flushed to disk before the rename; never through a link.
 *
 * @since 1.1.0
 */
export const write = (file: string, state: Watch.State): Effect.Effect<void, CommandError, FileSystem.FileSystem> =>
  Effect.andThen(
    refuseLink(file),
    Files.writeAtomic(file, JSON.stringify(Schema.encodeSync(Watch.State)(state), null, 2) + "\n", { sync: true })
      .pipe(Effect.mapError((cause) => fileError(`cannot write the watch state ${file}`, cause)))
  )

/**
 * Holds the lock of `file` for the scope (the harvest's, taken as this host's), its refusals worded
 * for a watch state: no `--out` to give, no run to `--resume`.
 */
const lock = (file: string): Effect.Effect<void, CommandError, FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.flatMap(Job.LockOwner, (owner) =>
    Job.lock(file).pipe(
      Effect.provideService(Job.LockOwner, { ...owner, host: os.hostname() }),
      Effect.asVoid,
      Effect.mapError((error) => {
        const { holder } = error
        switch (error.reason) {
          case "MissingDirectory":
            return badInput(
              `the folder of --state ${file} does not exist: create it first, or give --state a file in an existing folder`
            )
          case "Locked":
            return new CommandError({
              message: error.sameHost
                ? `another s2 is using the watch state ${file} (pid ${holder?.pid}, since ${holder?.startedAt}); ` +
                  "wait for it to end, or stop it and run again"
                : `another s2 holds the watch state ${file} (pid ${holder?.pid} on host ${holder?.host}, since ${holder?.startedAt}); ` +
                  `if it no longer runs, remove ${error.path} and try again`,
              code: ExitCode.locked
            })
          default:
            return Harvest.commandError(error, file)
        }
      })
    ))

/**
 * Runs `body` on the state at `file` under its lock, and stores the state it returns (if any).
 * The default file's folder is created; a `--state` file's folder must exist.
 *
 * @since 1.1.0
 */
export const update = <A, E, R>(
  file: string,
  isDefault: boolean,
  body: (state: Watch.State) => Effect.Effect<{ readonly state?: Watch.State | undefined; readonly value: A }, E, R>
): Effect.Effect<A, E | CommandError, R | FileSystem.FileSystem | Path.Path | Scope.Scope> =>
  Effect.gen(function*() {
    if (isDefault) {
      // One mkdir a level (Files.makeDirectory): Node's recursive one never returns where a folder cannot be made.
      yield* Files.makeDirectory(nodePath.dirname(file)).pipe(
        Effect.mapError((cause) => fileError(`cannot create the folder of the watch state ${file}`, cause))
      )
    }
    yield* lock(file)
    const { state, value } = yield* body(yield* read(file))
    if (state !== undefined) yield* write(file, state)
    return value
  })
