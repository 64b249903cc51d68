/**
 * A fast decoder for the records of this client, compiled once per schema from the schema's own AST.
 *
 * Why: Schema's general-purpose parser spends most of a bulk harvest's CPU (about 50 ms for a page
 * of 1,000 full papers, twelve times `JSON.parse`). The records here need only a subset of its
 * powers — type checks, refinements, unions, arrays, structs that keep unknown keys, `optionalWith`
 * defaults and class construction — so a direct walk of the AST does the same work in a fraction
 * of the time. The Schema stays the single source of truth: the compiled decoder is derived from
 * it, and when it meets a value it does not accept (or an AST node it does not know) the caller
 * falls back to Schema's decoder, which then produces the error message. Property tests check
 * that both agree.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import type { DecodeOptions } from "../Decoder.js"

/** Returns the decoded value, or `fail` when the input is not accepted. */
type Decode = (input: unknown) => unknown

/** The sentinel for "not accepted": distinct from every JSON value, `undefined` included. */
const fail: unique symbol = Symbol.for("@s2-effect/core/decode/fail")

/**
 * What unknown keys become: kept (`"preserve"`, the API's records, whose `raw` shows every field
 * the server sent) or dropped (`"ignore"`, Schema's default, for a caller's own schema).
 */
export type Excess = "preserve" | "ignore"

/** One compilation: the decoders built so far, and how unknown keys are treated. */
interface Compilation {
  readonly memo: Map<SchemaAST.AST, Decode>
  readonly options: SchemaAST.ParseOptions
  readonly ignoreExcess: boolean
}

const hasOwn = Object.prototype.hasOwnProperty

/**
 * Records of the run in progress that are the parsed input itself, each followed by the prototype
 * it gets: they are given it only once the whole value is accepted, so that input left to Schema's
 * decoder (which then says what is wrong) is exactly what the server sent.
 */
let adopted: Array<object> = []

/** Whether the run in progress may build records in place: the input is its caller's own. */
let inPlace = false

const compileAst = (ast: SchemaAST.AST, memo: Compilation): Decode | undefined => {
  const known = memo.memo.get(ast)
  if (known !== undefined) return known
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string" ? u : fail
    case "NumberKeyword":
      return (u) => typeof u === "number" ? u : fail
    case "BooleanKeyword":
      return (u) => typeof u === "boolean" ? u : fail
    case "UndefinedKeyword":
      return (u) => u === undefined ? u : fail
    case "UnknownKeyword":
    case "AnyKeyword":
      return (u) => u
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal ? u : fail
    }
    case "Refinement": {
      const from = compileAst(ast.from, memo)
      if (from === undefined) return undefined
      const refinement = ast
      const options = memo.options
      return (u) => {
        const value = from(u)
        return value !== fail && Option.isNone(refinement.filter(value, options, refinement)) ? value : fail
      }
    }
    case "Union": {
      const nullable = nullableOf(ast, memo)
      if (nullable !== undefined) return nullable
      const members: Array<Decode> = []
      for (const member of ast.types) {
        const decode = compileAst(member, memo)
        if (decode === undefined) return undefined
        members.push(decode)
      }
      return (u) => {
        const mark = adopted.length
        for (const decode of members) {
          const value = decode(u)
          if (value !== fail) return value
          adopted.length = mark
        }
        return fail
      }
    }
    case "TupleType": {
      const [rest] = ast.rest
      if (ast.elements.length > 0 || ast.rest.length !== 1 || rest === undefined) return undefined
      const item = compileAst(rest.type, memo)
      if (item === undefined) return undefined
      return (u) => {
        if (!Array.isArray(u)) return fail
        let out: Array<unknown> | undefined
        for (let i = 0; i < u.length; i++) {
          const value = item(u[i])
          if (value === fail) return fail
          // Copy only once an element changes (a class instance for a plain object).
          if (out === undefined && value !== u[i]) out = u.slice(0, i)
          if (out !== undefined) out.push(value)
        }
        return out ?? u
      }
    }
    case "TypeLiteral": {
      const struct = compileStruct(ast, memo)
      return struct === undefined ? undefined : (u) => struct(u, undefined)
    }
    case "Suspend": {
      let inner: Decode | undefined
      const suspended = ast
      const lazy: Decode = (u) => {
        inner ??= compileAst(suspended.f(), memo) ?? (() => fail)
        return inner(u)
      }
      memo.memo.set(ast, lazy)
      return lazy
    }
    case "Transformation":
      return compileTransformation(ast, memo)
    default:
      return undefined
  }
}

