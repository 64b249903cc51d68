/**
 * A fast decoder for the records of this client, compiled once per schema from the schema's own AST.
 *
 * Why: Schema's general-purpose parser spends most of a bulk harvest's CPU. Measured on a page of
 * 1,000 full papers (2.7 MB of JSON, which `JSON.parse` reads in 5 ms): Effect 4.1's Schema decodes
 * it in 52-55 ms, 22 ms with its JIT compiler (`SchemaJITCompiler`); this walk in 4.5 ms, 2.3 ms
 * building the records in place. The records here need only a subset of Schema's powers — type
 * checks, filters, unions, arrays, structs that keep unknown keys, decoding defaults and class
 * construction — so a direct walk of the AST does the same work in a fraction of the time. The
 * Schema stays the single source of truth: the compiled decoder is derived from it, and when it
 * meets a value it does not accept (or an AST node it does not know) the caller falls back to
 * Schema's decoder, which then produces the error. Property tests check that both agree.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import type * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { builder, type ClassNode, classOf, reservedOf } from "./decodeClass.js"
import {
  type Compilation,
  type Decode,
  type Excess,
  fail,
  hasOwn,
  instanceCheck,
  intCheck,
  keepWire,
  maxDepth,
  missing,
  nestsDeeper,
  passes,
  primitiveTypes,
  type Property,
  type Records,
  tooDeep,
  wireOf,
  withheld,
  withhold,
  withoutProto,
  withoutReserved
} from "./decodeParts.js"
import { specialise } from "./decodeSpecialise.js"
import * as InPlace from "./inPlace.js"

export { maxDepth, nestsDeeper, wireOf }
export type { Excess, Records }

/** Records being decoded, outermost included: bounded by {@link maxDepth}. */
let recordDepth = 0

/** The node with its checks: the node's own decoder, then its filters on what it gave. */
const compileAst = (ast: SchemaAST.AST, c: Compilation): Decode | undefined => {
  const known = c.memo.get(ast)
  if (known !== undefined) return known
  if (ast._tag === "Suspend") return compileSuspend(ast, c)
  const klass = classOf(ast)
  if (klass !== undefined) return compileClass(ast, klass, c)
  const local = withChecks(ast, compileNode(ast, c), c)
  if (local === undefined || ast.encoding === undefined) return local
  return compileEncoding(ast.encoding, local, c)
}

const withChecks = (ast: SchemaAST.AST, decode: Decode | undefined, c: Compilation): Decode | undefined => {
  const checks = ast.checks
  if (decode === undefined || checks === undefined) return decode
  if (checks.length === 1 && checks[0] === intCheck) {
    return (u) => {
      const value = decode(u)
      return value === fail || (typeof value === "number" && Number.isSafeInteger(value)) ? value : fail
    }
  }
  return (u) => {
    const value = decode(u)
    return value === fail || passes(checks, value, ast, c) ? value : fail
  }
}

const compileSuspend = (ast: SchemaAST.Suspend, c: Compilation): Decode | undefined => {
  if (ast.checks !== undefined || ast.encoding !== undefined) return undefined
  let inner: Decode | undefined
  const lazy: Decode = (u) => {
    inner ??= compileAst(ast.thunk(), c) ?? (() => fail)
    return inner(u)
  }
  c.memo.set(ast, lazy)
  return lazy
}

/** A node without its checks and encoding; `undefined` for a node the walk does not know. */
const compileNode = (ast: SchemaAST.AST, c: Compilation): Decode | undefined => {
  switch (ast._tag) {
    case "String":
    case "Number":
    case "Boolean": {
      const type = primitiveTypes[ast._tag]
      return (u) => typeof u === type ? u : fail
    }
    case "Null":
      return (u) => u === null ? u : fail
    case "Undefined":
      return (u) => u === undefined ? u : fail
    case "Unknown":
    case "Any":
      return (u) => u
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal ? u : fail
    }
    case "Union":
      return compileUnion(ast, c)
    case "Arrays":
      return compileArray(ast, c)
    case "Objects": {
      const struct = compileStruct(ast, c)
      return struct === undefined ? undefined : (u) => struct(u, undefined)
    }
    case "Declaration":
      return compileDeclaration(ast, c)
    default:
      return undefined
  }
}

