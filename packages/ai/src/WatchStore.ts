/**
 * Where the watch tools keep their state ({@link WatchStore}) and what its update runs. A leaf
 * module, so that the tools' handlers (`internal/watch.ts`) use the store without importing
 * `WatchTools.ts`, which imports them back; `WatchTools.ts` re-exports both, and users reach them
 * there (`WatchTools.WatchStore`).
 *
 * @since 1.1.0
 */
import type { S2Error } from "@s2-effect/core"
import type { Watch } from "@s2-effect/jobs"
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ToolFailure } from "./ToolFailure.js"

/**
 * What a store's update runs: the state in, maybe a state to store and a value out.
 *
 * @category models
 * @since 1.1.0
 */
export type Update<A> = (
  state: Watch.State
) => Effect.Effect<{ readonly state?: Watch.State | undefined; readonly value: A }, S2Error | ToolFailure>

/**
 * Where the watch tools keep the state: `update` runs one change at a time and stores the state it
 * returns (the CLI's store holds the state file's lock meanwhile).
 *
 * @category services
 * @since 1.1.0
 */
export class WatchStore extends Context.Service<WatchStore, {
  readonly update: <A>(body: Update<A>) => Effect.Effect<A, S2Error | ToolFailure>
}>()("@s2-effect/ai/WatchTools/WatchStore") {}