/** The checks of JSON's primitive types, by keyword: tested inline rather than through a call. */
const primitiveTypes: Partial<Record<SchemaAST.AST["_tag"], string>> = {
  StringKeyword: "string",
  NumberKeyword: "number",
  BooleanKeyword: "boolean"
}

/**
 * `NullOr(X)`, the shape of nearly every field of a record: `null`, or else `X` — checked without
 * going through the members one by one (half of a record's decoding was that loop).
 */
const nullableOf = (ast: SchemaAST.Union, memo: Compilation): Decode | undefined => {
  if (ast.types.length !== 2) return undefined
  const [first, second] = ast.types
  const other = first?._tag === "Literal" && first.literal === null
    ? second
    : second?._tag === "Literal" && second.literal === null
    ? first
    : undefined
  if (other === undefined) return undefined
  const type = primitiveTypes[other._tag]
  if (type !== undefined) return (u) => u === null || typeof u === type ? u : fail
  const decode = compileAst(other, memo)
  if (decode === undefined) return undefined
  return (u) => u === null ? u : decode(u)
}

/**
 * A struct that keeps unknown keys. The output is a copy of the input only when a property changed
 * (a nested record built) — or always, into `target()`, when the caller needs a fresh object anyway
 * (a class instance).
 */
const compileStruct = (
  ast: SchemaAST.TypeLiteral,
  memo: Compilation
): ((u: unknown, target: (() => Record<PropertyKey, unknown>) | undefined) => unknown) | undefined => {
  if (ast.indexSignatures.length > 0) return undefined
  const properties: Array<readonly [PropertyKey, Decode, boolean]> = []
  for (const property of ast.propertySignatures) {
    const decode = compileAst(property.type, memo)
    if (decode === undefined) return undefined
    properties.push([property.name, decode, property.isOptional])
  }
  // A prototype-less object, not a Map: property lookups by the wire's keys get V8's inline caches.
  const byName: Record<string, Decode | undefined> = Object.create(null)
  const required: Array<string> = []
  for (const [name, decode, optional] of properties) {
    if (typeof name !== "string") return undefined
    byName[name] = decode
    if (!optional) required.push(name)
  }
  // Walk the keys the input has, not the keys the schema knows: a record asked for with a few
  // fields has a few keys, while its class knows thirty.
  const ignoreExcess = memo.ignoreExcess
  const specialised = ignoreExcess ? undefined : specialise(ast, properties, required, memo)
  return (u, given) => {
    if (given === undefined && specialised !== undefined) return specialised(u)
    if (typeof u !== "object" || u === null || Array.isArray(u)) return fail
    for (const name of required) {
      if (!hasOwn.call(u, name)) return fail
    }
    // Unknown keys dropped: always a copy, of the known keys only.
    const target = given ?? (ignoreExcess ? (): Record<PropertyKey, unknown> => ({}) : undefined)
    if (target !== undefined) {
      // A record: copy and decode in one pass over the input's keys.
      const out = target()
      for (const name in u) {
        if (!hasOwn.call(u, name)) continue
        if (name === "__proto__") return fail
        const input: unknown = (u as Record<string, unknown>)[name]
        const decode = byName[name]
        if (decode === undefined && ignoreExcess) continue
        // Unknown keys are kept as they are, as Schema does with `onExcessProperty: "preserve"`.
        const value = decode === undefined ? input : decode(input)
        if (value === fail) return fail
        out[name] = value
      }
      return out
    }
    let out: Record<PropertyKey, unknown> | undefined
    for (const name in u) {
      // JSON.parse makes "__proto__" an own key, which an assignment would turn into a prototype;
      // leave such input to Schema's decoder, which drops the key.
      if (name === "__proto__") return fail
      const decode = byName[name]
      if (decode === undefined || !hasOwn.call(u, name)) continue
      const input: unknown = (u as Record<string, unknown>)[name]
      const value = decode(input)
      if (value === fail) return fail
      if (value !== input) {
        out ??= { ...u }
        out[name] = value
      }
    }
    return out ?? u
  }
}

/**
 * A JavaScript condition on `v` that holds exactly when the node accepts `v` unchanged, for the
 * nodes that never build anything (primitives, literals, their unions and refinements); else
 * `undefined`. Refinements other than `Int` are called through `r`, the list they are added to.
 */
