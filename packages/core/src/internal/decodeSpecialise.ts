/**
 * The fast decoder's generated walks: a struct's properties written out as JavaScript, the type
 * checks inline (see decode.ts for why the decoder exists).
 */
import type * as SchemaAST from "effect/SchemaAST"
import {
  type Compilation,
  type Decode,
  fail,
  hasOwn,
  intCheck,
  missing,
  passes,
  primitiveTypes,
  type Property,
  tooDeep,
  withoutProto,
  withoutReserved
} from "./decodeParts.js"

/**
 * A JavaScript condition on `v` that holds exactly when the node accepts `v` unchanged, for the
 * nodes that never build anything (primitives, literals, their unions and filters); else
 * `undefined`. Filters other than `Int`'s are called through `r`, the list they are added to.
 */
const condition = (
  ast: SchemaAST.AST,
  refinements: Array<(u: unknown) => boolean>,
  c: Compilation
): string | undefined => {
  if (ast.encoding !== undefined) return undefined
  const base = baseCondition(ast, refinements, c)
  const checks = ast.checks
  if (base === undefined || checks === undefined) return base
  if (checks.length === 1 && checks[0] === intCheck) return `(${base} && Number.isSafeInteger(v))`
  refinements.push((u) => passes(checks, u, ast, c))
  return `(${base} && r[${refinements.length - 1}](v))`
}

const baseCondition = (
  ast: SchemaAST.AST,
  refinements: Array<(u: unknown) => boolean>,
  c: Compilation
): string | undefined => {
  switch (ast._tag) {
    case "String":
    case "Number":
    case "Boolean":
      return `typeof v === "${primitiveTypes[ast._tag]}"`
    case "Null":
      return "v === null"
    case "Undefined":
      return "v === undefined"
    case "Unknown":
    case "Any":
      return "true"
    case "Literal":
      // JSON's own literals only: JSON.stringify would write NaN or Infinity as `null`.
      return typeof ast.literal === "bigint" || (typeof ast.literal === "number" && !Number.isFinite(ast.literal))
        ? undefined
        : `v === ${JSON.stringify(ast.literal)}`
    case "Union": {
      if (ast.options?.mode === "oneOf" || ast.encodingChecks !== undefined) return undefined
      const members = ast.types.map((member) => condition(member, refinements, c))
      return members.every((m) => m !== undefined) ? `(${members.join(" || ")})` : undefined
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
export const specialise = (
  props: ReadonlyArray<Property>,
  required: ReadonlyArray<string>,
  c: Compilation,
  reserved: ReadonlySet<string> | undefined
): Decode | undefined => {
  const refinements: Array<(u: unknown) => boolean> = []
  const decoders: Array<Decode> = []
  const cases = props.map(({ decode, name, type }) => {
    const key = JSON.stringify(name)
    const inline = condition(type, refinements, c)
    if (inline !== undefined) return `case ${key}: { const v = u[${key}]; if (!(${inline})) return fail; continue }`
    decoders.push(decode)
    return `case ${key}: { const v = u[${key}]; const w = d[${decoders.length - 1}](v); if (w === fail) return fail; ` +
      `if (w !== v) { out ??= { ...u }; if (w === missing) delete out[${key}]; else out[${key}] = w } continue }`
  })
  // Withheld: a record's keys named like its members, and "__proto__" (an assignment of it, as in
  // a copy, would set a prototype); other unknown keys are kept unless they nest too deeply.
  const withheld = reserved === undefined
    ? `case "__proto__": out = dropProto(u, out); continue`
    : `${[...reserved].map((name) => `case ${JSON.stringify(name)}:`).join(" ")} hide = true; continue`
  const body = `return (u) => {
    if (typeof u !== "object" || u === null || Array.isArray(u)) return fail
    ${required.map((name) => `if (!hasOwn.call(u, ${JSON.stringify(name)})) return fail`).join("\n")}
    let out
    let hide = false
    for (const name in u) {
      if (!hasOwn.call(u, name)) continue
      switch (name) {
        ${cases.join("\n")}
        ${withheld}
        default: { const v = u[name]; if (typeof v === "object" && v !== null && tooDeep(v)) return fail }
      }
    }
    return hide ? strip(out ?? u) : out ?? u
  }`
  try {
    return new Function("fail", "missing", "hasOwn", "d", "r", "tooDeep", "dropProto", "strip", body)(
      fail,
      missing,
      hasOwn,
      decoders,
      refinements,
      tooDeep,
      withoutProto,
      (fields: object) => withoutReserved(fields, reserved!)
    ) as Decode
  } catch {
    return undefined
  }
}
