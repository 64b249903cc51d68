/** The JSON form of a fault configuration (`S2_EMULATOR_FAULTS`), as a Schema. */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as Faults from "../Faults.js"
import { Fault } from "./faults.js"

const describe = <S extends Schema.Top>(schema: S, description: string): S["Rebuild"] =>
  schema.annotate({ description })

const NonNegative = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))
const Position = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))
/** A key that may be left out of the JSON but is always present (as `undefined`) on the fault. */
const absentAsUndefined = <S extends Schema.Top>(schema: S) =>
  Schema.UndefinedOr(schema).pipe(Schema.withDecodingDefaultKey(Effect.succeed(undefined)))

const TAGS = ["Status", "Latency", "Hang", "Truncate", "Reset", "CursorLoop", "CursorBack", "RepeatPage", "Total"]

const FaultJson = Schema.Union([
  Schema.TaggedStruct("Status", {
    status: describe(Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 599 })), "an HTTP status"),
    retryAfter: absentAsUndefined(describe(NonNegative, "seconds, sent as Retry-After")),
    body: absentAsUndefined(Schema.String)
  }),
  Schema.TaggedStruct("Latency", { millis: describe(NonNegative, "milliseconds of delay") }),
  Schema.TaggedStruct("Hang", {}),
  Schema.TaggedStruct("Truncate", {
    fraction: describe(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })), "a fraction in [0, 1]")
  }),
  Schema.TaggedStruct("Reset", {}),
  Schema.TaggedStruct("CursorLoop", {}),
  Schema.TaggedStruct("CursorBack", {}),
  Schema.TaggedStruct("RepeatPage", {}),
  Schema.TaggedStruct("Total", { total: Schema.Int })
]).annotate({ expected: `a fault: an object with "_tag" one of ${TAGS.join(", ")}` })

const RequestSelectorJson = Schema.Union([
  Position,
  Schema.Struct({ from: Position, to: Schema.optionalKey(Position) })
])

const RuleJson = Schema.Struct({
  route: Schema.optionalKey(describe(Schema.String, "a path, or a prefix ending in *")),
  method: Schema.optionalKey(Schema.String),
  requests: Schema.optionalKey(RequestSelectorJson),
  fault: FaultJson
})

const RandomJson = Schema.Struct({
  seed: Schema.Int,
  rate: describe(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })), "a probability in [0, 1]"),
  faults: Schema.Array(FaultJson),
  route: Schema.optionalKey(Schema.String)
})

const KeyPolicyJson = Schema.Struct({
  required: Schema.optionalKey(Schema.Boolean),
  keys: Schema.optionalKey(Schema.Array(Schema.String)),
  ratePerSecond: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(0)))
})

/** A `Faults.Config` as JSON: routes are strings (a RegExp has no JSON form). */
export const ConfigJson = Schema.Struct({
  script: Schema.optionalKey(Schema.Array(RuleJson)),
  random: Schema.optionalKey(Schema.Union([RandomJson, Schema.Array(RandomJson)])),
  keyPolicy: Schema.optionalKey(KeyPolicyJson)
})

const decode = Schema.decodeUnknownResult(Schema.fromJsonString(ConfigJson), { onExcessProperty: "error" })

/** The faults as the emulator builds them (with `Data` equality), from their decoded JSON. */
const rebuild = (fault: Faults.Fault): Faults.Fault => {
  switch (fault._tag) {
    case "Status":
      return Fault.Status({ status: fault.status, retryAfter: fault.retryAfter, body: fault.body })
    case "Latency":
      return Fault.Latency({ millis: fault.millis })
    case "Truncate":
      return Fault.Truncate({ fraction: fault.fraction })
    case "Total":
      return Fault.Total({ total: fault.total })
    default:
      return Fault[fault._tag]()
  }
}

const rebuildRandom = (random: Faults.Random): Faults.Random => ({ ...random, faults: random.faults.map(rebuild) })

/** One line: Schema's messages span lines (one per path); a variable's message must not. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, "; ").trim()

export const parseConfig = (text: string): Result.Result<Faults.Config, string> =>
  Result.match(decode(text), {
    onFailure: (error) => Result.fail(oneLine(error.message)),
    onSuccess: (config) =>
      Result.succeed<Faults.Config>({
        ...(config.script === undefined ? {} : {
          script: config.script.map((rule) => ({ ...rule, fault: rebuild(rule.fault) }))
        }),
        ...(config.random === undefined ? {} : {
          random: "seed" in config.random ? rebuildRandom(config.random) : config.random.map(rebuildRandom)
        }),
        ...(config.keyPolicy === undefined ? {} : { keyPolicy: config.keyPolicy })
      })
  })