const condition = (
  ast: SchemaAST.AST,
  refinements: Array<(u: unknown) => boolean>,
  memo: Compilation
): string | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
      return `typeof v === "${primitiveTypes[ast._tag]}"`
    case "UndefinedKeyword":
      return "v === undefined"
    case "UnknownKeyword":
    case "AnyKeyword":
      return "true"
    case "Literal":
      // JSON's own literals only: JSON.stringify would write NaN or Infinity as `null`.
      return typeof ast.literal === "bigint" || (typeof ast.literal === "number" && !Number.isFinite(ast.literal))
        ? undefined
        : `v === ${JSON.stringify(ast.literal)}`
    case "Union": {
      const members = ast.types.map((member) => condition(member, refinements, memo))
      return members.every((m) => m !== undefined) ? `(${members.join(" || ")})` : undefined
    }
    case "Refinement": {
      const from = condition(ast.from, refinements, memo)
      if (from === undefined) return undefined
      if (ast === Schema.Int.ast) return `(${from} && Number.isSafeInteger(v))`
      const refinement = ast
      refinements.push((u) => Option.isNone(refinement.filter(u, memo.options, refinement)))
      return `(${from} && r[${refinements.length - 1}](v))`
    }
    default:
      return undefined
  }
}

/**
 * The walk of a struct that keeps unknown keys and builds no copy, written out as JavaScript for
 * its properties: a `switch` on the key and the type checks inline, where the general walk looks
 * each key up and calls a function per value (two thirds of a bulk page's decoding). `undefined`
 * where code cannot be generated (a Content-Security-Policy without 'unsafe-eval'); the general
 * walk then does the same work.
 */
const specialise = (
  ast: SchemaAST.TypeLiteral,
  properties: ReadonlyArray<readonly [PropertyKey, Decode, boolean]>,
  required: ReadonlyArray<string>,
  memo: Compilation
): Decode | undefined => {
  const refinements: Array<(u: unknown) => boolean> = []
  const decoders: Array<Decode> = []
  // `properties` is `ast.propertySignatures` compiled, in the same order.
  const cases = properties.map(([name, decode], i) => {
    const key = JSON.stringify(name)
    const inline = condition(ast.propertySignatures[i]!.type, refinements, memo)
    if (inline !== undefined) return `case ${key}: { const v = u[${key}]; if (!(${inline})) return fail; continue }`
    decoders.push(decode)
    return `case ${key}: { const v = u[${key}]; const w = d[${decoders.length - 1}](v); if (w === fail) return fail; ` +
      `if (w !== v) { out ??= { ...u }; out[${key}] = w } continue }`
  })
  const body = `return (u) => {
    if (typeof u !== "object" || u === null || Array.isArray(u)) return fail
    ${required.map((name) => `if (!hasOwn.call(u, ${JSON.stringify(name)})) return fail`).join("\n")}
    let out
    for (const name in u) {
      if (!hasOwn.call(u, name)) continue
      switch (name) {
        case "__proto__": return fail
        ${cases.join("\n")}
      }
    }
    return out ?? u
  }`
  try {
    return new Function("fail", "hasOwn", "d", "r", body)(fail, hasOwn, decoders, refinements) as Decode
  } catch {
    return undefined
  }
}