const compileUnion = (ast: SchemaAST.Union, c: Compilation): Decode | undefined => {
  // "oneOf" unions must match exactly one member: left to Schema.
  if (ast.options?.mode === "oneOf" || ast.encodingChecks !== undefined) return undefined
  const nullable = nullableOf(ast, c)
  if (nullable !== undefined) return nullable
  const members: Array<Decode> = []
  for (const member of ast.types) {
    const decode = compileAst(member, c)
    if (decode === undefined) return undefined
    members.push(decode)
  }
  return (u) => {
    const mark = InPlace.mark()
    for (const decode of members) {
      const value = decode(u)
      if (value !== fail) return value
      InPlace.release(mark)
    }
    return fail
  }
}

/**
 * `NullOr(X)`, the shape of nearly every field of a record: `null`, or else `X` — checked without
 * going through the members one by one (half of a record's decoding was that loop).
 */
const nullableOf = (ast: SchemaAST.Union, c: Compilation): Decode | undefined => {
  if (ast.types.length !== 2) return undefined
  const [first, second] = ast.types
  const isNull = (member: SchemaAST.AST | undefined) =>
    member?._tag === "Null" && member.checks === undefined && member.encoding === undefined
  const other = isNull(first) ? second : isNull(second) ? first : undefined
  if (other === undefined) return undefined
  const type = other.checks === undefined && other.encoding === undefined ? primitiveTypes[other._tag] : undefined
  if (type !== undefined) return (u) => u === null || typeof u === type ? u : fail
  const decode = compileAst(other, c)
  if (decode === undefined) return undefined
  return (u) => u === null ? u : decode(u)
}

const compileArray = (ast: SchemaAST.Arrays, c: Compilation): Decode | undefined => {
  const [rest] = ast.rest
  if (ast.elements.length > 0 || ast.rest.length !== 1 || rest === undefined || ast.encodingChecks !== undefined) {
    return undefined
  }
  const item = compileAst(rest, c)
  if (item === undefined) return undefined
  return (u) => {
    if (!Array.isArray(u)) return fail
    let out: Array<unknown> | undefined
    for (let i = 0; i < u.length; i++) {
      const before = withheld
      const value = item(u[i])
      if (value === fail || value === missing) return fail
      if (out === undefined && value !== u[i]) {
        // The parsed array of a run in place takes its records (a record holding one that withholds
        // keys keeps the wire beside it, so that array stays as it came); any other is copied.
        if (InPlace.inPlace && withheld === before) InPlace.replace(u, i, value)
        else out = u.slice(0, i)
      }
      if (out !== undefined) out.push(value)
    }
    return out ?? u
  }
}

/**
 * A declaration without an encoding: the type side of a class (`Schema.toType`), met when a
 * decoding default is checked. Its own check runs; it answers at once for the classes of Schema.
 */
const compileDeclaration = (ast: SchemaAST.Declaration, c: Compilation): Decode | undefined => {
  if (ast.encoding !== undefined || ast.encodingChecks !== undefined) return undefined
  const isInstance = instanceCheck(ast)
  // A class's type side, met once per record of a page (its `data` has a decoding default): the
  // class's own predicate, without the Effect and the Exit its `run` makes of the same answer.
  // A wire record is the object the walk of its class's fields just accepted, not an instance.
  if (isInstance !== undefined && c.records === "wire") return (u) => typeof u === "object" && u !== null ? u : fail
  if (isInstance !== undefined) return (u) => isInstance(u) ? u : fail
  const run = ast.run(ast.typeParameters)
  return (u) => settle(run(u, ast, c.options))
}

/**
 * The value of an effect of Schema's that runs at once (most are an `Exit` already), or `fail`:
 * one that needs a service or suspends fails here and is left to Schema.
 */
const settle = (effect: Effect.Effect<unknown, unknown, unknown>): unknown => {
  const exit: Exit.Exit<unknown, unknown> = Exit.isExit(effect)
    ? effect
    : Effect.runSyncExit(effect as Effect.Effect<unknown, unknown>)
  return Exit.isSuccess(exit) ? exit.value : fail
}

/** A property whose encoding starts from an optional key: an absent key may decode to a default. */
const fillsAbsent = (type: SchemaAST.AST): boolean => {
  const last = type.encoding?.[type.encoding.length - 1]
  return last !== undefined && last.to.context?.isOptional === true
}

