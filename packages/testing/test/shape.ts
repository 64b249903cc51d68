/** JSON shape comparison used by the conformance test: same keys and JSON types at every level. */

export type Shape =
  | { readonly kind: "null" }
  | { readonly kind: "string" | "number" | "boolean" }
  | { readonly kind: "array"; readonly item: Shape | undefined }
  | { readonly kind: "object"; readonly keys: ReadonlyMap<string, Shape>; readonly optional: ReadonlySet<string> }
  | { readonly kind: "mixed"; readonly kinds: ReadonlyArray<string> }

export const shapeOf = (value: unknown): Shape => {
  if (value === null) return { kind: "null" }
  if (Array.isArray(value)) {
    let item: Shape | undefined
    for (const v of value) item = item === undefined ? shapeOf(v) : merge(item, shapeOf(v))
    return { kind: "array", item }
  }
  if (typeof value === "object") {
    const keys = new Map<string, Shape>()
    for (const [k, v] of Object.entries(value)) keys.set(k, shapeOf(v))
    return { kind: "object", keys, optional: new Set() }
  }
  const t = typeof value
  return { kind: t === "string" ? "string" : t === "boolean" ? "boolean" : "number" }
}

export const merge = (a: Shape, b: Shape): Shape => {
  if (a.kind === "null") return b
  if (b.kind === "null") return a
  if (a.kind === "array" && b.kind === "array") {
    return {
      kind: "array",
      item: a.item === undefined ? b.item : b.item === undefined ? a.item : merge(a.item, b.item)
    }
  }
  if (a.kind === "object" && b.kind === "object") {
    const keys = new Map(a.keys)
    const optional = new Set([...a.optional, ...b.optional])
    for (const [k, s] of b.keys) {
      const prev = keys.get(k)
      keys.set(k, prev === undefined ? s : merge(prev, s))
      if (!a.keys.has(k)) optional.add(k)
    }
    for (const k of a.keys.keys()) if (!b.keys.has(k)) optional.add(k)
    return { kind: "object", keys, optional }
  }
  if (a.kind === b.kind) return a
  return { kind: "mixed", kinds: [a.kind, b.kind] }
}

/** Keys whose presence depends on data, not on shape: `next` ends lists; ids/venue/journal vary per record. */
const tolerated = (path: string, key: string): boolean =>
  key === "next" || /(externalIds|journal|publicationVenue)$/.test(path)

export const compareShapes = (real: Shape | undefined, emu: Shape | undefined, path = "$"): Array<string> => {
  if (real === undefined || emu === undefined) return []
  if (real.kind === "null" || emu.kind === "null") return []
  if (real.kind !== emu.kind) return [`${path}: ${real.kind} vs ${emu.kind}`]
  if (real.kind === "array" && emu.kind === "array") return compareShapes(real.item, emu.item, `${path}[]`)
  if (real.kind === "object" && emu.kind === "object") {
    const out: Array<string> = []
    for (const k of new Set([...real.keys.keys(), ...emu.keys.keys()])) {
      const r = real.keys.get(k)
      const e = emu.keys.get(k)
      if (r === undefined || e === undefined) {
        const optional = r === undefined ? emu.optional.has(k) : real.optional.has(k)
        if (!optional && !tolerated(path, k)) {
          out.push(`${path}.${k}: ${r === undefined ? "missing in recording" : "missing in emulator"}`)
        }
        continue
      }
      out.push(...compareShapes(r, e, `${path}.${k}`))
    }
    return out
  }
  return []
}
