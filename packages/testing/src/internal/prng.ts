/**
 * Small deterministic PRNG helpers. Everything the emulator generates is a pure function of
 * `(seed, index, salt)` so that a page deep inside a 10M-paper result set can be produced without
 * generating what comes before it.
 */

/** 32-bit avalanche mix (murmur3 finalizer). */
export const mix32 = (x: number): number => {
  let h = x | 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Hash of a few integers; order matters. */
export const hash = (...parts: ReadonlyArray<number>): number => {
  let h = 0x9e3779b9
  for (const p of parts) {
    h = mix32(h ^ mix32((p | 0) + Math.imul((p / 4294967296) | 0, 0x27d4eb2f)))
  }
  return h
}

/** FNV-1a of a string, mixed. */
export const hashString = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return mix32(h)
}

/** Uniform float in [0, 1) from a hash. */
export const unit = (h: number): number => (h >>> 0) / 4294967296

/** A seeded stream (mulberry32). */
export class Rng {
  private state: number
  constructor(seed: number) {
    this.state = seed >>> 0
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
  float(): number {
    return this.next() / 4294967296
  }
  int(n: number): number {
    return Math.floor(this.float() * n)
  }
  chance(p: number): boolean {
    return this.float() < p
  }
  pick<A>(items: ReadonlyArray<A>): A {
    const item = items[this.int(items.length)]
    if (item === undefined) throw new Error("pick from an empty list")
    return item
  }
  hex(chars: number): string {
    let out = ""
    while (out.length < chars) out += this.next().toString(16).padStart(8, "0")
    return out.slice(0, chars)
  }
}

export const at = <A>(items: ReadonlyArray<A>, i: number): A => {
  const item = items[i]
  if (item === undefined) throw new Error(`index ${i} out of range`)
  return item
}