const properties = (ast: SchemaAST.Objects, c: Compilation): ReadonlyArray<Property> | undefined => {
  const out: Array<Property> = []
  for (const property of ast.propertySignatures) {
    const decode = compileAst(property.type, c)
    if (decode === undefined || typeof property.name !== "string") return undefined
    const absent = fillsAbsent(property.type)
      ? "filled"
      : property.type.context?.isOptional === true
      ? "optional"
      : "required"
    // A transformation may turn a present value into none: for a required key, Schema's missing key.
    const strict: Decode = absent === "optional" || property.type.encoding === undefined
      ? decode
      : (u) => {
        const value = decode(u)
        return value === missing ? fail : value
      }
    out.push({ name: property.name, decode: strict, absent, type: property.type })
  }
  return out
}

/** Fills the properties absent from `u` that have a decoding default; `fail` if one refuses. */
const fillAbsent = (
  u: object,
  out: Record<string, unknown> | undefined,
  filled: ReadonlyArray<Property>
): Record<string, unknown> | undefined | typeof fail => {
  for (const { decode, name } of filled) {
    if (hasOwn.call(u, name)) continue
    const value = decode(missing)
    if (value === fail) return fail
    if (value === missing) continue
    out ??= { ...u }
    out[name] = value
  }
  return out
}

/**
 * A struct. The output is a copy of the input only when a property changed (a nested record built,
 * a default filled in) or a key is withheld — or always, into `target()`, when the caller needs a
 * fresh object anyway (a class instance, or unknown keys dropped). `reserved`: for a record's
 * fields, the names of its members; unknown keys with those names are withheld from it (its `raw`
 * keeps them), so data never shadows the record's API.
 */
const compileStruct = (
  ast: SchemaAST.Objects,
  c: Compilation,
  reserved?: ReadonlySet<string>
): ((u: unknown, target: (() => Record<PropertyKey, unknown>) | undefined) => unknown) | undefined => {
  if (ast.indexSignatures.length > 0 || ast.encodingChecks !== undefined) return undefined
  const props = properties(ast, c)
  if (props === undefined) return undefined
  // A prototype-less object, not a Map: property lookups by the wire's keys get V8's inline caches.
  const byName: Record<string, Decode | undefined> = Object.create(null)
  for (const { decode, name } of props) byName[name] = decode
  const required = props.filter((p) => p.absent === "required").map((p) => p.name)
  const filled = props.filter((p) => p.absent === "filled")
  const excess = c.excess
  // Walk the keys the input has, not the keys the schema knows: a record asked for with a few
  // fields has a few keys, while its class knows thirty.
  const specialised = excess === "preserve" && filled.length === 0
    ? specialise(props, required, c, reserved)
    : undefined
  return (u, given) => {
    if (given === undefined && specialised !== undefined) return specialised(u)
    if (typeof u !== "object" || u === null || Array.isArray(u)) return fail
    for (const name of required) {
      if (!hasOwn.call(u, name)) return fail
    }
    const target = given ?? (excess === "preserve" ? undefined : (): Record<PropertyKey, unknown> => ({}))
    return target === undefined
      ? walkShared(u, byName, filled, reserved)
      : walkInto(u, byName, filled, target(), excess, reserved)
  }
}

/** What becomes of an unknown key kept with its value: `true` to keep it, `false` to withhold it, or `fail`. */
const unknownKey = (name: string, input: unknown, reserved: ReadonlySet<string> | undefined): boolean | typeof fail =>
  name === "__proto__" || reserved?.has(name) === true ? false : tooDeep(input) ? fail : true

/** Copy and decode in one pass over the input's keys, into a fresh object (a record, or a struct
 * whose unknown keys are dropped). */
const walkInto = (
  u: object,
  byName: Record<string, Decode | undefined>,
  filled: ReadonlyArray<Property>,
  out: Record<PropertyKey, unknown>,
  excess: Excess,
  reserved: ReadonlySet<string> | undefined
): unknown => {
  for (const name in u) {
    if (!hasOwn.call(u, name)) continue
    const input: unknown = (u as Record<string, unknown>)[name]
    const decode = byName[name]
    if (decode === undefined) {
      if (excess === "error") return fail
      if (excess === "ignore") continue
      // Unknown keys are kept as they are, but for those that would shadow the record's members or
      // its prototype (an assignment of "__proto__" sets one).
      const kept = unknownKey(name, input, reserved)
      if (kept === fail) return fail
      if (kept) out[name] = input
      else withhold()
      continue
    }
    if (name === "__proto__") return fail
    const value = decode(input)
    if (value === fail) return fail
    if (value !== missing) out[name] = value
  }
  for (const { decode, name } of filled) {
    if (hasOwn.call(u, name)) continue
    const value = decode(missing)
    if (value === fail) return fail
    if (value !== missing) out[name] = value
  }
  return out
}

