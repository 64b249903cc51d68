/**
 * The parts the fast decoder (decode.ts) and its code generator (decodeSpecialise.ts) share: the
 * sentinels, a compilation's state, the bounds on nesting, and the copies that withhold keys.
 */
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"

/** Returns the decoded value, `fail` when the input is not accepted, `missing` for an absent key. */
export type Decode = (input: unknown) => unknown

/** The sentinel for "not accepted": distinct from every JSON value, `undefined` included. */
export const fail: unique symbol = Symbol.for("@s2-effect/core/decode/fail")

/** The input of a property whose key is absent (a decoding default may fill it in). */
export const missing: unique symbol = Symbol.for("@s2-effect/core/decode/missing")

/**
 * What unknown keys become: kept (`"preserve"`, the API's records, whose `raw` shows every field
 * the server sent), dropped (`"ignore"`, Schema's default, for a caller's own schema), or refused
 * (`"error"`, as Schema's `onExcessProperty: "error"`).
 */
export type Excess = "preserve" | "ignore" | "error"

/**
 * What a record becomes: an instance of its class (`"class"`: `raw`, `keys()`, `instanceof`), or
 * the parsed object itself, checked by the same walk (`"wire"`: what a harvest that only writes its
 * records out needs; giving each object its class's prototype was a fifth of a harvest's CPU).
 */
export type Records = "class" | "wire"

/** One compilation: the decoders built so far, how unknown keys are treated, what records become. */
export interface Compilation {
  readonly memo: Map<SchemaAST.AST, Decode>
  /** What the filters of the schema are run with (Schema's own filters read the options). */
  readonly options: SchemaAST.ParseOptions
  readonly excess: Excess
  readonly records: Records
}

export const hasOwn = Object.prototype.hasOwnProperty

/**
 * How deep a value may nest: records within records (a paper's authors' papers' authors…) and the
 * values of unknown fields, each counted from where it starts. Real records nest a few levels; a
 * hostile server can nest thousands, which no recursive printer (`JSON.stringify`) survives. The
 * walk declines deeper input, and the transport then names it (`DecodeError`, reason `"depth"`).
 */
export const maxDepth = 100

/**
 * Counts each struct the walk built without some of the wire's keys: a record's field named like
 * one of its members (`raw`, `keys`, `toString`…) or a `"__proto__"`. A record whose walk moved
 * this count keeps the wire object as its `raw` (see {@link wireOf}).
 */
export let withheld = 0
export const withhold = () => {
  withheld++
}

/** The wire object of each record that is not it (see {@link withheld}). */
export const wires = new WeakMap<object, object>()

/**
 * The JSON a record came from when the record is not that object itself (it withholds some of the
 * wire's keys, or holds a record that does); `undefined` for the usual record, which is its JSON.
 */
export const wireOf = (record: object): object | undefined => wires.get(record)

/** What `JSON.stringify` writes of a record that withholds keys: its whole wire JSON. */
export function wireJson(this: object): object {
  return wires.get(this) ?? this
}

export const keepWire = (record: object, wire: object) => {
  wires.set(record, wire)
  Object.defineProperty(record, "toJSON", { value: wireJson, writable: true, configurable: true, enumerable: false })
}

/**
 * Whether a JSON value nests deeper than `max` (walked without recursion: the value may nest
 * deeply enough to overflow the stack of any recursive walk).
 */
export const nestsDeeper = (json: unknown, max: number): boolean => {
  if (typeof json !== "object" || json === null) return false
  const stack: Array<unknown> = [json]
  const depths: Array<number> = [0]
  while (stack.length > 0) {
    const value = stack.pop() as object
    const depth = depths.pop()!
    if (depth >= max) return true
    for (const name in value) {
      const child: unknown = (value as Record<string, unknown>)[name]
      if (typeof child === "object" && child !== null && hasOwn.call(value, name)) {
        stack.push(child)
        depths.push(depth + 1)
      }
    }
  }
  return false
}

/** An unknown field's value, kept as it is unless it nests too deeply. */
export const tooDeep = (value: unknown): boolean =>
  typeof value === "object" && value !== null && nestsDeeper(value, maxDepth)

/** A copy of a record's fields without the names its members have (`reserved`). */
export const withoutReserved = (fields: object, reserved: ReadonlySet<string>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const name in fields) {
    // `reserved` holds "__proto__", so each assignment here sets a plain property.
    if (hasOwn.call(fields, name) && !reserved.has(name)) out[name] = (fields as Record<string, unknown>)[name]
  }
  withhold()
  return out
}

/** A copy of a struct without its own `"__proto__"` key (JSON.parse's data, never a prototype). */
export const withoutProto = (fields: object, out: Record<string, unknown> | undefined): Record<string, unknown> => {
  const copy = out ?? { ...fields }
  delete copy["__proto__"]
  withhold()
  return copy
}

/** The checks of JSON's primitive types, by node: tested inline rather than through a call. */
export const primitiveTypes: Partial<Record<SchemaAST.AST["_tag"], string>> = {
  String: "string",
  Number: "number",
  Boolean: "boolean"
}

/** The filter of `Schema.Int`, checked inline as `Number.isSafeInteger` (what it runs). */
export const intCheck = Schema.Int.ast.checks?.[0]

/** Whether every check accepts the value (Schema runs them the same way, with the same options). */
export const passes = (
  checks: ReadonlyArray<SchemaAST.Check<unknown>>,
  value: unknown,
  ast: SchemaAST.AST,
  c: Compilation
) =>
  checks.every((check): boolean =>
    check._tag === "FilterGroup" ? passes(check.checks, value, ast, c) : check.run(value, ast, c.options) === undefined
  )

/** A property: its name, its decoder, and what an absent key means. */
export interface Property {
  readonly name: string
  readonly decode: Decode
  /** `required`: absent is refused; `optional`: absent stays absent; `filled`: the decoder decides. */
  readonly absent: "required" | "optional" | "filled"
  readonly type: SchemaAST.AST
}

/** Where Schema keeps a declaration's constructor descriptor (effect's `internal/schema/annotations`). */
const constructorAnnotation = "~constructor"

/**
 * The predicate a `Schema.Class` declaration's `run` answers by (`instanceof` the class, or its
 * brand), from the constructor descriptor Schema keeps in the declaration's annotations.
 */
export const instanceCheck = (ast: SchemaAST.Declaration): ((u: unknown) => boolean) | undefined => {
  const describe: unknown = ast.annotations?.[constructorAnnotation]
  if (typeof describe !== "function") return undefined
  const descriptor: unknown = describe(ast.typeParameters)
  const isConstructed = typeof descriptor === "object" && descriptor !== null
    ? (descriptor as { readonly isConstructed?: unknown }).isConstructed
    : undefined
  return typeof isConstructed === "function" ? (u) => isConstructed(u) === true : undefined
}
