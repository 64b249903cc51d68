/**
 * A value made at its first use, then kept. The readers' patterns are Unicode regular expressions
 * of hundreds of characters, a millisecond or more each to build: a program that imports the
 * package and reads no reference (a harvest, `s2 harvest`) does not pay for them as it loads.
 */
export const lazy = <A>(make: () => A): () => A => {
  let made: { readonly value: A } | undefined
  return () => (made ??= { value: make() }).value
}
