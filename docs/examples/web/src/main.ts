/**
 * A small search page over `@s2-effect/browser`: results stream in page by page, and clicking a
 * paper shows its most cited citing papers. The API root comes from `?api=` or `VITE_S2_API_URL`
 * (point it at a proxy of yours that adds the key: a key in a page is public).
 */
import { BrowserSemanticScholar } from "@s2-effect/browser"
import type { InvalidOptions, Paper, PaperRef, S2Error } from "@s2-effect/core"
import { defaultApiUrl, RetryPolicy, SemanticScholar } from "@s2-effect/core"
import { Array, Cause, Effect, Exit, Fiber, ManagedRuntime, Order, Stream } from "effect"

const pageSize = 20
const maxPages = 5
const topCitationCount = 10
/** Citing papers read to rank the top ones (the API does not sort citations). */
const citationsScanned = 1000

const apiUrl = new URLSearchParams(window.location.search).get("api") ?? import.meta.env.VITE_S2_API_URL ??
  defaultApiUrl

/** One client for the page: an interactive page retries a little, quickly, and gives up sooner. */
const runtime = ManagedRuntime.make(BrowserSemanticScholar.layer({
  apiUrl,
  timeout: "20 seconds",
  retry: RetryPolicy.make({ times: 3, base: "1 second", cap: "8 seconds", jitter: true })
}))

const element = <T extends HTMLElement>(id: string, type: new() => T): T => {
  const found = document.getElementById(id)
  if (!(found instanceof type)) throw new Error(`index.html has no #${id}`)
  return found
}

const form = element("search", HTMLFormElement)
const input = element("query", HTMLInputElement)
const status = element("status", HTMLParagraphElement)
const results = element("results", HTMLOListElement)
const citations = element("citations", HTMLElement)
const citationsOf = element("citations-of", HTMLParagraphElement)
const citationList = element("citation-list", HTMLOListElement)
element("api-url", HTMLElement).textContent = apiUrl

const setStatus = (text: string, isError = false) => {
  status.textContent = text
  status.classList.toggle("error", isError)
}

const describe = (paper: Paper | PaperRef): string =>
  [
    paper.year ?? "year unknown",
    paper.venue !== undefined && paper.venue !== null && paper.venue !== "" ? paper.venue : "venue unknown",
    `${(paper.citationCount ?? 0).toLocaleString("en")} citations`
  ].join(" · ")

const meta = (paper: Paper | PaperRef): HTMLDivElement => {
  const div = document.createElement("div")
  div.className = "meta"
  div.textContent = describe(paper)
  return div
}

/** A search result: its title is a button that opens the paper's citations. */
const resultItem = (paper: Paper, onOpen: (li: HTMLLIElement) => void): HTMLLIElement => {
  const li = document.createElement("li")
  const title = document.createElement("button")
  title.type = "button"
  title.className = "paper-title"
  title.textContent = paper.title ?? "(untitled)"
  title.addEventListener("click", () => onOpen(li))
  li.append(title, meta(paper))
  return li
}

/** A citing paper: plain text. */
const citingItem = (paper: PaperRef): HTMLLIElement => {
  const li = document.createElement("li")
  const title = document.createElement("span")
  title.className = "citing-title"
  title.textContent = paper.title ?? "(untitled)"
  li.append(title, meta(paper))
  return li
}

const failure = (error: S2Error): string => `${error._tag}: ${error.message}`

/** Runs a piece of UI work; the only failure left is the client's own (e.g. a malformed `?api=`). */
const fork = (program: Effect.Effect<void, never, SemanticScholar>): Fiber.Fiber<void, InvalidOptions> => {
  const fiber = runtime.runFork(program)
  fiber.addObserver((exit) => {
    if (Exit.isFailure(exit) && !Exit.hasInterrupts(exit)) {
      setStatus(`The client could not start: ${Cause.pretty(exit.cause)}`, true)
    }
  })
  return fiber
}

// ---- search: pages are appended as they arrive; a new search interrupts the one in flight ----

let searching: Fiber.Fiber<void, InvalidOptions> | undefined
let showingCitations: Fiber.Fiber<void, InvalidOptions> | undefined

const search = (query: string) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    let shown = 0
    let pages = 0
    yield* s2.searchPaperPages(query, { fields: ["title", "year", "venue", "citationCount"], limit: pageSize }).pipe(
      Stream.take(maxPages),
      Stream.runForEach((page) =>
        Effect.sync(() => {
          pages += 1
          shown += page.data.length
          results.append(...page.data.map((paper) =>
            resultItem(paper, (li) => {
              for (const other of results.querySelectorAll("li.selected")) other.classList.remove("selected")
              li.classList.add("selected")
              showCitations(paper)
            })
          ))
          setStatus(`${shown} of ${(page.total ?? shown).toLocaleString("en")} results (page ${pages})`)
        })
      )
    )
    results.dataset["state"] = "done"
    if (shown === 0) setStatus(`No papers match “${query}”.`)
  }).pipe(
    Effect.catch((error) =>
      Effect.sync(() => {
        results.dataset["state"] = "error"
        setStatus(failure(error), true)
      })
    )
  )

form.addEventListener("submit", (event) => {
  event.preventDefault()
  const query = input.value.trim()
  if (query === "") return
  if (searching !== undefined) runtime.runFork(Fiber.interrupt(searching))
  results.replaceChildren()
  results.dataset["state"] = "loading"
  citations.hidden = true
  setStatus(`Searching for “${query}”…`)
  searching = fork(search(query))
})

// ---- citations: the most cited papers citing the clicked one ----

const byCitationsDescending = Order.mapInput(Order.flip(Order.Number), (p: PaperRef) => p.citationCount ?? 0)

const topCitations = (paper: Paper) =>
  Effect.gen(function*() {
    const s2 = yield* SemanticScholar
    const citing = yield* s2.getPaperCitations(paper.paperId, {
      fields: ["title", "year", "venue", "citationCount"],
      limit: 1000
    }).pipe(Stream.take(citationsScanned), Stream.runCollect)
    const papers = citing.map((c) => c.citingPaper)
    return { count: papers.length, top: Array.take(Array.sort(papers, byCitationsDescending), topCitationCount) }
  })

const showCitations = (paper: Paper) => {
  if (showingCitations !== undefined) runtime.runFork(Fiber.interrupt(showingCitations))
  citations.hidden = false
  citations.dataset["state"] = "loading"
  citationsOf.textContent = `Loading the papers citing “${paper.title ?? paper.paperId}”…`
  citationList.replaceChildren()
  showingCitations = fork(
    topCitations(paper).pipe(
      Effect.match({
        onFailure: (error) => {
          citations.dataset["state"] = "error"
          citationsOf.textContent = failure(error)
        },
        onSuccess: ({ count, top }) => {
          citationsOf.textContent = count === 0
            ? `No paper cites “${paper.title ?? paper.paperId}” yet.`
            : `The ${top.length} most cited of ${count.toLocaleString("en")} papers citing “${
              paper.title ?? paper.paperId
            }”${count >= citationsScanned ? ` (first ${citationsScanned} read)` : ""}:`
          citationList.replaceChildren(...top.map(citingItem))
          citations.dataset["state"] = "done"
        }
      })
    )
  )
}

// `?q=` runs a search on load, so a link can share one.
const initial = new URLSearchParams(window.location.search).get("q")
if (initial !== null && initial.trim() !== "") {
  input.value = initial
  form.requestSubmit()
}
