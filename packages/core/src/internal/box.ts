/**
 * A value carried through Effect machinery that keeps what passed through it, in a box that is
 * emptied as it comes out: a page's span ends on one. A span is handed its exit when it ends
 * (`Span.end(endTime, exit)`), and a tracer may keep ended spans (a recording one does;
 * Observability.test.ts "an ended page span does not hold the page"), so with the page in that exit
 * every page of a harvest would stay reachable (packages/bench/NOTES.md, "An ended span keeps its
 * result").
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
