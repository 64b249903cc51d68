/**
 * What the page under test (`entry.ts`, bundled for Chromium) offers the Node-side test: one
 * function per scenario, plain JSON in and out, exposed as `window.s2browser`.
 */

/** A scenario's answer: the value, or the failure's `_tag` and message. */
export type Outcome<A> =
  | { readonly ok: true; readonly value: A; readonly elapsedMillis: number }
  | { readonly ok: false; readonly tag: string; readonly message: string; readonly elapsedMillis: number }

export interface Target {
  /** The API root the page's layer is built with (`apiUrl`). */
  readonly apiUrl: string
  readonly paperId: string
  /** A key to send (`x-api-key`), when the scenario needs one. */
  readonly apiKey?: string
}

/** Scenarios make one attempt (`retry: false`) unless they test retries, so a failure shows at once. */
export interface BrowserApi {
  /** `getPaper` with `fields: ["title", "year"]`. */
  readonly getPaper: (target: Target) => Promise<Outcome<{ readonly paperId: string; readonly title: string }>>
  /** Every citation of a paper, `limit` a page, through `getPaperCitations`. */
  readonly citations: (
    target: Target & { readonly limit: number }
  ) => Promise<Outcome<{ readonly count: number; readonly distinct: number }>>
  /** A bulk search with `fields: ["title"]`, page by page through `searchPaperPages`. */
  readonly bulk: (
    input: { readonly apiUrl: string; readonly query: string }
  ) => Promise<
    Outcome<{ readonly pageSizes: ReadonlyArray<number>; readonly total: number; readonly distinct: number }>
  >
  /** `getPaper` with a short retry policy (`base` millis, 3 retries). */
  readonly retried: (target: Target & { readonly baseMillis: number }) => Promise<Outcome<{ readonly title: string }>>
  /** `getPaper` with `timeout` millis and `retry: false`. */
  readonly timeout: (
    target: Target & { readonly timeoutMillis: number }
  ) => Promise<Outcome<{ readonly title: string }>>
  /** Forks `getPaper` (no time-out to speak of, no retry) and keeps the fiber for {@link interrupt}. */
  readonly start: (target: Target) => void
  /** Interrupts the fiber of {@link start}; resolves once the interruption has completed. */
  readonly interrupt: () => Promise<{ readonly interrupted: boolean; readonly elapsedMillis: number }>
}

declare global {
  interface Window {
    s2browser?: BrowserApi
  }
}
