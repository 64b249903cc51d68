/**
 * The emulator's own count of a case's requests and 429s (`GET /__emulator/requests`). It keeps the
 * latest 100 requests in full: read every few seconds (at 1/s that is about 5 new ones) and keyed
 * by time and URL, they give the status of every request of the run.
 */

interface Logged {
  readonly method: string
  readonly url: string
  readonly at: number
  readonly outcome: number | string
}
interface Summary {
  readonly count: number
  readonly recent: ReadonlyArray<Logged>
}

/** Starts watching; the function it answers stops and gives the requests, the 429s and how many were logged. */
export const watch = async (apiUrl: string) => {
  const summary = async (): Promise<Summary> => (await fetch(`${apiUrl}/__emulator/requests`)).json()
  const seen = new Map<string, Logged>()
  const poll = async () => {
    for (const r of (await summary()).recent) seen.set(`${r.at} ${r.method} ${r.url}`, r)
  }
  const start = (await summary()).count
  await poll()
  const before = new Set(seen.keys())
  const timer = setInterval(() => void poll(), 5_000)
  return async () => {
    clearInterval(timer)
    await poll()
    const count = (await summary()).count - start
    const during = [...seen.entries()].filter(([key]) => !before.has(key)).map(([, r]) => r)
    return { requests: count, tooMany: during.filter((r) => r.outcome === 429).length, logged: during.length }
  }
}