/**
 * Unknown keys kept: the input itself unless a property changed or a key is withheld, then a
 * shallow copy. JSON.parse makes "__proto__" an own key, which an assignment would turn into a
 * prototype: it is dropped from the copy (the record's `raw` keeps it, as data).
 */
const walkShared = (
  u: object,
  byName: Record<string, Decode | undefined>,
  filled: ReadonlyArray<Property>,
  reserved: ReadonlySet<string> | undefined
) => {
  let out: Record<PropertyKey, unknown> | undefined
  let hide = false
  for (const name in u) {
    if (!hasOwn.call(u, name)) continue
    const input: unknown = (u as Record<string, unknown>)[name]
    const decode = byName[name]
    if (decode === undefined) {
      const kept = unknownKey(name, input, reserved)
      if (kept === fail) return fail
      if (kept) continue
      if (reserved === undefined) out = withoutProto(u, out)
      else hide = true
      continue
    }
    const value = decode(input)
    if (value === fail) return fail
    if (value !== input) {
      out ??= { ...u }
      if (value === missing) delete out[name]
      else out[name] = value
    }
  }
  const withDefaults = fillAbsent(u, out, filled)
  if (withDefaults === fail) return fail
  const fields = withDefaults ?? u
  return hide && reserved !== undefined ? withoutReserved(fields, reserved) : fields
}

/** A getter of a transformation, run synchronously: the decoded value, `missing`, or `fail`. */
const compileGetter = (
  getter: SchemaGetter.Getter<unknown, unknown, unknown>,
  c: Compilation
): ((value: unknown) => unknown) | undefined => {
  const fromOption = (o: Option.Option<unknown>) => Option.isSome(o) ? o.value : missing
  const toOption = (value: unknown) => value === missing ? Option.none() : Option.some(value)
  // Effectful getters (decoding defaults) run at once.
  switch (getter._tag) {
    case "Passthrough":
      return (value) => value
    case "Transform":
      return (value) => value === missing ? missing : getter.transform(value)
    case "TransformOptional":
      return (value) => fromOption(getter.transform(toOption(value)))
    case "TransformEffect":
      return (value) => value === missing ? missing : settle(getter.transform(value, c.options))
    case "TransformOptionalEffect":
      return (value) => {
        const result = settle(getter.transform(toOption(value), c.options))
        return result === fail ? fail : fromOption(result as Option.Option<unknown>)
      }
  }
}

/**
 * A node with an encoding, decoded as Schema does: the last link's source first, then each
 * transformation towards the node, each intermediate schema checking what it is given, and the
 * node's own decoder (with its checks) last.
 */
const compileEncoding = (encoding: SchemaAST.Encoding, local: Decode, c: Compilation): Decode | undefined => {
  const steps: Array<readonly [Decode, (value: unknown) => unknown]> = []
  for (const link of encoding) {
    const from = compileAst(link.to, c)
    if (from === undefined || !SchemaTransformation.isTransformation(link.transformation)) return undefined
    const getter = compileGetter(link.transformation.decode as SchemaGetter.Getter<unknown, unknown, unknown>, c)
    if (getter === undefined) return undefined
    steps.push([from, getter])
  }
  return (u) => {
    let value = u
    for (let i = steps.length - 1; i >= 0; i--) {
      const [from, getter] = steps[i]!
      if (value !== missing) value = from(value)
      if (value === fail) return fail
      value = getter(value)
      if (value === fail) return fail
    }
    return value === missing ? missing : local(value)
  }
}

const compileClass = (ast: SchemaAST.AST, klass: ClassNode, c: Compilation): Decode | undefined => {
  const fromStruct = compileStruct(klass.from, c, reservedOf(klass, c.records))
  if (fromStruct === undefined) return undefined
  const build = builder(klass, c.records)
  const decode: Decode = (u) => {
    // Records nest through suspended schemas (a paper's authors' papers…): bounded, not the stack.
    if (recordDepth >= maxDepth) return fail
    const before = withheld
    recordDepth++
    const value = fromStruct(u, undefined)
    recordDepth--
    if (value === fail || typeof value !== "object" || value === null) return fail
    const record = build(value, recordDepth === 0)
    // Keys were withheld from this record or one inside it: its `raw` is the wire object.
    if (withheld !== before && record !== u && typeof record === "object" && record !== null) {
      keepWire(record, u as object)
    }
    return record
  }
  c.memo.set(ast, decode)
  return decode
}

