/**
 * The checkpoint of a harvest: `<out>.checkpoint.json`, beside the output, saying how many bytes of
 * the output are whole pages and the token that continues the search after them.
 *
 * One write path ({@link write}): the checkpoint goes to a temporary file beside it (created
 * exclusively under a random name, so two runs never share one and a planted symbolic link is
 * never followed), which is renamed over the old one — a reader, or a resume after a kill, sees the
 * old checkpoint or the new one, never a mix. The temporary file is
 * flushed (fsync) before the rename only when asked: see the durability notes in `Harvest.ts`.
 * Reading ({@link read}) decodes with {@link Checkpoint}, so a corrupt or foreign file is refused
 * with a message that says what is wrong with it, before anything is truncated.
 *
 * @since 1.0.0
 */
import { Files, Filters } from "@s2-effect/core"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaTransformation from "effect/SchemaTransformation"
import type { CommandError } from "./ExitCode.js"
import { badInput, fileError } from "./ExitCode.js"

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/**
 * The search's `total`. A checkpoint written before the client read a negative total as unknown
 * holds the server's (`-5`) as it was: it still resumes, the total read as 0 (unknown).
 */
const Total = Schema.Int.pipe(
  Schema.decodeTo(
    Count,
    SchemaTransformation.transform({ decode: (total) => Math.max(0, total), encode: (total) => total })
  )
)

/** A filter value the client does not know by name (`Filters.unchecked`). */
const Unchecked = Schema.Struct({ _tag: Schema.Literal("Unchecked"), name: Schema.String })

/** A JSON number: finite (JSON has no NaN or Infinity). */
const JsonNumber = Schema.Finite

/**
 * What is harvested: the query and every option that changes which records come back, in what
 * order and with which fields. A resume must use the same.
 *
 * @since 1.0.0
 */
export const Spec = Schema.Struct({
  query: Schema.String,
  filters: Schema.Struct({
    year: Schema.optional(Schema.Union([JsonNumber, Schema.String])),
    publicationTypes: Schema.optional(
      Schema.Array(Schema.Union([Schema.Literals(Filters.publicationTypes), Unchecked]))
    ),
    openAccessPdf: Schema.optional(Schema.Boolean),
    venue: Schema.optional(Schema.Array(Schema.String)),
    fieldsOfStudy: Schema.optional(Schema.Array(Schema.Union([Schema.Literals(Filters.fieldsOfStudy), Unchecked]))),
    publicationDateOrYear: Schema.optional(Schema.String),
    minCitationCount: Schema.optional(JsonNumber)
  }),
  sort: Schema.NullOr(Schema.Literals(Filters.sorts)),
  /** `null`: the client's default fields. */
  fields: Schema.NullOr(Schema.Array(Schema.String)),
  /** Stop after this many records; `null` for all. */
  max: Schema.NullOr(Count)
})

/**
 * @since 1.0.0
 */
export type Spec = typeof Spec.Type

const position = {
  /** Size of the output file after the last complete page. */
  bytes: Count,
  /** Continues the search; `null` before the first page and after the last. */
  token: Schema.NullOr(Schema.String),
  records: Count,
  pages: Count,
  /** The search's `total` as last reported (0 before the first page, and when unknown). */
  total: Total,
  /** Records per `year` (`unknown` for none), for the summary chart. */
  years: Schema.Record(Schema.String, Count)
}

/**
 * The part of a checkpoint a resume needs: where the harvest stands.
 *
 * @since 1.0.0
 */
export const Synced = Schema.Struct(position)

/**
 * @since 1.0.0
 */
export type Synced = typeof Synced.Type

/**
 * The checkpoint file's content.
 *
 * @since 1.0.0
 */
export const Checkpoint = Schema.Struct({
  version: Schema.Literal(1),
  spec: Spec,
  ...position,
  /** The last page was written (or `max` was reached). */
  done: Schema.Boolean,
  updatedAt: Schema.String,
  /**
   * The last state whose output bytes were flushed to disk before this checkpoint was written: what
   * a resume falls back to when an operating-system crash left the output shorter than `bytes`.
   */
  synced: Schema.optional(Synced)
})

