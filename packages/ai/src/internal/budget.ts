/**
 * The time budget of the tools that make many requests: they answer what they have when it runs
 * out, before the assistant's client gives up on the call.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/**
 * How long a call of a tool that makes many requests (`citation_graph`, `resolve_references`) may
 * run before it answers with what it has. An assistant's MCP client gives up on a call after 60 s
 * by default (the official SDK's request timeout); 40 s leaves room for the request in flight when
 * the budget is reached, whose interruption and the answer's encoding still have to fit before that.
 */
export const defaultBudget: Duration.Duration = Duration.seconds(40)

/** Runs `work` for at most `budget`; true when the budget stopped it (interrupted, nothing left running). */
export const withinBudget = <E, R>(work: Effect.Effect<void, E, R>, budget: Duration.Duration) =>
  Effect.map(Effect.timeoutOption(work, budget), Option.isNone)

export const budgetSeconds = (budget: Duration.Duration) => Math.max(0, Math.round(Duration.toSeconds(budget)))
