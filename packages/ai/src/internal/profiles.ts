/**
 * Tool profiles: a server can serve some of the tools, by group or by name, so that an assistant
 * lists only those it needs (each tool is some 600 bytes of `tools/list`, in every turn's context).
 */
import { excerpt, Validate } from "@s2-effect/core"
import * as Context from "effect/Context"
import * as Result from "effect/Result"

/** Every tool of `AssistantTools.toolkit` and `WatchTools.toolkit`, in the order they are listed. */
export const toolNames = [
  "search_papers",
  "get_paper",
  "get_papers",
  "get_citations",
  "get_references",
  "search_authors",
  "get_author",
  "get_author_papers",
  "recommend_papers",
  "match_title",
  "search_snippets",
  "resolve_references",
  "citation_graph",
  "related_papers",
  "verify_references",
  "check_watches",
  "add_watch"
] as const

export type ToolName = typeof toolNames[number]

/** The groups of tools by what an assistant does with them; a tool can be in several. */
export const profiles = {
  /** Finding papers and authors: searches, passages, a title, recommendations. */
  search: ["search_papers", "search_authors", "search_snippets", "match_title", "recommend_papers"],
  /** Papers by id: one, several, and the checked title match. */
  papers: ["get_paper", "get_papers", "match_title"],
  /** Authors: search, details and papers. */
  authors: ["search_authors", "get_author", "get_author_papers"],
  /** The citation graph: citations, references, a walk and related papers. */
  graph: ["get_citations", "get_references", "citation_graph", "related_papers"],
  /** Reference lists: resolve, verify, and a paper to look at. */
  verify: ["resolve_references", "verify_references", "get_paper"],
  /** Watches: what is new, and a new watch. */
  watch: ["check_watches", "add_watch"],
  /** Every tool. */
  all: toolNames
} as const satisfies Record<string, ReadonlyArray<ToolName>>

export type Profile = keyof typeof profiles

const profileNames = Object.keys(profiles) as ReadonlyArray<Profile>

const isProfile = (name: string): name is Profile => profileNames.some((profile) => profile === name)
const isToolName = (name: string): name is ToolName => toolNames.some((tool) => tool === name)

/**
 * The tools of a list of profiles and tool names (`["search", "verify"]`, `["get_paper"]`): every
 * name must be one of them, and one at least; the refusal names the parameter and what is allowed.
 */
export const selectTools = (parameter: string, names: ReadonlyArray<string>): Validate.Check<ReadonlySet<ToolName>> => {
  const allowed = `give profiles (${profileNames.join(", ")}) or tool names (${toolNames.join(", ")}), comma-separated`
  if (names.length === 0) {
    return Result.fail(new Validate.Invalid({ parameter, message: `${parameter} is empty: ${allowed}` }))
  }
  const unknown = names.filter((name) => !isProfile(name) && !isToolName(name))
  if (unknown.length > 0) {
    const quoted = unknown.slice(0, 5).map((name) => JSON.stringify(excerpt(name, 60))).join(", ")
    return Result.fail(
      new Validate.Invalid({
        parameter,
        message: `${parameter} ${quoted} ${
          unknown.length === 1 ? "is not a profile or a tool" : "are not profiles or tools"
        }: ${allowed}`
      })
    )
  }
  const selected = new Set<ToolName>()
  for (const name of names) {
    for (const tool of isProfile(name) ? profiles[name] : [name as ToolName]) selected.add(tool)
  }
  return Result.succeed(selected)
}

/**
 * The tools `register` serves, by name: `undefined` (the default), every tool of the toolkits
 * registered. A tool whose name is not in the set is left out of `tools/list` and cannot be called.
 */
export const EnabledTools = Context.Reference<ReadonlySet<string> | undefined>(
  "@s2-effect/ai/AssistantTools/EnabledTools",
  { defaultValue: () => undefined }
)