/**
 * @since 1.0.0
 */
export type Checkpoint = typeof Checkpoint.Type

/**
 * The checkpoint of a harvest that has not fetched anything yet.
 *
 * @since 1.0.0
 */
export const initial = (spec: Spec): Checkpoint => ({
  version: 1,
  spec,
  bytes: 0,
  token: null,
  records: 0,
  pages: 0,
  total: 0,
  years: {},
  done: false,
  updatedAt: new Date().toISOString()
})

const decode = Schema.decodeUnknownResult(Schema.fromJsonString(Checkpoint))

/**
 * The file's text: indented JSON, for people who open it. A checkpoint is its own encoded form (the
 * schema transforms nothing, which `satisfies` checks), so it is stringified as it is: Schema's
 * encoder took 0.4 ms a page, 4% of a harvest.
 */
const encode = (checkpoint: Checkpoint): string =>
  JSON.stringify(checkpoint satisfies typeof Checkpoint.Encoded, null, 2)

/**
 * Where the checkpoint of an output file lives.
 *
 * @since 1.0.0
 */
export const path = (out: string): string => `${out}.checkpoint.json`

/**
 * What is wrong with a file that does not decode, in one line: the first problem and where (the
 * watch state file says it the same way).
 *
 * @since 1.1.0
 */
export const problem = (error: Schema.SchemaError): string => {
  const [first] = SchemaIssue.makeFormatterStandardSchemaV1()(error.issue).issues
  if (first === undefined) return error.message
  const path = (first.path ?? []).map((key) => (typeof key === "object" ? String(key.key) : String(key)))
  // Schema's words for an absent key, in the words the message had before (`version is missing`).
  const message = first.message === "Missing key" ? "is missing" : first.message
  return path.length === 0 ? message : `at ${path.join(".")}: ${message}`
}

/**
 * Reads and decodes the checkpoint of `out`: `None` when there is none; a {@link CommandError} (bad
 * input) naming the problem when the file is not a checkpoint of this version of `s2`.
 *
 * @since 1.0.0
 */
export const read = (out: string): Effect.Effect<Option.Option<Checkpoint>, CommandError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const file = path(out)
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(file).pipe(
      Effect.map(Option.some),
      Effect.catchIf(
        (error) => error.reason._tag === "NotFound",
        () => Effect.succeed(Option.none<string>())
      ),
      Effect.mapError((cause) => fileError(`cannot read the checkpoint ${file}`, cause))
    )
    if (Option.isNone(text)) return Option.none()
    const decoded = decode(text.value)
    if (Result.isFailure(decoded)) {
      return yield* Effect.fail(badInput(
        `${file} is not a harvest checkpoint of this version of s2 (${
          problem(decoded.failure)
        }); remove it, or start again with --overwrite`
      ))
    }
    return Option.some(decoded.success)
  })

/**
 * Whether `out` has a checkpoint, without reading it.
 *
 * @since 1.0.0
 */
export const exists = (out: string): Effect.Effect<boolean, CommandError, FileSystem.FileSystem> =>
  FileSystem.FileSystem.use((fs) => fs.exists(path(out))).pipe(
    Effect.mapError((cause) => fileError(`cannot read the checkpoint ${path(out)}`, cause))
  )

/**
 * Replaces the checkpoint of `out` atomically ({@link Files.writeAtomic}): written to a new file
 * beside it, under an unpredictable name created exclusively (a symbolic link planted there is
 * never followed), flushed to disk first if `sync`, then renamed over it. Uninterruptible: an
 * interruption waits for the rename (milliseconds) rather than leaving the temporary file behind.
 *
 * @since 1.0.0
 */
export const write = (
  out: string,
  checkpoint: Checkpoint,
  options: { readonly sync: boolean }
): Effect.Effect<void, CommandError, FileSystem.FileSystem> =>
  Files.writeAtomic(path(out), encode(checkpoint) + "\n", { sync: options.sync }).pipe(
    Effect.mapError((cause) => fileError(`cannot write the checkpoint ${path(out)}`, cause))
  )
