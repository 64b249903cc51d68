/**
 * The `Schema.Class` nodes of the fast decoder (decode.ts): what a class node is, which names its
 * records withhold from their fields, and how a record is made from its checked struct.
 */
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaTransformation from "effect/SchemaTransformation"
import type { Records } from "./decodeParts.js"
import * as InPlace from "./inPlace.js"

/** The class of a `Schema.Class` node: its prototype and the transformation that builds it. */
export interface ClassNode {
  readonly from: SchemaAST.Objects
  readonly construct: (fields: unknown) => unknown
  /** The prototype of a class whose constructor adds nothing but the given fields. */
  readonly prototype: object | undefined
  /** The names an instance has from its prototypes (its members, `Object.prototype`'s). */
  readonly members: ReadonlySet<string>
}

/**
 * Names no field of a record may take besides its members: `then` (a thenable is awaited, not
 * returned), `toJSON` (what `JSON.stringify` calls) and `__proto__`.
 */
const alwaysReserved = ["then", "toJSON", "__proto__"]

/** The string names on `prototype` and the prototypes it inherits from. */
const memberNames = (prototype: object | null): ReadonlySet<string> => {
  const names = new Set(alwaysReserved)
  for (let p = prototype; p !== null; p = Object.getPrototypeOf(p) as object | null) {
    for (const name of Object.getOwnPropertyNames(p)) names.add(name)
  }
  return names
}

/**
 * A `Schema.Class`: a declaration whose one link builds the instance from a struct. The prototype is
 * probed by constructing an empty instance (no checks run), which must come out with no own keys —
 * a class with field defaults would show them and keeps its constructor.
 */
export const classOf = (ast: SchemaAST.AST): ClassNode | undefined => {
  if (ast._tag !== "Declaration" || ast.checks !== undefined || ast.encoding?.length !== 1) return undefined
  const [link] = ast.encoding
  if (link.to._tag !== "Objects" || !SchemaTransformation.isTransformation(link.transformation)) return undefined
  const getter = link.transformation.decode
  if (getter._tag !== "Transform") return undefined
  const construct = (fields: unknown) => getter.transform(fields)
  let probe: unknown
  try {
    probe = construct({})
  } catch {
    return undefined
  }
  if (typeof probe !== "object" || probe === null || Object.getPrototypeOf(probe) === Object.prototype) return undefined
  const prototype = Reflect.ownKeys(probe).length === 0 ? Object.getPrototypeOf(probe) as object : undefined
  return { from: link.to, construct, prototype, members: memberNames(Object.getPrototypeOf(probe) as object) }
}

/**
 * How a class node makes its record from the checked struct. The class constructor copies its
 * input (a tenth of a harvest's CPU). Records without defaults are the prototype plus their fields:
 * a top-level plain object fresh from JSON.parse becomes the record itself (`raw` is the record),
 * anything else, nested records included, is copied onto the prototype, which costs less than
 * setting it (inPlace.ts). A wire record is the checked object as it is: no prototype, no copy.
 */
export const builder = (klass: ClassNode, records: Records) => {
  const { construct, prototype } = klass
  if (records === "wire") return (value: object): unknown => value
  return (value: object, outermost: boolean): unknown => {
    if (prototype === undefined) return construct(value)
    const current = Object.getPrototypeOf(value)
    if (current === prototype) return value
    if (outermost && InPlace.inPlace && current === Object.prototype && Object.isExtensible(value)) {
      return InPlace.adopt(value, prototype)
    }
    return InPlace.copyOnto(value, prototype)
  }
}

/**
 * The names withheld from a record's fields: its members. A wire record has none for data to
 * shadow; a `"__proto__"` key is withheld from every struct all the same.
 */
export const reservedOf = (klass: ClassNode, records: Records): ReadonlySet<string> | undefined => {
  if (records === "wire") return undefined
  const known = new Set(klass.from.propertySignatures.map((p) => p.name))
  return new Set([...klass.members].filter((name) => !known.has(name)))
}
