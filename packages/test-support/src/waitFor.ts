/**
 * Waiting in a test for something another process or fiber does: poll a condition until it holds,
 * failing with what was awaited once a deadline passes. Tests wait for a condition, never for a
 * span of time; the deadline is only how long a broken run takes to fail, sized for a loaded
 * 2-core machine.
 */
import { setTimeout as sleep } from "node:timers/promises"

export interface WaitOptions {
  /** What is awaited, for the error at the deadline ("the first page", "the ready line"). */
  readonly what: string
  /** Milliseconds before giving up; 60 s unless given. */
  readonly deadline?: number
  /** Milliseconds between two looks; 20 unless given. */
  readonly every?: number
}

/**
 * Resolves with the first value of `condition` that is not `false`, `undefined` or `null` (it may
 * be asynchronous; a look that throws counts as not yet), or rejects naming `what` and the last
 * error once `deadline` has passed.
 */
export const waitFor = async <A>(
  condition: () => A | false | undefined | null | Promise<A | false | undefined | null>,
  { deadline = 60_000, every = 20, what }: WaitOptions
): Promise<A> => {
  const until = Date.now() + deadline
  let lastError: unknown
  for (;;) {
    try {
      const value = await condition()
      if (value !== false && value !== undefined && value !== null) return value
    } catch (error) {
      lastError = error
    }
    if (Date.now() > until) {
      throw new Error(
        `timed out after ${deadline} ms waiting for ${what}`,
        lastError === undefined ? {} : { cause: lastError }
      )
    }
    await sleep(every)
  }
}