const caches = (): { readonly [E in Excess]: WeakMap<SchemaAST.AST, Decode | null> } => ({
  preserve: new WeakMap(),
  ignore: new WeakMap(),
  error: new WeakMap()
})

/** The compiled decoders by what records become, then by what unknown keys become. */
const compiled = { class: caches(), wire: caches() } as const

/**
 * The compiled decoder of a schema, or `undefined` when its AST has a node the compiler does not
 * handle. The returned function gives `Option.none()` for input it does not accept. Unknown keys
 * are kept unless `excess` says otherwise. With `fresh` (the input was parsed for this call and
 * nothing else holds it) records are built in place; else they are copies, so that a value shared
 * with others (a cached answer) is never changed. With `records: "wire"` records are the checked
 * input itself (typed as the schema's `Type`, whose record classes the caller reads as their
 * `Encoded` side).
 */
export const fastDecoder = <A, I>(
  schema: Schema.Codec<A, I>,
  excess: Excess = "preserve",
  records: Records = "class"
): ((u: unknown, fresh?: boolean) => Option.Option<A>) | undefined => {
  const cache = compiled[records][excess]
  let decode = cache.get(schema.ast)
  if (decode === undefined) {
    const compilation: Compilation = { memo: new Map(), options: {}, excess, records }
    decode = compileAst(schema.ast, compilation) ?? null
    cache.set(schema.ast, decode)
  }
  if (decode === null) return undefined
  return run(decode)
}

const declined = (value: unknown) => value === fail || value === missing

const run = <A>(decode: Decode) => (u: unknown, fresh = false): Option.Option<A> => {
  const outerDepth = recordDepth
  recordDepth = 0
  let value: unknown
  try {
    value = InPlace.within(fresh, declined, () => decode(u))
  } finally {
    recordDepth = outerDepth
  }
  // The compiled walk is derived from this schema's AST and checked against Schema's decoder by
  // property tests, so what it accepts is an `A`.
  return value === fail || value === missing ? Option.none() : Option.some(value as A)
}

/** The options of {@link decodeUnknownResult}: Schema's parse options, and keeping unknown keys. */
export interface DecodeOptions {
  readonly onExcessProperty?: Excess | undefined
  readonly errors?: "first" | "all" | undefined
  readonly disableChecks?: boolean | undefined
}

/**
 * Schema's `decodeUnknownResult`, through the compiled decoder when it accepts the input: Schema's
 * decoder runs only for what the compiled one declines, and gives the error. The parse options are
 * Schema's: what they change about acceptance (`onExcessProperty: "error"`) the compiled decoder
 * honours, and `disableChecks`, which it does not implement, leaves every value to Schema.
 */
export const decodeUnknownResult = <A, I>(
  schema: Schema.Codec<A, I>,
  options?: DecodeOptions
): (u: unknown) => Result.Result<A, Schema.SchemaError> => {
  const excess = options?.onExcessProperty ?? "ignore"
  const parseOptions: SchemaAST.ParseOptions = {
    onExcessProperty: excess === "error" ? "error" : "ignore",
    ...(options?.errors === undefined ? {} : { errors: options.errors }),
    ...(options?.disableChecks === undefined ? {} : { disableChecks: options.disableChecks })
  }
  const compile = (): (u: unknown) => Result.Result<A, Schema.SchemaError> => {
    const reference: (u: unknown) => Result.Result<A, Schema.SchemaError> = Schema.decodeUnknownResult(
      schema as Schema.Codec<A, I, never, never>,
      parseOptions
    )
    const fast = options?.disableChecks === true ? undefined : fastDecoder(schema, excess)
    if (fast === undefined) return reference
    return (u) => {
      const quick = fast(u)
      return Option.isSome(quick) ? Result.succeed(quick.value) : reference(u)
    }
  }
  // Compiled at the first value, not where it is declared: a module's decoders cost nothing to a
  // program that never decodes with them (`s2 harvest` loads `CitationGraph`'s: 10 ms at start).
  let decode: ((u: unknown) => Result.Result<A, Schema.SchemaError>) | undefined
  return (u) => (decode ??= compile())(u)
}
