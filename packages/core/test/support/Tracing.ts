/**
 * A tracer for tests that keeps every span it is asked for: its name, parent, how many spans it links,
 * its attributes as they stand at the end, and how it ended.
 */
import type { Exit } from "effect"
import { Option, Tracer } from "effect"

export interface Recorded {
  readonly name: string
  readonly parent: string | undefined
  readonly attributes: Map<string, unknown>
  readonly links: number
  ended: boolean
  exit?: Exit.Exit<unknown, unknown>
}

export const recordingTracer = () => {
  const spans: Array<Recorded> = []
  let next = 0
  const tracer = Tracer.make({
    span: ({ annotations, kind, links, name, parent, sampled, startTime }) => {
      const attributes = new Map<string, unknown>()
      const recorded: Recorded = {
        name,
        parent: Option.match(parent, { onNone: () => undefined, onSome: (p) => p.spanId }),
        attributes,
        links: links.length,
        ended: false
      }
      spans.push(recorded)
      let status: Tracer.SpanStatus = { _tag: "Started", startTime }
      return {
        _tag: "Span",
        name,
        spanId: `span-${++next}`,
        traceId: "trace-1",
        parent,
        annotations,
        get status() {
          return status
        },
        attributes,
        links,
        sampled,
        kind,
        end: (endTime, exit) => {
          status = { _tag: "Ended", startTime, endTime, exit }
          recorded.ended = true
          recorded.exit = exit
        },
        attribute: (key, value) => void attributes.set(key, value),
        event: () => {},
        addLinks: () => {}
      }
    }
  })
  return { spans, tracer }
}
