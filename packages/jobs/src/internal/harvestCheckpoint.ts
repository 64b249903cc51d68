/**
 * The checkpoint of a harvest, `<out>.checkpoint.json`: its schema, its write paths (atomic: once
 * with `Files.writeAtomic`, after every page with a `Files.makeReplacer`) and its read path
 * (decoded, so a corrupt or foreign file is refused, saying what is wrong, before anything is
 * truncated).
 */
import { Files } from "@s2-effect/core"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import type * as PlatformError from "effect/PlatformError"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import type { Checkpoint as CheckpointType, Spec as SpecType } from "../HarvestCheckpoint.js"
import { Checkpoint } from "../HarvestCheckpoint.js"
import type { Operation } from "../HarvestError.js"
import { HarvestError } from "../HarvestError.js"

/** The time, from `Clock` (so that a test's clock decides it). */
export const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis).toISOString())

export const initial = (spec: SpecType, updatedAt: string): CheckpointType => ({
  version: 1,
  spec,
  bytes: 0,
  token: null,
  records: 0,
  pages: 0,
  total: 0,
  years: {},
  done: false,
  updatedAt
})

const decode = Schema.decodeUnknownResult(Schema.fromJsonString(Checkpoint))

/**
 * The file's text: indented JSON, for people who open it. A checkpoint is its own encoded form (the
 * schema transforms nothing, which `satisfies` checks), so it is stringified as it is: Schema's
 * encoder took 0.4 ms a page, 4% of a harvest.
 */
const encode = (checkpoint: CheckpointType): string =>
  JSON.stringify(checkpoint satisfies typeof Checkpoint.Encoded, null, 2)

export const path = (out: string): string => `${out}.checkpoint.json`

export const problem = (error: Schema.SchemaError): string => {
  const [first] = SchemaIssue.makeFormatterStandardSchemaV1()(error.issue).issues
  if (first === undefined) return error.message
  const keys = (first.path ?? []).map((key) => (typeof key === "object" ? String(key.key) : String(key)))
  // Schema's words for an absent key, in the words the message had before (`version is missing`).
  const message = first.message === "Missing key" ? "is missing" : first.message
  return keys.length === 0 ? message : `at ${keys.join(".")}: ${message}`
}

/** A file-system failure of the checkpoint of `out`. */
export const failed = (file: "output" | "checkpoint" | "lock", at: string, operation: Operation) =>
(
  cause: PlatformError.PlatformError
) => new HarvestError({ reason: "FileSystem", file, path: at, operation, cause })

export const read = (out: string): Effect.Effect<Option.Option<CheckpointType>, HarvestError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const file = path(out)
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(file).pipe(
      Effect.map(Option.some),
      Effect.catchIf((error) => error.reason._tag === "NotFound", () => Effect.succeed(Option.none<string>())),
      Effect.mapError(failed("checkpoint", file, "read"))
    )
    if (Option.isNone(text)) return Option.none()
    const decoded = decode(text.value)
    if (Result.isFailure(decoded)) {
      return yield* new HarvestError({
        reason: "CorruptCheckpoint",
        file: "checkpoint",
        path: file,
        problem: problem(decoded.failure),
        cause: decoded.failure
      })
    }
    return Option.some(decoded.success)
  })

export const exists = (out: string): Effect.Effect<boolean, HarvestError, FileSystem.FileSystem> =>
  FileSystem.FileSystem.use((fs) => fs.exists(path(out))).pipe(Effect.mapError(failed("checkpoint", path(out), "read")))

/**
 * What replaces the checkpoint after every page: a `Files.makeReplacer`, which writes two files in
 * turn instead of creating and freeing one a page.
 */
export const writer = (out: string) =>
  Effect.map(
    Files.makeReplacer(path(out)),
    (replacer) => (checkpoint: CheckpointType, options: { readonly sync: boolean }) =>
      replacer.write(encode(checkpoint) + "\n", options).pipe(
        Effect.mapError(failed("checkpoint", path(out), "write"))
      )
  )

export const write = (
  out: string,
  checkpoint: CheckpointType,
  options: { readonly sync: boolean }
): Effect.Effect<void, HarvestError, FileSystem.FileSystem> =>
  Files.writeAtomic(path(out), encode(checkpoint) + "\n", { sync: options.sync }).pipe(
    Effect.mapError(failed("checkpoint", path(out), "write"))
  )