const compileTransformation = (
  ast: SchemaAST.Transformation,
  memo: Compilation
): Decode | undefined => {
  const from = compileAst(ast.from, memo)
  if (from === undefined) return undefined
  const transformation = ast.transformation
  switch (transformation._tag) {
    case "FinalTransformation": {
      // Class construction: the `to` side is the class declaration, satisfied by construction.
      if (ast.to._tag !== "Declaration") return undefined
      const construct = (value: unknown) => {
        const result = transformation.decode(value, memo.options, ast, value)
        return Either.isEither(result) && Either.isRight(result) ? result.right : fail
      }
      const prototype = classPrototype(construct)
      if (prototype === undefined) {
        return (u) => {
          const value = from(u)
          return value === fail ? fail : construct(value)
        }
      }
      // The class constructor copies its input and looks for field defaults on every call (a tenth
      // of a harvest's CPU). Records without defaults are the prototype plus their fields: a plain
      // object fresh from JSON.parse becomes the record itself (no copy: a harvest's garbage halves),
      // anything else is copied onto the prototype.
      const fromStruct = ast.from._tag === "TypeLiteral" ? compileStruct(ast.from, memo) : undefined
      if (fromStruct !== undefined) {
        return (u) => {
          const value = fromStruct(u, undefined)
          if (value === fail || typeof value !== "object" || value === null) return fail
          const current = Object.getPrototypeOf(value)
          if (current === prototype) return value
          if (inPlace && current === Object.prototype && Object.isExtensible(value)) {
            adopted.push(value, prototype)
            return value
          }
          return fromStruct(value, () => Object.create(prototype))
        }
      }
      return (u) => {
        const value = from(u)
        return value === fail ? fail : Object.assign(Object.create(prototype), value)
      }
    }
    case "TypeLiteralTransformation": {
      // `optionalWith` defaults: fill in what is absent; the values were checked by `from`.
      const steps = transformation.propertySignatureTransformations
      return (u) => {
        const value = from(u)
        if (value === fail || typeof value !== "object" || value === null) return fail
        const out: Record<PropertyKey, unknown> = { ...value }
        for (const step of steps) {
          const next = step.decode(hasOwn.call(out, step.from) ? Option.some(out[step.from]) : Option.none())
          delete out[step.from]
          if (Option.isSome(next)) out[step.to] = next.value
        }
        return out
      }
    }
    default:
      return undefined
  }
}

/**
 * The prototype of a class whose constructor adds nothing but the given fields: probed by
 * constructing an empty instance (validation is off in decoding), which must come out with no own
 * keys — a class with field defaults would show them and keeps its constructor.
 */
const classPrototype = (construct: (value: unknown) => unknown): object | undefined => {
  const probe = construct({})
  return typeof probe === "object" && probe !== null && Reflect.ownKeys(probe).length === 0
    ? Object.getPrototypeOf(probe)
    : undefined
}

const compiled: { readonly [E in Excess]: WeakMap<SchemaAST.AST, Decode | null> } = {
  preserve: new WeakMap(),
  ignore: new WeakMap()
}

/**
 * The compiled decoder of a schema, or `undefined` when its AST has a node the compiler does not
 * handle. The returned function gives `Option.none()` for input it does not accept. Unknown keys
 * are kept unless `excess` is `"ignore"`. With `fresh` (the input was parsed for this call and
 * nothing else holds it) records are built in place; else they are copies, so that a value shared
 * with others (a cached answer) is never changed.
 */
export const fastDecoder = <A, I>(
  schema: Schema.Schema<A, I>,
  excess: Excess = "preserve"
): ((u: unknown, fresh?: boolean) => Option.Option<A>) | undefined => {
  const cache = compiled[excess]
  let decode = cache.get(schema.ast)
  if (decode === undefined) {
    const compilation: Compilation = {
      memo: new Map(),
      options: { onExcessProperty: excess },
      ignoreExcess: excess === "ignore"
    }
    decode = compileAst(schema.ast, compilation) ?? null
    cache.set(schema.ast, decode)
  }
  if (decode === null) return undefined
  const run = decode
  return (u, fresh = false) => {
    const outer = adopted
    const outerInPlace = inPlace
    adopted = []
    inPlace = fresh
    let value: unknown
    try {
      value = run(u)
      if (value !== fail) {
        for (let i = 0; i < adopted.length; i += 2) Object.setPrototypeOf(adopted[i]!, adopted[i + 1]!)
      }
    } finally {
      adopted = outer
      inPlace = outerInPlace
    }
    // The compiled walk is derived from this schema's AST and checked against Schema's decoder by
    // property tests, so what it accepts is an `A`.
    return value === fail ? Option.none() : Option.some(value as A)
  }
}

/**
 * Schema's `decodeUnknownEither`, through the compiled decoder when it accepts the input: Schema's
 * decoder runs only for what the compiled one declines, and gives the error message.
 */
export const decodeUnknownEither = <A, I>(
  schema: Schema.Schema<A, I>,
  options?: DecodeOptions
): (u: unknown) => Either.Either<A, ParseResult.ParseError> => {
  const excess = options?.onExcessProperty ?? "ignore"
  const fast = fastDecoder(schema, excess)
  const slow = Schema.decodeUnknownEither(schema, { onExcessProperty: excess })
  if (fast === undefined) return slow
  return (u) => {
    const quick = fast(u)
    return Option.isSome(quick) ? Either.right(quick.value) : slow(u)
  }
}
