/**
 * A value carried through Effect machinery that keeps what passed through it (an ended span keeps
 * its exit, a stream buffer its elements) in a box that is emptied as it comes out: effect 3.22
 * keeps such machinery reachable from old-space closures until a full collection, and whatever it
 * still holds then is copied by every scavenge (packages/bench/NOTES.md, "third pass").
 */
export interface Box<A> {
  value: A | undefined
}

export const box = <A>(value: A): Box<A> => ({ value })

/** The value, once: the box no longer holds it. */
export const unbox = <A>(box: Box<A>): A => {
  const value = box.value as A
  box.value = undefined
  return value
}
