/**
 * How the compiled decoder (decode.ts) builds records out of the transport's own parsed JSON, and
 * how it gives that JSON back exactly as it came when the decoder declines it.
 *
 * Why copies for nested records: measured on a bulk page of 1,000 papers with 3 authors each (Node
 * 24, V8 13.6), `Object.setPrototypeOf` on a parsed object costs about 0.3–0.5 µs, and
 * `JSON.stringify` of an object whose prototype was set that way leaves its fast path (about 0.5 µs
 * more an object); an object made by `Object.create(prototype)` and given the same own keys costs
 * about a tenth of the first and none of the second. The top-level record stays the parsed object
 * itself (`raw` is the record, no copy of the page), its nested records (a paper's authors, its
 * citations) are copies put in the parsed array's place.
 */

/** Whether the run in progress may build records in place: the input is its caller's own. */
export let inPlace = false

/**
 * What the run in progress changed in its input, as triplets: an object given a prototype
 * (`[object, undefined, -1]`) or an array element replaced (`[array, original, index]`). Schema
 * checks a decoded value again on the type side (a decoding default's schema does), so records are
 * built at once; a union member that fails, or a run that fails, undoes its changes, so that input
 * left to Schema's decoder (which then says what is wrong) is exactly what the server sent.
 */
let changes: Array<unknown> = []

/** Where the undo log stands: what {@link release} takes back to. */
export const mark = (): number => changes.length

/** Undoes the changes made since `at`, latest first. */
export const release = (at: number): void => {
  for (let i = changes.length - 3; i >= at; i -= 3) {
    const target = changes[i] as Record<number, unknown>
    const index = changes[i + 2] as number
    if (index < 0) Object.setPrototypeOf(target, Object.prototype)
    else target[index] = changes[i + 1]
  }
  changes.length = at
}

/** Gives a parsed object its class's prototype, in place. */
export const adopt = <A extends object>(value: A, prototype: object): A => {
  Object.setPrototypeOf(value, prototype)
  changes.push(value, undefined, -1)
  return value
}

/** Puts a built record in the parsed array's place of the element it was built from. */
export const replace = (array: Array<unknown>, index: number, value: unknown): void => {
  changes.push(array, array[index], index)
  array[index] = value
}

/**
 * A record with `prototype` and the own keys and values of `fields`, in their order. The fields
 * are a struct the walk has checked: no own `"__proto__"` (withheld from every record), so each
 * assignment sets a plain property.
 */
export const copyOnto = (fields: object, prototype: object): object => {
  const out = Object.create(prototype) as Record<string, unknown>
  for (const name in fields) {
    if (Object.hasOwn(fields, name)) out[name] = (fields as Record<string, unknown>)[name]
  }
  return out
}

/** Runs `f` as a run of its own (`fresh`: on input nothing else holds), undoing it if it declines. */
export const within = <A>(fresh: boolean, declined: (value: A) => boolean, f: () => A): A => {
  const outer = changes
  const outerInPlace = inPlace
  changes = []
  inPlace = fresh
  let value: A | undefined
  let done = false
  try {
    value = f()
    done = true
  } finally {
    // Refused, or thrown (a filter of the caller's may throw): the input is left as it came.
    if (!done || declined(value as A)) release(0)
    changes = outer
    inPlace = outerInPlace
  }
  return value as A
}
